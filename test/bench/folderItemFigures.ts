/**
 * The folder's server item is a view of the model: it must add no request of its own. With a folder bound and the item
 * live on the `vscode` stand-in, the account lists its servers again and again while the bound server changes state;
 * every request is counted against the refreshes asked for.
 */
import type * as BindingsModule from '../../src/folder/FolderBindings';
import type * as ItemModule from '../../src/views/FolderServerItem';
import { startMockApi } from '../mock-api/server';
import { apiRequests } from '../unit/helpers/storeRig';
import { type Figure } from './figures';
import { standInViews } from './standInModel';
import { standIn } from './vscodeStandIn';

export async function folderItemFigures(refreshes = 50): Promise<Figure[]> {
  const mock = await startMockApi({ rateLimit: false });
  const views = await standInViews(mock.url);
  const folder = { uri: { toString: () => 'file:///project' }, name: 'project', index: 0 };
  const workspace = standIn.workspace as { workspaceFolders: unknown };
  workspace.workspaceFolders = [folder];
  /* eslint-disable @typescript-eslint/no-require-imports */
  const { FolderBindings } = require('../../src/folder/FolderBindings') as typeof BindingsModule;
  const { FolderServerItem } = require('../../src/views/FolderServerItem') as typeof ItemModule;
  /* eslint-enable @typescript-eslint/no-require-imports */
  const memory = new Map<string, unknown>();
  const memento = {
    get: <T>(key: string, fallback?: T): T | undefined => (memory.get(key) as T | undefined) ?? fallback,
    update: (key: string, value: unknown) => Promise.resolve(void memory.set(key, value)),
    keys: () => [...memory.keys()],
  };
  const bindings = new FolderBindings(memento);
  const item = new FolderServerItem(views.model, bindings);
  try {
    const { store } = views.model.first;
    await store.refresh(['orders'], 'user');
    const order = store.orders.all[0];
    if (!order) throw new Error('the mock listed no server');
    await bindings.bind(folder.uri as never, { accountId: views.model.first.id, orderId: order.id });
    mock.clearLog();
    const texts = new Set<string>();
    for (let i = 0; i < refreshes; i++) {
      mock.state.setOrderStatus(order.id, i % 2 ? 'running' : 'stopped');
      await store.refresh(['orders'], 'user');
      if (item.view.kind !== 'listed') throw new Error(`the item shows ${item.view.kind}, not the bound server`);
      texts.add(item.item.text);
    }
    const requests = apiRequests(mock).length;
    const extra = requests - refreshes;
    return [
      {
        id: 'folderItemRequests',
        label: "requests the folder's server item adds while its server changes state",
        value: `${extra}`,
        budget: '0',
        met: extra === 0,
        detail: `${refreshes} list refreshes asked for, ${requests} requests made; the item live and redrawn (${texts.size} texts shown)`,
      },
    ];
  } finally {
    item.dispose();
    bindings.dispose();
    views.dispose();
    workspace.workspaceFolders = undefined;
    await mock.close();
  }
}
