import type * as vscode from 'vscode';
import { type Accounts } from '../accounts/index';
import { type KeyStore } from '../auth/KeyStore';
import { type Settings } from '../config';
import { type Log } from '../log';
import { type SshHooks } from '../ssh/hooks';
import { type Store } from '../store/Store';
import { type InvoicesTreeProvider } from '../views/invoices/InvoicesTreeProvider';
import { type OrderDetailsDocument } from '../views/orders/OrderDetailsDocument';
import { type OrdersTreeProvider } from '../views/orders/OrdersTreeProvider';

/** What the commands need, passed in by the composition root: no hidden globals. */
export interface CommandContext {
  /** The account the command acts in: undefined for the first one (today's setup), else an added account's id. */
  readonly accountId?: string;
  readonly store: Store;
  readonly keys: KeyStore;
  readonly log: Log;
  readonly settings: () => Settings;
  readonly orders: OrdersTreeProvider;
  readonly invoices: InvoicesTreeProvider;
  readonly details: OrderDetailsDocument;
  readonly invoicesVisible: () => boolean;
  /** Per-order SSH choices (an address, a user name): never a secret. */
  readonly globalState: vscode.Memento;
  readonly ssh: SshHooks;
  /** The accounts after the first: loads their bundle (once) on first use. */
  readonly accounts: () => Accounts;
}
