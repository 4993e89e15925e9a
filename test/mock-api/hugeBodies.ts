// Valid bodies just under the client's 10 MiB cap whose size lies in their count, not their depth: a list of
// hundreds of thousands of tiny orders, and one order with hundreds of thousands of fields. For benchmarks and tests
// of bounded reading; built on demand, once per process.

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
