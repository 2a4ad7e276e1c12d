import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  freeShare,
  KeyedSemaphore,
  KeyedTokenBucket,
  SharedConcurrency,
  type SharedSlots,
} from '../../../src/connectors/runtime/limiter.ts';

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('KeyedSemaphore', () => {
  it('lets N in at once; the N+1th waits until one is released, in arrival order', async () => {
    const sem = new KeyedSemaphore();
    const held = [await sem.acquire('a', 2, 1000), await sem.acquire('a', 2, 1000)];
    const order: string[] = [];
    const queued = (name: string) =>
      sem.acquire('a', 2, 1000).then((release) => {
        order.push(name);
        return release;
      });
    const third = queued('third');
    const fourth = queued('fourth');
    await tick();
    assert.deepEqual(order, []);
    assert.equal(sem.inUse('a'), 2);
    held[0]!();
    await tick();
    assert.deepEqual(order, ['third']);
    held[1]!();
    (await third)!();
    (await fourth)!();
    assert.deepEqual(order, ['third', 'fourth']);
    assert.equal(sem.inUse('a'), 0);
  });

  it('keeps keys apart', async () => {
    const sem = new KeyedSemaphore();
    const a = await sem.acquire('a', 1, 0);
    const b = await sem.acquire('b', 1, 0);
    assert.ok(a && b);
    assert.equal(await sem.acquire('a', 1, 0), null);
  });

  it('gives up after maxWaitMs without taking a slot, and a double release frees only one', async () => {
    const sem = new KeyedSemaphore();
    const first = (await sem.acquire('a', 1, 0))!;
    assert.equal(await sem.acquire('a', 1, 20), null);
    first();
    first();
    const again = await sem.acquire('a', 1, 0);
    assert.ok(again);
    assert.equal(await sem.acquire('a', 1, 0), null, 'a double release must not open a second slot');
    again();
    assert.equal(sem.inUse('a'), 0);
  });
});

describe('KeyedTokenBucket', () => {
  const rate = { requests: 3, per_seconds: 1 };

  it('allows a burst of `requests`, then spaces requests by per_seconds / requests', () => {
    let now = 0;
    const bucket = new KeyedTokenBucket(() => now);
    for (let i = 0; i < 3; i++) assert.deepEqual(bucket.reserve('a', rate, 0), { granted: true, waitMs: 0 });
    // Reservations queue: each next caller waits one more refill interval.
    assert.deepEqual(bucket.reserve('a', rate, 10_000), { granted: true, waitMs: 334 });
    assert.deepEqual(bucket.reserve('a', rate, 10_000), { granted: true, waitMs: 667 });
    now = 1000;
    assert.deepEqual(bucket.reserve('a', rate, 10_000), { granted: true, waitMs: 0 });
  });

  it('refuses without taking a token when the wait would exceed maxWaitMs', () => {
    let now = 0;
    const bucket = new KeyedTokenBucket(() => now);
    const slow = { requests: 1, per_seconds: 60 };
    assert.equal(bucket.reserve('a', slow, 0).granted, true);
    assert.deepEqual(bucket.reserve('a', slow, 59_999), { granted: false, waitMs: 60_000 });
    assert.deepEqual(bucket.reserve('a', slow, 59_999), { granted: false, waitMs: 60_000 });
    now = 60_000;
    assert.deepEqual(bucket.reserve('a', slow, 0), { granted: true, waitMs: 0 });
  });

  it('keeps keys apart and forgets idle buckets once the map grows', () => {
    let now = 0;
    const bucket = new KeyedTokenBucket(() => now);
    const slow = { requests: 1, per_seconds: 1 };
    assert.equal(bucket.reserve('a', slow, 0).granted, true);
    assert.equal(bucket.reserve('b', slow, 0).granted, true);
    assert.equal(bucket.reserve('a', slow, 0).granted, false);
    for (let i = 0; i < 1000; i++) bucket.reserve(`k${i}`, slow, 0);
    assert.ok(bucket.size > 1000);
    now = 1000;
    bucket.reserve('fresh', slow, 0);
    assert.equal(bucket.size, 1);
  });
});

