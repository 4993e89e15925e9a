import * as vscode from 'vscode';
import { type Account } from '../accounts/Account';
import { ApiError } from '../api/errors';
import { type Order, type OrderAction } from '../api/models';
import { forLabel, forMessage } from '../notify/inert';
import { namedList } from '../notify/namedList';
import { actionTitle, progressTitle } from '../notify/orderWords';
import { shortReason } from '../notify/shortReason';
import { confirm, tell } from '../notify/show';
import { Declined } from '../store/errors';
import { GroupNode } from '../views/orders/GroupNode';
import { OrderNode } from '../views/orders/OrderNode';
import { actionsFor } from '../views/orders/orderPresentation';
import { type CommandHost } from './CommandHost';
import { runOrderAction } from './orderAction';
import { UserCancelled } from './UserCancelled';

const MAX_NAMED = 15;

/**
 * One confirmation, then one POST per order through the store (each shows its own busy state, the limiter paces them).
 * Only the clicked node's account: one confirmation is about one account. Never Reinstall: one erased server at a time.
 */
export async function runOnSelection(
  host: CommandHost,
  account: Account,
  action: OrderAction,
  arg: unknown,
  all: unknown,
): Promise<void> {
  const nodes = arg instanceof GroupNode ? arg.nodes.filter((node) => node.current) : selection(account, arg, all);
  if (nodes.length <= 1) return runOrderAction(host, account, action, nodes[0] ?? arg);
  if (action === 'reinstall') {
    void tell('info', vscode.l10n.t('Reinstall works on one server at a time. Select only the server to reinstall.'));
    throw new UserCancelled();
  }
  const { store } = account;
  const orders = nodes.map((node) => store.orders.get(node.id) ?? node.order);
  const fit = orders.filter(
    (order) => !order.duplicateId && actionsFor(order.state, store.pending(order.id)?.action).includes(action),
  );
  const left = orders.filter((order) => !fit.includes(order));
  if (!fit.length) {
    void tell(
      'info',
      action === 'start'
        ? vscode.l10n.t('None of the selected servers can be started now: {0}.', names(left))
        : action === 'stop'
          ? vscode.l10n.t('None of the selected servers can be stopped now: {0}.', names(left))
          : vscode.l10n.t('None of the selected servers can be restarted now: {0}.', names(left)),
    );
    throw new UserCancelled();
  }
  // A protected one goes once its way has asked for its name (one at a time); one not typed is left out.
  const guarded = fit.filter((order) => account.asksName(order.id, action));
  const go = fit.filter((order) => !guarded.includes(order));
  if (go.length && !(await confirmAll(account, action, go, left, guarded))) throw new UserCancelled();
  // Every POST is started at once, so every node turns busy now; the limiter sends them as the budget allows.
  const outcomes = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Window, title: progressOfSeveral(action, fit) },
    () => Promise.allSettled(fit.map((order) => store.runAction(order.id, action, 'bulk'))),
  );
  const failed = fit.flatMap((order, i) => {
    const outcome = outcomes[i];
    const failed = outcome?.status === 'rejected' && !(outcome.reason instanceof Declined);
    return failed ? [{ order, reason: outcome.reason as unknown }] : [];
  });
  if (left.length && !failed.length) {
    void tell('info', vscode.l10n.t('Left out, not in a state that allows it: {0}.', names(left)));
  }
  if (failed.length) {
    const reasons = failed
      .slice(0, MAX_NAMED)
      .map(({ order, reason }) => {
        const why = reason instanceof ApiError ? shortReason(reason) : forMessage(String(reason), 80);
        return `${forMessage(order.label, 60)} (${why})`;
      })
      .join(', ');
    const showLog = vscode.l10n.t('Show Log');
    const message =
      action === 'start'
        ? vscode.l10n.t('Not started: {0}', reasons)
        : action === 'stop'
          ? vscode.l10n.t('Not stopped: {0}', reasons)
          : vscode.l10n.t('Not restarted: {0}', reasons);
    const answer = await tell('error', message, showLog);
    if (answer === showLog) host.log.show();
  }
}

// The selection when the clicked node is part of it, else the clicked node alone.
function selection(account: Account, arg: unknown, all: unknown): OrderNode[] {
  const clicked = arg instanceof OrderNode && arg.account === account ? arg : undefined;
  if (!clicked || !Array.isArray(all)) return clicked ? [clicked] : [];
  const selected = all.filter(
    (node): node is OrderNode => node instanceof OrderNode && node.account === account && node.current,
  );
  // Ids kept exact and unique: the same order twice in a selection is still one POST.
  const unique = [...new Map(selected.map((node) => [node.id, node])).values()];
  return unique.some((node) => node.id === clicked.id) ? unique : [clicked];
}

async function confirmAll(
  account: Account,
  action: OrderAction,
  fit: readonly Order[],
  left: readonly Order[],
  guarded: readonly Order[],
): Promise<boolean> {
  if (!account.settings.confirmStopAndRestart) return true;
  const { title, message } = confirmation(action, fit);
  const lines = [names(fit)];
  const name = account.shownName();
  if (name) lines.unshift(vscode.l10n.t('In the account {0}.', name));
  if (left.length) lines.push(vscode.l10n.t('Left out, not in a state that allows it: {0}.', names(left)));
  if (guarded.length) {
    lines.push(vscode.l10n.t('Left out unless you type its name next, protected: {0}.', names(guarded)));
  }
  const one = fit.length === 1;
  if (action === 'stop') {
    lines.push(
      one
        ? vscode.l10n.t('The server shuts down and whatever runs on it becomes unavailable until it is started again.')
        : vscode.l10n.t('Whatever runs on these servers becomes unavailable until they are started again.'),
    );
  }
  if (action === 'restart') {
    lines.push(
      one
        ? vscode.l10n.t('The server reboots and whatever runs on it is briefly unavailable.')
        : vscode.l10n.t('Whatever runs on these servers is briefly unavailable.'),
    );
  }
  return confirm(message, lines.join('\n\n'), title);
}

function names(orders: readonly Order[]): string {
  return namedList(
    orders.slice(0, MAX_NAMED).map((o) => forMessage(o.label, 60)),
    orders.length,
  );
}

function confirmation(action: OrderAction, fit: readonly Order[]): { title: string; message: string } {
  const [only] = fit;
  if (fit.length === 1 && only) {
    const name = forMessage(only.label, 80);
    const message =
      action === 'start'
        ? vscode.l10n.t('Start {0}?', name)
        : action === 'stop'
          ? vscode.l10n.t('Stop {0}?', name)
          : vscode.l10n.t('Restart {0}?', name);
    return { title: actionTitle(action), message };
  }
  const count = fit.length;
  if (action === 'start') {
    return { title: vscode.l10n.t('Start {0} Servers', count), message: vscode.l10n.t('Start {0} servers?', count) };
  }
  if (action === 'stop') {
    return { title: vscode.l10n.t('Stop {0} Servers', count), message: vscode.l10n.t('Stop {0} servers?', count) };
  }
  return { title: vscode.l10n.t('Restart {0} Servers', count), message: vscode.l10n.t('Restart {0} servers?', count) };
}

function progressOfSeveral(action: OrderAction, fit: readonly Order[]): string {
  const [only] = fit;
  if (fit.length === 1 && only) return progressTitle(action, forLabel(only.label, 60));
  return action === 'start'
    ? vscode.l10n.t('Starting {0} servers', fit.length)
    : action === 'stop'
      ? vscode.l10n.t('Stopping {0} servers', fit.length)
      : vscode.l10n.t('Restarting {0} servers', fit.length);
}
