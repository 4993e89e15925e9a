// Valid bodies just under the client's 10 MiB cap whose size lies in their count, not their depth: a list of
// hundreds of thousands of tiny orders, one order with hundreds of thousands of fields, objects each with names of
// their own, and the costliest bodies json.ts still reads. For benchmarks and tests of bounded reading; built on
// demand.
import { JSON_BOUNDS, JSON_COST } from '../../src/api/json';

/** The client's response cap, less room for the headers' share of the count. */
const UNDER_CAP = 10 * 1024 * 1024 - 4096;

let tinyOrders: { body: string; count: number } | undefined;
let wideOrder: { body: string; fields: number } | undefined;

/** `[{"id":1},{"id":2},…]`: about 757,000 orders of 8 to 14 bytes each. */
export function tinyOrderList(): { body: string; count: number } {
  if (tinyOrders === undefined) {
    const parts: string[] = [];
    let size = 2;
    for (let id = 1; ; id++) {
      const part = `{"id":${id}}`;
      if (size + part.length + 1 > UNDER_CAP) break;
      parts.push(part);
      size += part.length + 1;
    }
    tinyOrders = { body: `[${parts.join(',')}]`, count: parts.length };
  }
  return tinyOrders;
}

/** `[{"id":1,"name":"wide","status":"running","f0":0,…,"pad":"…"}]`: one order of 620,000 fields, padded to the cap. */
export function wideOrderList(): { body: string; fields: number } {
  if (wideOrder === undefined) {
    const parts = ['"id":1', '"name":"wide"', '"status":"running"'];
    for (let i = 0; parts.length < 619_999; i++) parts.push(`"f${i}":${i}`);
    const head = `[{${parts.join(',')},"pad":"`;
    const tail = '"}]';
    const pad = 'x'.repeat(Math.max(0, UNDER_CAP - head.length - tail.length));
    wideOrder = { body: head + pad + tail, fields: parts.length + 1 };
  }
  return wideOrder;
}

/** `{"data":…,"pad":"xxx…"}`: `inner` padded with one long string to just under the cap. */
function padded(inner: string): string {
  return `{"data":${inner},"pad":"${'x'.repeat(Math.max(0, UNDER_CAP - inner.length - 20))}"}`;
}

/** `count` items in arrays of 20,000 (the most one array may hold), in one array. */
function lists(count: number, item: (i: number) => string): string {
  const parts: string[] = [];
  for (let from = 0; from < count; from += 20_000) {
    const items: string[] = [];
    for (let i = from; i < Math.min(count, from + 20_000); i++) items.push(item(i));
    parts.push(`[${items.join(',')}]`);
  }
  return `[${parts.join(',')}]`;
}

/** An object of `width` members named `k<from>`, `k<from+1>`…: field names no other object has. */
function ownNames(width: number, from: number): string {
  const members: string[] = [];
  for (let k = from; k < from + width; k++) members.push(`"k${k}":0`);
  return `{${members.join(',')}}`;
}

/** 10 MB of objects of 100 members, each with field names of its own: JSON.parse takes seconds over it. */
export function ownNamesList(): string {
  const parts: string[] = [];
  let size = 2;
  for (let from = 0; size < UNDER_CAP - 2_000; from += 100) {
    const part = ownNames(100, from);
    parts.push(part);
    size += part.length + 1;
  }
  return `[${parts.join(',')}]`;
}

/**
 * An object of 500 members whose names every such object shares: V8 makes it a dictionary (past 127), and names of its
 * own would count more each (they are bounded as new hidden classes), so these are the most of them an answer holds.
 */
function wideObject(): string {
  return `{${Array.from({ length: 500 }, (_, k) => `"k${k}":0`).join(',')}}`;
}

export type WorkKind = 'containers' | 'values' | 'wideMembers' | 'nameOrders' | 'all';

/**
 * Bodies of one costly kind each (and of all four), just under the work json.ts lets JSON.parse do, padded to the
 * cap: the most an answer may make it do. A test checks that each is read, not refused.
 */
export function underWorkBound(): Record<WorkKind, string> {
  const { work } = JSON_BOUNDS;
  const count = (share: number, cost: number): number => Math.floor((0.98 * share * work) / cost);
  const { container, value, string, wideMember, nameOrder } = JSON_COST;
  const kinds = (share: number): string[] => [
    lists(count(share, container + value), () => '{}'),
    lists(count(share, value + string), () => '"ab"'),
    `[${Array.from({ length: count(share, 500 * (wideMember + value + string)) }, wideObject).join(',')}]`,
    lists(count(share, nameOrder + container + value + string), (i) => ownNames(1, i)),
  ];
  const [containers, values, wideMembers, nameOrders] = kinds(1) as [string, string, string, string];
  return {
    containers: padded(containers),
    values: padded(values),
    wideMembers: padded(wideMembers),
    nameOrders: padded(nameOrders),
    all: padded(`[${kinds(0.25).join(',')}]`),
  };
}

/** `[[12345678901234567890,…],…]`: 10 MB of integers beyond 2^53, in arrays of 20,000 (the most one may hold). */
export function bigIntegerLists(): string {
  // Twenty digits and a comma each.
  const count = Math.floor((UNDER_CAP - 1_000) / 21);
  return lists(count, (i) => String(12_345_678_901_234_567_890n + BigInt(i)));
}

/**
 * `{"data":[…]}`: `count` servers of `fields` fields as a panel that writes every value as text sends them: an
 * honest page, wider than V8 keeps an object fast (128 fields).
 */
export function serverPage(count: number, fields = 150): string {
  const servers: string[] = [];
  for (let i = 0; i < count; i++) {
    const members = [`"id":${100_000 + i}`, `"name":"web-${i}"`, `"status":"running"`];
    for (let k = members.length; k < fields; k++) members.push(`"field_${k}":"value ${k} of server ${i}"`);
    servers.push(`{${members.join(',')}}`);
  }
  return `{"data":[${servers.join(',')}]}`;
}
