import type * as vscode from 'vscode';

export interface SshChoice {
  readonly address?: string;
  readonly user?: string;
}

const KEY = 'hostingAccount.ssh.choices';
const MAX_ORDERS = 200;

// A list, not an object: keys that look like numbers would be reordered, and order ids often do.
type Stored = Array<{ readonly id: string } & SshChoice>;

function all(memento: vscode.Memento): Stored {
  const value = memento.get<unknown>(KEY);
  if (!Array.isArray(value)) return [];
  return value.filter(
    (entry): entry is Stored[number] =>
      typeof entry === 'object' && entry !== null && typeof (entry as { id?: unknown }).id === 'string',
  );
}

export function readChoice(memento: vscode.Memento, orderId: string): SshChoice {
  const choice = all(memento).find((entry) => entry.id === orderId);
  if (!choice) return {};
  return {
    address: typeof choice.address === 'string' ? choice.address : undefined,
    user: typeof choice.user === 'string' ? choice.user : undefined,
  };
}

export async function rememberChoice(memento: vscode.Memento, orderId: string, choice: SshChoice): Promise<void> {
  const previous = readChoice(memento, orderId);
  const entries = all(memento).filter((entry) => entry.id !== orderId);
  entries.push({ id: orderId, address: choice.address ?? previous.address, user: choice.user ?? previous.user });
  await memento.update(KEY, entries.slice(-MAX_ORDERS));
}
