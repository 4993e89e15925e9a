import * as vscode from 'vscode';
import { type Account } from '../accounts/Account';
import { ApiError } from '../api/errors';
import { forLabel } from '../notify/inert';
import { type OrderAction } from '../api/models';
import { type FailureContext, logFailure, showReport, toReport } from '../notify/report';
import { addAccount, editAccountAddress, removeAccount, renameAccount } from './accounts';
import { openApiKeysPage, removeApiKey, setApiKey } from './apiKey';
import { pickArrangement } from './arrange';
import { runOnSelection } from './bulkOrderAction';
import { type CommandHost } from './CommandHost';
import { copyAddress, copyOrderId } from './copy';
import { exportHistory, openInvoice, showForecast, showHistory, showOrderDetails, showServerAnswer } from './documents';
import { editFieldMap, saveFieldMap } from './fieldMap';
import { bindFolder, folderServerActions, unbindFolder } from './folder';
import { type CommandId } from './ids';
import { setLabel, setMark } from './marks';
import { refresh } from './refresh';
import { showAccount } from './showAccount';
import { connectSsh, openRemoteSsh } from './sshConnect';
import { isCancellation } from './UserCancelled';

// `inAccount` gets the account its argument names, the only one, or the user's pick; `anywhere` chooses itself.
// Only a command that sends an action says whether its failure left the action unsent or possibly received.
type Handler = (
  | { readonly inAccount: (host: CommandHost, account: Account, arg: unknown, all: unknown) => unknown }
  | { readonly anywhere: (host: CommandHost, arg: unknown, all: unknown) => unknown }
) & { readonly failure?: FailureContext };

// `all` is the tree's selection when the command was run from it.
const power = (action: OrderAction): Handler => ({
  inAccount: (host, account, arg, all) => runOnSelection(host, account, action, arg, all),
  failure: 'action',
});

/** A unit test checks these ids against package.json. */
const handlers: Readonly<Record<CommandId, Handler>> = {
  'hostingAccount.setApiKey': { inAccount: (_host, account) => setApiKey(account) },
  'hostingAccount.removeApiKey': { inAccount: (_host, account) => removeApiKey(account) },
  'hostingAccount.refresh': { anywhere: (host, arg) => refresh(host, arg) },
  'hostingAccount.order.start': power('start'),
  'hostingAccount.order.stop': power('stop'),
  'hostingAccount.order.restart': power('restart'),
  'hostingAccount.order.reinstall': power('reinstall'),
  'hostingAccount.order.showDetails': { inAccount: (host, account, arg) => showOrderDetails(host, account, arg) },
  'hostingAccount.order.copyId': { inAccount: (host, account, arg) => copyOrderId(host, account, arg) },
  'hostingAccount.order.copyAddress': { inAccount: (host, account, arg) => copyAddress(host, account, arg) },
  'hostingAccount.order.connectSsh': { inAccount: (host, account, arg) => connectSsh(host, account, arg) },
  'hostingAccount.order.openRemoteSsh': { inAccount: (host, account, arg) => openRemoteSsh(host, account, arg) },
  'hostingAccount.invoice.open': { anywhere: (host, arg) => openInvoice(host, arg) },
  'hostingAccount.showInvoices': { anywhere: () => vscode.commands.executeCommand('hostingAccount.invoices.focus') },
  'hostingAccount.showAccount': { inAccount: (_host, account) => showAccount(account) },
  'hostingAccount.showForecast': { inAccount: (_host, account) => showForecast(account) },
  'hostingAccount.showHistory': { inAccount: (_host, account, arg) => showHistory(account, arg) },
  'hostingAccount.exportHistory': { inAccount: (_host, account, arg) => exportHistory(account, arg) },
  'hostingAccount.openApiKeysPage': { inAccount: (_host, account) => openApiKeysPage(account) },
  'hostingAccount.showLog': { anywhere: (host) => host.log.show() },
  'hostingAccount.account.add': { anywhere: (host) => addAccount(host) },
  'hostingAccount.account.rename': { anywhere: (host, arg) => renameAccount(host, arg) },
  'hostingAccount.account.remove': { anywhere: (host, arg) => removeAccount(host, arg) },
  'hostingAccount.account.editAddress': { anywhere: (host, arg) => editAccountAddress(host, arg) },
  'hostingAccount.orders.filter': { anywhere: (host, arg) => pickArrangement(host.arrangement, 'filter', arg) },
  'hostingAccount.orders.sort': { anywhere: (host, arg) => pickArrangement(host.arrangement, 'sort', arg) },
  'hostingAccount.orders.group': { anywhere: (host, arg) => pickArrangement(host.arrangement, 'group', arg) },
  'hostingAccount.order.protect': { inAccount: (_host, account, arg) => setMark(account, arg, 'protected', true) },
  'hostingAccount.order.unprotect': { inAccount: (_host, account, arg) => setMark(account, arg, 'protected', false) },
  'hostingAccount.order.pin': { inAccount: (_host, account, arg) => setMark(account, arg, 'pinned', true) },
  'hostingAccount.order.unpin': { inAccount: (_host, account, arg) => setMark(account, arg, 'pinned', false) },
  'hostingAccount.order.setLabel': { inAccount: (_host, account, arg) => setLabel(account, arg) },
  'hostingAccount.folder.bind': { inAccount: (host, account, arg) => bindFolder(host, account, arg) },
  'hostingAccount.folder.unbind': { anywhere: (host) => unbindFolder(host) },
  'hostingAccount.folder.actions': { anywhere: (host) => folderServerActions(host) },
  'hostingAccount.account.editFieldMap': { inAccount: (host, account) => editFieldMap(host, account) },
  'hostingAccount.account.saveFieldMap': { inAccount: (host, account) => saveFieldMap(host, account) },
  'hostingAccount.showServerAnswer': { inAccount: (_host, account, arg) => showServerAnswer(account, arg) },
};

