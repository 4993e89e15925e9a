import * as vscode from 'vscode';
import { ApiError } from '../api/errors';
import { type Log } from '../log';
import { type Store } from '../store/Store';
import { type DataKind } from '../store/types';
import { escapeMarkdown, truncate } from '../views/text';
import { shortReason } from '../notify/shortReason';
import { accountSummary, type ActionInput, findOrder, fits, listOrders, parseActionInput } from './toolData';

/** Data this recent is answered from the store: a chat that asks twice costs one request. */
const FRESH_MS = 30_000;

/** Every tool answers through the store: the same limiter, pending-action rules and masking as the UI. */
async function ensure(store: Store, kinds: readonly DataKind[]): Promise<void> {
  if (!store.hasApiKey) throw new Error(vscode.l10n.t('No API key is set. Run "Hosting: Set API Key" first.'));
  const stale = kinds.filter((kind) => !store.isFresh(kind, FRESH_MS));
  if (stale.length) await store.refresh(stale, 'user');
  const failed = kinds
    .map((kind) => (kind === 'orders' ? store.ordersInfo : store[kind]))
    .find((slot) => slot.error && !slot.updatedAt);
  if (failed?.error) {
    throw new Error(vscode.l10n.t('The hosting account could not be read: {0}.', shortReason(failed.error)));
  }
}

function result(value: unknown): vscode.LanguageModelToolResult {
  return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(JSON.stringify(value))]);
}

/** `hosting_listOrders`: names, states, addresses and ids; read-only. */
export class ListOrdersTool implements vscode.LanguageModelTool<{ state?: string }> {
  constructor(private readonly store: Store) {}

  async invoke(
    options: vscode.LanguageModelToolInvocationOptions<{ state?: string }>,
  ): Promise<vscode.LanguageModelToolResult> {
    await ensure(this.store, ['orders']);
    const { store } = this;
    return result(listOrders(store.orders.all, (id) => store.pending(id)?.action, options.input?.state));
  }

  prepareInvocation(): vscode.PreparedToolInvocation {
    return { invocationMessage: vscode.l10n.t('Reading the servers of the hosting account') };
  }
}

/** `hosting_account`: balance and unpaid invoices; read-only. */
export class AccountTool implements vscode.LanguageModelTool<object> {
  constructor(private readonly store: Store) {}

  async invoke(): Promise<vscode.LanguageModelToolResult> {
    await ensure(this.store, ['balance', 'invoices']);
    const { store } = this;
    return result(accountSummary(store.balance.value, store.invoices.value, store.account.value?.name));
  }

  prepareInvocation(): vscode.PreparedToolInvocation {
    return { invocationMessage: vscode.l10n.t('Reading the balance and invoices of the hosting account') };
  }
}

/**
 * `hosting_orderAction`: start, stop or restart one order, never reinstall. Every call needs the user's approval:
 * the confirmation names the order and the action.
 */
export class OrderActionTool implements vscode.LanguageModelTool<ActionInput> {
  constructor(
    private readonly store: Store,
    private readonly log: Log,
  ) {}

  prepareInvocation(
    options: vscode.LanguageModelToolInvocationPrepareOptions<ActionInput>,
  ): vscode.PreparedToolInvocation {
    const input = parseActionInput(options.input);
    if ('refused' in input) return { invocationMessage: vscode.l10n.t('Checking the requested action') };
    const { store } = this;
    const order = findOrder(store.orders.all, (id) => store.orders.get(id), input.orderId);
    const name = order ? truncate(order.label, 80) : input.orderId;
    const id = order?.id ?? input.orderId;
    const title = confirmTitle(input.action, name);
    const message = new vscode.MarkdownString(
      vscode.l10n.t(
        'The assistant asks to **{0}** the server **{1}** (ID `{2}`).',
        input.action,
        escapeMarkdown(name),
        escapeMarkdown(truncate(id, 80)),
      ),
    );
    message.isTrusted = false;
    return { invocationMessage: progressText(input.action, name), confirmationMessages: { title, message } };
  }

  async invoke(
    options: vscode.LanguageModelToolInvocationOptions<ActionInput>,
  ): Promise<vscode.LanguageModelToolResult> {
    const input = parseActionInput(options.input);
    if ('refused' in input) {
      if (input.refused === 'reinstall') {
        throw new Error(
          vscode.l10n.t(
            'Reinstall is not available to the assistant: it erases the server. Use "Hosting: Reinstall Server…" in VS Code, which asks the user to type the server\'s name.',
          ),
        );
      }
      throw new Error(
        vscode.l10n.t('Give a server ID from hosting_listOrders and one of the actions start, stop or restart.'),
      );
    }
    await ensure(this.store, ['orders']);
    const { store } = this;
    const order = findOrder(store.orders.all, (id) => store.orders.get(id), input.orderId);
    if (!order) {
      throw new Error(vscode.l10n.t('No server has the ID or the exact name "{0}".', truncate(input.orderId, 80)));
    }
    const pending = store.pending(order.id)?.action;
    if (!fits(order, input.action, pending)) {
      throw new Error(
        pending
          ? vscode.l10n.t('An action is already under way for {0}.', order.label)
          : vscode.l10n.t('{0} is {1}: it cannot be asked to {2} now.', order.label, order.state, input.action),
      );
    }
    this.log.info(`${input.action} of order ${order.id} requested by the assistant`);
    try {
      await store.runAction(order.id, input.action);
    } catch (error) {
      throw new Error(
        error instanceof ApiError
          ? vscode.l10n.t('The server did not accept {0} for {1}: {2}.', input.action, order.label, shortReason(error))
          : vscode.l10n.t('{0} for {1} failed.', input.action, order.label),
      );
    }
    return result({
      accepted: true,
      action: input.action,
      order: { id: order.id, name: truncate(order.label, 120) },
      note: 'The order shows as busy in the Orders view and is polled until its state settles.',
    });
  }
}

function confirmTitle(action: ActionInput['action'], name: string): string {
  switch (action) {
    case 'start':
      return vscode.l10n.t('Start {0}?', name);
    case 'stop':
      return vscode.l10n.t('Stop {0}?', name);
    case 'restart':
      return vscode.l10n.t('Restart {0}?', name);
  }
}

function progressText(action: ActionInput['action'], name: string): string {
  switch (action) {
    case 'start':
      return vscode.l10n.t('Starting {0}', name);
    case 'stop':
      return vscode.l10n.t('Stopping {0}', name);
    case 'restart':
      return vscode.l10n.t('Restarting {0}', name);
  }
}
