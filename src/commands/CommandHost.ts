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

/** What the commands need besides the account they act in, passed in by the composition root: no hidden globals. */
export interface CommandHost {
  readonly model: AccountModel;
  readonly log: Log;
  readonly orders: OrdersTree;
  readonly ordersView: vscode.TreeView<unknown>;
  readonly invoicesView: vscode.TreeView<unknown>;
  readonly details: OrderDetailsDocument;
  readonly arrangement: OrdersArrangement;
  /** Left empty in use; the extension's own tests set them (a fast probe, a pretend Remote-SSH window). */
  readonly ssh: SshHooks;
  /** The workspace folders' servers and the active folder. */
  readonly folders: FolderBindings;
  /** Old host keys after a reinstall: offered before SSH, and after an SSH terminal that ended as on a refused key. */
  readonly hostKeys: HostKeys;
  /** The documents field maps are taught in. */
  readonly fieldMaps: FieldMapEditor;
}
