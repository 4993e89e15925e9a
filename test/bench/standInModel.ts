/**
 * The extension's account model and Orders view on the `vscode` stand-in, against a mock API: what the tree and the
 * commands are built on in the extension, for the benchmarks that measure them in plain Node.
 */
import type * as ModelModule from '../../src/accounts/AccountModel';
import type * as LogModule from '../../src/log';
import type * as ArrangementModule from '../../src/views/orders/OrdersArrangement';
import type * as TreeModule from '../../src/views/orders/OrdersTree';
import { DEMO_API_KEY } from '../mock-api/server';
import { installStandIn, standIn, standInContext, standInSettings } from './vscodeStandIn';

export interface StandInViews {
  readonly model: ModelModule.AccountModel;
  readonly tree: TreeModule.OrdersTree;
  dispose(): void;
}

/** One account (the first) on `baseUrl` with the demo key; nothing is read in the background (window unfocused). */
export async function standInViews(baseUrl: string): Promise<StandInViews> {
  installStandIn();
  standInSettings['hostingAccount.baseUrl'] = baseUrl;
  // Loaded after the stand-in, so their `require('vscode')` finds it.
  /* eslint-disable @typescript-eslint/no-require-imports */
  const { AccountModel } = require('../../src/accounts/AccountModel') as typeof ModelModule;
  const { Log } = require('../../src/log') as typeof LogModule;
  const { OrdersArrangement } = require('../../src/views/orders/OrdersArrangement') as typeof ArrangementModule;
  const { OrdersTree } = require('../../src/views/orders/OrdersTree') as typeof TreeModule;
  /* eslint-enable @typescript-eslint/no-require-imports */
  const context = standInContext({
    'hostingAccount.apiKey': DEMO_API_KEY,
  }) as ModelModule.AccountModelOptions['context'];
  const log = new Log(standIn.window.createOutputChannel() as unknown as ConstructorParameters<typeof Log>[0]);
  const model = new AccountModel({ context, log, userAgent: 'bench' });
  model.setVisibility({ ordersVisible: false, invoicesVisible: false, focused: false });
  await model.first.keyChanged();
  const arrangement = new OrdersArrangement(model, context.globalState);
  const tree = new OrdersTree(model, arrangement);
  return {
    model,
    tree,
    dispose: () => {
      tree.dispose();
      arrangement.dispose();
      model.dispose();
    },
  };
}
