import * as vscode from 'vscode';
import { type Log } from '../log';
import { type Store } from '../store/Store';
import { type IDisposable } from '../util/lifecycle';
import { AccountTool, ListOrdersTool, OrderActionTool } from './tools';

export const TOOL_NAMES = {
  listOrders: 'hosting_listOrders',
  account: 'hosting_account',
  orderAction: 'hosting_orderAction',
} as const;

export interface ToolSet extends IDisposable {
  readonly listOrders: ListOrdersTool;
  readonly account: AccountTool;
  readonly orderAction: OrderActionTool;
}

/** Registers the assistant's tools where VS Code has the API; older versions simply go without them. */
export function registerTools(store: Store, log: Log): ToolSet | undefined {
  const lm = (vscode as { lm?: Partial<typeof vscode.lm> }).lm;
  if (typeof lm?.registerTool !== 'function') return undefined;
  const register = lm.registerTool.bind(lm);
  const listOrders = new ListOrdersTool(store);
  const account = new AccountTool(store);
  const orderAction = new OrderActionTool(store, log);
  const registrations: vscode.Disposable[] = [
    register(TOOL_NAMES.listOrders, listOrders),
    register(TOOL_NAMES.account, account),
    register(TOOL_NAMES.orderAction, orderAction),
  ];
  return {
    listOrders,
    account,
    orderAction,
    dispose: () => {
      for (const registration of registrations) registration.dispose();
    },
  };
}
