import { type BaseUrl } from './baseUrl';
import { field, isObject } from './normalise/read';
import { type RawObject } from './models';

export type NextPage =
  | { readonly kind: 'link'; readonly link: string }
  | { readonly kind: 'param'; readonly name: string; readonly value: string };

export interface PageInfo {
  readonly next?: NextPage;
  readonly total?: number;
}

const MAX_LINK_HEADER = 8192;
const NEXT_FIELDS = ['next', 'next_page_url', 'next_url', 'nextUrl', 'next_link', 'nextLink', 'next_href'];
const HOLDERS = ['links', 'meta', 'pagination', 'paging', '_links', 'page_info', 'pageInfo'];
const TOTAL_FIELDS = [
  'total',
  'total_count',
  'totalCount',
  'total_entries',
  'total_items',
  'totalItems',
  'total_results',
  'totalResults',
  'total_records',
];
const CURSOR_FIELDS = ['next_cursor', 'nextCursor', 'next_page_token', 'nextPageToken', 'next_token', 'cursor_next'];

export function nextFromLinkHeader(header: string | undefined): string | undefined {
  if (!header || header.length > MAX_LINK_HEADER) return undefined;
  let at = 0;
  while (at < header.length) {
    const open = header.indexOf('<', at);
    if (open < 0) return undefined;
    const close = header.indexOf('>', open + 1);
    if (close < 0) return undefined;
    const nextOpen = header.indexOf('<', close + 1);
    const params = header.slice(close + 1, nextOpen < 0 ? header.length : nextOpen);
    if (params.split(';').some(isRelNext)) return header.slice(open + 1, close).trim();
    if (nextOpen < 0) return undefined;
    at = nextOpen;
  }
  return undefined;
}

function isRelNext(param: string): boolean {
  const eq = param.indexOf('=');
  if (eq < 0 || param.slice(0, eq).trim().toLowerCase() !== 'rel') return false;
  const value = param
    .slice(eq + 1)
    .replace(/[",]/g, ' ')
    .toLowerCase();
  return value.split(' ').includes('next');
}

function text(value: unknown): string | undefined {
  if (typeof value === 'string') return value.trim() || undefined;
  return undefined;
}

function positiveInteger(value: unknown): number | undefined {
  const number = typeof value === 'string' && /^\d{1,9}$/.test(value.trim()) ? Number(value) : value;
  return typeof number === 'number' && Number.isSafeInteger(number) && number > 0 ? number : undefined;
}

function holders(body: RawObject): RawObject[] {
  const found: RawObject[] = [body];
  for (const name of HOLDERS) {
    const holder = field(body, [name]);
    if (!isObject(holder)) continue;
    found.push(holder);
    for (const inner of [...HOLDERS, 'pages', 'page']) {
      const nested = field(holder, [inner]);
      if (isObject(nested)) found.push(nested);
    }
  }
  return found;
}

// Vultr sends a bare cursor under `next`.
function nextFromValue(value: unknown): NextPage | undefined {
  const link = text(value) ?? (isObject(value) ? text(field(value, ['href', 'url', 'link'])) : undefined);
  if (link === undefined) return undefined;
  if (/^(?:https?:|[/?.])/i.test(link) || link.includes('?')) return { kind: 'link', link };
  return link.length <= 1024 ? { kind: 'param', name: 'cursor', value: link } : undefined;
}

export function readPageInfo(body: unknown, linkHeader: string | undefined): PageInfo {
  const headerLink = nextFromLinkHeader(linkHeader);
  if (!isObject(body)) return headerLink ? { next: { kind: 'link', link: headerLink } } : {};
  const places = holders(body);
  let total: number | undefined;
  for (const place of places) {
    total ??= nonNegativeInteger(field(place, TOTAL_FIELDS));
  }
  // Django REST framework: `count` beside `next` and `results` is the whole list's size.
  if (total === undefined && Array.isArray(body.results)) total = nonNegativeInteger(body.count);
  const next = headerLink ? { kind: 'link' as const, link: headerLink } : nextInBody(places);
  return { ...(next && { next }), ...(total !== undefined && { total }) };
}

function nextInBody(places: readonly RawObject[]): NextPage | undefined {
  for (const place of places) {
    const next = nextFromValue(field(place, NEXT_FIELDS));
    if (next) return next;
  }
  for (const place of places) {
    const cursor = text(field(place, CURSOR_FIELDS));
    if (cursor && cursor.length <= 1024) return { kind: 'param', name: 'cursor', value: cursor };
  }
  for (const place of places) {
    const page = pageNumber(place);
    if (page !== undefined) return { kind: 'param', name: 'page', value: String(page) };
  }
  return undefined;
}

function nonNegativeInteger(value: unknown): number | undefined {
  const number = typeof value === 'string' && /^\d{1,15}$/.test(value.trim()) ? Number(value) : value;
  return typeof number === 'number' && Number.isSafeInteger(number) && number >= 0 ? number : undefined;
}

function pageNumber(place: RawObject): number | undefined {
  const next = field(place, ['next_page', 'nextPage']);
  if (next !== undefined) return positiveInteger(next);
  const current = positiveInteger(field(place, ['current_page', 'currentPage', 'page']));
  const last = positiveInteger(
    field(place, ['last_page', 'lastPage', 'total_pages', 'totalPages', 'page_count', 'pageCount', 'pages']),
  );
  return current !== undefined && last !== undefined && current < last ? current + 1 : undefined;
}

// The key goes with every page: undefined for anything that could leave `<prefix>/api/v1/`.
export function nextPagePath(base: BaseUrl, next: NextPage, currentPath: string): string | undefined {
  const current = new URL(base.pathPrefix + currentPath, base.origin);
  let url: URL;
  if (next.kind === 'param') {
    url = current;
    url.searchParams.set(next.name, next.value);
  } else {
    try {
      url = new URL(next.link, current);
    } catch {
      return undefined;
    }
  }
  if (url.origin !== base.origin || url.username || url.password) return undefined;
  const apiRoot = `${base.pathPrefix}/api/v1/`;
  if (!url.pathname.startsWith(apiRoot)) return undefined;
  const segments = url.pathname.slice(apiRoot.length).split('/');
  // `//` is routed differently by servers and proxies: only the last segment (a trailing slash) may be empty.
  const last = segments.length - 1;
  if (segments.some((segment, i) => (segment ? !isPlainSegment(segment) : i < last))) return undefined;
  return url.pathname.slice(base.pathPrefix.length) + url.search;
}

// `new URL` resolves `..` and `%2e%2e`, but not `..%2f`, `..;/` (Tomcat strips path parameters), `%252e` (some proxies
// decode twice) or an encoded slash or backslash.
function isPlainSegment(segment: string): boolean {
  if (segment.includes(';') || segment.includes('\\')) return false;
  if (!segment.includes('%') && !segment.includes('.')) return true;
  let decoded: string;
  try {
    decoded = decodeURIComponent(segment);
  } catch {
    return false;
  }
  if (decoded === '.' || decoded === '..') return false;
  return ![...'/\\;%'].some((char) => decoded.includes(char));
}
