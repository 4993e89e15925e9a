import * as assert from 'node:assert/strict';
import { type ApiShape } from '../mock-api/server';
import { useSession } from './session';
import { dialogButton, signIn } from './signIn';
import { timeouts } from './workbench';

/**
 * Servers that follow the spec with conventions of their own: resource documents paged by `links.next`, and a
 * page-number paginator that gives no next link at all. With two orders a page, the order added last sits alone on
 * the last page: reaching it takes every page.
 */
for (const shape of ['jsonapi', 'paged'] as const satisfies readonly ApiShape[]) {
  describe(`a user of a "${shape}" server sees every order and stops the one on the last page`, () => {
    const session = useSession({ mock: { shape, pageSize: 2, transitionMs: 2_500 } });
    let last = '';
    let lastId = '';

    it('signs in and sees every order, on every page, and the balance', async () => {
      const { mock, workbench } = session();
      const [added] = mock.state.addOrders(1);
      assert.ok(added);
      mock.state.setOrderStatus(added.id, 'running');
      last = added.name;
      lastId = String(added.id);
      await signIn(session());
      const orders = workbench.view('Orders');
      for (const order of mock.state.orders) {
        await workbench.rowByText(order.name, orders).waitFor({ timeout: timeouts.ui });
      }
      await workbench.statusBarItem(/€42\.50/).waitFor({ timeout: timeouts.ui });
      assert.match(await workbench.rowByText(last, orders).innerText(), /Running/);
      assert.match(await workbench.rowByText('staging-box', orders).innerText(), /Stopped/);
      await workbench.screenshot(`${shape} server: orders from every page`);
    });

    it('stops the order on the last page: one POST, to that order', async () => {
      const { mock, workbench } = session();
      const row = workbench.rowByText(last, workbench.view('Orders'));
      await workbench.contextMenu(row, 'Stop');
      await dialogButton(session(), 'Stop').click();
      await row.filter({ hasText: /Stopped/ }).waitFor({ timeout: timeouts.ui });
      await workbench.screenshot(`${shape} server: last order stopped`);
      const posts = mock.requests.filter((r) => r.method === 'POST');
      assert.deepEqual(
        posts.map((r) => r.rawPath),
        [`/api/v1/orders/${lastId}/action`],
      );
      assert.equal(posts[0]?.body, '{"action":"stop"}');
    });
  });
}
