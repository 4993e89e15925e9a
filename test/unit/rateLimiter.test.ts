import assert from 'node:assert/strict';
import { MAX_HOLD_MS, RateLimiter, type Release } from '../../src/api/RateLimiter';
import { Urgency } from '../../src/api/SharedRequests';
import { FakeClock, flush } from './helpers/FakeClock';

describe('RateLimiter (unit)', () => {
  let clock: FakeClock;
  beforeEach(() => {
    clock = new FakeClock();
  });

  /** Starts `count` acquisitions, each released as soon as granted, and records when each one is granted. */
  function start(limiter: RateLimiter, count: number, priority: 'user' | 'background' = 'background'): number[] {
    const granted: number[] = [];
    for (let i = 0; i < count; i++) {
      void limiter.acquire({ priority }).then((release) => (granted.push(clock.now()), release()));
    }
    return granted;
  }

  /** The most requests granted in any rolling window of `windowMs`. */
  function busiestWindow(times: number[], windowMs: number): number {
    let most = 0;
    for (let i = 0, j = 0; i < times.length; i++) {
      while ((times[i] ?? 0) - (times[j] ?? 0) >= windowMs) j++;
      most = Math.max(most, i - j + 1);
    }
    return most;
  }

  /** The server's word on a budget: `remaining` left until `resetSeconds` from now. */
  const budget = (remaining: number, resetSeconds: number): Record<string, string> => ({
    'x-ratelimit-remaining': String(remaining),
    'x-ratelimit-reset': String(resetSeconds),
  });

  it('lets the first `limit` requests through at once and queues the rest', async () => {
    const limiter = new RateLimiter(5, 60_000, clock);
    const granted = start(limiter, 8);
    await flush();
    assert.equal(granted.length, 5);
    assert.equal(limiter.status().queued, 3);
    assert.equal(limiter.status().remaining, 0);
    await clock.advance(59_999);
    assert.equal(granted.length, 5, 'nothing frees up before the window has passed');
    await clock.advance(1);
    assert.equal(granted.length, 8);
  });

  it('never exceeds the limit in any rolling window over ten simulated minutes of constant demand', async () => {
    const limiter = new RateLimiter(100, 60_000, clock);
    const granted: number[] = [];
    for (let second = 0; second < 600; second++) {
      for (let i = 0; i < 3; i++) {
        void limiter.acquire().then((release) => (granted.push(clock.now()), release()));
      }
      await clock.advance(1_000);
    }
    assert.ok(granted.length >= 900, `expected steady throughput, got ${granted.length}`);
    assert.ok(busiestWindow(granted, 60_000) <= 100, `window peak ${busiestWindow(granted, 60_000)}`);
  });

  it('holds every request until a Retry-After passes', async () => {
    const limiter = new RateLimiter(100, 60_000, clock);
    limiter.observe(429, { 'retry-after': '5' });
    const background = start(limiter, 2);
    const user = start(limiter, 1, 'user');
    await clock.advance(4_999);
    assert.equal(background.length + user.length, 0);
    assert.ok(limiter.status().heldUntil);
    await clock.advance(1);
    assert.equal(background.length + user.length, 3);
  });

  it('fails at once instead of queueing for a hold longer than maxHoldMs, and says so for the log', async () => {
    const limiter = new RateLimiter(1, 60_000, clock, 10_000);
    (await limiter.acquire())();
    const queued = limiter.acquire();
    const warning = limiter.observe(429, { 'retry-after': '3600' });
    assert.match(warning ?? '', /held for 5 min at most/);
    await assert.rejects(queued, { name: 'ApiError', kind: 'rateLimited' });
    await assert.rejects(limiter.acquire(), (error: { kind: string; retryAfterMs: number; message: string }) => {
      assert.equal(error.kind, 'rateLimited');
      assert.equal(error.retryAfterMs, MAX_HOLD_MS, 'the hold is capped');
      assert.match(error.message, /held until/);
      return true;
    });
  });

  it('lets user actions overtake queued background refreshes', async () => {
    const limiter = new RateLimiter(1, 1_000, clock);
    const order: string[] = [];
    void limiter.acquire().then((release) => (order.push('first'), release()));
    void limiter.acquire({ priority: 'background' }).then((release) => (order.push('background'), release()));
    void limiter.acquire({ priority: 'user' }).then((release) => (order.push('user'), release()));
    await clock.advance(5_000);
    assert.deepEqual(order, ['first', 'user', 'background']);
  });

  it('drops a cancelled waiter from the queue', async () => {
    const limiter = new RateLimiter(1, 1_000, clock);
    (await limiter.acquire())();
    const controller = new AbortController();
    const waiting = limiter.acquire({ signal: controller.signal });
    controller.abort();
    await assert.rejects(waiting, { kind: 'cancelled' });
    assert.equal(limiter.status().queued, 0);
  });

  it('respects the server budget: remaining 0 holds until the reset time', async () => {
    const limiter = new RateLimiter(100, 60_000, clock);
    limiter.observe(200, budget(2, 10));
    const granted = start(limiter, 3, 'user');
    await flush();
    assert.equal(granted.length, 2, 'another client used most of the budget');
    assert.equal(limiter.status().remaining, 0);
    await clock.advance(10_000);
    assert.equal(granted.length, 3);
  });

  it('leaves the last few slots of the server budget to the user, out of reach of background reads', async () => {
    const limiter = new RateLimiter(100, 60_000, clock);
    limiter.observe(200, budget(6, 10));
    const background = start(limiter, 5);
    await flush();
    assert.equal(background.length, 2, 'background stops four slots short');
    const user = start(limiter, 1, 'user');
    await flush();
    assert.equal(user.length, 1, 'the user still gets through');
    await clock.advance(10_000);
    assert.equal(background.length, 5);
  });

  it('after a low server budget reaches its reset time, sends one background read until the server says more', async () => {
    const limiter = new RateLimiter(100, 60_000, clock);
    limiter.observe(200, budget(1, 1));
    await clock.advance(1_000);
    const probe = await limiter.acquire();
    const others = start(limiter, 9);
    await flush();
    assert.equal(others.length, 0, 'a rolling window frees one slot at its reset time, not all of them');
    limiter.observe(200, budget(7, 1));
    probe();
    await flush();
    assert.equal(others.length, 3, 'the answer said three more than the reserve');
  });

  it('applies a lowered limit to the requests already counted', async () => {
    const limiter = new RateLimiter(10, 60_000, clock);
    start(limiter, 6);
    await flush();
    limiter.setLimit(5);
    const late = start(limiter, 1);
    await clock.advance(30_000);
    assert.equal(late.length, 0);
    await clock.advance(30_000);
    assert.equal(late.length, 1);
  });

  it('counts a request until a window after its answer, however long it was under way', async () => {
    const limiter = new RateLimiter(1, 60_000, clock);
    const slow = await limiter.acquire();
    const granted = start(limiter, 1);
    await clock.advance(120_000);
    assert.equal(granted.length, 0, 'the slow request still holds its slot');
    slow();
    await clock.advance(59_999);
    assert.equal(granted.length, 0);
    await clock.advance(1);
    assert.equal(granted.length, 1);
  });

  it('rejects queued waiters on dispose and leaves no timer behind', async () => {
    const limiter = new RateLimiter(1, 60_000, clock);
    (await limiter.acquire())();
    const waiting = limiter.acquire();
    await flush();
    assert.equal(clock.pendingTimers, 1);
    limiter.dispose();
    await assert.rejects(waiting, { kind: 'cancelled' });
    assert.equal(clock.pendingTimers, 0);
  });

  it('a full queue refuses background reads, never the user: a Stop with 256 background reads queued is let through within 1 s', async () => {
    const limiter = new RateLimiter(100, 60_000, clock, undefined, 256);
    const refused: unknown[] = [];
    const background = (): void => {
      void limiter.acquire().then(
        (release) => release(),
        (error: unknown) => refused.push(error),
      );
    };
    for (let i = 0; i < 1_000 && limiter.status().queued < 256; i++) {
      background();
      await flush();
    }
    assert.equal(limiter.status().queued, 256, 'the background reads spent the window and filled the queue');
    assert.equal(refused.length, 0);

    let stopSentAt: number | undefined;
    const started = clock.now();
    void limiter.acquire({ priority: 'user', maxWaitMs: 10_000 }).then((release) => {
      stopSentAt = clock.now();
      release();
    });
    await clock.advance(1_000);
    assert.ok(stopSentAt !== undefined && stopSentAt - started <= 1_000, 'the Stop went out within a second');

    // One more background read: the oldest queued one makes room, refused with a typed "not sent".
    background();
    await flush();
    assert.equal(refused.length, 1);
    assert.ok(limiter.status().queued <= 256);
    const [error] = refused as Array<{ kind: string; maybeSent: boolean; reason?: { rule: string } }>;
    assert.equal(error?.kind, 'rateLimited');
    assert.equal(error?.maybeSent, false);
    assert.deepEqual(error?.reason, { rule: 'queueFull' });
  });

  it('lets a queued background request that a user joins overtake the other background requests', async () => {
    const limiter = new RateLimiter(1, 1_000, clock);
    const order: string[] = [];
    (await limiter.acquire())();
    const joined = new Urgency('background');
    void limiter.acquire().then((release) => (order.push('first background'), release()));
    void limiter.acquire({ urgency: joined }).then((release) => (order.push('joined'), release()));
    await flush();
    joined.raise();
    assert.equal(joined.priority, 'user');
    await clock.advance(5_000);
    assert.deepEqual(order, ['joined', 'first background']);
  });

  it('lets no more than two background reads be under way at once, so a 429 stops the rest of a queue', async () => {
    const limiter = new RateLimiter(100, 60_000, clock);
    const permits: Release[] = [];
    for (let i = 0; i < 10; i++) void limiter.acquire().then((permit) => permits.push(permit));
    await flush();
    assert.equal(permits.length, 2);
    limiter.observe(429, {});
    permits[0]?.(false);
    permits[1]?.(false);
    await flush();
    assert.equal(permits.length, 2, 'nothing more goes out after the 429');
    const user = start(limiter, 1, 'user');
    await clock.advance(5_000);
    assert.equal(user.length, 1, "the user's request goes after the 429's short hold");
  });

  it('after a 429 without Retry-After, sends background reads for a window only in place of ours the server took', async () => {
    const limiter = new RateLimiter(100, 60_000, clock);
    const earlier = start(limiter, 10);
    await clock.advance(20_000);
    assert.equal(earlier.length, 10);
    const refused = await limiter.acquire();
    limiter.observe(429, {});
    refused(false);
    const later = start(limiter, 50);
    await clock.advance(39_999);
    assert.equal(later.length, 0, 'the server took ten of ours in the last minute, and we have sent ten');
    await clock.advance(1);
    assert.equal(later.length, 10, 'each of ours a minute old is replaced by one');
    await clock.advance(20_000);
    assert.equal(later.length, 50, 'a window after the 429, the full limit again');
  });

  it('a foreign 429 without Retry-After lowers no rate for longer than a window', async () => {
    const limiter = new RateLimiter(100, 61_000, clock);
    start(limiter, 2);
    await flush();
    const refused = await limiter.acquire();
    limiter.observe(429, {});
    refused(false);
    await clock.advance(61_000);
    const background = start(limiter, 96);
    await flush();
    assert.equal(background.length, 96, 'every background read of the limit goes at once');
  });

  it('a foreign 429 with Retry-After lowers no rate for longer than its Retry-After', async () => {
    const limiter = new RateLimiter(100, 61_000, clock);
    start(limiter, 2);
    await flush();
    const refused = await limiter.acquire();
    limiter.observe(429, { 'retry-after': '5' });
    refused(false);
    await clock.advance(5_000);
    const background = start(limiter, 100);
    await flush();
    assert.equal(background.length, 94, "background reads up to the user's reserve, less the two sent before");
    const user = start(limiter, 4, 'user');
    await flush();
    assert.equal(user.length, 4, 'and the user the rest');
  });
});
