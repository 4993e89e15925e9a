import * as assert from 'node:assert/strict';
import { parseBaseUrl } from '../../src/api/baseUrl';
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
});
