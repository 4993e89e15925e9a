import * as vscode from 'vscode';
import { type Account } from '../accounts/Account';
import { ApiError } from '../api/errors';
import { type Order, type OrderAction } from '../api/models';
import { forMessage } from '../notify/inert';
import { actionTitle, progressLabel } from '../notify/orderWords';
import { shortReason } from '../notify/shortReason';
import { confirm, tell } from '../notify/show';
import { OrderNode } from '../views/orders/OrderNode';
import { actionsFor } from '../views/orders/orderPresentation';
import { type CommandHost } from './CommandHost';
import { runOrderAction } from './orderAction';
import { UserCancelled } from './UserCancelled';

/** A confirmation names at most this many orders, then says how many more. */
const MAX_NAMED = 15;

/**
 * Start, Stop or Restart from the tree with several orders selected: VS Code passes the clicked node and the whole
 * selection. One confirmation lists the orders; then each order gets its own POST (through the store, so each shows
 * its own busy state and the limiter paces them). Orders the action does not fit are left out, and the user is told;
 * so are orders of another account than the clicked one's (one confirmation is about one account). Reinstall is never
 * run on several orders: it erases a server, one deliberate confirmation at a time.
 */
export async function runOnSelection(
  host: CommandHost,
  account: Account,
  action: OrderAction,
  arg: unknown,
  all: unknown,
): Promise<void> {
  const nodes = selection(account, arg, all);
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
      vscode.l10n.t(
        'None of the selected servers can be asked to {0} now: {1}.',
        actionTitle(action).toLocaleLowerCase(),
        names(left),
      ),
    );
    throw new UserCancelled();
  }
  if (!(await confirmAll(account, action, fit, left))) throw new UserCancelled();
  // Every POST is started at once, so every node turns busy now; the limiter sends them as the budget allows.
  const outcomes = await vscode.window.withProgress(
    {
      location: vscode.ProgressLocation.Window,
      title: vscode.l10n.t('{0} servers: {1}', fit.length, progressLabel(action)),
    },
    () => Promise.allSettled(fit.map((order) => store.runAction(order.id, action, 'bulk'))),
  );
  const failed = fit.flatMap((order, i) => {
    const outcome = outcomes[i];
    return outcome?.status === 'rejected' ? [{ order, reason: outcome.reason as unknown }] : [];
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
    const answer = await tell(
      'error',
      vscode.l10n.t(
        '{0} of {1} servers did not accept {2}: {3}',
        failed.length,
        fit.length,
        actionTitle(action),
        reasons,
      ),
      showLog,
    );
    if (answer === showLog) host.log.show();
  }
}

/**
 * The nodes to act on: the selection when the clicked node is part of it, else the clicked node alone. Only nodes of
 * the clicked node's account, and only while they speak for its current session.
 */
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
): Promise<boolean> {
  if (!account.settings.confirmStopAndRestart) return true;
  const title = vscode.l10n.t('{0} {1} Servers', actionTitle(action), fit.length);
  const message =
    action === 'start'
      ? vscode.l10n.t('Start {0} servers?', fit.length)
      : action === 'stop'
        ? vscode.l10n.t('Stop {0} servers?', fit.length)
        : vscode.l10n.t('Restart {0} servers?', fit.length);
  const lines = [names(fit)];
  const name = account.shownName();
  if (name) lines.unshift(vscode.l10n.t('In the account {0}.', name));
  if (left.length) lines.push(vscode.l10n.t('Left out, not in a state that allows it: {0}.', names(left)));
  if (action === 'stop') {
    lines.push(vscode.l10n.t('Whatever runs on these servers becomes unavailable until they are started again.'));
  }
  if (action === 'restart') lines.push(vscode.l10n.t('Whatever runs on these servers is briefly unavailable.'));
  return confirm(message, lines.join('\n\n'), title);
}

function names(orders: readonly Order[]): string {
  const named = orders
    .slice(0, MAX_NAMED)
    .map((o) => forMessage(o.label, 60))
    .join(', ');
  return orders.length > MAX_NAMED ? `${named} ${vscode.l10n.t('and {0} more', orders.length - MAX_NAMED)}` : named;
}
