import * as vscode from 'vscode';
import { type Order } from '../api/models';
import { readChoice, rememberChoice } from '../ssh/choices';
import { checkHost, type HostProblem, isSafePort, isSafeUser } from '../ssh/hostCheck';
import { type SshTarget } from '../ssh/sshArgs';
import { readSshSettings } from '../ssh/sshSettings';
import { noIcons } from '../views/text';
import { type CommandContext } from './CommandContext';
import { pickOrder } from './pickOrder';
import { UserCancelled } from './UserCancelled';

/** The order's addresses as the normalisers read them, main one first. */
export function addressesOf(order: Order): string[] {
  const list = order.addresses?.length ? [...order.addresses] : order.address ? [order.address] : [];
  if (order.address && list[0] !== order.address && list.includes(order.address)) {
    list.splice(list.indexOf(order.address), 1);
    list.unshift(order.address);
  }
  return list;
}

export function hasAddress(order: Order): boolean {
  return addressesOf(order).length > 0;
}

/** The order a command acts on; from the palette, only orders with an address are offered. */
export function pickOrderWithAddress(ctx: CommandContext, arg: unknown): Promise<Order> {
  return pickOrder(ctx.store, ctx.orders, arg, hasAddress);
}

interface AddressPick extends vscode.QuickPickItem {
  readonly address?: string;
  readonly otherUser?: boolean;
}

/**
 * One of the order's addresses: the only one, or the user's pick (the one chosen last comes first). With
 * `askUser`, the pick also offers to log in as another user than the one in the settings.
 */
export async function chooseAddress(
  ctx: CommandContext,
  order: Order,
  options: { askUser: boolean; user?: string },
): Promise<{ address: string; otherUser: boolean }> {
  const addresses = addressesOf(order);
  if (!addresses.length) {
    void vscode.window.showInformationMessage(
      vscode.l10n.t('The server did not report an address for {0}.', noIcons(order.label)),
    );
    throw new UserCancelled();
  }
  if (addresses.length === 1) return { address: addresses[0] as string, otherUser: false };
  const last = readChoice(ctx.globalState, order.id).address;
  const ordered = last && addresses.includes(last) ? [last, ...addresses.filter((a) => a !== last)] : addresses;
  const items: AddressPick[] = ordered.map((address) => ({
    address,
    label: noIcons(address),
    description: [kindText(address), address === last ? vscode.l10n.t('last used') : undefined]
      .filter(Boolean)
      .join(' · '),
  }));
  if (options.askUser) {
    items.push({ label: '', kind: vscode.QuickPickItemKind.Separator });
    items.push({
      label: `$(person) ${vscode.l10n.t('Log in as another user…')}`,
      description: options.user ? vscode.l10n.t('now {0}', noIcons(options.user)) : undefined,
      otherUser: true,
    });
  }
  const picked = await vscode.window.showQuickPick(items, {
    title: vscode.l10n.t('Addresses of {0}', noIcons(order.label)),
    placeHolder: vscode.l10n.t('Select an address'),
  });
  if (!picked) throw new UserCancelled();
  return { address: picked.address ?? (ordered[0] as string), otherUser: picked.otherUser === true };
}

function kindText(address: string): string | undefined {
  const check = checkHost(address);
  if (!check.ok) return undefined;
  return check.kind === 'ipv4' ? 'IPv4' : check.kind === 'ipv6' ? 'IPv6' : vscode.l10n.t('host name');
}

/** A host that is not plain is refused with a sentence that says why; nothing of it reaches ssh or the clipboard. */
export function requirePlainHost(order: Order, address: string): string {
  const check = checkHost(address);
  if (check.ok) return check.host;
  void vscode.window.showErrorMessage(refusal(order, address, check.problem));
  throw new UserCancelled();
}

function refusal(order: Order, address: string, problem: HostProblem): string {
  // JSON quoting shows hidden characters; the cut keeps a long value from filling the notification.
  const shown = noIcons(JSON.stringify(address.length > 80 ? `${address.slice(0, 79)}…` : address));
  const name = noIcons(order.label);
  switch (problem) {
    case 'empty':
      return vscode.l10n.t('The server did not report an address for {0}.', name);
    case 'option':
      return vscode.l10n.t(
        'The address {0} of {1} starts with "-", so ssh would read it as an option. It was not used.',
        shown,
        name,
      );
    case 'notAscii':
      return vscode.l10n.t(
        'The address {0} of {1} has characters outside plain ASCII (possibly look-alike letters). It was not used.',
        shown,
        name,
      );
    case 'notHost':
      return vscode.l10n.t(
        'The address {0} of {1} is not a plain IP address or host name. It was not used.',
        shown,
        name,
      );
    case 'numericForm':
      return vscode.l10n.t(
        'The address {0} of {1} is a number in a legacy IPv4 notation, which may name another machine than it seems. It was not used.',
        shown,
        name,
      );
    case 'unspecified':
      return vscode.l10n.t(
        'The address {0} of {1} is the unspecified address, which would connect to this machine. It was not used.',
        shown,
        name,
      );
  }
}

/**
 * Address, user and port for an SSH connection to the order, checked: the pick (or the only address), the user chosen
 * last for this order or the setting, and the port setting. The choice is remembered for the order.
 */
export async function resolveSshTarget(ctx: CommandContext, order: Order): Promise<SshTarget> {
  const settings = readSshSettings();
  const remembered = readChoice(ctx.globalState, order.id);
  let user = remembered.user ?? settings.user;
  const choice = await chooseAddress(ctx, order, { askUser: true, user: typeof user === 'string' ? user : undefined });
  const host = requirePlainHost(order, choice.address);
  if (choice.otherUser) {
    const typed = await vscode.window.showInputBox({
      title: vscode.l10n.t('Log in to {0} as', noIcons(order.label)),
      value: typeof user === 'string' ? user : '',
      validateInput: (value) => (isSafeUser(value) ? undefined : userHint()),
    });
    if (typed === undefined) throw new UserCancelled();
    user = typed;
  }
  if (!isSafeUser(user)) {
    void vscode.window.showErrorMessage(`${vscode.l10n.t('The SSH user name is not valid.')} ${userHint()}`);
    throw new UserCancelled();
  }
  if (!isSafePort(settings.port)) {
    void vscode.window.showErrorMessage(
      vscode.l10n.t('The setting hostingAccount.ssh.port must be a whole number from 1 to 65535.'),
    );
    throw new UserCancelled();
  }
  await rememberChoice(ctx.globalState, order.id, { address: host, user: choice.otherUser ? user : undefined });
  return { host, user, port: settings.port };
}

function userHint(): string {
  return vscode.l10n.t('Use letters, digits, "_", "." and "-", starting with a letter or "_", at most 32 characters.');
}
