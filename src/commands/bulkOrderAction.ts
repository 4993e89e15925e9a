import * as vscode from 'vscode';
import { type Order, type OrderAction } from '../api/models';
import { ApiError } from '../api/errors';
import { type OrderNode } from '../views/orders/OrderNode';
import { orderNodeOf } from '../views/orders/orderNodeOf';
import { actionsFor } from '../views/orders/orderPresentation';
import { actionTitle, progressLabel } from '../views/orders/orderStrings';
import { shortReason } from '../notify/shortReason';
import { noLinks } from '../views/text';
import { type CommandContext } from './CommandContext';
import { runOrderAction } from './orderAction';
import { UserCancelled } from './UserCancelled';

/** A confirmation names at most this many orders, then says how many more. */
const MAX_NAMED = 15;

/**
 * Start, Stop or Restart from the tree with several orders selected: VS Code passes the clicked node and the whole
 * selection. One confirmation lists the orders; then each order gets its own POST (through the store, so each shows
 * its own busy state and the limiter paces them). Orders the action does not fit are left out, and the user is told.
 * Reinstall is never run on several orders: it erases a server, one deliberate confirmation at a time.
 */
export async function runOnSelection(
  ctx: CommandContext,
  action: OrderAction,
  arg: unknown,
  all: unknown,
): Promise<void> {
  const nodes = selection(ctx, arg, all);
  if (nodes.length <= 1) return runOrderAction(ctx, action, nodes[0] ?? arg);
  if (action === 'reinstall') {
    void vscode.window.showInformationMessage(
      vscode.l10n.t('Reinstall works on one server at a time. Select only the server to reinstall.'),
    );
    throw new UserCancelled();
  }
  const { store } = ctx;
  const orders = nodes.map((node) => store.orders.get(node.id) ?? node.order);
  const fit = orders.filter((order) => actionsFor(order.state, store.pending(order.id)?.action).includes(action));
  const left = orders.filter((order) => !fit.includes(order));
  if (!fit.length) {
    void vscode.window.showInformationMessage(
      noLinks(
        vscode.l10n.t(
          'None of the selected servers can be asked to {0} now: {1}.',
          actionTitle(action).toLocaleLowerCase(),
          names(left),
        ),
      ),
    );
    throw new UserCancelled();
  }
  if (!(await confirm(ctx, action, fit, left))) throw new UserCancelled();
  // Every POST is started at once, so every node turns busy now; the limiter sends them as the budget allows.
  const outcomes = await vscode.window.withProgress(
    {
      location: vscode.ProgressLocation.Window,
      title: vscode.l10n.t('{0} servers: {1}', fit.length, progressLabel(action)),
    },
    () => Promise.allSettled(fit.map((order) => store.runAction(order.id, action))),
  );
  const failed = fit.flatMap((order, i) => {
    const outcome = outcomes[i];
    return outcome?.status === 'rejected' ? [{ order, reason: outcome.reason as unknown }] : [];
  });
  if (left.length && !failed.length) {
    void vscode.window.showInformationMessage(
      noLinks(vscode.l10n.t('Left out, not in a state that allows it: {0}.', names(left))),
    );
  }
  if (failed.length) {
    const reasons = failed
      .slice(0, MAX_NAMED)
      .map(
        ({ order, reason }) => `${order.label} (${reason instanceof ApiError ? shortReason(reason) : String(reason)})`,
      )
      .join(', ');
    const showLog = vscode.l10n.t('Show Log');
    const answer = await vscode.window.showErrorMessage(
      noLinks(
        vscode.l10n.t(
          '{0} of {1} servers did not accept {2}: {3}',
          failed.length,
          fit.length,
          actionTitle(action),
          reasons,
        ),
      ),
      showLog,
    );
    if (answer === showLog) ctx.log.show();
  }
}

/** The nodes to act on: the selection when the clicked node is part of it, else the clicked node alone. */
function selection(ctx: CommandContext, arg: unknown, all: unknown): OrderNode[] {
  const clicked = orderNodeOf(ctx.orders, arg);
  if (!clicked || !Array.isArray(all)) return clicked ? [clicked] : [];
  const selected = all.map((node) => orderNodeOf(ctx.orders, node)).filter((n): n is OrderNode => n !== undefined);
  // Ids kept exact and unique: the same order twice in a selection is still one POST.
  const unique = [...new Map(selected.map((node) => [node.id, node])).values()];
  return unique.some((node) => node.id === clicked.id) ? unique : [clicked];
}

async function confirm(
  ctx: CommandContext,
  action: OrderAction,
  fit: readonly Order[],
  left: readonly Order[],
): Promise<boolean> {
  if (!ctx.settings().confirmStopAndRestart) return true;
  const title = vscode.l10n.t('{0} {1} Servers', actionTitle(action), fit.length);
  const message =
    action === 'start'
      ? vscode.l10n.t('Start {0} servers?', fit.length)
      : action === 'stop'
        ? vscode.l10n.t('Stop {0} servers?', fit.length)
        : vscode.l10n.t('Restart {0} servers?', fit.length);
  const lines = [names(fit)];
  if (left.length) lines.push(vscode.l10n.t('Left out, not in a state that allows it: {0}.', names(left)));
  if (action === 'stop') {
    lines.push(vscode.l10n.t('Whatever runs on these servers becomes unavailable until they are started again.'));
  }
  if (action === 'restart') lines.push(vscode.l10n.t('Whatever runs on these servers is briefly unavailable.'));
  const answer = await vscode.window.showWarningMessage(message, { modal: true, detail: lines.join('\n\n') }, title);
  return answer === title;
}

function names(orders: readonly Order[]): string {
  const named = orders
    .slice(0, MAX_NAMED)
    .map((o) => (o.label.length > 60 ? `${o.label.slice(0, 59)}…` : o.label))
    .join(', ');
  return orders.length > MAX_NAMED ? `${named} ${vscode.l10n.t('and {0} more', orders.length - MAX_NAMED)}` : named;
}
