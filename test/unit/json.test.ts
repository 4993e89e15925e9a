import assert from 'node:assert/strict';
import fc from 'fast-check';
import { MAX_JSON_DEPTH, omittedEntries, parseJsonBody, readJsonBody, TOO_DEEP_MARKER } from '../../src/api/json';

/** `JSON.parse`'s value, except that integers beyond 2^53 are the exact digits as a string (as ours reads them). */
function sameAsJsonParse(ours: unknown, theirs: unknown): boolean {
  if (typeof ours === 'string' && typeof theirs === 'number') {
    return /^-?\d+$/.test(ours) && !Number.isSafeInteger(theirs) && Number(ours) === theirs;
  }
  if (Array.isArray(ours) && Array.isArray(theirs)) {
    return ours.length === theirs.length && ours.every((item, i) => sameAsJsonParse(item, theirs[i]));
  }
  if (typeof ours === 'object' && ours !== null && typeof theirs === 'object' && theirs !== null) {
    const a = Object.keys(ours);
    const b = Object.keys(theirs);
    return (
      a.length === b.length &&
      a.every(
        (key, i) =>
          key === b[i] &&
          sameAsJsonParse((ours as Record<string, unknown>)[key], (theirs as Record<string, unknown>)[key]),
      )
    );
  }
  return Object.is(ours, theirs) || (ours === 0 && theirs === 0);
}

/** JSON texts of a few levels, written compactly or with odd spacing, small enough never to meet a bound. */
const jsonText = fc
  .tuple(fc.jsonValue({ maxDepth: 6 }), fc.constantFrom(undefined, 1, '\t', ' \r\n'))
  .map(([value, space]) => JSON.stringify(value, null, space));

describe('JSON reading, bounded and in slices (unit)', () => {
  it('reads any JSON as JSON.parse does, whole or taken apart into runs of any size', () => {
    fc.assert(
      fc.property(jsonText, fc.integer({ min: 1, max: 64 }), (text, runChars) => {
        const theirs: unknown = JSON.parse(text);
        assert.ok(sameAsJsonParse(parseJsonBody(text), theirs), 'whole');
        assert.ok(sameAsJsonParse(parseJsonBody(text, { runChars }), theirs), `runs of ${runChars}`);
      }),
      { numRuns: 400 },
    );
  });

  it('throws a SyntaxError exactly where JSON.parse does, whatever the runs', () => {
    const mutated = fc
      .tuple(jsonText, fc.nat(), fc.constantFrom('', ',', ']', '}', '"', ':', '[', '{', 'x', '\\', '1', ' '))
      .map(([text, at, insert]) => {
        const i = text.length ? at % text.length : 0;
        return at % 2 ? text.slice(0, i) + insert + text.slice(i) : text.slice(0, i) + insert + text.slice(i + 1);
      });
    fc.assert(
      fc.property(
        fc.oneof(mutated, fc.string({ maxLength: 12 })),
        fc.integer({ min: 1, max: 32 }),
        (text, runChars) => {
          let valid = true;
          try {
            JSON.parse(text);
          } catch {
            valid = false;
          }
          for (const bounds of [{}, { runChars }]) {
            try {
              parseJsonBody(text, bounds);
              assert.ok(valid, `accepted ${JSON.stringify(text)} with ${JSON.stringify(bounds)}`);
            } catch (error) {
              assert.ok(error instanceof SyntaxError, String(error));
              assert.ok(!valid, `refused ${JSON.stringify(text)} with ${JSON.stringify(bounds)}: ${String(error)}`);
            }
          }
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('keeps integers beyond 2^53 exact, in a run and taken apart', () => {
    const text = '{"a":[9007199254740993,-12345678901234567890,1.5,9007199254740991],"b":{"id":9007199254740993}}';
    const expected = {
      a: ['9007199254740993', '-12345678901234567890', 1.5, 9007199254740991],
      b: { id: '9007199254740993' },
    };
    for (const runChars of [undefined, 1, 8]) assert.deepEqual(parseJsonBody(text, { runChars }), expected);
  });

  it('cuts values nested deeper than the bound at the same depth, in a run and taken apart', () => {
    const depth = MAX_JSON_DEPTH + 10;
    const text = `{"keep":1,"deep":${'['.repeat(depth)}"x"${']'.repeat(depth)},"after":2}`;
    for (const runChars of [undefined, 1, 16]) {
      const value = parseJsonBody(text, { runChars }) as { deep: unknown; after: number };
      let node: unknown = value.deep;
      let levels = 1;
      while (Array.isArray(node)) {
        node = node[0];
        levels++;
      }
      assert.equal(node, TOO_DEEP_MARKER);
      assert.equal(levels, MAX_JSON_DEPTH, `${runChars}`);
      assert.equal(value.after, 2);
    }
  });

  it('builds at most the bounded number of entries and members, and counts the rest', () => {
    const list = `[${Array.from({ length: 50 }, (_, i) => `{"id":${i}}`).join(',')}]`;
    for (const runChars of [undefined, 8]) {
      const read = parseJsonBody(list, { maxArrayItems: 20, runChars }) as unknown[];
      assert.equal(read.length, 20);
      assert.equal(omittedEntries(read), 30);
      assert.deepEqual(read[19], { id: 19 });
    }
    const wide = `{"id":1,${Array.from({ length: 40 }, (_, i) => `"k${i}":[${i}]`).join(',')}}`;
    const order = parseJsonBody(`[${wide}]`, { maxObjectKeys: 10 }) as Array<Record<string, unknown>>;
    assert.equal(Object.keys(order[0] ?? {}).length, 10);
    assert.equal(omittedEntries(order[0]), 31);
    assert.equal(omittedEntries(order), 0);
    // A container breaking a bound deep inside a small text is taken apart just the same.
    const nested = parseJsonBody(`{"a":{"b":${list}}}`, { maxArrayItems: 5 }) as { a: { b: unknown[] } };
    assert.equal(nested.a.b.length, 5);
    assert.equal(omittedEntries(nested.a.b), 45);
  });

  it('reads "__proto__" as a field, never as the prototype, in a run and taken apart', () => {
    const text = '{"__proto__":{"polluted":true},"constructor":{"prototype":1},"id":1}';
    for (const runChars of [undefined, 1, 20, 40, 64]) {
      const value = parseJsonBody(text, { runChars }) as Record<string, unknown>;
      assert.equal(Object.getPrototypeOf(value), Object.prototype);
      assert.deepEqual(Object.keys(value), ['__proto__', 'constructor', 'id']);
      assert.equal(({} as Record<string, unknown>).polluted, undefined);
    }
  });

  it('skips a byte-order mark', () => {
    assert.deepEqual(parseJsonBody('\ufeff{"a":1}'), { a: 1 });
  });

  it('reads in slices, letting the event loop turn, to the same value', async () => {
    const text = `[${Array.from({ length: 3_000 }, (_, i) => `{"id":${i},"name":"n${i}"}`).join(',')}]`;
    let turns = 0;
    const ticking = setInterval(() => turns++, 0);
    const value = await readJsonBody(text, { sliceMs: 0, runChars: 512 });
    clearInterval(ticking);
    assert.deepEqual(value, JSON.parse(text));
    assert.ok(turns > 0, 'the event loop turned while reading');
  });
});
