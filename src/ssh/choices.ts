import type * as vscode from 'vscode';

/** What the user chose last for one order: never a secret, only an address of that order and a login name. */
export interface SshChoice {
  readonly address?: string;
  readonly user?: string;
}

const KEY = 'hostingAccount.ssh.choices';
/** Orders remembered at most; the oldest choices go first. */
const MAX_ORDERS = 200;

type Choices = Record<string, SshChoice>;

function all(memento: vscode.Memento): Choices {
  const value = memento.get<unknown>(KEY);
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? value as Choices : {};
}

export function readChoice(memento: vscode.Memento, orderId: string): SshChoice {
  const choice = Object.prototype.hasOwnProperty.call(all(memento), orderId) ? all(memento)[orderId] : undefined;
  if (typeof choice !== 'object' || choice === null) return {};
  return {
    address: typeof choice.address === 'string' ? choice.address : undefined,
    user: typeof choice.user === 'string' ? choice.user : undefined,
  };
}

export async function rememberChoice(memento: vscode.Memento, orderId: string, choice: SshChoice): Promise<void> {
  const entries = Object.entries(all(memento)).filter(([id]) => id !== orderId);
  const previous = readChoice(memento, orderId);
  entries.push([orderId, { address: choice.address ?? previous.address, user: choice.user ?? previous.user }]);
  await memento.update(KEY, Object.fromEntries(entries.slice(-MAX_ORDERS)));
}