export function registerCommands(host: CommandHost): vscode.Disposable[] {
  return (Object.keys(handlers) as CommandId[]).map((id) =>
    vscode.commands.registerCommand(id, (arg: unknown, all: unknown) => runCommand(host, id, arg, all)),
  );
}

/** A cancelled prompt is silent; any other failure is logged and shown once, in that account's words, with Retry. */
async function runCommand(host: CommandHost, id: CommandId, arg: unknown, all?: unknown): Promise<void> {
  const handler = handlers[id];
  let account: Account | undefined;
  try {
    if ('anywhere' in handler) {
      await handler.anywhere(host, arg, all);
      return;
    }
    account = await accountFor(host, arg);
    if (!account) return;
    await handler.inAccount(host, account, arg, all);
  } catch (error) {
    if (isCancellation(error)) return;
    const log = account?.log ?? host.log;
    // API failures were logged where they happened, with the request id; here only which command met them.
    if (error instanceof ApiError) log.debug(`${id} failed: ${error.kind}`);
    else logFailure(log, id, error);
    const where = account ?? host.model.first;
    void showReport(toReport(error, where.baseUrl, handler.failure), {
      account: where,
      name: where.shownName(),
      retry: () => runCommand(host, id, arg, all),
    });
  }
}

interface AccountPick extends vscode.QuickPickItem {
  readonly account: Account;
}

async function accountFor(host: CommandHost, arg: unknown): Promise<Account | undefined> {
  const { model } = host;
  const named = model.accountOf(arg);
  if (named) return named;
  // A node or row of an account removed meanwhile: nothing is done with it, in no other account either.
  if (model.namesAccount(arg)) return undefined;
  if (model.accounts.length === 1) return model.first;
  // The account of the active folder's server comes first, so Enter picks it, as the server does in the next pick.
  const bound = model.get(host.folders.active?.binding.accountId ?? '');
  const accounts = bound ? [bound, ...model.accounts.filter((account) => account !== bound)] : model.accounts;
  const picked = await vscode.window.showQuickPick<AccountPick>(
    accounts.map((account) => ({
      account,
      label: forLabel(account.name, 60),
      description:
        account === bound
          ? `${forLabel(account.baseUrl, 80)} · ${vscode.l10n.t("has this folder's server")}`
          : forLabel(account.baseUrl, 80),
    })),
    { title: vscode.l10n.t('Which account?'), placeHolder: vscode.l10n.t('Choose the account to act in') },
  );
  return picked?.account;
}
