import assert from 'node:assert/strict';
import { ApiError } from '../../src/api/errors';
import { canRequest, type ConnectionInputs, connectionState } from '../../src/store/connectionState';
import { type ConnectionState, type Slot } from '../../src/store/types';

const idle: Slot<unknown> = { loading: false };
const loading: Slot<unknown> = { loading: true };
const loaded: Slot<unknown> = { loading: false, value: 1, updatedAt: 1 };
const failed: Slot<unknown> = { loading: false, error: new ApiError('network', 'down'), failedAt: 1 };
const base: ConnectionInputs = { baseUrl: 'https://panel.example', hasKey: true, keyRejected: false, slots: [idle] };

describe('connection state (unit, a table)', () => {
  const table: ReadonlyArray<[string, Partial<ConnectionInputs>, ConnectionState]> = [
    ['no base URL', { baseUrl: '  ' }, 'noBaseUrl'],
    ['a base URL that breaks the rules', { baseUrl: 'http://panel.example' }, 'badBaseUrl'],
    ['the base URL before the key', { baseUrl: 'not a url', hasKey: false }, 'badBaseUrl'],
    ['no key', { hasKey: false }, 'noKey'],
    ['a rejected key, even with data', { keyRejected: true, slots: [loaded] }, 'invalidKey'],
    ['nothing read yet', { slots: [idle, idle] }, 'loading'],
    ['a first load under way', { slots: [loading, idle] }, 'loading'],
    ['a failure while another datum still loads', { slots: [failed, loading] }, 'loading'],
    ['every first load failed', { slots: [failed, idle] }, 'unreachable'],
    ['one datum read', { slots: [failed, loaded] }, 'ready'],
    ['read before, failing now (value kept)', { slots: [{ ...loaded, error: failed.error }] }, 'ready'],
    ['an empty list read', { slots: [{ loading: false, value: [], updatedAt: 1 }] }, 'ready'],
  ];
  for (const [name, inputs, expected] of table) {
    it(`${name} → ${expected}`, () => {
      assert.equal(connectionState({ ...base, ...inputs }), expected);
    });
  }

  it('makes requests only with a usable base URL and a key', () => {
    const requesting = (
      ['noBaseUrl', 'badBaseUrl', 'noKey', 'loading', 'invalidKey', 'unreachable', 'ready'] as const
    ).filter(canRequest);
    assert.deepEqual(requesting, ['loading', 'invalidKey', 'unreachable', 'ready']);
  });
});
