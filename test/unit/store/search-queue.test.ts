// Who gets the next search reader, and who is let in to wait: organizations take turns, none runs more than its
// share at once, and a search is let in by the wait the searches ahead of it imply (their estimated run times on
// a clock of the test's), refused as its organization's doing past it within its own line, as the process's
// past it across every line. No search runs here: costs are given, time is moved by hand.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RecentSearchCosts, type SearchCosts } from '../../../src/store/search-costs.ts';
import {
  type Entry,
  FairQueue,
  type FairQueueOptions,
  type Refusal,
  WAITING_PER_ORGANIZATION,
} from '../../../src/store/search-queue.ts';
import { SearchSlots } from '../../../src/store/search-slots.ts';

/** Costs by shape name, as given (1 ms unless named); what was observed is kept. */
function givenCosts(costs: Record<string, number> = {}) {
  const observed: Array<[string, string, number]> = [];
  const model: SearchCosts = {
    estimate: (_org, shape) => costs[shape] ?? 1,
    observe: (org, shape, ms) => {
      observed.push([org, shape, ms]);
    },
  };
  return { model, observed };
}

function queue(options: Partial<FairQueueOptions> & { clock?: { t: number } } = {}) {
  const clock = options.clock ?? { t: 0 };
  return new FairQueue<string>({
    readers: 2,
    perOrganization: 1,
    maxWaitMs: 4000,
    waitingPerOrganization: 10,
    waitingTotal: 100,
    costs: givenCosts().model,
    now: () => clock.t,
    ...options,
  });
}

const isEntry = (r: Entry<string> | Refusal): r is Entry<string> => !('whose' in r);

/** Pushes and asserts it was let in. */
function add(q: FairQueue<string>, org: string, item: string, shape = 'cheap') {
  const r = q.push(org, shape, item);
  assert.ok(isEntry(r), `${item} refused: ${JSON.stringify(r)}`);
  return r;
}

function refusal(q: FairQueue<string>, org: string, shape = 'cheap') {
  const r = q.push(org, shape, `${org}-refused`);
  assert.ok(!isEntry(r), `${org}'s search let in`);
  return r;
}

/** Starts searches while next() gives one, returning them in order. */
const startAll = (q: FairQueue<string>) => {
  const started: Entry<string>[] = [];
  for (let n = q.next(); n; n = q.next()) started.push(n);
  return started;
};
const items = (entries: Entry<string>[]) => entries.map((e) => e.item);

describe('search reader queue: turns', () => {
  it('an organization runs at most its share at once; the rest of its searches wait', () => {
    const q = queue({ perOrganization: 2, readers: 3 });
    for (const s of ['a1', 'a2', 'a3', 'a4']) add(q, 'A', s);
    const first = startAll(q);
    assert.deepEqual(items(first), ['a1', 'a2']);
    assert.equal(q.size, 2);
    q.done(first[0]!);
    const second = startAll(q);
    assert.deepEqual(items(second), ['a3']);
    q.done(first[1]!);
    q.done(second[0]!);
    assert.deepEqual(items(startAll(q)), ['a4']);
    assert.equal(q.size, 0);
  });

  it("another organization's search goes ahead of a flooding organization's waiting ones", () => {
    const q = queue();
    for (let i = 1; i <= 5; i++) add(q, 'A', `a${i}`);
    const [a1] = startAll(q);
    assert.equal(a1?.item, 'a1');
    add(q, 'B', 'b1');
    // B is below its share: it starts at once, while A waits for its running search.
    const [b1] = startAll(q);
    assert.equal(b1?.item, 'b1');
    add(q, 'B', 'b2');
    add(q, 'C', 'c1');
    q.done(a1!);
    q.done(b1!);
    // Least recently served first: C (never yet), then A, then B (served after A).
    assert.deepEqual(items(startAll(q)), ['c1', 'a2', 'b2']);
  });

  it("with one reader, a newcomer's search runs before the flooding organization's next one", () => {
    const q = queue({ readers: 1 });
    add(q, 'A', 'a1');
    const [a1] = startAll(q);
    // A's burst arrives while a1 runs, then B's search.
    add(q, 'A', 'a2');
    add(q, 'A', 'a3');
    add(q, 'B', 'b1');
    q.done(a1!);
    const b1 = q.next();
    assert.equal(b1?.item, 'b1');
    q.done(b1!);
    assert.deepEqual(items(startAll(q)), ['a2']);
  });

  it('with one reader, organizations alternate instead of first come, first served', () => {
    const q = queue({ readers: 1 });
    for (let i = 1; i <= 3; i++) add(q, 'A', `a${i}`);
    for (let i = 1; i <= 3; i++) add(q, 'B', `b${i}`);
    const order: string[] = [];
    // One reader: one search at a time, whoever's it is.
    for (let n = q.next(); n; n = q.next()) {
      order.push(n.item);
      q.done(n);
    }
    assert.deepEqual(order, ['a1', 'b1', 'a2', 'b2', 'a3', 'b3']);
  });

  it('a search that gave up waiting leaves the line and the turn', () => {
    const q = queue({ readers: 1 });
    const a1 = add(q, 'A', 'a1');
    const b1 = add(q, 'B', 'b1');
    const a2 = add(q, 'A', 'a2');
    assert.equal(q.remove(a1), true);
    assert.equal(q.remove(a1), false);
    assert.equal(q.remove(b1), true);
    assert.equal(q.size, 1);
    assert.deepEqual(items(startAll(q)), ['a2']);
    assert.equal(q.remove(a2), false, 'a started search no longer waits');
    add(q, 'C', 'c1');
    assert.deepEqual(q.drain(), ['c1']);
    assert.equal(q.size, 0);
    assert.equal(q.next(), undefined);
  });

  it('a finished search reports its run time on the clock to the cost model', () => {
    const clock = { t: 100 };
    const costs = givenCosts();
    const q = queue({ clock, costs: costs.model });
    add(q, 'A', 'a1', 'shape-1');
    const [a1] = startAll(q);
    clock.t += 37;
    q.done(a1!);
    q.done(a1!);
    assert.deepEqual(costs.observed, [['A', 'shape-1', 37]]);
  });
});

