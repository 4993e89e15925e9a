import { type BaseUrl } from './baseUrl';
import { type Listing } from './models';
import { nextPagePath, readPageInfo } from './pagination';
import { type TransportResponse } from './transport';

export interface RawResponse {
  readonly json: unknown;
  readonly headers: TransportResponse['headers'];
  readonly bytes: number;
}

export interface Page<T> {
  readonly items: readonly T[];
  /** Entries that were bare ids: part of the list, read elsewhere. */
  readonly ids?: readonly string[];
  readonly skipped: number;
}

export interface PageWalk<T> {
  readonly baseUrl: BaseUrl;
  readonly maxPages: number;
  // Over all the pages together.
  readonly maxBytes: number;
  get(path: string): Promise<RawResponse>;
  parse(path: string, response: RawResponse): Page<T> | Promise<Page<T>>;
  warn(message: string): void;
}

export async function readAllPages<T>(firstPath: string, what: string, walk: PageWalk<T>): Promise<Listing<T>> {
  const items: T[] = [];
  let skipped = 0;
  let ids = 0;
  let total: number | undefined;
  // A total counts the skipped entries too: only one above everything seen means pages are missing.
  const finish = (stoppedBy?: Listing<T>['stoppedBy']): Listing<T> => {
    if (stoppedBy) walk.warn(`${what}: stopped reading pages after ${items.length} entries (${stoppedBy})`);
    return { items, total: total !== undefined && total > items.length + ids + skipped ? total : undefined, stoppedBy };
  };
  const seen = new Set<string>();
  let bytes = 0;
  let path = firstPath;
  for (let pages = 0; ; pages++) {
    if (pages >= walk.maxPages) return finish('pageLimit');
    if (bytes >= walk.maxBytes) return finish('sizeLimit');
    seen.add(path);
    const response = await walk.get(path);
    bytes += response.bytes;
    await yieldIfLarge(response);
    const page = await walk.parse(path, response);
    for (const item of page.items) items.push(item);
    ids += page.ids?.length ?? 0;
    skipped += page.skipped;
    if (page.skipped) walk.warn(`${what}: ${page.skipped} entries on ${path} could not be read and were skipped`);
    const info = readPageInfo(response.json, response.headers.link);
    total ??= info.total;
    if (!info.next) return finish();
    const next = nextPagePath(walk.baseUrl, info.next, path);
    if (next === undefined) return finish('outsideApi');
    if (seen.has(next)) return finish('cycle');
    path = next;
  }
}

const LARGE_BODY_BYTES = 1024 * 1024;

// Lets the rest of the extension host run between parsing a large body and normalising it.
export function yieldIfLarge(response: RawResponse): Promise<void> | undefined {
  return response.bytes > LARGE_BODY_BYTES ? new Promise((resolve) => setImmediate(resolve)) : undefined;
}
