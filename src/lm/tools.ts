import * as vscode from 'vscode';
import { type Account } from '../accounts/Account';
import { type AccountModel } from '../accounts/AccountModel';
import { ApiError } from '../api/errors';
import { type Order } from '../api/models';
import { type Log } from '../log';
import { forDocument, forLabel, forLog, forMarkdown, forTool } from '../notify/inert';
import { shortReason } from '../notify/shortReason';
import { Declined } from '../store/errors';
import { type DataKind } from '../store/types';
import { hostOf } from '../util/hosts';
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

// A chat that asks twice costs one request.
const FRESH_MS = 30_000;
const CONFIRMATION_MS = 2 * 60_000;

// Its sentence is the tool's answer, so the assistant can tell the user.
class ToolRefusal extends Error {
  override readonly name = 'ToolRefusal';
}

// Through the store: the same limiter, pending-action rules and masking as the UI.
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

function result(value: unknown): vscode.LanguageModelToolResult {
  return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(forDocument(JSON.stringify(value)))]);
}

function named(model: AccountModel, account: Account): { account?: ToolAccount } {
  if (!model.several) return {};
  return { account: { name: forTool(account.name, 60), host: forTool(hostOf(account.baseUrl), 80), id: account.id } };
}

function accountsFor(model: AccountModel, wanted: unknown): Account[] {
  if (typeof wanted === 'string' && wanted) {
    const lower = wanted.trim().toLowerCase();
    const matching = model.accounts.filter((a) => a.id === wanted || a.name.toLowerCase() === lower);
    const [account, ...more] = matching;
    if (!account) throw new ToolRefusal(vscode.l10n.t('No hosting account is called "{0}".', forTool(wanted, 60)));
    if (more.length) {
      throw new ToolRefusal(
        vscode.l10n.t(
          'Several hosting accounts are called "{0}"; give the id of one (hosting_listOrders names each with its id and host).',
          forTool(wanted, 60),
        ),
      );
    }
    return [account];
  }
  const signedIn = model.accounts.filter((account) => account.store.hasApiKey);
  return signedIn.length ? signedIn : [model.first];
}

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

type Prepared = { readonly at: number } & (
  | { readonly refusal: string }
  | { readonly account: Account; readonly generation: number; readonly id: string; readonly label: string }
);

// One approval, one action: `invoke` consumes the confirmation prepared for its own input (account, order id, action),
// as VS Code may prepare a call before invoking another; one declined, or never followed by its call, expires.
export class OrderActionTool implements vscode.LanguageModelTool<ActionInput> {
  private readonly prepared = new Map<string, Prepared>();

  constructor(
    private readonly model: AccountModel,
    private readonly log: Log,
  ) {}

  prepareInvocation(
    options: vscode.LanguageModelToolInvocationPrepareOptions<ActionInput>,
  ): vscode.PreparedToolInvocation {
    for (const [key, { at }] of this.prepared) if (Date.now() - at > CONFIRMATION_MS) this.prepared.delete(key);
    const checking = { invocationMessage: vscode.l10n.t('Checking the requested action') };
    const input = parseActionInput(options.input);
    if ('refused' in input) return checking;
    const key = keyOf(input);
    const found = this.find(input);
    if ('refusal' in found) {
      this.prepared.set(key, { at: Date.now(), refusal: found.refusal });
      return checking;
    }
    if (found.account.marks.isProtected(found.order.id)) {
      this.prepared.set(key, { at: Date.now(), refusal: protectedRefusal(found.order.label) });
      return checking;
    }
    const { account, order } = found;
    const { generation } = account.store;
    this.prepared.set(key, { at: Date.now(), account, generation, id: order.id, label: plain(order.label) });
    const name = forMarkdown(order.label, 80);
    const id = forMarkdown(order.id, 80);
    const message = new vscode.MarkdownString(
      this.model.several
        ? vscode.l10n.t(
            'Asked by the assistant, for the server **{0}** (ID {1}) in the account **{2}** ({3}).',
            name,
            id,
            forMarkdown(account.name, 60),
            forMarkdown(hostOf(account.baseUrl), 80),
          )
        : vscode.l10n.t('Asked by the assistant, for the server **{0}** (ID {1}).', name, id),
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
    const prepared = this.prepared.get(keyOf(input));
    this.prepared.delete(keyOf(input));
    if (!prepared) {
      throw new ToolRefusal(
        vscode.l10n.t('The user was not asked to confirm this action, so nothing was sent. Call the tool again.'),
      );
    }
    if (Date.now() - prepared.at > CONFIRMATION_MS) {
      throw new ToolRefusal(vscode.l10n.t('The confirmation expired, so nothing was sent. Call the tool again.'));
    }
    if ('refusal' in prepared) throw new ToolRefusal(prepared.refusal);
    const { account, id, label } = prepared;
    if (!this.model.accountOf(account) || account.store.generation !== prepared.generation) {
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
      // Protected after the confirmation was shown: still the user's alone (the action's own way refuses it).
      if (error instanceof Declined) throw new ToolRefusal(protectedRefusal(label));
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

  private find(input: ActionInput): { account: Account; order: Order } | { refusal: string } {
    let accounts: Account[];
    try {
      accounts = accountsFor(this.model, input.account);
    } catch (error) {
      return { refusal: error instanceof ToolRefusal ? error.message : '' };
    }
    const found = accounts.flatMap((account) => {
      const { store } = account;
      const order = findOrder(store.orders.all, (id) => store.orders.get(id), input.orderId);
      return order ? [{ account, order }] : [];
    });
    if (found.length === 1 && found[0]) return found[0];
    return {
      refusal: vscode.l10n.t(
        'No single server has the ID or the exact name "{0}" (none has, or several have), so the user was asked nothing and nothing was sent. Give its ID from hosting_listOrders, and its account.',
        forTool(input.orderId, 80),
      ),
    };
  }
}

function protectedRefusal(label: Order['label'] | string): string {
  return vscode.l10n.t(
    '{0} is protected: the assistant does not start, stop or restart it. The user can do so in VS Code, where stopping or restarting it asks for its name.',
    forTool(label, 80),
  );
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
