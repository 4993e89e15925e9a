import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { History, journal } from '../../src/accounts/History';
import { type OutsideChange } from '../../src/store/outsideChanges';
import { Store } from '../../src/store/Store';
import { FakeApi, FAKE_KEY, settlingOnly } from './helpers/FakeApi';
import { FakeClock } from './helpers/FakeClock';

/** One VS Code window on the account: its own store, its own journal over the file both windows share. */
interface Window {
  readonly store: Store;
  readonly history: History;
  /** What it told as changed outside. */
  readonly told: string[];
  dispose(): void;
}

describe('one account in two windows: one journal file (unit, in memory, fake clock)', () => {
  let dir: string;
  let clock: FakeClock;
  let api: FakeApi;
  let windows: Window[];
  const errors: unknown[] = [];

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'journal-'));
    clock = new FakeClock();
    api = new FakeApi(clock);
    windows = [];
    errors.length = 0;
  });
  afterEach(() => {
    for (const window of windows) window.dispose();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  async function open(): Promise<Window> {
    const store = new Store({
      createClient: api.createClient,
      getKey: () => Promise.resolve(FAKE_KEY),
      settings: () => ({ baseUrl: 'https://api.example.test', requestsPerMinute: 100, requestTimeoutMs: 5_000 }),
      clock,
    });
    const scheduler = settlingOnly(store, clock);
    const history = new History(
      path.join(dir, 'history', 'default.jsonl'),
      () => clock.now(),
      (error) => errors.push(error),
    );
    const told: string[] = [];
    const seen = (changes: readonly OutsideChange[]): void =>
      void told.push(...changes.map((c) => `${c.kind} ${c.id}`));
    const parts = journal(store, history, (error) => error.kind, seen);
    await store.keyChanged();
    await store.refresh(['orders'], 'background');
    const window = {
      store,
      history,
      told,
      dispose: () => [...parts, scheduler, store, history].forEach((part) => part.dispose()),
    };
    windows.push(window);
    return window;
  }

  /** Both windows' queued reads and writes done, and the checks they started. */
  async function written(): Promise<void> {
    for (let i = 0; i < 3; i++) for (const { history } of windows) await history.read();
  }

  const lines = async (id: string): Promise<string[]> =>
    (
      await new History(
        path.join(dir, 'history', 'default.jsonl'),
        () => clock.now(),
        (error) => assert.fail(String(error)),
      ).read()
    )
      .filter((e) => e.id === id)
      .map((e) => [e.kind, e.action, e.source, e.to].filter(Boolean).join(' '));

  it('a Stop sent in one window is recorded once and never told as outside in the other, which read it stopping', async () => {
    const [a, b] = [await open(), await open()];
    await a.store.runAction('1001', 'stop', 'menu');
    await written();
    await clock.advance(1_000);
    await b.store.refresh(['orders'], 'background');
    assert.equal(b.store.orders.get('1001')?.state, 'busy', 'the other window saw it stopping');
    for (let i = 0; i < 30 && a.store.pending('1001'); i++) await clock.advance(1_000);
    assert.equal(a.store.pending('1001'), undefined, 'settled');
    await written();
    await b.store.refresh(['orders'], 'background');
    await written();
    assert.equal(b.store.orders.get('1001')?.state, 'stopped');
    assert.deepEqual(await lines('1001'), ['sent stop menu', 'settled stop menu stopped']);
    assert.deepEqual([a.told, b.told], [[], []]);
    // A window opened later, after the stop, reads it as it is: no news either.
    const c = await open();
    await written();
    assert.deepEqual(c.told, []);
    assert.deepEqual(errors, []);
  });

  it('a window that had not read the list for an hour still knows the other window stopped it', async () => {
    const [a, b] = [await open(), await open()];
    await clock.advance(30 * 60_000);
    await a.store.runAction('1002', 'stop', 'palette');
    for (let i = 0; i < 30 && a.store.pending('1002'); i++) await clock.advance(1_000);
    await written();
    await clock.advance(30 * 60_000);
    await b.store.refresh(['orders'], 'background');
    await written();
    assert.deepEqual(b.told, []);
    assert.deepEqual(await lines('1002'), ['sent stop palette', 'settled stop palette stopped']);
  });

  it('tells a change made elsewhere after the action settled, and one an action refused by the server does not explain', async () => {
    const [a, b] = [await open(), await open()];
    await a.store.runAction('1001', 'stop', 'menu');
    for (let i = 0; i < 30 && a.store.pending('1001'); i++) await clock.advance(1_000);
    await written();
    await b.store.refresh(['orders'], 'background');
    api.setState('1001', 'running');
    await clock.advance(60_000);
    await b.store.refresh(['orders'], 'background');
    await written();
    assert.deepEqual(b.told, ['running 1001']);
    // Stopped again elsewhere: the user's Stop was over before this window saw it running.
    api.setState('1001', 'stopped');
    await clock.advance(60_000);
    await b.store.refresh(['orders'], 'background');
    await written();
    assert.deepEqual(b.told, ['running 1001', 'stopped 1001']);
    // A Start of 1003 the server refused: 1003 started by someone else is still news.
    api.on({ method: 'orderAction', fail: 'invalidRequest', times: 1 });
    await a.store.runAction('1003', 'start', 'menu').catch(() => undefined);
    await written();
    api.setState('1003', 'running');
    await clock.advance(60_000);
    await b.store.refresh(['orders'], 'background');
    await written();
    assert.deepEqual(b.told, ['running 1001', 'stopped 1001', 'running 1003']);
    assert.deepEqual(await lines('1003'), ['sent start menu', 'running running']);
  });
});
