import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { type ConnectProxy, startConnectProxy } from '../unit/helpers/connectProxy';
import { makeTestCa, startTlsFront, type TestCa, type TlsFront } from '../unit/helpers/tlsFront';
import { Harness } from './harness';

const SLOT = Symbol.for('undici.globalDispatcher.1');

describe('proxy: behind an HTTP proxy with TLS inspection', () => {
  let h: Harness;
  let ca: TestCa;
  let front: TlsFront;
  let proxy: ConnectProxy;
  let previousExtraCerts: string | undefined;

  before(async () => {
    h = await Harness.start();
    ca = await makeTestCa();
    front = await startTlsFront(h.mock.port, ca);
    proxy = await startConnectProxy();
    // What a user behind TLS inspection sets before starting VS Code; the extension reads it when it builds a client.
    previousExtraCerts = process.env.NODE_EXTRA_CA_CERTS;
    process.env.NODE_EXTRA_CA_CERTS = ca.caFile;
  });

  after(async () => {
    await vscode.workspace.getConfiguration('http').update('proxy', undefined, vscode.ConfigurationTarget.Global);
    if (previousExtraCerts === undefined) delete process.env.NODE_EXTRA_CA_CERTS;
    else process.env.NODE_EXTRA_CA_CERTS = previousExtraCerts;
    await h.dispose();
    await proxy.close();
    await front.close();
    ca.remove();
  });

  it('shows the orders through http.proxy from the user settings, one CONNECT per connection, the slot untouched', async () => {
    const slotBefore = Object.getOwnPropertyDescriptor(globalThis, SLOT)?.value as unknown;
    await vscode.workspace.getConfiguration('http').update('proxy', proxy.url, vscode.ConfigurationTarget.Global);
    await h.setSetting('baseUrl', `https://api.test:${front.port}`);
    await h.signIn();

    const nodes = await h.api.orders.getChildren();
    assert.equal(nodes.length, h.mock.state.orders.length);
    assert.ok(h.requests('GET /api/v1/orders').length > 0, 'the API saw the requests');
    assert.ok(proxy.connects.length >= 1);
    assert.equal(proxy.connects.length, front.connections, 'exactly one CONNECT per connection');
    assert.ok(
      proxy.connects.every((c) => c.target === `api.test:${front.port}`),
      JSON.stringify(proxy.connects.map((c) => c.target)),
    );
    assert.deepEqual(proxy.plain, []);
    assert.match(
      await h.logText(),
      new RegExp(`GET /api/v1/orders → 200 in \\d+ ms \\(via proxy ${proxy.address.replace(/\./g, '\\.')}`),
    );
    assert.equal(
      Object.getOwnPropertyDescriptor(globalThis, SLOT)?.value as unknown,
      slotBefore,
      'the global dispatcher slot is as it was',
    );
  });
});
