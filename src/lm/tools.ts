import * as vscode from 'vscode';
import { type Account } from '../accounts/Account';
import { type AccountModel } from '../accounts/AccountModel';
import { ApiError } from '../api/errors';
import { type Order } from '../api/models';
import { type Log } from '../log';
import { forDocument, forLabel, forLog, forMarkdown, forTool } from '../notify/inert';
import { shortReason } from '../notify/shortReason';
import { type DataKind } from '../store/types';
import { plain } from '../util/serverText';
import {
  accountSummary,
  type ActionInput,
  findOrder,
  fits,
  listOrders,
  parseActionInput,
  type ToolAccount,
} from './toolData';

/** Data this recent is answered from the store: a chat that asks twice costs one request. */
const FRESH_MS = 30_000;
/** A confirmation the user gave is acted on within this time, or asked again. */
const CONFIRMATION_MS = 10 * 60_000;

/** Why a tool call could not be served: its sentence is the tool's answer, so the assistant can tell the user. */
class ToolRefusal extends Error {
  override readonly name = 'ToolRefusal';
}

/** Every tool answers through the store: the same limiter, pending-action rules and masking as the UI. */
async function ensure(account: Account, kinds: readonly DataKind[]): Promise<void> {
  const { store } = account;
  if (!store.hasApiKey) {
    throw new ToolRefusal(vscode.l10n.t('No API key is set. Run "Hosting: Set API Key" first.'));
  }
  const stale = kinds.filter((kind) => !store.isFresh(kind, FRESH_MS));
  if (stale.length) await store.refresh(stale, 'user');
  const failed = kinds.map((kind) => store.slot(kind)).find((slot) => slot.error && !slot.updatedAt);
  if (failed?.error) {
    throw new ToolRefusal(vscode.l10n.t('The hosting account could not be read: {0}.', shortReason(failed.error)));
  }
}

/** A tool's answer: JSON whose invisible and bidi characters are written as escapes (the same data, inert). */
function result(value: unknown): vscode.LanguageModelToolResult {
  return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(forDocument(JSON.stringify(value)))]);
}

/** An account as the tools name it: with one account, nothing to name. */
function named(model: AccountModel, account: Account): { account?: ToolAccount } {
  return model.several ? { account: { id: account.id, name: forTool(account.name, 60) } } : {};
}

/** The accounts a call is about: the one it names (by id or name), else every account with a key. */
function accountsFor(model: AccountModel, wanted: unknown): Account[] {
  if (typeof wanted === 'string' && wanted) {
    const account = model.get(wanted) ?? model.accounts.find((a) => a.name === wanted);
    if (!account) throw new ToolRefusal(vscode.l10n.t('No hosting account is called "{0}".', forTool(wanted, 60)));
    return [account];
  }
  const signedIn = model.accounts.filter((account) => account.store.hasApiKey);
  return signedIn.length ? signedIn : [model.first];
}

/** `hosting_listOrders`: names, states, addresses and ids, with their account when there are several; read-only. */
export class ListOrdersTool implements vscode.LanguageModelTool<{ state?: string; account?: string }> {
  constructor(private readonly model: AccountModel) {}

  async invoke(
    options: vscode.LanguageModelToolInvocationOptions<{ state?: string; account?: string }>,
  ): Promise<vscode.LanguageModelToolResult> {
    const accounts = accountsFor(this.model, options.input?.account);
    const lists = [];
    for (const account of accounts) {
      await ensure(account, ['orders']);
      const { store } = account;
      const listed = listOrders(store.orders.all, (id) => store.pending(id)?.action, options.input?.state);
      lists.push({ ...named(this.model, account), ...listed });
    }
    return result(this.model.several ? { accounts: lists } : lists[0]);
  }

  prepareInvocation(): vscode.PreparedToolInvocation {
    return { invocationMessage: vscode.l10n.t('Reading the servers of the hosting account') };
  }
}

/** `hosting_account`: balance and unpaid invoices, per account; read-only. */
export class AccountTool implements vscode.LanguageModelTool<{ account?: string }> {
  constructor(private readonly model: AccountModel) {}

  async invoke(
    options: vscode.LanguageModelToolInvocationOptions<{ account?: string }>,
  ): Promise<vscode.LanguageModelToolResult> {
    const summaries = [];
    for (const account of accountsFor(this.model, options.input?.account)) {
      await ensure(account, ['balance', 'invoices']);
      const { store } = account;
      const name = store.account.value?.name;
      summaries.push({
        ...named(this.model, account),
        ...accountSummary(store.balance.value, store.invoices.value, name === undefined ? undefined : plain(name)),
      });
    }
    return result(this.model.several ? { accounts: summaries } : summaries[0]);
  }

  prepareInvocation(): vscode.PreparedToolInvocation {
    return { invocationMessage: vscode.l10n.t('Reading the balance and invoices of the hosting account') };
  }
}

/** What the user was asked to approve: this order (by id, in this account) as it was named then. */
interface Confirmed {
  readonly account: Account;
  readonly generation: number;
  readonly id: string;
  readonly label: string;
  readonly at: number;
}

/**
 * `hosting_orderAction`: start, stop or restart one order, never reinstall. Every call needs the user's approval: the
 * confirmation names the order (name and id), the action and, with several accounts, the account; the POST then goes
 * to exactly that order id in that account, or nowhere: an order gone, renamed or in another session since is refused.
 */
export class OrderActionTool implements vscode.LanguageModelTool<ActionInput> {
  /** Confirmations asked for, by the call's input: `invoke` acts on what the user saw, never looks anything up again. */
  private readonly confirmed = new Map<string, Confirmed>();

