import assert from 'node:assert/strict';
import { type CallOptions } from '../../src/api/ApiClient';
import { ApiError } from '../../src/api/errors';
import { Failures } from '../../src/store/Failures';
import { Resource } from '../../src/store/Resource';
import { Session } from '../../src/store/Session';
import { type Failure } from '../../src/store/types';
import { FakeClock } from './helpers/FakeClock';

/** A read the test answers by hand: deterministic, no sockets. */
class ManualRead {
  readonly calls: Array<{ options: CallOptions; resolve: (value: number) => void; reject: (error: unknown) => void }> =
    [];

  readonly read = (options: CallOptions): Promise<{ value: number }> =>
    new Promise((resolve, reject) => {
      this.calls.push({ options, resolve: (value) => resolve({ value }), reject });
    });
}

describe('Resource and Session (unit, in memory)', () => {
  let clock: FakeClock;
  let session: Session;
  let failures: Failures;
  let source: ManualRead;
  let resource: Resource<number>;
  let changes: number;
  let settled: number;
  let failed: Failure[];

  beforeEach(() => {
    clock = new FakeClock();
    session = new Session();
    failures = new Failures(session);
    source = new ManualRead();
    changes = 0;
    settled = 0;
    failed = [];
    failures.onDidFail((f) => failed.push(f));
    resource = new Resource('balance', source.read, {
      session,
      failures,
      clock,
      changed: () => changes++,
      settled: () => settled++,
    });
  });
  afterEach(() => {
    failures.dispose();
    session.dispose();
  });

  it('merges concurrent refreshes into one read', async () => {
    const all = [resource.refresh('background'), resource.refresh('user'), resource.refresh('background')];
    assert.equal(source.calls.length, 1);
    assert.equal(resource.slot.loading, true);
    source.calls[0]?.resolve(42);
    await Promise.all(all);
    assert.deepEqual(
      { ...resource.slot },
      {
        loading: false,
        value: 42,
        askedAt: clock.now(),
        updatedAt: clock.now(),
        error: undefined,
        failedAt: undefined,
        failedInARow: undefined,
        coverage: undefined,
      },
    );
    assert.equal(settled, 1);
    const again = resource.refresh('background');
    assert.equal(source.calls.length, 2, 'a refresh after the first one ended reads again');
    source.calls[1]?.resolve(43);
    await again;
    assert.equal(resource.slot.value, 43);
  });

  it('drops an answer that arrives after the session was renewed, and lets the new session read at once', async () => {
    const old = resource.refresh('background');
    session.renew();
    resource.reset();
    assert.equal(source.calls[0]?.options.signal?.aborted, true, 'the old request is abandoned');
    const fresh = resource.refresh('background');
    assert.equal(source.calls.length, 2, 'not joined to the abandoned read');
    source.calls[0]?.resolve(1);
    await old;
    assert.equal(resource.slot.value, undefined, "the old session's answer never shows");
    assert.equal(resource.slot.loading, true, 'the new read is still under way');
    source.calls[1]?.resolve(2);
    await fresh;
    assert.equal(resource.slot.value, 2);
  });

  it('keeps the last value when a refresh fails, and counts one episode per outage', async () => {
    const first = resource.refresh('background');
    source.calls[0]?.resolve(7);
    await first;
    await clock.advance(1_000);
    for (let i = 1; i <= 3; i++) {
      const attempt = resource.refresh('background');
      source.calls[i]?.reject(new ApiError('server', 'HTTP 500', { status: 500 }));
      await attempt;
    }
    assert.equal(resource.slot.value, 7);
    assert.equal(resource.slot.error?.kind, 'server');
    assert.equal(resource.slot.failedAt, clock.now());
    assert.deepEqual(
      failed.map((f) => f.firstInEpisode),
      [true, false, false],
    );
    const recovered = resource.refresh('background');
    source.calls[4]?.resolve(8);
    await recovered;
    assert.equal(resource.slot.error, undefined);
    const next = resource.refresh('background');
    source.calls[5]?.reject(new ApiError('timeout', 'slow'));
    await next;
    assert.equal(failed.at(-1)?.firstInEpisode, true, 'a new outage is a new episode');
  });

  it('gives a user refresh its own signal, which Cancel aborts without touching background reads', async () => {
    const background = resource.refresh('background');
    const other = new Resource('account', source.read, {
      session,
      failures,
      clock,
      changed: () => undefined,
      settled: () => undefined,
    });
    const user = other.refresh('user');
    assert.equal(source.calls[1]?.options.priority, 'user');
    session.cancelUserWaits();
    assert.equal(source.calls[1]?.options.signal?.aborted, true);
    assert.equal(source.calls[0]?.options.signal?.aborted, false);
    source.calls[1]?.reject(new ApiError('cancelled', 'cancelled'));
    source.calls[0]?.resolve(5);
    await Promise.all([background, user]);
    assert.equal(other.slot.error, undefined, 'a cancelled read is no failure');
    assert.equal(failed.length, 0);
  });

  it('remembers a rejected key until a read succeeds, and does not take a missing key for a rejection', async () => {
    const rejected: ApiError[] = [];
    failures.onDidRejectKey((e) => rejected.push(e));
    const none = resource.refresh('background');
    source.calls[0]?.reject(new ApiError('noKey', 'no key'));
    await none;
    assert.equal(failures.keyRejected, false);
    const refused = resource.refresh('background');
    source.calls[1]?.reject(new ApiError('unauthorized', 'revoked', { status: 401 }));
    await refused;
    assert.equal(failures.keyRejected, true);
    assert.equal(rejected.length, 1);
    const ok = resource.refresh('background');
    source.calls[2]?.resolve(1);
    await ok;
    assert.equal(failures.keyRejected, false);
  });

  it('raises the permit request of a background load that a user refresh joins, and tells the user of its failure', async () => {
    const background = resource.refresh('background');
    const urgency = source.calls[0]?.options.urgency;
    assert.equal(urgency?.priority, 'background');
    const user = resource.refresh('user');
    assert.equal(source.calls.length, 1, 'joined, not read twice');
    assert.equal(urgency.priority, 'user', 'the joined load now waits as the user would');
    source.calls[0]?.reject(new ApiError('server', 'HTTP 500', { status: 500 }));
    await Promise.all([background, user]);
    assert.equal(failed[0]?.userInitiated, true, 'the user asked for it: the failure is theirs to hear of');
  });
});
