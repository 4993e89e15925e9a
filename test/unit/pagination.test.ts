import * as assert from 'node:assert/strict';
import { parseBaseUrl } from '../../src/api/baseUrl';
import { readAllPages } from '../../src/api/listPages';
import { nextFromLinkHeader, nextPagePath, readPageInfo } from '../../src/api/pagination';

const link = (value: string) => ({ kind: 'link' as const, link: value });

describe('pagination (unit)', () => {
  it('finds next-page links in bodies and Link headers', () => {
    assert.deepEqual(
      readPageInfo({ links: { next: '/api/v1/orders?page=2' } }, undefined).next,
      link('/api/v1/orders?page=2'),
    );
    assert.deepEqual(readPageInfo({ next_page_url: 'https://h/x?page=3' }, undefined).next, link('https://h/x?page=3'));
    assert.equal(readPageInfo({ meta: { next: null } }, undefined).next, undefined);
    assert.deepEqual(readPageInfo({ _links: { next: { href: '/p2' } } }, undefined).next, link('/p2'));
    assert.deepEqual(
      readPageInfo({ links: { pages: { next: '/api/v1/x?page=2' } } }, undefined).next,
      link('/api/v1/x?page=2'),
    );
    assert.deepEqual(
      readPageInfo({ meta: { links: { next: '/api/v1/x?page=2' } } }, undefined).next,
      link('/api/v1/x?page=2'),
    );
    assert.equal(
      nextFromLinkHeader('<https://h/a?page=1>; rel="prev", <https://h/a?page=3>; rel="next"'),
      'https://h/a?page=3',
    );
    assert.equal(nextFromLinkHeader('<https://h/a?page=1>; rel="first"'), undefined);
    assert.equal(nextFromLinkHeader('<https://h/a,b?page=2>; rel="last next"'), 'https://h/a,b?page=2');
    assert.equal(nextFromLinkHeader(undefined), undefined);
  });

  it('reads page numbers, cursors and totals', () => {
    const laravel = { current_page: 1, data: [], next_page_url: null, last_page: 3, total: 6 };
    assert.deepEqual(readPageInfo(laravel, undefined), { next: { kind: 'param', name: 'page', value: '2' }, total: 6 });
    assert.deepEqual(readPageInfo({ current_page: 3, last_page: 3, total: 6 }, undefined), { total: 6 });
    const hetzner = { servers: [], meta: { pagination: { page: 1, next_page: 2, last_page: 4, total_entries: 100 } } };
    assert.deepEqual(readPageInfo(hetzner, undefined), {
      next: { kind: 'param', name: 'page', value: '2' },
      total: 100,
    });
    const hetznerLast = { servers: [], meta: { pagination: { page: 4, next_page: null, last_page: 4 } } };
    assert.deepEqual(readPageInfo(hetznerLast, undefined), {});
    const vultr = { instances: [], meta: { total: 3, links: { next: 'bmV4dF9fMg==', prev: '' } } };
    assert.deepEqual(readPageInfo(vultr, undefined), {
      next: { kind: 'param', name: 'cursor', value: 'bmV4dF9fMg==' },
      total: 3,
    });
    assert.deepEqual(readPageInfo({ items: [], next_cursor: 'abc' }, undefined).next, {
      kind: 'param',
      name: 'cursor',
      value: 'abc',
    });
    assert.deepEqual(readPageInfo({ count: 9, next: null, results: [] }, undefined), { total: 9 });
  });

  it('keeps next pages on the same origin and inside the API path', () => {
    const base = parseBaseUrl('https://panel.example.com');
    const current = '/api/v1/orders';
    assert.equal(nextPagePath(base, link('/api/v1/orders?page=2'), current), '/api/v1/orders?page=2');
    assert.equal(
      nextPagePath(base, link('https://panel.example.com/api/v1/orders?page=2'), current),
      '/api/v1/orders?page=2',
    );
    assert.equal(nextPagePath(base, link('?page=3'), current), '/api/v1/orders?page=3');
    assert.equal(
      nextPagePath(base, { kind: 'param', name: 'page', value: '2' }, '/api/v1/orders?per_page=5&page=1'),
      '/api/v1/orders?per_page=5&page=2',
    );
    assert.equal(nextPagePath(base, link('https://evil.example/api/v1/orders?page=2'), current), undefined);
    assert.equal(nextPagePath(base, link('/../../admin/delete-everything'), current), undefined);
    assert.equal(nextPagePath(base, link('/api/v1/%2E%2E/%2e%2e/admin'), current), undefined);
    // The URL parser resolves encoded dot segments too: this one stays inside the API.
    assert.equal(nextPagePath(base, link('/api/v1/orders/%2E/x'), current), '/api/v1/orders/x');
    assert.equal(nextPagePath(base, link('/api/v1/orders/%2e%2E/%2E%2E/%2e%2e/admin'), current), undefined);
    assert.equal(nextPagePath(base, link('/api/v2/orders'), current), undefined);
    assert.equal(nextPagePath(base, link('//evil.example/api/v1/orders'), current), undefined);
    assert.equal(nextPagePath(base, link('https://user:pw@panel.example.com/api/v1/orders'), current), undefined);
    const prefixed = parseBaseUrl('https://host.example/panel');
    assert.equal(nextPagePath(prefixed, link('/panel/api/v1/orders?page=2'), current), '/api/v1/orders?page=2');
    assert.equal(nextPagePath(prefixed, link('/api/v1/orders?page=2'), current), undefined);
    assert.equal(nextPagePath(prefixed, link('/panel/../api/v1/orders'), current), undefined);
    assert.equal(
      nextPagePath(prefixed, link('https://host.example/panel/api/v1/orders?page=2'), current),
      '/api/v1/orders?page=2',
    );
    assert.equal(nextPagePath(prefixed, link('?page=3'), '/api/v1/orders?page=2'), '/api/v1/orders?page=3');
    assert.equal(nextPagePath(prefixed, link('/elsewhere/api/v1/orders?page=2'), current), undefined);
    assert.equal(
      nextPagePath(prefixed, link('http://host.example/panel/api/v1/orders'), current),
      undefined,
      'not another scheme',
    );
    assert.equal(nextPagePath(prefixed, link('https://other.example/panel/api/v1/orders?page=2'), current), undefined);
  });

  /** Each form a server or reverse proxy may decode again, or read as a path parameter, and so route elsewhere. */
  const UNSAFE_LINKS: ReadonlyArray<[string, string]> = [
    ['..%2f', '/api/v1/orders/..%2f..%2fadmin'],
    ['..%2F, upper case', '/api/v1/..%2Fadmin'],
    ['%2e%2e%2f', '/api/v1/%2e%2e%2fadmin'],
    ['%2e%2e%2f, relative', '%2e%2e%2f%2e%2e%2fadmin'],
    ['..;/', '/api/v1/orders/..;/..;/admin'],
    ['%252e (double encoding)', '/api/v1/%252e%252e/admin'],
    ['%252f (double encoding)', '/api/v1/orders%252f..%252fadmin'],
    ['%2f (encoded slash)', '/api/v1/orders%2fadmin'],
    ['%5c (encoded backslash)', '/api/v1/orders%5c..%5cadmin'],
    ['; path parameter', '/api/v1/orders;jsessionid=1?page=2'],
    ['absolute, same origin', 'https://panel.example.com/api/v1/orders/..%2f..%2fadmin?page=2'],
    ['an empty segment', '/api/v1//orders?page=2'],
    ['an empty segment, absolute', 'https://panel.example.com/api/v1/orders//x?page=2'],
  ];

  it('refuses a next link with an empty path segment (/api/v1//orders); a trailing slash is fine', () => {
    const base = parseBaseUrl('https://panel.example.com');
    assert.equal(nextPagePath(base, link('/api/v1//orders'), '/api/v1/orders'), undefined);
    assert.equal(
      nextPagePath(base, link('https://panel.example.com/api/v1//orders?page=2'), '/api/v1/orders'),
      undefined,
    );
    assert.equal(nextPagePath(base, link('/api/v1/orders/?page=2'), '/api/v1/orders'), '/api/v1/orders/?page=2');
  });

  it('refuses next links with ..%2f, %2e%2e%2f, ..;/, %252e, %2f, %5c or ; (a decoding server would land elsewhere)', () => {
    const base = parseBaseUrl('https://panel.example.com');
    for (const [form, next] of UNSAFE_LINKS) {
      assert.equal(nextPagePath(base, link(next), '/api/v1/orders'), undefined, form);
    }
    // Encoded characters in the query are the query's business, not a path's.
    assert.equal(
      nextPagePath(base, link('/api/v1/orders?cursor=a%2Fb%3B%25'), '/api/v1/orders'),
      '/api/v1/orders?cursor=a%2Fb%3B%25',
    );
  });

  it('cuts the list at such a link and says why (outsideApi), without requesting it', async () => {
    const base = parseBaseUrl('https://panel.example.com');
    for (const [form, next] of UNSAFE_LINKS) {
      const requested: string[] = [];
      const listing = await readAllPages<number>('/api/v1/orders', 'orders', {
        baseUrl: base,
        maxPages: 5,
        maxBytes: 1_000_000,
        get: (path) => {
          requested.push(path);
          // In a Link header every form is a link (in a body, one without a slash or `?` is taken for a cursor).
          return Promise.resolve({ json: { data: [1, 2] }, headers: { link: `<${next}>; rel="next"` }, bytes: 10 });
        },
        parse: (_path, response) => ({ items: (response.json as { data: number[] }).data, skipped: 0 }),
        warn: () => undefined,
      });
      assert.deepEqual(requested, ['/api/v1/orders'], form);
      assert.equal(listing.stoppedBy, 'outsideApi', form);
      assert.deepEqual(listing.items, [1, 2], form);
    }
  });
});
