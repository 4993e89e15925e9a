import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { History, type HistoryEvent, MAX_AGE_MS, MAX_EVENTS, parse } from '../../src/accounts/History';
import { serverText } from '../../src/util/serverText';

describe('the history of an account (unit, on disk)', () => {
  let dir: string;
  let file: string;
  let now: number;
  const errors: unknown[] = [];
  const journal = (): History =>
    new History(
      file,
      () => now,
      (error) => errors.push(error),
    );
  const event = (i: number, extra: Partial<HistoryEvent> = {}): HistoryEvent => ({
    at: now - 1_000 + i,
    id: String(1000 + (i % 7)),
    kind: 'sent',
    name: serverText(`web-${i}`),
    action: 'stop',
    source: 'menu',
    ...extra,
  });
  const lines = (): string[] => fs.readFileSync(file, 'utf8').split('\n').filter(Boolean);

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'history-'));
    file = path.join(dir, 'history', 'acct.jsonl');
    now = Date.UTC(2025, 5, 1, 10, 3);
    errors.length = 0;
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('writes one JSON line per event, with the text cut to its bound, and reads it back in another instance', async () => {
    const first = journal();
    first.append([event(1, { name: serverText('x'.repeat(500)), error: 'no answer in time' })]);
    first.append([
      {
        at: now,
        id: '1001',
        kind: 'stopped',
        name: serverText('web-1'),
        from: 'running',
        to: 'stopped',
        since: now - 60_000,
      },
    ]);
    await first.read();
    assert.deepEqual(
      lines().map((line) => Object.keys(JSON.parse(line) as object)),
      [
        ['at', 'id', 'kind', 'name', 'action', 'source', 'error'],
        ['at', 'id', 'kind', 'name', 'from', 'to', 'since'],
      ],
    );
    const restarted = await journal().read();
    assert.equal(restarted.length, 2);
    assert.equal(restarted[0]?.name, serverText('x'.repeat(80)));
    assert.equal(restarted[1]?.since, now - 60_000);
    assert.equal(journal().last('1001'), undefined, 'not read yet: the tooltip does not wait for the disk');
    assert.deepEqual(errors, []);
  });

  it('keeps the last 500 events and none older than 90 days, and compacts the file', async () => {
    const history = journal();
    history.append([event(0, { at: now - MAX_AGE_MS - 1 })]);
    history.append(Array.from({ length: 2 * MAX_EVENTS + 10 }, (_, i) => event(i + 1)));
    const kept = await history.read();
    assert.equal(kept.length, MAX_EVENTS);
    assert.equal(kept.at(-1)?.name, serverText(`web-${2 * MAX_EVENTS + 10}`), 'the newest kept');
    assert.ok(lines().length <= MAX_EVENTS + MAX_EVENTS / 10, `compacted: ${lines().length} lines`);
    now += MAX_AGE_MS + 2_000;
    assert.equal((await history.read()).length, 0, '90 days later: nothing');
    assert.deepEqual(errors, []);
  });

  it('skips damaged lines and wrong fields, counting them, never failing', async () => {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const good = JSON.stringify(event(1));
    fs.writeFileSync(
      file,
      [
        good,
        '{"at": 1, "id": ',
        '\u0000\u0001garbage',
        JSON.stringify({ ...event(2), kind: 'exploded' }),
        JSON.stringify({ ...event(3), id: 42 }),
        JSON.stringify({ ...event(4), name: 'y'.repeat(5_000) }),
        JSON.stringify({ ...event(5), action: 'format', note: 'extra' }),
        '[1,2,3]',
        JSON.stringify(event(6)),
      ].join('\n') + '\n{"at":',
    );
    const events = await journal().read();
    assert.deepEqual(
      events.map((e) => [e.name, e.action]),
      [
        [serverText('web-1'), 'stop'],
        [serverText('web-5'), undefined],
        [serverText('web-6'), 'stop'],
      ],
    );
    assert.equal(parse('', now).events.length, 0);
    assert.deepEqual(errors.map(String), ['Error: 7 unreadable lines skipped'], 'counted, for the log');
  });

  it("keeps the user's own actions when 600 changes seen after them would push them out: each has its own room", async () => {
    const history = journal();
    history.append([event(0, { id: 'web-01', kind: 'sent', action: 'stop' })]);
    history.append([event(1, { id: 'web-01', kind: 'settled', action: 'stop', to: 'stopped', source: undefined })]);
    // One glitch as a provider's empty list then the whole list again would write it: 300 gone, 300 back.
    history.append(
      Array.from({ length: 600 }, (_, i) =>
        event(i + 2, { id: `s${i % 300}`, kind: i < 300 ? 'disappeared' : 'appeared' }),
      ),
    );
    const kept = await history.read();
    assert.deepEqual(
      kept.filter((e) => e.id === 'web-01').map((e) => e.kind),
      ['sent', 'settled'],
      'the Stop and its outcome are still there',
    );
    assert.equal(kept.filter((e) => e.kind === 'disappeared' || e.kind === 'appeared').length, MAX_EVENTS);
    assert.equal(kept.at(-1)?.kind, 'appeared', 'the newest change seen kept');
    assert.deepEqual(errors, []);
  });

  it('reads a line holding a member named constructor, toString or __proto__, skips and counts a bad one, and still compacts', async () => {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const members = ['constructor', 'toString', '__proto__', 'hasOwnProperty'];
    const odd = members.map(
      (member, i) => `{"at":${now - 500 + i},"id":"odd-${i}","kind":"stopped","${member}":{"x":1}}`,
    );
    const bad = ['{"at":1,"id":', '{"__proto__":{"at":1,"id":"p","kind":"sent"}}', '{"constructor":"sent"}'];
    const many = Array.from({ length: 2 * MAX_EVENTS + 10 }, (_, i) => JSON.stringify(event(i)));
    fs.writeFileSync(file, `${[...odd, ...bad, ...many].join('\n')}\n`);
    const history = journal();
    const events = await history.read();
    assert.deepEqual(
      events.filter((e) => e.kind === 'stopped').map((e) => [e.id, Object.keys(e).sort()]),
      members.map((_, i) => [`odd-${i}`, ['at', 'id', 'kind']]),
      'read, with our fields only',
    );
    assert.equal(events.filter((e) => e.kind === 'sent').length, MAX_EVENTS);
    assert.equal(history.skipped, bad.length, 'the bad lines counted');
    assert.equal(errors.length, 1, 'told once, in the log');
    assert.match(String(errors[0]), /3 unreadable lines skipped/);
    assert.ok(lines().length <= MAX_EVENTS + 4, `compacted: ${lines().length} lines`);
    assert.equal((await journal().read()).length, MAX_EVENTS + 4, 'the compacted file reads whole');
    assert.equal(({} as Record<string, unknown>).x, undefined, 'no prototype touched');
  });

  it('keeps new events when earlier ones were stamped a year ahead by a wrong clock', async () => {
    const history = journal();
    const yearAhead = now + 365 * 86_400_000;
    history.append(Array.from({ length: MAX_EVENTS }, (_, i) => event(i, { at: yearAhead + i })));
    history.append(Array.from({ length: MAX_EVENTS }, (_, i) => event(i, { kind: 'stopped', at: yearAhead + i })));
    await history.read();
    history.append([event(1, { id: 'now', kind: 'sent' }), event(2, { id: 'now', kind: 'stopped' })]);
    assert.deepEqual(
      (await history.read()).slice(-2).map((e) => [e.id, e.kind]),
      [
        ['now', 'sent'],
        ['now', 'stopped'],
      ],
    );
    assert.equal(history.last('now')?.kind, 'stopped');
    // The clock set back a year: nothing is lost, and what comes is kept.
    now -= 365 * 86_400_000;
    history.append([event(3, { id: 'back', kind: 'sent', at: now })]);
    const kept = await history.read();
    assert.equal(kept.at(-1)?.id, 'back');
    assert.equal(kept.length, 2 * MAX_EVENTS);
    assert.deepEqual(errors, []);
  });

  it('two windows appending at once lose none of each other’s events, compactions included', async () => {
    const a = journal();
    const b = journal();
    const both = async (from: number, count: number): Promise<void> => {
      for (let i = from; i < from + count; i++) {
        a.append([event(i, { id: 'a', at: now + i })]);
        b.append([event(i, { id: 'b', at: now + i })]);
        // Now and then a turn of the event loop, so writes and compactions interleave.
        if (i % 50 === 0) await new Promise((resolve) => setImmediate(resolve));
      }
      await Promise.all([a.read(), b.read()]);
    };
    await both(0, 240);
    const all = (await journal().read()).map((e) => `${e.id}${e.at - now}`).sort();
    const expected = ['a', 'b'].flatMap((id) => Array.from({ length: 240 }, (_, i) => `${id}${i}`)).sort();
    assert.deepEqual(all, expected, 'every event of both');
    await both(240, 600);
    // The last 500 appended: each window's newest, however their writes interleaved.
    const newest = await journal().read();
    assert.equal(newest.length, MAX_EVENTS);
    for (const id of ['a', 'b']) {
      const kept = newest.filter((e) => e.id === id).map((e) => e.at - now);
      const first = 840 - kept.length;
      assert.ok(kept.length >= 150, `${id}: ${kept.length} of the last 500`);
      assert.deepEqual(
        kept,
        Array.from({ length: kept.length }, (_, i) => first + i),
        `${id}: its newest, in order`,
      );
    }
    assert.ok(lines().length < 4 * MAX_EVENTS, `compacted: ${lines().length} lines`);
    for (const line of lines()) JSON.parse(line);
    assert.deepEqual(errors, []);
  });

  it('keeps a line another window appends to the old file while this one compacts', async () => {
    const history = journal();
    const rename = fs.promises.rename;
    const other = `${JSON.stringify(event(0, { id: 'other', at: now + 5_000 }))}\n`;
    // The other window appends just before the rename: to the file being replaced.
    fs.promises.rename = async (from, to) => {
      await fs.promises.appendFile(file, other);
      return rename(from, to);
    };
    try {
      history.append(Array.from({ length: 2 * MAX_EVENTS + 1 }, (_, i) => event(i)));
      await history.read();
    } finally {
      fs.promises.rename = rename;
    }
    assert.ok(lines().length <= MAX_EVENTS + 1, 'compacted');
    assert.equal((await journal().read()).at(-1)?.id, 'other');
    assert.deepEqual(errors, []);
  });

  it('keeps a line another window opened the file for before a compaction and wrote after it', async () => {
    const other = journal();
    other.append([event(0)]);
    await other.read();
    const open = fs.promises.open;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let opened!: () => void;
    const isOpen = new Promise<void>((resolve) => (opened = resolve));
    // The other window's append holds the old file open until this one has compacted and read the late lines.
    fs.promises.open = async (...args: Parameters<typeof open>) => {
      const handle = await open(...args);
      if (args[1] === 'a') {
        fs.promises.open = open;
        opened();
        await gate;
      }
      return handle;
    };
    try {
      other.append([event(1, { id: 'late', at: now + 5_000 })]);
      await isOpen;
      const history = journal();
      history.append(Array.from({ length: 2 * MAX_EVENTS + 1 }, (_, i) => event(i)));
      await history.read();
      assert.ok(lines().length <= MAX_EVENTS + 1, 'compacted');
    } finally {
      fs.promises.open = open;
      release();
    }
    await other.read();
    const events = await journal().read();
    assert.equal(events.at(-1)?.id, 'late');
    assert.equal(events.filter((e) => e.id === 'late').length, 1, 'once');
    assert.deepEqual(errors, []);
  });

  it('one window compacts at a time; a lock left by a window that died is cleared', async () => {
    const history = journal();
    history.append([event(0)]);
    await history.read();
    fs.mkdirSync(`${file}.lock`);
    history.append(Array.from({ length: 2 * MAX_EVENTS + 1 }, (_, i) => event(i)));
    await history.read();
    assert.ok(lines().length > 2 * MAX_EVENTS, 'not compacted while another window holds the lock');
    const old = new Date(Date.now() - 120_000);
    fs.utimesSync(`${file}.lock`, old, old);
    history.append([event(2_000)]);
    await history.read();
    assert.ok(!fs.existsSync(`${file}.lock`), 'the stale lock is cleared');
    history.append([event(2_001)]);
    await history.read();
    assert.ok(lines().length <= MAX_EVENTS + 1, `compacted: ${lines().length} lines`);
    assert.deepEqual(errors, []);
  });

  it('writes again once its folder can be made, after a failure it reported', async () => {
    fs.writeFileSync(path.dirname(file), 'not a folder');
    const history = journal();
    history.append([event(1)]);
    await history.read();
    assert.equal(errors.length > 0, true, 'the failure was reported');
    fs.rmSync(path.dirname(file));
    history.append([event(2)]);
    await history.read();
    assert.deepEqual(
      lines().map((l) => (JSON.parse(l) as HistoryEvent).name),
      ['web-2'],
    );
  });

  it('removing the account removes its journal, and nothing is written after', async () => {
    const history = journal();
    history.append([event(1)]);
    await history.read();
    assert.ok(fs.existsSync(file));
    await history.remove();
    history.append([event(2)]);
    await history.read();
    assert.equal(fs.existsSync(file), false);
  });
});
