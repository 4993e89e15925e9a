import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  forgetAccount,
  MAX_REINSTALLS,
  NO_REINSTALLS,
  noteConnected,
  noteReinstalled,
  noteSettled,
  readReinstalls,
  reinstalledAt,
} from '../../src/ssh/reinstalls';

const T = Date.parse('2026-11-01T10:00:00Z');

describe('SSH: servers reinstalled since we last connected (unit)', () => {
  it('remembers a settled reinstall per account and order until a connection gets through', () => {
    let stored = noteSettled(NO_REINSTALLS, 'default', { orderId: '101', action: 'reinstall' }, T);
    stored = noteSettled(stored, 'default', { orderId: '102', action: 'restart' }, T);
    stored = noteSettled(stored, 'k1', { orderId: '101', action: 'reinstall' }, T + 5);
    assert.equal(reinstalledAt(stored, 'default', '101'), T);
    assert.equal(reinstalledAt(stored, 'k1', '101'), T + 5, 'the same order id in another account is another server');
    assert.equal(reinstalledAt(stored, 'default', '102'), undefined, 'a restart keeps the host keys');
    assert.equal(reinstalledAt(stored, 'default', ' 101'), undefined, 'ids are compared exactly');
    stored = noteConnected(stored, 'default', '101');
    assert.equal(reinstalledAt(stored, 'default', '101'), undefined);
    assert.equal(reinstalledAt(stored, 'k1', '101'), T + 5);
    assert.equal(reinstalledAt(forgetAccount(stored, 'k1'), 'k1', '101'), undefined);
    stored = noteReinstalled(stored, 'k1', '101', T + 9);
    assert.deepEqual(stored.servers, [{ accountId: 'k1', orderId: '101', at: T + 9 }], 'a second reinstall updates');
    assert.deepEqual(readReinstalls(JSON.parse(JSON.stringify(stored))), stored);
  });

  it('reads back distrustfully and bounded, the latest kept', () => {
    const good = { accountId: 'default', orderId: '7', at: T };
    assert.deepEqual(
      readReinstalls({
        version: 1,
        servers: [
          null,
          { ...good, accountId: 'UPPER' },
          { ...good, orderId: 7 },
          { ...good, orderId: '' },
          { ...good, orderId: '\ud800' },
          { ...good, at: -1 },
          { ...good, at: '2026' },
          { ...good, at: T - 1 },
          good,
        ],
      }),
      { version: 1, servers: [good] },
    );
    for (const raw of [undefined, [], 'x', { version: 2, servers: [good] }, { version: 1, servers: 'x' }]) {
      assert.deepEqual(readReinstalls(raw), NO_REINSTALLS);
    }
    const many = { version: 1, servers: Array.from({ length: 500_000 }, (_, i) => ({ ...good, orderId: String(i) })) };
    const read = readReinstalls(many);
    assert.equal(read.servers.length, MAX_REINSTALLS);
    assert.equal(read.servers.at(-1)?.orderId, '499999');
    let stored = NO_REINSTALLS;
    for (let i = 0; i < MAX_REINSTALLS + 3; i++) stored = noteReinstalled(stored, 'default', String(i), T);
    assert.equal(stored.servers.length, MAX_REINSTALLS);
    assert.equal(reinstalledAt(stored, 'default', '0'), undefined, 'the oldest go first');
    assert.throws(() => noteReinstalled(stored, 'NOPE', '1', T), RangeError);
  });

  it('never throws on any stored value (property)', () => {
    fc.assert(
      fc.property(fc.anything(), (raw) => {
        const read = readReinstalls(raw);
        assert.deepEqual(readReinstalls(JSON.parse(JSON.stringify(read)) as unknown), read);
      }),
    );
  });
});
