import assert from 'node:assert/strict';
import { normaliseOrder, normaliseOrderList } from '../../src/api/normalise/order';
import { type FieldTrace } from '../../src/api/normalise/read';

/**
 * Spelling and placement cases of the order readers: names in order of preference, each matched by the first key
 * written the same (case, `_`, `-` aside), the address walk's key bound, scope and primary siblings, traces included.
 */
const CASES: ReadonlyArray<[string, unknown]> = [
  ['the first spelling of a name decides: a later null one changes nothing', { Name: 'b', id: 1, name: null }],
  ['the first squashed spelling decides, even when empty', { id: 1, name: null, Name: 'b' }],
  ['a name that is not text gives way to the next name', { id: 1, title: { x: 1 }, hostname: 'h.example' }],
  ['an id written another way', { Order_ID: 'A-1', name: 'x' }],
  ['a later id field that holds no id (a boolean) is not looked at', { order_id: true, uuid: 'u-1' }],
  ['plan names in order of preference, whatever their spelling', { Plan: 'P1', product: 'P2', id: 1 }],
  [
    'keys in another order after a list of the same shape',
    [
      { id: 1, name: 'a', ip: '10.0.0.1', status: 'running' },
      { ip: '203.0.113.9', status: 'off', id: 2, name: 'b' },
      { id: 3, name: 'c', ip: '10.0.0.1', status: 'running' },
    ],
  ],
  [
    'addresses past the sixty-fourth key are not read',
    Object.fromEntries([['id', 1], ...Array.from({ length: 70 }, (_, i) => [`k${i}`, i]), ['ip', '203.0.113.5']]),
  ],
  [
    'a scope sibling and scope words in key names',
    { id: 1, type: 'private', ip: '203.0.113.7', public_ip: '203.0.113.8', internal_ip: '10.0.0.3' },
  ],
  [
    'a prefix length on a host and on a network',
    { id: 1, ip: '203.0.113.7/24', ipv4: '203.0.113.9/32', ipv6: '2001:db8::5/128' },
  ],
  ['several addresses in one text, private ones last', { id: 1, ips: '10.0.0.1, 203.0.113.4;2001:db8::2 100.64.1.1' }],
  ['a primary allocation', { id: 1, allocations: [{ ip: '203.0.113.1' }, { ip: '203.0.113.2', is_default: true }] }],
  ['state flags against a lifecycle word', { id: 1, status: 'active', is_suspended: true, power_state: 'on' }],
  ['a power word and an unknown lifecycle word', { id: 1, status: 'weird', powerState: 'offline', isRunning: true }],
];

const EXPECTED: ReadonlyArray<[string, string, string[]]> = [
  [
    'the first spelling of a name decides: a later null one changes nothing',
    '{"id":"1","label":"b","state":"unknown"}',
    ['id id', 'name Name'],
  ],
  ['the first squashed spelling decides, even when empty', '{"id":"1","label":"#1","state":"unknown"}', ['id id']],
  [
    'a name that is not text gives way to the next name',
    '{"id":"1","label":"h.example","state":"unknown"}',
    ['id id', 'name hostname'],
  ],
  ['an id written another way', '{"id":"A-1","label":"x","state":"unknown"}', ['id Order_ID', 'name name']],
  [
    'a later id field that holds no id (a boolean) is not looked at',
    '{"id":"u-1","label":"#u-1","state":"unknown"}',
    ['id uuid'],
  ],
  [
    'plan names in order of preference, whatever their spelling',
    '{"id":"1","label":"#1","state":"unknown","plan":"P1"}',
    ['id id'],
  ],
  [
    'keys in another order after a list of the same shape',
    '[{"id":"1","label":"a","state":"running","statusText":"running","address":"10.0.0.1","addresses":["10.0.0.1"]},{"id":"2","label":"b","state":"stopped","statusText":"off","address":"203.0.113.9","addresses":["203.0.113.9"]},{"id":"3","label":"c","state":"running","statusText":"running","address":"10.0.0.1","addresses":["10.0.0.1"]}]',
    ['list []', 'id [].id', 'name [].name', 'state [].status', 'address [].ip'],
  ],
  ['addresses past the sixty-fourth key are not read', '{"id":"1","label":"#1","state":"unknown"}', ['id id']],
  [
    'a scope sibling and scope words in key names',
    '{"id":"1","label":"#1","state":"unknown","address":"203.0.113.8","addresses":["203.0.113.7","203.0.113.8","10.0.0.3"],"plan":"private"}',
    ['id id', 'address public_ip'],
  ],
  [
    'a prefix length on a host and on a network',
    '{"id":"1","label":"#1","state":"unknown","address":"203.0.113.9","addresses":["203.0.113.9","2001:db8::5"]}',
    ['id id', 'address ipv4'],
  ],
  [
    'several addresses in one text, private ones last',
    '{"id":"1","label":"#1","state":"unknown","address":"203.0.113.4","addresses":["10.0.0.1","203.0.113.4","100.64.1.1","2001:db8::2"]}',
    ['id id', 'address ips'],
  ],
  [
    'a primary allocation',
    '{"id":"1","label":"#1","state":"unknown","address":"203.0.113.2","addresses":["203.0.113.1","203.0.113.2"]}',
    ['id id', 'address allocations[].ip'],
  ],
  [
    'state flags against a lifecycle word',
    '{"id":"1","label":"#1","state":"suspended","statusText":"suspended"}',
    ['id id'],
  ],
  [
    'a power word and an unknown lifecycle word',
    '{"id":"1","label":"#1","state":"stopped","statusText":"offline"}',
    ['id id', 'state powerState'],
  ],
];

function read(body: unknown): { result: unknown; calls: string[] } {
  const calls: string[] = [];
  const trace: FieldTrace = { use: (role, path) => calls.push(`${role} ${path}`) };
  const strip = (order: object): object => Object.fromEntries(Object.entries(order).filter(([key]) => key !== 'raw'));
  const result = Array.isArray(body)
    ? normaliseOrderList(body, trace).orders.map(strip)
    : strip(normaliseOrder(body, trace));
  return { result, calls };
}

describe('order readers: spellings and placements', () => {
  CASES.forEach(([name, body], i) => {
    it(name, () => {
      const [, result, calls] = EXPECTED[i] as [string, string, string[]];
      for (let round = 0; round < 2; round++) {
        const got = read(body);
        assert.deepEqual(JSON.parse(JSON.stringify(got.result)), JSON.parse(result));
        assert.deepEqual(got.calls, calls);
        // Read again without a trace: the same order.
        assert.deepEqual(JSON.parse(JSON.stringify(read(body).result)), JSON.parse(result));
      }
    });
  });
});
