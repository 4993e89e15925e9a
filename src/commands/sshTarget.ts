import * as vscode from 'vscode';
import { type Account } from '../accounts/Account';
import { type Order, type RefusedAddress } from '../api/models';
import { forLabel, forMessage } from '../notify/inert';
import { hostProblemText as problemText } from '../notify/hostWords';
import { tell } from '../notify/show';
import { addressesOf } from '../ssh/addresses';
import { readChoice, rememberChoice } from '../ssh/choices';
import { checkHost, type HostProblem, isSafePort, isSafeUser } from '../util/hostCheck';
import { type SshTarget } from '../ssh/sshArgs';
import { readSshSettings } from '../ssh/sshSettings';
import { hasAnyAddress, sshListed } from '../ssh/sshOffered';
import { plain } from '../util/serverText';
import { type CommandHost } from './CommandHost';
import { pickOrder } from './pickOrder';
import { UserCancelled } from './UserCancelled';

// Also those whose addresses were all refused: picking one says why, rather than the server silently missing.
export function pickOrderWithAddress(host: CommandHost, account: Account, arg: unknown): Promise<Order> {
  return pickOrder(
    account,
    arg,
    (order) => hasAnyAddress(order) || Boolean(order.refusedAddresses?.length),
    host.folders.activeOrderIn(account.id),
  );
}

export function pickOrderForSsh(host: CommandHost, account: Account, arg: unknown): Promise<Order> {
  const { store } = account;
  return pickOrder(
    account,
    arg,
    (order) => sshListed(order, store.pending(order.id)?.action),
    host.folders.activeOrderIn(account.id),
  );
}

interface AddressPick extends vscode.QuickPickItem {
  readonly address?: string;
  readonly refused?: RefusedAddress;
  readonly otherUser?: boolean;
}

/** The only address, or the user's pick (the last chosen first); `askUser` also offers another user. */
export async function chooseAddress(
  account: Account,
  order: Order,
  options: { askUser: boolean; user?: string },
): Promise<{ address: string; otherUser: boolean }> {
  const addresses = addressesOf(order);
  const refused = order.refusedAddresses ?? [];
  if (!addresses.length) {
    const [first] = refused;
    void tell(
      first ? 'error' : 'info',
      first
        ? refusal(order, plain(first.value), first.problem)
        : vscode.l10n.t('The server did not report an address for {0}.', forMessage(order.label, 80)),
    );
    throw new UserCancelled();
  }
  if (addresses.length === 1 && !refused.length) return { address: addresses[0] as string, otherUser: false };
  const last = readChoice(account.choices, order.id).address;
  const ordered = last && addresses.includes(last) ? [last, ...addresses.filter((a) => a !== last)] : addresses;
  const items: AddressPick[] = ordered.map((address) => ({
    address,
    label: forLabel(address, 80),
    description: [kindText(address), address === last ? vscode.l10n.t('last used') : undefined]
      .filter(Boolean)
      .join(' · '),
  }));
  if (refused.length) {
    // Shown with why: picking one says so, and nothing is used.
    items.push({ label: vscode.l10n.t('Refused'), kind: vscode.QuickPickItemKind.Separator });
    for (const entry of refused) {
      items.push({
        label: `$(circle-slash) ${forLabel(JSON.stringify(plain(entry.value).slice(0, 80)), 90)}`,
        description: problemText(entry.problem),
        refused: entry,
      });
    }
  }
  if (options.askUser) {
    items.push({ label: '', kind: vscode.QuickPickItemKind.Separator });
    items.push({
      label: `$(person) ${vscode.l10n.t('Log in as another user…')}`,
      description: options.user ? vscode.l10n.t('now {0}', forLabel(options.user, 40)) : undefined,
      otherUser: true,
    });
  }
  const picked = await vscode.window.showQuickPick(items, {
    title: vscode.l10n.t('Addresses of {0}', forLabel(order.label, 80)),
    placeHolder: vscode.l10n.t('Select an address'),
  });
  if (!picked) throw new UserCancelled();
  if (picked.refused) {
    void tell('error', refusal(order, plain(picked.refused.value), picked.refused.problem));
    throw new UserCancelled();
  }
  return { address: picked.address ?? (ordered[0] as string), otherUser: picked.otherUser === true };
}

function kindText(address: string): string | undefined {
  const check = checkHost(address);
  if (!check.ok) return undefined;
  return check.kind === 'ipv4' ? 'IPv4' : check.kind === 'ipv6' ? 'IPv6' : vscode.l10n.t('host name');
}

// Nothing of a host that is not plain reaches ssh or the clipboard.
export function requirePlainHost(order: Order, address: string): string {
  const check = checkHost(address);
  if (check.ok) return check.host;
  void tell('error', refusal(order, address, check.problem));
  throw new UserCancelled();
}

function refusal(order: Order, address: string, problem: HostProblem): string {
  // JSON quoting shows hidden characters (escaped); the cut keeps a long value from filling the notification.
  const shown = forMessage(JSON.stringify(address.slice(0, 80)), 100);
  const name = forMessage(order.label, 80);
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
    case 'embeddedIPv4':
      return vscode.l10n.t(
        'The address {0} of {1} is an IPv6 form that stands for an IPv4 address (mapped, compatible or NAT64), which may be another machine than it seems. It was not used.',
        shown,
        name,
      );
  }
}

/** Checked; the user chosen last for this order, else the setting. The choice is remembered for the order. */
export async function resolveSshTarget(account: Account, order: Order): Promise<SshTarget> {
  const settings = readSshSettings();
  const remembered = readChoice(account.choices, order.id);
  let user = remembered.user ?? settings.user;
  const choice = await chooseAddress(account, order, {
    askUser: true,
    user: typeof user === 'string' ? user : undefined,
  });
  const host = requirePlainHost(order, choice.address);
  if (choice.otherUser) {
    const typed = await vscode.window.showInputBox({
      title: vscode.l10n.t('Log in to {0} as', forLabel(order.label, 80)),
      value: typeof user === 'string' ? user : '',
      validateInput: (value) =>
        isSafeUser(value)
          ? undefined
          : vscode.l10n.t(
              'Use letters, digits, "_", "." and "-", starting with a letter or "_", at most 32 characters.',
            ),
    });
    if (typed === undefined) throw new UserCancelled();
    user = typed;
  }
  if (!isSafeUser(user)) {
    void tell(
      'error',
      vscode.l10n.t(
        'The SSH user name is not valid. Use letters, digits, "_", "." and "-", starting with a letter or "_", at most 32 characters.',
      ),
    );
    throw new UserCancelled();
  }
  if (!isSafePort(settings.port)) {
    void tell('error', vscode.l10n.t('The setting hostingAccount.ssh.port must be a whole number from 1 to 65535.'));
    throw new UserCancelled();
  }
  await rememberChoice(account.choices, order.id, { address: host, user: choice.otherUser ? user : undefined });
  return { host, user, port: settings.port };
}