describe('search reader queue: who is let in', () => {
  it('cheap searches are let in by the hundred; the same count of costly ones is refused as the organization’s doing', () => {
    // Two readers, one organization's share one of them; a search may expect to wait 4 s (two budgets of 2 s).
    const costs = givenCosts({ fuzzy: 3, heavy: 2000 });
    const q = queue({ costs: costs.model, waitingPerOrganization: 1000, waitingTotal: 4000 });
    for (let i = 0; i < 500; i++) add(q, 'A', `a${i}`, 'fuzzy');
    assert.equal(q.size, 500);

    // The first heavy one starts at once, the next two wait 2 and 4 s: the fourth would wait 6 s.
    for (let i = 0; i < 3; i++) add(q, 'H', `h${i}`, 'heavy');
    const r = refusal(q, 'H', 'heavy');
    assert.equal(r.whose, 'organization');
    assert.equal(r.by, 'wait');
    assert.equal(r.waitMs, 6000);
    // Another organization's search is let in: H's line is H's share's to clear.
    add(q, 'B', 'b1', 'heavy');
  });

  it("a running search's elapsed time counts off its expected cost", () => {
    const clock = { t: 0 };
    const q = queue({ clock, costs: givenCosts({ heavy: 2000 }).model });
    add(q, 'A', 'a1', 'heavy');
    const [a1] = startAll(q);
    add(q, 'A', 'a2', 'heavy');
    add(q, 'A', 'a3', 'heavy');
    assert.equal(refusal(q, 'A', 'heavy').waitMs, 6000);
    clock.t = 1500;
    assert.equal(refusal(q, 'A', 'heavy').waitMs, 4500);
    clock.t = 2000;
    add(q, 'A', 'a4', 'heavy');
    // Past its estimate, a running search is expected to end now; the waiting ones still count in full.
    clock.t = 9000;
    assert.equal(refusal(q, 'A', 'heavy').waitMs, 6000);
    q.done(a1!);
  });

  it("the count caps only bound memory: the organization's own cap, then everyone's", () => {
    const q = queue({ waitingPerOrganization: 2, waitingTotal: 3 });
    add(q, 'A', 'a1');
    add(q, 'A', 'a2');
    const own = refusal(q, 'A');
    assert.deepEqual([own.whose, own.by, own.waiting], ['organization', 'count', 2]);
    add(q, 'B', 'b1');
    const all = refusal(q, 'C');
    assert.deepEqual([all.whose, all.by, all.waiting], ['process', 'count', 3]);
    // A running search no longer waits: room again.
    assert.equal(q.next()?.item, 'a1');
    add(q, 'C', 'c1');
  });

  it('organizations each within their share but together past what the readers clear in time: the process refuses', () => {
    const clock = { t: 0 };
    const q = queue({ clock, costs: givenCosts({ heavy: 2000 }).model });
    // Two readers busy for 2 s (A's and B's), then newcomers' first searches, each within its share.
    const running = ['A', 'B'].map((org) => add(q, org, `${org}1`, 'heavy'));
    assert.equal(startAll(q).length, 2);
    // C's and D's start when A's and B's end, E's 2 s later: expected 1.5, 2.5 and 3.5 s (the other reader
    // half way through its search then).
    for (const org of ['C', 'D', 'E']) add(q, org, `${org}1`, 'heavy');
    // F's would be the fourth in turn after two rounds of two readers: 4.5 s, past the 4 s it may wait.
    const r = refusal(q, 'F', 'heavy');
    assert.deepEqual([r.whose, r.by, r.waiting, r.waitMs], ['process', 'wait', 3, 4500]);
    // Two seconds on, A's and B's have ended and C's and D's run: room for F.
    clock.t = 2000;
    for (const e of running) q.done(e);
    // (FairQueue leaves counting readers to its caller: two free, two taken.)
    assert.deepEqual([q.next()?.item, q.next()?.item], ['C1', 'D1']);
    add(q, 'F', 'F1', 'heavy');
  });
});

