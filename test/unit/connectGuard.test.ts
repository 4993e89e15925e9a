import assert from 'node:assert/strict';
import { Socket } from 'node:net';
import { ConnectFailure, guardConnector } from '../../src/api/network/connectGuard';
import { type Connector } from '../../src/api/undici';
import { FakeClock, flush } from './helpers/FakeClock';

const TARGET = { hostname: 'api.example.test', host: 'api.example.test', protocol: 'https:', port: '443' };

describe('the connect guard (unit, fake clock)', () => {
  let clock: FakeClock;
  beforeEach(() => {
    clock = new FakeClock();
  });

  /** Runs one connection attempt through the guard; resolves with what the guard answered. */
  function attempt(guarded: Connector): Promise<Error | Socket | null> {
    return new Promise((resolve) => guarded(TARGET, (error, socket) => resolve(error ?? socket)));
  }

  it('answers a connection attempt that never ends with a ConnectFailure at the deadline, and drops a late socket', async () => {
    let late: ((error: null, socket: Socket) => void) | undefined;
    const hanging: Connector = (_options, callback) => (late = callback as typeof late);
    const answer = attempt(guardConnector(hanging, { connectMs: 1_000, clock }));
    await clock.advance(999);
    let settled = false;
    void answer.then(() => (settled = true));
    await flush();
    assert.equal(settled, false);
    await clock.advance(1);
    const error = await answer;
    assert.ok(error instanceof ConnectFailure);
    assert.equal(error.phase, 'timeout');
    const socket = new Socket();
    late?.(null, socket);
    assert.equal(socket.destroyed, true, 'a connection that arrives after the deadline is closed');
  });

  it('turns a socket error into a failure undici does not retry by itself (no UND_ERR_SOCKET code)', async () => {
    const dropping: Connector = (_options, callback) =>
      callback(Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' }), null);
    const error = await attempt(guardConnector(dropping, { connectMs: 1_000, clock }));
    assert.ok(error instanceof ConnectFailure);
    assert.equal((error as { code?: unknown }).code, undefined);
    assert.equal((error.cause as { code?: unknown }).code, 'UND_ERR_SOCKET');
  });

  it('spaces the attempts after failures with a doubling, jittered wait, and connects at once again after a success', async () => {
    let calls = 0;
    let succeed = false;
    const connector: Connector = (_options, callback) => {
      calls++;
      if (succeed) callback(null, new Socket());
      else callback(new Error('refused'), null);
    };
    const guarded = guardConnector(connector, { connectMs: 10_000, clock, random: () => 0 });
    await attempt(guarded);
    assert.equal(calls, 1);
    // random() = 0: the shortest wait of each step, half of 500 ms, then half of 1 s.
    void attempt(guarded);
    await clock.advance(249);
    assert.equal(calls, 1, 'the second attempt waits');
    await clock.advance(1);
    assert.equal(calls, 2);
    void attempt(guarded);
    await clock.advance(499);
    assert.equal(calls, 2, 'the third waits twice as long');
    succeed = true;
    await clock.advance(1);
    assert.equal(calls, 3);
    await attempt(guarded);
    assert.equal(calls, 4, 'after a success the next attempt goes at once');
  });
});
