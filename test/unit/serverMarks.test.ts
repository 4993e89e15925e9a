import assert from 'node:assert/strict';
import type * as vscode from 'vscode';
import { SERVER_MARKS_KEY, ServerMarks } from '../../src/accounts/ServerMarks';

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
});
