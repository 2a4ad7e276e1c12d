/**
 * Who runs next on the search readers, and who is let in to wait. Each organization may run at most
 * `perOrganization` searches at once, and its other searches wait in its own line; when a reader frees up,
 * organizations take turns instead of first come, first served: the next search is that of the organization
 * served least recently, so one organization's burst neither takes every reader nor stands in front of another
 * organization's search.
 *
 * A search is let in by the wait it can expect, not by how many wait: the expected run time (search-costs.ts)
 * of what is running and waiting ahead of it, over the readers that will run it. Past `maxWaitMs` within its
 * organization's own line (its share of the readers) it is refused as the organization's doing (429
 * SEARCH_QUEUE_FULL); past it across every organization's line, in the order turns would run them, as the
 * process's (503 SERVER_BUSY). So fifty clients of cheap searches wait their turn, and only work the readers
 * can't clear in time is refused, without holding a place in line for nothing. Counts bound the lines too,
 * only for memory's sake.
 */
import { DomainError } from '../errors.ts';
import type { SearchCosts } from './search-costs.ts';

// A waiting search holds its compiled statement (a few KB) and an open request: the counts only bound memory,
// far above what the wait lets in for any but the cheapest searches (1,000 of 4 ms fill two budgets of 2 s).
export const WAITING_PER_ORGANIZATION = 1000;
export const WAITING_TOTAL = 4000;
/**
 * A search is let in while it is expected to start within ADMIT_BUDGETS budgets, and gives up after
 * WAIT_BUDGETS: the estimates are means, and the margin keeps a search let in from running out of time
 * waiting (the worst outcome: held for seconds, then refused anyway).
 */
export const ADMIT_BUDGETS = 2;
export const WAIT_BUDGETS = 3;

export function searchTimeout(budgetMs: number): DomainError {
  const message =
    `The search ran past its time budget of ${budgetMs} ms and was stopped. Narrow the filter (eq, in or a ` +
    'range on a field, fewer like and any conditions, fuzzy/keyword outside or/not) and try again.';
  return new DomainError('SEARCH_TIMEOUT', message, {
    errors: [
      {
        field: 'params.query.filter',
        message,
        error_code: 'search_timeout',
        details: { budget_ms: budgetMs },
      },
    ],
  });
}

export interface FairQueueOptions {
  /** searches of this process at once */
  readers: number;
  /** searches of one organization at once */
  perOrganization: number;
  /** the longest expected wait a search is let in with */
  maxWaitMs: number;
  /** searches of one organization waiting, at most */
  waitingPerOrganization: number;
  /** searches waiting, all organizations together, at most */
  waitingTotal: number;
  costs: SearchCosts;
  /** milliseconds, for run times */
  now: () => number;
}

/** A search in a line, then running. */
export interface Entry<T> {
  readonly organization: string;
  readonly shape: string;
  readonly item: T;
  /** its expected run time when it was let in (ms) */
  readonly cost: number;
  startedAt: number;
}

/** Why a search was not let in: its organization's line, or every line, is too long. */
export interface Refusal {
  whose: 'organization' | 'process';
  by: 'count' | 'wait';
  /** searches waiting in that line (or lines) */
  waiting: number;
  /** the wait the search could expect (ms) */
  waitMs: number;
  /** how long until such a search would be let in: the readers clear the excess, or one of the line leaves (ms) */
  untilMs: number;
}

interface Line<T> {
  entries: Entry<T>[];
  /** the expected run time of its entries together (ms) */
  work: number;
}

export class FairQueue<T> {
  /** Lines of waiting searches, in the order the organizations started waiting (which breaks ties). */
  private readonly waiting = new Map<string, Line<T>>();
  private readonly running = new Map<string, Set<Entry<T>>>();
  /** When each organization with searches running or waiting was last served (an organization just come: 0). */
  private readonly served = new Map<string, number>();
  private turn = 0;
  private total = 0;

  constructor(readonly options: FairQueueOptions) {}

  get size(): number {
    return this.total;
  }

  /** Puts a search in its organization's line, or says why not. */
  push(organization: string, shape: string, item: T): Entry<T> | Refusal {
    const o = this.options;
    const line = this.waiting.get(organization);
    const queued = line?.entries.length ?? 0;
    const now = o.now();
    const running = this.running.get(organization) ?? new Set();
    const ownWait = startsIn(
      remaining(running, now) + (line?.work ?? 0),
      running.size + queued,
      o.perOrganization,
    );
    const refuse = (
      whose: Refusal['whose'],
      by: Refusal['by'],
      waiting: number,
      waitMs: number,
    ): Refusal => ({
      whose,
      by,
      waiting,
      waitMs,
      untilMs: by === 'wait' ? waitMs - o.maxWaitMs : waitMs / Math.max(1, waiting),
    });
    if (queued >= o.waitingPerOrganization) return refuse('organization', 'count', queued, ownWait);
    if (ownWait > o.maxWaitMs) return refuse('organization', 'wait', queued, ownWait);
    const wait = this.turnWait(organization, now);
    if (this.total >= o.waitingTotal) return refuse('process', 'count', this.total, wait);
    if (wait > o.maxWaitMs) return refuse('process', 'wait', this.total, wait);
    const cost = o.costs.estimate(organization, shape);
    const entry: Entry<T> = { organization, shape, item, cost, startedAt: 0 };
    if (line) {
      line.entries.push(entry);
      line.work += cost;
    } else this.waiting.set(organization, { entries: [entry], work: cost });
    this.total++;
    return entry;
  }

