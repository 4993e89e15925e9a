import assert from 'node:assert/strict';
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { JSON_BOUNDS, JSON_COST, type JsonBound, JsonTooComplex, parseJson } from '../../src/api/json';
import { bigIntegerLists, ownNamesList, serverPage, underWorkBound } from '../mock-api/hugeBodies';

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

function refusal(text: string): JsonBound | undefined {
  try {
    parseJson(text);
    return undefined;
  } catch (error) {
    assert.ok(error instanceof JsonTooComplex, String(error));
    return error.bound;
  }
}

const list = (count: number, item: (i: number) => string): string =>
  `[${Array.from({ length: count }, (_, i) => item(i)).join(',')}]`;

/** `count` items in arrays of at most `JSON_BOUNDS.entries`, so only the bound under test is met. */
const lists = (count: number, item: (i: number) => string): string => {
  const parts: string[] = [];
  for (let from = 0; from < count; from += JSON_BOUNDS.entries) {
    parts.push(list(Math.min(JSON_BOUNDS.entries, count - from), (i) => item(from + i)));
  }
  return `[${parts.join(',')}]`;
};

describe('JSON reading within bounds (unit)', () => {
  it('reads any JSON as JSON.parse does', () => {
    fc.assert(
      fc.property(jsonText, (text) => {
        assert.ok(sameAsJsonParse(parseJson(text), JSON.parse(text)));
      }),
      { numRuns: 400 },
    );
  });

  it('throws a SyntaxError exactly where JSON.parse does', () => {
    const mutated = fc
      .tuple(jsonText, fc.nat(), fc.constantFrom('', ',', ']', '}', '"', ':', '[', '{', 'x', '\\', '1', '0', ' '))
      .map(([text, at, insert]) => {
        const i = text.length ? at % text.length : 0;
        return at % 2 ? text.slice(0, i) + insert + text.slice(i) : text.slice(0, i) + insert + text.slice(i + 1);
      });
    fc.assert(
      fc.property(fc.oneof(mutated, fc.string({ maxLength: 12 })), (text) => {
        let valid = true;
        try {
          JSON.parse(text);
        } catch {
          valid = false;
        }
        try {
          parseJson(text);
          assert.ok(valid, `accepted ${JSON.stringify(text)}`);
        } catch (error) {
          assert.ok(error instanceof SyntaxError, String(error));
          assert.ok(!valid, `refused ${JSON.stringify(text)}: ${String(error)}`);
        }
      }),
      { numRuns: 1000 },
    );
  });

  it('keeps the exact digits of an id beyond 2^53, and nothing else changes', () => {
    const text =
      '{"a":[9007199254740993,-12345678901234567890,1.5,9007199254740991, 123456789012345678901 ],' +
      '"b":{"id":9007199254740993},"c":"12345678901234567890","d":1.2345678901234567890,"e":12345678901234567e3}';
    assert.deepEqual(parseJson(text), {
      a: ['9007199254740993', '-12345678901234567890', 1.5, 9007199254740991, '123456789012345678901'],
      b: { id: '9007199254740993' },
      c: '12345678901234567890',
      d: 1.2345678901234567,
      e: 12345678901234567e3,
    });
    assert.equal(parseJson('12345678901234567890'), '12345678901234567890');
    assert.deepEqual(parseJson('[\n  12345678901234567890\n]'), ['12345678901234567890']);
    // Not JSON before, not JSON after: a large integer as a field name, or with a leading zero.
    assert.throws(() => parseJson('{12345678901234567890:1}'), SyntaxError);
    assert.throws(() => parseJson('[01234567890123456789]'), SyntaxError);
  });

  it('refuses values nested deeper than the bound before anything walks them, however deep', () => {
    const nested = (depth: number): string => `{"keep":1,"deep":${'['.repeat(depth - 1)}${']'.repeat(depth - 1)}}`;
    assert.equal(refusal(nested(JSON_BOUNDS.depth)), undefined);
    assert.equal(refusal(nested(JSON_BOUNDS.depth + 1)), 'depth');
    assert.equal(refusal('['.repeat(1_000_000)), 'depth');
    assert.equal(refusal(`${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}`), 'depth');
  });

  it('refuses an array of more entries, or an object of more members, than the bounds', () => {
    assert.equal(refusal(list(JSON_BOUNDS.entries, () => '1')), undefined);
    assert.equal(refusal(list(JSON_BOUNDS.entries + 1, () => '1')), 'entries');
    const object = (members: number): string =>
      `{${Array.from({ length: members }, (_, i) => `"k${i}":${i}`).join(',')}}`;
    assert.equal(refusal(object(JSON_BOUNDS.members)), undefined);
    assert.equal(refusal(object(JSON_BOUNDS.members + 1)), 'members');
  });

  it('refuses an answer that would keep JSON.parse busy, within the bounds of each array and object', () => {
    const over = (cost: number): number => Math.ceil(JSON_BOUNDS.work / cost) + 1;
    assert.equal(refusal(lists(over(JSON_COST.value), () => '1')), 'work');
    assert.equal(refusal(lists(over(JSON_COST.container + JSON_COST.value), () => '{}')), 'work');
    const wide = (i: number): string => `{${Array.from({ length: 200 }, (_, k) => `"k${k}":${i}`).join(',')}}`;
    assert.equal(refusal(lists(over(200 * JSON_COST.wideMember), wide)), 'work');
    // Each object its own field names: JSON.parse makes a hidden class for each (seconds for 10 MB of them). They
    // are counted by hash, a few percent under.
    assert.equal(refusal(lists(1.1 * over(JSON_COST.nameOrder), (i) => `{"k${i}":0}`)), 'work');
  });

  it('reads the 10 MB bodies just under the work bound that the bench measures, and refuses 10 MB of own names', () => {
    for (const [kind, body] of Object.entries(underWorkBound())) assert.equal(refusal(body), undefined, kind);
    assert.equal(refusal(ownNamesList()), 'work');
  });

  it('reads a page of 20,000 orders written the way that costs JSON.parse most of any honest API', () => {
    // BILLmanager wraps every value in an object of its own: the most objects per byte of the providers read.
    const fixture = readFileSync(join(__dirname, '../../../test/fixtures/providers/billmanager/orders.json'), 'utf8');
    const entry = JSON.stringify((JSON.parse(fixture) as { doc: { elem: unknown[] } }).doc.elem[0]);
    const body = `{"doc":{"elem":${list(JSON_BOUNDS.entries, (i) => entry.replace('"$":"', `"$":"${i}`))}}}`;
    assert.ok(body.length > 4_500_000, `${body.length}`);
    assert.equal(refusal(body), undefined);
  });

  it('reads an honest page of 1,073 servers of 150 fields each, wider than V8 keeps an object fast', () => {
    const page = parseJson(serverPage(1_073)) as { data: Array<Record<string, unknown>> };
    assert.equal(page.data.length, 1_073);
    assert.equal(Object.keys(page.data[1_072] ?? {}).length, 150);
    // Wide objects whose names are their own still count as before: 10 MB of them are refused.
    assert.equal(
      refusal(lists(20_000, (i) => `{${Array.from({ length: 150 }, (_, k) => `"n${i}_${k}":0`).join(',')}}`)),
      'work',
    );
  });

  it('counts the work of keeping integers beyond 2^53 exact: 10 MB of them are refused, a page of big ids is read', () => {
    assert.equal(refusal(bigIntegerLists()), 'work');
    const ids = (
      parseJson(lists(20_000, (i) => `{"id":${9_007_199_254_740_993n + BigInt(i)}}`)) as Array<Array<{ id: string }>>
    )[0];
    assert.equal(ids?.[19_999]?.id, '9007199254760992');
    assert.deepEqual(
      parseJson('[9007199254740991,9007199254740992,-9007199254740991,-9007199254740992,1000000000000000]'),
      [9007199254740991, '9007199254740992', -9007199254740991, '-9007199254740992', 1000000000000000],
    );
  });

  it('reads "__proto__" as a field, never as the prototype', () => {
    const value = parseJson('{"__proto__":{"polluted":true},"constructor":{"prototype":1},"id":1}') as object;
    assert.equal(Object.getPrototypeOf(value), Object.prototype);
    assert.deepEqual(Object.keys(value), ['__proto__', 'constructor', 'id']);
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
  });

  it('skips a byte-order mark', () => {
    assert.deepEqual(parseJson('\ufeff{"a":1}'), { a: 1 });
  });
});
