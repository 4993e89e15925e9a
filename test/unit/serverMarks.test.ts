import assert from 'node:assert/strict';
import type * as vscode from 'vscode';
import { GONE_MS, MAX_MARKS, SERVER_MARKS_KEY, ServerMarks, idPairs } from '../../src/accounts/ServerMarks';
import { ApiError } from '../../src/api/errors';
import { type Order } from '../../src/api/models';
import { parseFieldMap, orderIdsOf } from '../../src/api/normalise/fieldMap';
import { type Slot } from '../../src/store/types';
import { serverText } from '../../src/util/serverText';

function memento(initial: Record<string, unknown> = {}): vscode.Memento {
  const values = new Map(Object.entries(initial));
  return {
    keys: () => [...values.keys()],
    get: <T>(key: string, fallback?: T) => (values.has(key) ? (values.get(key) as T) : fallback),
    update: (key: string, value: unknown) => {
      values.set(key, value);
      return Promise.resolve();
    },
  };
}

describe('the marks on servers: protected, pinned, labels (unit)', () => {
  it('keeps each account apart under one synced key, and drops a mark once it says nothing', async () => {
    const state = memento();
    const first = new ServerMarks(state, 'default');
    const second = new ServerMarks(state, 'b2');
    let told = 0;
    first.onDidChange(() => told++);
    await first.set('1001', { protected: true, label: ' prod ' });
    await second.set('1001', { pinned: true });
    assert.deepEqual(first.of('1001'), { protected: true, label: 'prod' });
    assert.equal(second.isProtected('1001'), false, 'the same id in another account is another server');
    assert.equal(second.anyPinned, true);
    await first.set('1001', { protected: false, label: '' });
    assert.deepEqual(state.get(SERVER_MARKS_KEY), { default: {}, b2: { '1001': { pinned: true } } });
    assert.equal(told, 2);
  });

  it('reads back only what it could have written: booleans true, labels short and on one line', () => {
    const hostile = {
      default: {
        a: { protected: 'yes', pinned: 1, label: `x\u001b[31m${'y'.repeat(500)}` },
        b: { protected: true },
        ['i'.repeat(300)]: { protected: true },
      },
    };
    const marks = new ServerMarks(memento({ [SERVER_MARKS_KEY]: hostile }), 'default');
    const label = marks.of('a').label ?? '';
    assert.equal(marks.of('a').protected, undefined);
    assert.equal(marks.of('a').pinned, undefined);
    assert.ok(label.length <= 40 && !label.includes('\u001b'), label);
    assert.equal(marks.isProtected('b'), true);
    assert.equal(marks.isProtected('i'.repeat(300)), false);
  });

  it('keeps the marks of servers whose ids are __proto__, constructor and toString, through the JSON globalState keeps', async () => {
    const state = memento();
    const marks = new ServerMarks(state, 'default');
    for (const id of ['__proto__', 'constructor', 'toString']) {
      assert.deepEqual(marks.of(id), {}, `${id} is no mark before one is set`);
      await marks.set(id, { protected: true, pinned: true, label: id });
    }
    // What VS Code stores and reads back, and what Settings Sync carries.
    const synced = JSON.parse(JSON.stringify(state.get(SERVER_MARKS_KEY))) as unknown;
    const read = new ServerMarks(memento({ [SERVER_MARKS_KEY]: synced }), 'default');
    for (const id of ['__proto__', 'constructor', 'toString']) {
      assert.equal(read.isProtected(id), true, id);
      assert.deepEqual(read.of(id), { protected: true, pinned: true, label: id });
    }
  });

  it(`refuses a mark past ${MAX_MARKS} loudly and claims nothing; changes and removals still go`, async () => {
    const full = Object.fromEntries(Array.from({ length: MAX_MARKS }, (_, i) => [`s${i}`, { pinned: true }]));
    const state = memento({ [SERVER_MARKS_KEY]: { default: full } });
    const marks = new ServerMarks(state, 'default');
    assert.equal(await marks.set('production', { protected: true }), false, 'refused');
    assert.equal(marks.isProtected('production'), false);
    await marks.set('s1', { protected: true });
    assert.equal(marks.isProtected('s1'), true, 'a server marked already takes another mark');
    await marks.set('s2', { pinned: false });
    await marks.set('production', { protected: true });
    assert.equal(marks.isProtected('production'), true, 'a removed mark makes room');
  });

  it('lets a mark go once complete list reads miss its server for 30 days, never on a failed or partial one', async () => {
    const marks = new ServerMarks(memento(), 'default');
    await marks.set('web', { protected: true });
    await marks.set('old', { pinned: true });
    const day = 86_400_000;
    /** The store's slot of the orders after a read at `at` that listed `ids`. */
    const read = (at: number, ids: string[], more: Partial<Slot<readonly Order[]>> = {}) => {
      const value = ids.map((id) => ({ id, label: serverText(id), state: 'running' as const, raw: {} }));
      return marks.seen({ value, updatedAt: at, loading: false, ...more }, at);
    };
    await read(1_000 * day, ['web'], { coverage: { shown: 1, stoppedBy: 'pageLimit' } });
    await read(1_000 * day + 1, ['web'], { coverage: { shown: 1, total: 2 } });
    await read(1_000 * day + 2, [], { error: new ApiError('server', 'down') });
    assert.deepEqual(marks.of('old'), { pinned: true }, 'a cut, short or failed read says nothing');
    await read(1_000 * day + 3, ['web']);
    assert.equal(marks.of('old').gone, 1_000 * day + 3, 'missed since this read');
    await read(1_000 * day + GONE_MS, ['web']);
    assert.equal(marks.of('old').pinned, true, 'not yet 30 days');
    await read(1_000 * day + GONE_MS + 1, ['web', 'old']);
    assert.deepEqual(marks.of('old'), { pinned: true }, 'back in the list');
    await read(1_100 * day, []);
    await read(1_100 * day + GONE_MS, []);
    assert.deepEqual([marks.of('web'), marks.of('old')], [{}, {}]);
  });

  it('moves the marks with their servers when ids are read from another field, and says which cannot follow', async () => {
    const answer = {
      data: [
        { id: 'production', serial: 'srv-1' },
        { id: 'staging', serial: 'srv-2' },
        { id: 'a', serial: 'twin' },
        { id: 'b', serial: 'twin' },
        { id: 'no-serial' },
      ],
    };
    const before = orderIdsOf(undefined);
    const after = orderIdsOf(parseFieldMap({ pointers: { id: '/serial' } }));
    const pairs = idPairs(before, after, answer);
    const marks = new ServerMarks(memento(), 'default');
    for (const id of ['production', 'a', 'no-serial', 'gone-box']) {
      await marks.set(id, { protected: true, pinned: true });
    }
    assert.deepEqual(marks.lostBy(pairs), ['no-serial', 'gone-box']);
    await marks.move(pairs);
    assert.deepEqual(marks.of('srv-1'), { protected: true, pinned: true });
    assert.equal(marks.isProtected('production'), false);
    assert.equal(marks.isProtected('twin'), true, 'two servers read as one id: both protected, neither acted on');
    assert.deepEqual(marks.lostBy(idPairs(before, before, answer)), [], 'ids read alike lose nothing');
    assert.deepEqual(marks.lostBy(idPairs(before, after, undefined)).length, 4, 'no answer: nothing can follow');
  });
});
