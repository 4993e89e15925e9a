import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  bindFolder,
  bindingOf,
  MAX_BINDINGS,
  MAX_SUGGESTIONS,
  NO_BINDINGS,
  NO_SUGGESTIONS,
  noteSuggested,
  readBindings,
  readSuggestions,
  renameBound,
  unbindFolder,
  unbindAccount,
  wasSuggested,
} from '../../src/folder/bindings';

const APP = 'file:///home/dev/app';
const SITE = 'vscode-remote://ssh-remote%2Bweb/srv/site';
const T = Date.parse('2026-11-01T10:00:00Z');

describe('folder server: binding records (unit)', () => {
  it('binds, rebinds and unbinds a folder, and reads its binding back', () => {
    let stored = bindFolder(NO_BINDINGS, APP, { accountId: 'default', orderId: '101' }, T);
    stored = bindFolder(stored, SITE, { accountId: 'k3x9', orderId: ' 7' }, T + 1);
    assert.deepEqual(bindingOf(stored, APP), { accountId: 'default', orderId: '101', boundAt: T });
    assert.deepEqual(bindingOf(stored, SITE), { accountId: 'k3x9', orderId: ' 7', boundAt: T + 1 });
    stored = bindFolder(stored, APP, { accountId: 'default', orderId: '102' }, T + 2);
    assert.deepEqual(
      stored.folders.map((f) => [f.folder, f.orderId]),
      [
        [SITE, ' 7'],
        [APP, '102'],
      ],
      'a rebound folder moves to the end (the newest)',
    );
    assert.equal(bindingOf(unbindFolder(stored, APP), APP), undefined);
    assert.deepEqual(readBindings(JSON.parse(JSON.stringify(stored))), stored, 'round trip through JSON');
  });

  it('refuses to store what it would not read back', () => {
    for (const [folder, accountId, orderId] of [
      ['not a uri', 'default', '1'],
      ['', 'default', '1'],
      [APP, 'Default', '1'],
      [APP, 'x'.repeat(33), '1'],
      [APP, 'default', ''],
      [APP, 'default', 'x'.repeat(257)],
      [APP, 'default', '\udc00'],
      [`file:///${'a'.repeat(3_000)}`, 'default', '1'],
    ] as const) {
      assert.throws(() => bindFolder(NO_BINDINGS, folder, { accountId, orderId }, T), RangeError);
    }
    assert.throws(() => bindFolder(NO_BINDINGS, APP, { accountId: 'default', orderId: '1' }, Number.NaN), RangeError);
  });

  it("keeps the server's name as last seen, only when it can be read back, and renames every folder bound to it", () => {
    let stored = bindFolder(NO_BINDINGS, APP, { accountId: 'default', orderId: '101', name: 'web-01' }, T);
    stored = bindFolder(stored, SITE, { accountId: 'default', orderId: '101', name: 'x'.repeat(121) }, T);
    stored = bindFolder(stored, 'file:///other', { accountId: 'default', orderId: '102', name: 'db' }, T);
    assert.deepEqual(bindingOf(stored, APP), { accountId: 'default', orderId: '101', boundAt: T, name: 'web-01' });
    assert.equal(bindingOf(stored, SITE)?.name, undefined, 'too long a name is left out, the binding kept');
    assert.equal(
      bindFolder(NO_BINDINGS, APP, { accountId: 'k1', orderId: '1', name: 'a\ud800' }, T).folders[0]?.name,
      undefined,
    );
    const renamed = renameBound(stored, 'default', '101', 'web-02');
    assert.deepEqual(
      renamed.folders.map((f) => f.name),
      ['web-02', 'web-02', 'db'],
    );
    assert.equal(renameBound(renamed, 'default', '101', 'web-02'), renamed, 'nothing changed: the same record');
    assert.equal(renameBound(renamed, 'default', '101', '').folders[0]?.name, undefined, 'an unfit name is dropped');
    assert.deepEqual(readBindings(JSON.parse(JSON.stringify(renamed))), renamed);
    // A stored name that is not exactly right drops the entry, like any other field.
    const good = { folder: APP, accountId: 'default', orderId: '101', boundAt: T };
    for (const name of [42, '', 'x'.repeat(121), '\udc00']) {
      assert.deepEqual(readBindings({ version: 1, folders: [{ ...good, name }] }), NO_BINDINGS, String(name));
    }
  });

  it('drops the bindings of a removed account', () => {
    let stored = bindFolder(NO_BINDINGS, APP, { accountId: 'default', orderId: '1' }, T);
    stored = bindFolder(stored, SITE, { accountId: 'k1', orderId: '1' }, T);
    stored = bindFolder(stored, 'file:///x', { accountId: 'k1', orderId: '2' }, T);
    assert.deepEqual(
      unbindAccount(stored, 'k1').folders.map((f) => f.folder),
      [APP],
    );
  });

  it('reads back distrustfully: anything not exactly right is dropped, never repaired', () => {
    const good = { folder: APP, accountId: 'default', orderId: '101', boundAt: T };
    const junk: unknown[] = [
      null,
      'text',
      [good],
      { ...good, folder: 42 },
      { ...good, folder: 'no-scheme' },
      { ...good, folder: 'file:///a b' },
      { ...good, accountId: 'ALLCAPS' },
      { ...good, accountId: undefined },
      { ...good, orderId: 101 },
      { ...good, orderId: '' },
      { ...good, boundAt: '2026-11-01' },
      { ...good, boundAt: -1 },
      { ...good, boundAt: 1.5 },
      { ...good, boundAt: Number.MAX_VALUE },
    ];
    assert.deepEqual(readBindings({ version: 1, folders: [...junk, good] }), { version: 1, folders: [good] });
    for (const raw of [undefined, null, 42, 'x', [], { version: 2, folders: [good] }, { version: 1, folders: {} }]) {
      assert.deepEqual(readBindings(raw), NO_BINDINGS, JSON.stringify(raw));
    }
    // An id is kept exactly, spaces and all; extra fields are not carried.
    assert.deepEqual(readBindings({ version: 1, folders: [{ ...good, orderId: ' 101 ', extra: 'x' }] }).folders, [
      { ...good, orderId: ' 101 ' },
    ]);
    const twice = readBindings({ version: 1, folders: [good, { ...good, orderId: '102' }] });
    assert.deepEqual(twice.folders, [{ ...good, orderId: '102' }], 'the newest entry of a folder wins');
  });

  it('keeps at most MAX_BINDINGS, the most recent, however much is stored', () => {
    let stored = NO_BINDINGS;
    for (let i = 0; i < MAX_BINDINGS + 20; i++) {
      stored = bindFolder(stored, `file:///f${i}`, { accountId: 'default', orderId: String(i) }, T + i);
    }
    assert.equal(stored.folders.length, MAX_BINDINGS);
    assert.equal(stored.folders[0]?.folder, 'file:///f20');
    const huge = {
      version: 1,
      folders: Array.from({ length: 1_000_000 }, (_, i) => ({
        folder: `file:///f${i}`,
        accountId: 'default',
        orderId: String(i),
        boundAt: T,
      })),
    };
    const read = readBindings(huge);
    assert.equal(read.folders.length, MAX_BINDINGS);
    assert.equal(read.folders.at(-1)?.folder, 'file:///f999999');
  });

  it('never throws on any stored value, and reads its own writes back unchanged (property)', () => {
    fc.assert(
      fc.property(fc.anything(), (raw) => {
        const read = readBindings(raw);
        assert.deepEqual(readBindings(JSON.parse(JSON.stringify(read)) as unknown), read);
        readSuggestions(raw);
      }),
    );
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            folder: fc.webUrl(),
            accountId: fc.stringMatching(/^[\da-z]{1,32}$/),
            orderId: fc.string({ minLength: 1, maxLength: 40 }),
            at: fc.nat(),
          }),
          { maxLength: 20 },
        ),
        (entries) => {
          let stored = NO_BINDINGS;
          for (const e of entries) {
            try {
              stored = bindFolder(stored, e.folder, e, e.at);
            } catch (error) {
              assert.ok(error instanceof RangeError);
            }
          }
          assert.deepEqual(readBindings(JSON.parse(JSON.stringify(stored)) as unknown), stored);
        },
      ),
    );
  });

  it('remembers a suggestion once per folder, and the team file once per folder and account', () => {
    let stored = noteSuggested(NO_SUGGESTIONS, APP, 'sources', undefined, T);
    stored = noteSuggested(stored, APP, 'teamFile', 'k1', T);
    assert.equal(wasSuggested(stored, APP, 'sources'), true);
    assert.equal(wasSuggested(stored, SITE, 'sources'), false);
    assert.equal(wasSuggested(stored, APP, 'teamFile', 'k1'), true);
    assert.equal(wasSuggested(stored, APP, 'teamFile', 'default'), false);
    assert.equal(wasSuggested(stored, APP, 'teamFile'), false);
    assert.deepEqual(readSuggestions(JSON.parse(JSON.stringify(stored))), stored);
    assert.throws(() => noteSuggested(stored, APP, 'teamFile', undefined, T), RangeError);
    assert.throws(() => noteSuggested(stored, APP, 'sources', 'k1', T), RangeError);
    assert.deepEqual(
      readSuggestions({
        version: 1,
        entries: [
          { folder: APP, kind: 'other', at: T },
          { folder: APP, kind: 'sources', accountId: 'k1', at: T },
          { folder: APP, kind: 'teamFile', at: T },
          { folder: APP, kind: 'teamFile', accountId: 'k1', at: -5 },
        ],
      }),
      NO_SUGGESTIONS,
    );
    let many = NO_SUGGESTIONS;
    for (let i = 0; i < MAX_SUGGESTIONS + 5; i++) many = noteSuggested(many, `file:///f${i}`, 'sources', undefined, T);
    assert.equal(many.entries.length, MAX_SUGGESTIONS);
    assert.equal(wasSuggested(many, 'file:///f0', 'sources'), false, 'the oldest go first');
  });
});