describe('SharedConcurrency (slots counted with other processes)', () => {
  /** Slots "in the database": `others` are held by other processes. */
  function sharedWith(others: number) {
    let held = others;
    const slots: SharedSlots & { held: () => number; free: () => void } = {
      tryAcquire: async (_key, limit) => (held < limit ? `slot-${++held}` : null),
      release: async () => {
        held--;
      },
      held: () => held,
      free: () => {
        held--;
      },
    };
    return slots;
  }
  /** A clock whose sleep advances time at once. */
  function clock() {
    let t = 0;
    return {
      now: () => t,
      sleep: async (ms: number) => {
        t += ms;
      },
      sleeps: () => t,
    };
  }

  it('takes a shared slot when one is free, and gives both back on release', async () => {
    const shared = sharedWith(1);
    const c = new SharedConcurrency(shared, clock());
    const release = await c.acquire('k', 2, 1000);
    assert.ok(release);
    assert.equal(shared.held(), 2);
    release();
    await new Promise((r) => setImmediate(r));
    assert.equal(shared.held(), 1);
  });

  it('tries again with growing pauses until a slot frees up, or gives up at the wait', async () => {
    const shared = sharedWith(2);
    const time = clock();
    const c = new SharedConcurrency(shared, time);
    assert.equal(await c.acquire('k', 2, 1000), null);
    assert.equal(time.sleeps(), 1000);
    // Another process frees a slot while this one waits.
    const t2 = clock();
    const waiting = new SharedConcurrency(shared, {
      now: t2.now,
      sleep: async (ms) => {
        await t2.sleep(ms);
        if (t2.now() >= 70) shared.free();
      },
    });
    const release = await waiting.acquire('k', 2, 1000);
    assert.ok(release);
    assert.ok(t2.now() >= 70 && t2.now() < 1000);
  });

  it('gives back the local slot when the shared store fails', async () => {
    const failing: SharedSlots = {
      tryAcquire: async () => {
        throw new Error('database unreachable');
      },
      release: async () => {},
    };
    const c = new SharedConcurrency(failing, clock());
    await assert.rejects(c.acquire('k', 1, 100), /database unreachable/);
    // The local slot was returned: with a working store it is free again.
    await assert.rejects(c.acquire('k', 1, 0), /database unreachable/);
  });
});

describe('usage headers', () => {
  const headers = (h: Record<string, string>) => (name: string) => h[name];
  it('read the free share of the provider bucket: used/size, or a count remaining of a total', () => {
    const shopify = { name: 'X-Shopify-Shop-Api-Call-Limit', format: 'used_of_size' as const };
    assert.equal(freeShare(shopify, headers({ 'x-shopify-shop-api-call-limit': '32/40' })), 0.2);
    assert.equal(freeShare(shopify, headers({ 'x-shopify-shop-api-call-limit': ' 40 / 40 ' })), 0);
    assert.equal(freeShare(shopify, headers({ 'x-shopify-shop-api-call-limit': '41/40' })), 0);
    for (const bad of ['32', '32/0', 'a/40', '-1/40', '32/40/2'])
      assert.equal(freeShare(shopify, headers({ 'x-shopify-shop-api-call-limit': bad })), undefined, bad);
    assert.equal(freeShare(shopify, headers({})), undefined);
    const counted = {
      name: 'X-RateLimit-Remaining',
      format: 'remaining' as const,
      size_header: 'X-RateLimit-Limit',
    };
    assert.equal(
      freeShare(counted, headers({ 'x-ratelimit-remaining': '25', 'x-ratelimit-limit': '100' })),
      0.25,
    );
    assert.equal(freeShare(counted, headers({ 'x-ratelimit-remaining': '25' })), undefined);
    assert.equal(
      freeShare(counted, headers({ 'x-ratelimit-remaining': '2.5', 'x-ratelimit-limit': '100' })),
      undefined,
    );
  });

  it('hold a bucket to that share of its size, never fill it, and keep the turns already given', () => {
    let now = 0;
    const buckets = new KeyedTokenBucket(() => now);
    const rate = { requests: 36, per_seconds: 18 };
    buckets.observe('k', rate, 2 / 40); // 1.8 tokens of 36
    assert.deepEqual(buckets.reserve('k', rate, 0), { granted: true, waitMs: 0 });
    const second = buckets.reserve('k', rate, 0);
    assert.equal(second.granted, false);
    assert.equal(second.waitMs, 100); // 0.2 token missing at 2 a second
    buckets.observe('k', rate, 1);
    assert.equal(buckets.reserve('k', rate, 0).granted, false, 'a larger share does not fill the bucket');
    // Two turns given ahead (the level below zero) stay theirs when the provider says its bucket is full.
    now += 100;
    assert.deepEqual(buckets.reserve('k', rate, 1000), { granted: true, waitMs: 0 });
    assert.deepEqual(buckets.reserve('k', rate, 1000), { granted: true, waitMs: 500 });
    buckets.observe('k', rate, 0);
    assert.deepEqual(buckets.reserve('k', rate, 10_000), { granted: true, waitMs: 1000 });
  });
});
