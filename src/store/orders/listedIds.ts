import { type CallOptions } from '../../api/ApiClient';
import { type Order } from '../../api/models';
import { serverText } from '../../util/serverText';
import { type ApiClientLike, type IdListReading } from '../types';

const DETAILS_MAX_AGE_MS = 10 * 60_000;
const MAX_DETAIL_READS = 100;
/** The limiter paces them: a queue of a hundred would only crowd it. */
const AT_ONCE = 4;

export interface KnownDetails {
  readonly order: Order;
  readonly at: number;
}

/** A server whose details failed is asked again a minute later, then doubling to 10 minutes (the user's Refresh asks). */
export interface DetailsBook {
  known(id: string): KnownDetails | undefined;
  missed(id: string): { readonly retryAt: number; readonly waitMs: number } | undefined;
  keep(order: Order): void;
  miss(id: string): void;
}

/**
 * Settling ones first, then ones never read, so a long list is read whole over a few refreshes; then, on the user's
 * Refresh, the rest; stale ones oldest first, a tenth of the list per refresh (a list read every minute spreads them).
 */
export function idsToRead(
  ids: readonly string[],
  { known, missed }: Pick<DetailsBook, 'known' | 'missed'>,
  now: number,
  how: { readonly user: boolean; readonly settling: (id: string) => boolean },
): string[] {
  const due = (id: string): boolean => (missed(id)?.retryAt ?? 0) <= now;
  const unread = ids.filter((id) => !known(id) && due(id));
  const fresh = new Set([...ids.filter(how.settling), ...unread, ...(how.user ? ids : [])]);
  const stale = ids
    .filter((id) => !fresh.has(id) && due(id) && now - (known(id)?.at ?? 0) >= DETAILS_MAX_AGE_MS)
    .sort((a, b) => (known(a)?.at ?? 0) - (known(b)?.at ?? 0))
    .slice(0, Math.ceil(ids.length / 10));
  return [...fresh, ...stale].slice(0, MAX_DETAIL_READS);
}

export function byIdOnly(id: string, detailsMissing: Order['detailsMissing']): Order {
  return { id, label: serverText(`#${id}`), state: 'unknown', raw: { id }, detailsMissing };
}

/** Each as read now (in the background lane), or as last read, or by its id alone. */
export async function readListedIds(
  ids: readonly string[],
  api: ApiClientLike,
  options: CallOptions,
  book: DetailsBook,
  toRead: readonly string[],
): Promise<{ orders: Order[]; reading: IdListReading }> {
  const failed = new Set(ids.filter((id) => book.missed(id)));
  const queue = [...toRead];
  const worker = async (): Promise<void> => {
    for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
      try {
        book.keep(await api.getOrder(id, { signal: options.signal, priority: 'background' }));
        failed.delete(id);
      } catch (error) {
        if (options.signal?.aborted) throw error;
        failed.add(id);
        book.miss(id);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(AT_ONCE, queue.length) }, worker));
  const wanted = new Set(toRead);
  let notYet = 0;
  const orders = ids.map((id) => {
    const last = book.known(id)?.order;
    if (!last && !wanted.has(id) && !failed.has(id)) notYet++;
    return last ?? byIdOnly(id, failed.has(id) ? 'failed' : 'notYet');
  });
  return { orders, reading: { count: ids.length, failed: failed.size, notYet } };
}
