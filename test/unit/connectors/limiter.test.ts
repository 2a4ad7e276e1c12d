import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { KeyedSemaphore, KeyedTokenBucket } from '../../../src/connectors/runtime/limiter.ts';

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