  /**
   * The wait of a search joining the organization's line, on every reader: behind what runs now, the searches
   * of its line, and those of other lines that take their turns before it (as many as it has ahead of it, one
   * more for a line served less recently), each line's at its mean. The limit of one organization's searches
   * at once is left out: an estimate, erring long when few organizations wait.
   */
  private turnWait(organization: string, now: number): number {
    let work = 0;
    let count = 0;
    for (const entries of this.running.values()) {
      work += remaining(entries, now);
      count += entries.size;
    }
    const own = this.waiting.get(organization);
    const queued = own?.entries.length ?? 0;
    work += own?.work ?? 0;
    count += queued;
    const served = this.served.get(organization) ?? 0;
    for (const [org, line] of this.waiting) {
      if (org === organization) continue;
      const before = Math.min(line.entries.length, queued + ((this.served.get(org) ?? 0) <= served ? 1 : 0));
      work += (before * line.work) / line.entries.length;
      count += before;
    }
    return startsIn(work, count, this.options.readers);
  }

  /** Whether the organization runs as many searches as it may at once (so its own keep its line waiting). */
  atShare(organization: string): boolean {
    return (this.running.get(organization)?.size ?? 0) >= this.options.perOrganization;
  }

  /**
   * Takes the next search to start, counting it as running: the first waiting one of the organization served
   * least recently among those below their limit.
   */
  next(): Entry<T> | undefined {
    let organization: string | undefined;
    let lastServed = Number.POSITIVE_INFINITY;
    for (const org of this.waiting.keys()) {
      if (this.atShare(org)) continue;
      const served = this.served.get(org) ?? 0;
      if (served < lastServed) [organization, lastServed] = [org, served];
    }
    if (organization === undefined) return undefined;
    const line = this.waiting.get(organization)!;
    const entry = line.entries.shift()!;
    this.leave(line, entry);
    const running = this.running.get(organization) ?? new Set();
    this.running.set(organization, running);
    running.add(entry);
    entry.startedAt = this.options.now();
    this.served.set(organization, ++this.turn);
    return entry;
  }

  /**
   * A search taken by next() has finished: its run time is learnt, as measured where it ran (`ranMs`) or else
   * from when it started.
   */
  done(entry: Entry<T>, ranMs?: number): void {
    const running = this.running.get(entry.organization);
    if (!running?.delete(entry)) return;
    if (running.size === 0) this.running.delete(entry.organization);
    const ms = ranMs ?? this.options.now() - entry.startedAt;
    this.options.costs.observe(entry.organization, entry.shape, ms);
    this.forgetIfIdle(entry.organization);
  }

  /** Takes a waiting search out of its line (it waited too long); false when it is no longer waiting. */
  remove(entry: Entry<T>): boolean {
    const line = this.waiting.get(entry.organization);
    const i = line ? line.entries.indexOf(entry) : -1;
    if (!line || i < 0) return false;
    line.entries.splice(i, 1);
    this.leave(line, entry);
    this.forgetIfIdle(entry.organization);
    return true;
  }

  /** Empties every line, returning what waited. */
  drain(): T[] {
    const all = [...this.waiting.values()].flatMap((line) => line.entries.map((e) => e.item));
    this.waiting.clear();
    for (const organization of [...this.served.keys()]) this.forgetIfIdle(organization);
    this.total = 0;
    return all;
  }

  private leave(line: Line<T>, entry: Entry<T>): void {
    this.total--;
    // Sums of floating-point costs drift; an empty line starts again from nothing.
    line.work = line.entries.length === 0 ? 0 : Math.max(0, line.work - entry.cost);
    if (line.entries.length === 0) this.waiting.delete(entry.organization);
  }

  /** An organization with nothing running or waiting starts afresh next time (and the maps stay small). */
  private forgetIfIdle(organization: string) {
    if (!this.running.has(organization) && !this.waiting.has(organization)) this.served.delete(organization);
  }
}

/**
 * When a search can expect to start behind `count` searches (running or waiting) of `work` ms together, on
 * `readers` readers: at once while one is free, else once all of them have started and a reader is free
 * again; the other readers are then half way through theirs on average, which it does not wait for.
 */
function startsIn(work: number, count: number, readers: number): number {
  if (count < readers) return 0;
  return Math.max(0, work - ((readers - 1) * work) / count / 2) / readers;
}

/** What is left of running searches' expected run times (ms); one running past its estimate counts nothing. */
function remaining(entries: Iterable<Entry<unknown>>, now: number): number {
  let left = 0;
  for (const e of entries) left += Math.max(0, e.cost - (now - e.startedAt));
  return left;
}
