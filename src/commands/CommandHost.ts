import type * as vscode from 'vscode';
import { type AccountModel } from '../accounts/AccountModel';
import { type HostKeys } from '../features/HostKeys';
import { type FolderBindings } from '../folder/FolderBindings';
import { type Log } from '../log';
import { type SshHooks } from '../ssh/hooks';
import { type FieldMapEditor } from '../views/FieldMapEditor';
import { type OrderDetailsDocument } from '../views/orders/OrderDetailsDocument';
import { type OrdersArrangement } from '../views/orders/OrdersArrangement';
import { type OrdersTree } from '../views/orders/OrdersTree';

/** Passed in by the composition root: no hidden globals. */
export interface CommandHost {
  readonly model: AccountModel;
  readonly log: Log;
  readonly orders: OrdersTree;
  readonly ordersView: vscode.TreeView<unknown>;
  readonly invoicesView: vscode.TreeView<unknown>;
  readonly details: OrderDetailsDocument;
  readonly arrangement: OrdersArrangement;
  /** Left empty in use; the extension's own tests set them. */
  readonly ssh: SshHooks;
  readonly folders: FolderBindings;
  readonly hostKeys: HostKeys;
  readonly fieldMaps: FieldMapEditor;
}
