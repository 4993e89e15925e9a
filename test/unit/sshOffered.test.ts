import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ORDER_ACTIONS, type OrderAction, type OrderState } from '../../src/api/models';
import { hasAnyAddress, sshListed, sshOffered } from '../../src/ssh/sshOffered';
import { orderLook, withAddress } from '../../src/views/orders/orderPresentation';

interface MenuEntry {
  readonly command: string;
  readonly when?: string;
}

const root = join(__dirname, '..', '..', '..');
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  contributes: { menus: Record<string, MenuEntry[]> };
};
const itemMenus = manifest.contributes.menus['view/item/context'] ?? [];
const STATES: OrderState[] = ['running', 'stopped', 'busy', 'suspended', 'unknown'];

function viewItemRegex(when: string | undefined): RegExp {
  const match = /viewItem =~ \/(.+?)\/(?:\s|$)/.exec(when ?? '');
  assert.ok(match?.[1], `no viewItem clause in ${when}`);
  return new RegExp(match[1]);
}

describe('SSH: the one rule for where it is offered (unit)', () => {
  it('offers SSH on running and unknown servers with an address, with no action of ours under way', () => {
    const order = (state: OrderState, address?: string) => ({ state, address, addresses: address ? [address] : [] });
    assert.equal(sshOffered(order('running', '203.0.113.5')), true);
    assert.equal(sshOffered(order('unknown', '203.0.113.5')), true);
    for (const state of ['stopped', 'busy', 'suspended'] as const) {
      assert.equal(sshOffered(order(state, '203.0.113.5')), false, state);
    }
    assert.equal(sshOffered(order('running')), false);
    for (const action of ORDER_ACTIONS) assert.equal(sshOffered(order('running', '203.0.113.5'), action), false);
    assert.equal(sshOffered({ state: 'running', addresses: ['203.0.113.5'] }), true);
    assert.equal(hasAnyAddress({ address: '' }), false);
  });

  it('says exactly what the tree menu says for Connect via SSH and Open in Remote-SSH', () => {
    for (const command of ['hostingAccount.order.connectSsh', 'hostingAccount.order.openRemoteSsh']) {
      const entries = itemMenus.filter((e) => e.command === command);
      assert.equal(entries.length, 1, command);
      const regex = viewItemRegex(entries[0]?.when);
      for (const state of STATES) {
        for (const pending of [undefined, ...ORDER_ACTIONS] as Array<OrderAction | undefined>) {
          for (const address of [undefined, '203.0.113.5']) {
            const order = { state, address, addresses: address ? [address] : undefined };
            const contextValue = withAddress(orderLook(state, pending).contextValue, order);
            assert.equal(regex.test(contextValue), sshOffered(order, pending), `${command} on ${contextValue}`);
          }
        }
      }
    }
  });

  it('lists from the palette also a server that would be offered but for refused addresses, and nothing more', () => {
    for (const state of STATES) {
      for (const pending of [undefined, ...ORDER_ACTIONS] as Array<OrderAction | undefined>) {
        const refused = { state, refusedAddresses: [{ value: '-oProxyCommand=x', problem: 'option' }] };
        const usable = { state, address: '203.0.113.5', addresses: ['203.0.113.5'] };
        assert.equal(sshListed(refused, pending), sshOffered(usable, pending), `${state} ${pending ?? ''}`);
        assert.equal(sshListed(usable, pending), sshOffered(usable, pending));
        assert.equal(sshListed({ state }, pending), false);
      }
    }
  });
});