describe('search cost model', () => {
  it('learns per organization and shape, falls back on the organization, then on a share of the budget', () => {
    const costs = new RecentSearchCosts(2000);
    assert.equal(costs.estimate('A', 'x'), 10);
    costs.observe('A', 'x', 1000);
    assert.equal(costs.estimate('A', 'x'), 1000);
    // A shape A has not run: A's mean; another organization: the prior, whatever A runs.
    assert.equal(costs.estimate('A', 'y'), 1000);
    assert.equal(costs.estimate('B', 'x'), 10);
    // A moving mean, so one run moves it part of the way.
    costs.observe('A', 'x', 0);
    assert.ok(costs.estimate('A', 'x') > 0 && costs.estimate('A', 'x') < 1000);
    // A run is stopped at its budget: it never counts more.
    costs.observe('B', 'z', 60_000);
    assert.equal(costs.estimate('B', 'z'), 2000);
  });
});

/** Lets pending callbacks and promise reactions run (setImmediate is not one of the mocked timers). */
const flush = () => new Promise((r) => setImmediate(r));

/** A promise's rejection, once it has one. */
function settled(p: Promise<unknown>) {
  const out: { error?: unknown } = {};
  p.then(
    () => {
      out.error = new Error('resolved');
    },
    (err: unknown) => {
      out.error = err;
    },
  );
  return out;
}

