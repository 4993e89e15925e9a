// Generators behind the hostile corpus (hostile.ts). Bodies are built on demand, never stored, so the corpus costs
// nothing until an entry is used.
import { createSeed, generateOrder } from './data';
import { type RawAnswer } from './types';

export const JSON_HEADERS: Record<string, string> = { 'Content-Type': 'application/json; charset=utf-8' };

/** `{"key":{"key":…inner…}}` with `depth` levels, built without recursion. */
export function nest(key: string, depth: number, inner: string): string {
  return `{"${key}":`.repeat(depth) + inner + '}'.repeat(depth);
}

/** A small, valid standard-shape order list, for entries whose hostility is in the headers. */
export function validOrderList(): string {
  const [first] = createSeed().orders;
  return JSON.stringify({ data: first === undefined ? [] : [first], meta: { total: first === undefined ? 0 : 1 } });
}

/** An order list written as raw JSON text, so ids can be numbers JSON.stringify could never produce. */
export function rawOrderList(orders: readonly { idJson: string; name: string }[]): string {
  const items = orders.map((o) => `{"id":${o.idJson},"name":${JSON.stringify(o.name)},"status":"running"}`);
  return `{"data":[${items.join(',')}],"meta":{"total":${orders.length}}}`;
}

/** Valid standard-shape orders, serialised, from `firstId` on until they fill `bytes` (commas included). */
function ordersFilling(firstId: number, bytes: number): string[] {
  const parts: string[] = [];
  let size = 0;
  for (let id = firstId; size < bytes; id++) {
    const json = JSON.stringify(generateOrder(id, id - firstId));
    parts.push(json);
    size += json.length + 1;
  }
  return parts;
}

let tenMebibytes: string | undefined;

/** A valid order list of at least 10 MiB (about 37,000 orders), for benchmarks; built once per process. */
export function orderList10MB(): string {
  if (tenMebibytes === undefined) {
    const parts = ordersFilling(100_000, 10 * 1024 * 1024);
    tenMebibytes = `{"data":[${parts.join(',')}],"meta":{"total":${parts.length}}}`;
  }
  return tenMebibytes;
}

export const ENDLESS_PAGE_BYTES = 1.25 * 1024 * 1024;

/**
 * Page N of a chain that never ends: about 1.25 MiB of valid orders, and a next page announced in every dialect
 * (`links.next`, `Link`, `next_page_url`, and `last_page` always one ahead).
 */
export function endlessPage(rawPath: string, baseUrl: string): RawAnswer {
  const q = rawPath.indexOf('?');
  const pathOnly = q === -1 ? rawPath : rawPath.slice(0, q);
  const param = new URLSearchParams(q === -1 ? '' : rawPath.slice(q + 1)).get('page') ?? '1';
  const page = /^[1-9]\d{0,8}$/.test(param) ? Number(param) : 1;
  const next = `${baseUrl}${pathOnly}?page=${page + 1}`;
  const tail =
    `],"meta":{"page":${page}},"links":{"next":${JSON.stringify(next)}},` +
    `"next_page_url":${JSON.stringify(next)},"current_page":${page},"last_page":${page + 1}}`;
  return {
    status: 200,
    headers: { ...JSON_HEADERS, Link: `<${next}>; rel="next"` },
    body: `{"data":[${ordersFilling(page * 10_000, ENDLESS_PAGE_BYTES).join(',')}${tail}`,
  };
}

/** An HTTP date (IMF-fixdate) for a moment in 2099, as servers write Retry-After. */
export const RETRY_DATE_2099 = new Date(Date.UTC(2099, 0, 1)).toUTCString();
