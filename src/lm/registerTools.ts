import * as vscode from 'vscode';
import { type AccountModel } from '../accounts/AccountModel';
import { type Log } from '../log';
import { Disposable } from '../util/lifecycle';
import { AccountTool, ListOrdersTool, OrderActionTool } from './tools';

export const TOOL_NAMES = {
  listOrders: 'hosting_listOrders',
  account: 'hosting_account',
  orderAction: 'hosting_orderAction',
} as const;

// Registered once any account has a key: a signed-out window offers the assistant nothing to call.
export class AssistantTools extends Disposable {
  readonly listOrders: ListOrdersTool;
  readonly account: AccountTool;
  readonly orderAction: OrderActionTool;
  private registered = false;

  constructor(
    private readonly model: AccountModel,
    log: Log,
  ) {
    super();
    this.listOrders = new ListOrdersTool(model);
    this.account = new AccountTool(model);
    this.orderAction = new OrderActionTool(model, log);
    this.register(model.onDidChangeState(() => this.registerOnce()));
    this.registerOnce();
  }

  private registerOnce(): void {
    if (this.registered || !this.model.accounts.some((account) => account.store.hasApiKey)) return;
    const lm = (vscode as { lm?: Partial<typeof vscode.lm> }).lm;
    if (typeof lm?.registerTool !== 'function') return;
    this.registered = true;
    const register = lm.registerTool.bind(lm);
    this.register(register(TOOL_NAMES.listOrders, this.listOrders));
    this.register(register(TOOL_NAMES.account, this.account));
    this.register(register(TOOL_NAMES.orderAction, this.orderAction));
  }
}
