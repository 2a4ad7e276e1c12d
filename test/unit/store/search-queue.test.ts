// Who gets the next search reader: organizations take turns, none runs more than its share at once, and the
// lines are bounded.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FairQueue, SearchSlots, WAITING_PER_ORGANIZATION } from '../../../src/store/search-queue.ts';

const queue = (perOrganization = 1, waitingPerOrganization = 10, waitingTotal = 100) =>
  new FairQueue<string>({ perOrganization, waitingPerOrganization, waitingTotal });

/** Starts searches while next() gives one, returning them in order. */
const startAll = (q: FairQueue<string>) => {
  const started: string[] = [];
  for (let n = q.next(); n; n = q.next()) started.push(n.item);
  return started;
};

describe('search reader queue', () => {
  it('an organization runs at most its share at once; the rest of its searches wait', () => {
    const q = queue(2);
    for (const s of ['a1', 'a2', 'a3', 'a4']) q.push('A', s);
    assert.deepEqual(startAll(q), ['a1', 'a2']);
    assert.equal(q.size, 2);
    q.done('A');
    assert.deepEqual(startAll(q), ['a3']);
    q.done('A');
    q.done('A');
    assert.deepEqual(startAll(q), ['a4']);
    assert.equal(q.size, 0);
  });

  it("another organization's search goes ahead of a flooding organization's waiting ones", () => {
    const q = queue(1);
    for (let i = 1; i <= 5; i++) q.push('A', `a${i}`);
    assert.deepEqual(startAll(q), ['a1']);
    q.push('B', 'b1');
    // B is below its share: it starts at once, while A waits for its running search.
    assert.deepEqual(startAll(q), ['b1']);
    q.push('B', 'b2');
    q.push('C', 'c1');
    q.done('A');
    q.done('B');
    // Least recently served first: C (never yet), then A, then B (served after A).
    assert.deepEqual(startAll(q), ['c1', 'a2', 'b2']);
  });

  it("with one reader, a newcomer's search runs before the flooding organization's next one", () => {
    const q = queue(1);
    q.push('A', 'a1');
    assert.deepEqual(startAll(q), ['a1']);
    // A's burst arrives while a1 runs, then B's search.
    q.push('A', 'a2');
    q.push('A', 'a3');
    q.push('B', 'b1');
    q.done('A');
    assert.equal(q.next()?.item, 'b1');
    q.done('B');
    assert.deepEqual(startAll(q), ['a2']);
  });

  it('with one reader, organizations alternate instead of first come, first served', () => {
    const q = queue(1);
    for (let i = 1; i <= 3; i++) q.push('A', `a${i}`);
    for (let i = 1; i <= 3; i++) q.push('B', `b${i}`);
    const order: string[] = [];
    // One reader: one search at a time, whoever's it is.
    for (let n = q.next(); n; n = q.next()) {
      order.push(n.item);
      q.done(n.organization);
    }
    assert.deepEqual(order, ['a1', 'b1', 'a2', 'b2', 'a3', 'b3']);
  });

  it('is bounded per organization and in all', () => {
    const q = queue(1, 2, 3);
    assert.equal(q.push('A', 'a1'), 'queued');
    assert.equal(q.push('A', 'a2'), 'queued');
    assert.equal(q.push('A', 'a3'), 'organization-full');
    assert.equal(q.push('B', 'b1'), 'queued');
    assert.equal(q.push('C', 'c1'), 'full');
    // A running search no longer waits: room again.
    assert.equal(q.next()?.item, 'a1');
    assert.equal(q.push('C', 'c1'), 'queued');
  });

  it('a search that gave up waiting leaves the line and the turn', () => {
    const q = queue(1);
    q.push('A', 'a1');
    q.push('B', 'b1');
    q.push('A', 'a2');
    assert.equal(q.remove('A', 'a1'), true);
    assert.equal(q.remove('A', 'a1'), false);
    assert.equal(q.remove('B', 'b1'), true);
    assert.equal(q.size, 1);
    assert.deepEqual(startAll(q), ['a2']);
    assert.equal(q.remove('A', 'a2'), false, 'a started search no longer waits');
    q.push('C', 'c1');
    assert.deepEqual(q.drain(), ['c1']);
    assert.equal(q.size, 0);
    assert.equal(q.next(), undefined);
  });
});

describe('search slots (the PostgreSQL adapter’s searches)', () => {
  /** A search that runs until `finish` is called. */
  function held() {
    let finish: (v: string) => void = () => {};
    const done = new Promise<string>((resolve) => {
      finish = resolve;
    });
    return { fn: () => done, finish: (v: string) => finish(v) };
  }

  it('runs at most `slots` at once, fairly across organizations', async () => {
    const slots = new SearchSlots(2, 1000);
    const started: string[] = [];
    const jobs = new Map<string, ReturnType<typeof held>>();
    const run = (org: string, name: string) => {
      const h = held();
      jobs.set(name, h);
      return slots.run(org, () => {
        started.push(name);
        return h.fn();
      });
    };
    const results = [run('A', 'a1'), run('A', 'a2'), run('A', 'a3'), run('B', 'b1')];
    await Promise.resolve();
    // One slot is always left to other organizations: A runs one, B the other.
    assert.deepEqual(started, ['a1', 'b1']);
    jobs.get('b1')!.finish('b1');
    await results[3];
    assert.deepEqual(started, ['a1', 'b1']);
    jobs.get('a1')!.finish('a1');
    await results[0];
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(started, ['a1', 'b1', 'a2']);
    jobs.get('a2')!.finish('a2');
    await results[1];
    await new Promise((r) => setImmediate(r));
    jobs.get('a3')!.finish('a3');
    assert.deepEqual(await Promise.all(results), ['a1', 'a2', 'a3', 'b1']);
    await slots.close();
  });

  it('refuses with SERVER_BUSY when the line is full, when the wait is too long, and at close', async () => {
    const slots = new SearchSlots(1, 10);
    const running = held();
    const first = slots.run('A', running.fn);
    const waiting = Array.from({ length: WAITING_PER_ORGANIZATION }, () => slots.run('A', async () => 'x'));
    await assert.rejects(
      slots.run('A', async () => 'x'),
      (err: Error & { code?: string }) => {
        assert.equal(err.code, 'SERVER_BUSY');
        return true;
      },
    );
    // Nothing ends: the waiting ones give up after three budgets.
    for (const w of waiting) {
      await assert.rejects(w, (err: Error & { code?: string }) => err.code === 'SERVER_BUSY');
    }
    const last = slots.run('B', async () => 'y');
    await slots.close();
    await assert.rejects(last, (err: Error & { code?: string }) => err.code === 'SERVER_BUSY');
    running.finish('done');
    assert.equal(await first, 'done');
  });
});