describe('search slots (both stores’ searches)', () => {
  /** A search that runs until `finish` is called. */
  function held() {
    let finish: (v: string) => void = () => {};
    const done = new Promise<string>((resolve) => {
      finish = resolve;
    });
    return { fn: () => done, finish: (v: string) => finish(v) };
  }

  const code = (expected: string) => (err: Error & { code?: string }) => {
    assert.equal(err.code, expected, err.message);
    return true;
  };

  it('runs at most `slots` at once, fairly across organizations', async () => {
    const slots = new SearchSlots({ slots: 2, budgetMs: 1000 });
    const started: string[] = [];
    const jobs = new Map<string, ReturnType<typeof held>>();
    const run = (org: string, name: string) => {
      const h = held();
      jobs.set(name, h);
      return slots.run(org, 'shape', () => {
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

  it('an organization past its share hears 429 SEARCH_QUEUE_FULL once its line would have let the search in, with Retry-After; a newcomer is let in', async (t) => {
    t.mock.timers.enable({ apis: ['setTimeout'] });
    const clock = { t: 0 };
    const costs = givenCosts({ heavy: 2000 });
    const slots = new SearchSlots({ slots: 2, budgetMs: 2000, costs: costs.model, now: () => clock.t });
    const running = held();
    const waiting = [slots.run('A', 'heavy', running.fn), slots.run('A', 'heavy', async () => 'a2')];
    slots.run('A', 'heavy', async () => 'a3');
    clock.t = 500;
    const answer = settled(slots.run('A', 'heavy', async () => 'x'));
    // Its line's wait is 1.5 s past the 4 s it may expect: held that long, then answered.
    t.mock.timers.tick(1499);
    await flush();
    assert.equal(answer.error, undefined, 'answered before its line would have let it in');
    t.mock.timers.tick(1);
    await flush();
    const err = (answer as { error?: unknown }).error as Error & {
      code?: string;
      retryAfter: number;
      errors: Array<{ details: Record<string, number> }>;
    };
    code('SEARCH_QUEUE_FULL')(err);
    assert.match(err.message, /would keep this one waiting about 5500 ms/);
    assert.equal(err.retryAfter, 1);
    assert.deepEqual(err.errors[0]?.details, { waiting: 2, expected_wait_ms: 5500, max_wait_ms: 4000 });
    // Another organization's search starts on the reader left to others.
    assert.equal(await slots.run('B', 'heavy', async () => 'b1'), 'b1');
    // A refusal still held is answered at close.
    const last = settled(slots.run('A', 'heavy', async () => 'y'));
    await flush();
    assert.equal(last.error, undefined);
    running.finish('a1');
    assert.deepEqual(await Promise.all(waiting), ['a1', 'a2']);
    await slots.close();
    await flush();
    code('SEARCH_QUEUE_FULL')((last as { error?: unknown }).error as Error & { code?: string });
  });

  it('learns what a search says it ran for, else the time it held its slot', async () => {
    const clock = { t: 0 };
    const costs = givenCosts();
    const slots = new SearchSlots({ slots: 2, budgetMs: 2000, costs: costs.model, now: () => clock.t });
    // Where it ran (a reader thread's own measure, without the thread's start).
    await slots.run('A', 'told', async (ran) => {
      clock.t += 900;
      ran(12);
    });
    await slots.run('A', 'untold', async () => {
      clock.t += 30;
    });
    assert.deepEqual(costs.observed, [
      ['A', 'told', 12],
      ['A', 'untold', 30],
    ]);
    await slots.close();
  });

  it('cheap searches of one organization all wait their turn, past the old count of 32', async () => {
    const slots = new SearchSlots({ slots: 2, budgetMs: 2000, costs: givenCosts({ fuzzy: 3 }).model });
    const running = held();
    const first = slots.run('A', 'fuzzy', running.fn);
    const rest = Array.from({ length: 499 }, (_, i) => slots.run('A', 'fuzzy', async () => `a${i}`));
    running.finish('a');
    assert.equal(await first, 'a');
    assert.equal((await Promise.all(rest)).length, 499);
    await slots.close();
  });

  it('a search that waited three budgets gives up: 429 behind its own searches, 503 behind others’; and at close', async () => {
    // Estimates far below the real run (which never ends here), so they are let in and wait in vain.
    const slots = new SearchSlots({ slots: 1, budgetMs: 10, costs: givenCosts().model });
    const running = held();
    const first = slots.run('A', 'x', running.fn);
    const ownLine = slots.run('A', 'x', async () => 'x');
    const behindA = slots.run('B', 'x', async () => 'y');
    await assert.rejects(ownLine, (err: Error & { code?: string }) => {
      code('SEARCH_QUEUE_FULL')(err);
      assert.match(err.message, /waited 30 ms for its turn behind this organization's other/);
      return true;
    });
    await assert.rejects(behindA, (err: Error & { code?: string }) => {
      code('SERVER_BUSY')(err);
      assert.match(err.message, /other organizations' searches kept the search readers busy/);
      return true;
    });
    const last = slots.run('C', 'x', async () => 'z');
    await slots.close();
    await assert.rejects(last, code('SERVER_BUSY'));
    await assert.rejects(
      slots.run('C', 'x', async () => 'z'),
      code('SERVER_BUSY'),
    );
    running.finish('done');
    assert.equal(await first, 'done');
  });

  it('the count cap is the organization’s own (429), past the 32 it once was', async () => {
    const slots = new SearchSlots({ slots: 1, budgetMs: 600_000, costs: givenCosts({ free: 0 }).model });
    const running = held();
    const first = slots.run('A', 'free', running.fn);
    const waiting = Array.from({ length: WAITING_PER_ORGANIZATION }, () =>
      slots.run('A', 'free', async () => 'x'),
    );
    await assert.rejects(
      slots.run('A', 'free', async () => 'x'),
      (err: Error & { code?: string }) => {
        code('SEARCH_QUEUE_FULL')(err);
        assert.match(
          err.message,
          new RegExp(`has ${WAITING_PER_ORGANIZATION} Context Store searches waiting`),
        );
        return true;
      },
    );
    running.finish('done');
    assert.equal(await first, 'done');
    assert.equal((await Promise.all(waiting)).length, WAITING_PER_ORGANIZATION);
    await slots.close();
  });
});