  constructor(
    private readonly model: AccountModel,
    private readonly log: Log,
  ) {}

  prepareInvocation(
    options: vscode.LanguageModelToolInvocationPrepareOptions<ActionInput>,
  ): vscode.PreparedToolInvocation {
    const input = parseActionInput(options.input);
    if ('refused' in input) return { invocationMessage: vscode.l10n.t('Checking the requested action') };
    const found = this.find(input);
    if (!found) {
      // Nothing to confirm: `invoke` will say why, and act on nothing.
      return { invocationMessage: vscode.l10n.t('Checking the requested action') };
    }
    const { account, order } = found;
    this.remember(input, {
      account,
      generation: account.store.generation,
      id: order.id,
      label: plain(order.label),
      at: Date.now(),
    });
    const name = forMarkdown(order.label, 80);
    const id = forMarkdown(order.id, 80);
    const where = this.model.several ? forMarkdown(account.name, 60) : undefined;
    const message = new vscode.MarkdownString(
      where
        ? vscode.l10n.t(
            'The assistant asks to **{0}** the server **{1}** (ID {2}) in the account **{3}**.',
            input.action,
            name,
            id,
            where,
          )
        : vscode.l10n.t('The assistant asks to **{0}** the server **{1}** (ID {2}).', input.action, name, id),
    );
    message.isTrusted = false;
    message.supportHtml = false;
    return {
      invocationMessage: progressText(input.action, forLabel(order.label, 80)),
      confirmationMessages: { title: confirmTitle(input.action, forLabel(order.label, 80)), message },
    };
  }

  async invoke(
    options: vscode.LanguageModelToolInvocationOptions<ActionInput>,
  ): Promise<vscode.LanguageModelToolResult> {
    const input = parseActionInput(options.input);
    if ('refused' in input) {
      if (input.refused === 'reinstall') {
        throw new ToolRefusal(
          vscode.l10n.t(
            'Reinstall is not available to the assistant: it erases the server. Use "Hosting: Reinstall Server…" in VS Code, which asks the user to type the server\'s name.',
          ),
        );
      }
      throw new ToolRefusal(
        vscode.l10n.t('Give a server ID from hosting_listOrders and one of the actions start, stop or restart.'),
      );
    }
    const confirmed = this.confirmed.get(keyOf(input));
    this.confirmed.delete(keyOf(input));
    if (!confirmed || Date.now() - confirmed.at > CONFIRMATION_MS) {
      throw new ToolRefusal(
        vscode.l10n.t('No server with the ID or the exact name "{0}" was confirmed.', forTool(input.orderId, 80)),
      );
    }
    const { account, id, label } = confirmed;
    if (!this.model.accountOf(account) || account.store.generation !== confirmed.generation) {
      throw new ToolRefusal(vscode.l10n.t('The account changed since the action was confirmed; nothing was sent.'));
    }
    await ensure(account, ['orders']);
    const { store } = account;
    const order = store.orders.get(id);
    if (!order) {
      throw new ToolRefusal(
        vscode.l10n.t(
          'The server {0} (ID {1}) is no longer in the account; nothing was sent.',
          forTool(label, 80),
          forTool(id, 80),
        ),
      );
    }
    if (plain(order.label) !== label) {
      throw new ToolRefusal(
        vscode.l10n.t(
          'The server with ID {0} is now called {1}, not {2} as confirmed; nothing was sent. Ask again to confirm it.',
          forTool(id, 80),
          forTool(order.label, 80),
          forTool(label, 80),
        ),
      );
    }
    const pending = store.pending(id)?.action;
    if (!fits(order, input.action, pending)) {
      throw new ToolRefusal(
        pending
          ? vscode.l10n.t('An action is already under way for {0}.', forTool(order.label, 80))
          : vscode.l10n.t(
              '{0} is {1}: it cannot be asked to {2} now.',
              forTool(order.label, 80),
              order.state,
              input.action,
            ),
      );
    }
    this.log.info(`${input.action} of order ${forLog(id, 80)} requested by the assistant`);
    try {
      await store.runAction(id, input.action, 'assistant');
    } catch (error) {
      throw new ToolRefusal(
        error instanceof ApiError
          ? vscode.l10n.t(
              'The server did not accept {0} for {1}: {2}.',
              input.action,
              forTool(order.label, 80),
              shortReason(error),
            )
          : vscode.l10n.t('{0} for {1} failed.', input.action, forTool(order.label, 80)),
      );
    }
    return result({
      accepted: true,
      action: input.action,
      ...named(this.model, account),
      order: { id, name: forTool(order.label, 120) },
      note: 'The order shows as busy in the Orders view and is polled until its state settles.',
    });
  }

  /** The order named: in the account named, else the only account that has such an order; never a guess. */
  private find(input: ActionInput): { account: Account; order: Order } | undefined {
    let accounts: Account[];
    try {
      accounts = accountsFor(this.model, input.account);
    } catch {
      return undefined;
    }
    const found = accounts.flatMap((account) => {
      const { store } = account;
      const order = findOrder(store.orders.all, (id) => store.orders.get(id), input.orderId);
      return order ? [{ account, order }] : [];
    });
    return found.length === 1 ? found[0] : undefined;
  }

  private remember(input: ActionInput, confirmed: Confirmed): void {
    const now = Date.now();
    for (const [key, entry] of this.confirmed) if (now - entry.at > CONFIRMATION_MS) this.confirmed.delete(key);
    this.confirmed.set(keyOf(input), confirmed);
  }
}

function keyOf(input: ActionInput): string {
  return JSON.stringify([input.account ?? '', input.orderId, input.action]);
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
