/**
 * Context Store searches of this process taking their turns on its readers (a share of its PostgreSQL
 * connections, or SQLite's reader threads), as FairQueue (search-queue.ts) lets them in and orders them, with
 * the refusals a caller hears: SEARCH_QUEUE_FULL (429) for an organization past its own share, SERVER_BUSY
 * (503) for the process busy for everyone.
 */
import { DomainError } from '../errors.ts';
import { RecentSearchCosts, type SearchCosts } from './search-costs.ts';
import {
  ADMIT_BUDGETS,
  type Entry,
  FairQueue,
  type Refusal,
  WAIT_BUDGETS,
  WAITING_PER_ORGANIZATION,
  WAITING_TOTAL,
} from './search-queue.ts';

const seconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

const serverBusy = (message: string, budgetMs: number, retryAfterMs = budgetMs) =>
  new DomainError('SERVER_BUSY', message, { retryAfter: seconds(retryAfterMs) });

const queueFull = (message: string, retryAfterMs: number, details: Record<string, unknown>) =>
  new DomainError('SEARCH_QUEUE_FULL', message, {
    retryAfter: seconds(retryAfterMs),
    errors: [{ field: null, message, error_code: 'search_queue_full', details }],
  });

interface Waiting {
  start(): void;
  fail(err: Error): void;
  timer?: NodeJS.Timeout;
}

/**
 * Refusals waiting to be answered (see refuse()), at most; past it one is answered at once. Each holds a timer
 * and its request, no place in a line.
 */
const HELD_REFUSALS = 4000;

export interface SearchSlotsOptions {
  /** searches of this process at once (a share of its database connections, or its reader threads) */
  slots: number;
  /** each search's time budget (ms) */
  budgetMs: number;
  /** run-time estimates; learnt from the searches run by default */
  costs?: SearchCosts;
  /** milliseconds, for run times; performance.now by default */
  now?: () => number;
}

/**
 * At most `slots` searches of this process at once, started fairly across organizations as FairQueue decides.
 * A search the queue does not let in is refused (see refuse()); one that can't start within WAIT_BUDGETS
 * budgets gives up: SEARCH_QUEUE_FULL when its organization's own searches hold its share of the readers then
 * (its own doing), SERVER_BUSY when they don't (other organizations' searches kept the readers). Both stores'
 * searches go through it, so they are let in and refused alike.
 */
export class SearchSlots {
  private readonly queue: FairQueue<Waiting>;
  private readonly budgetMs: number;
  private readonly slots: number;
  private running = 0;
  private closed = false;
  /** Refusals not answered yet, each with what answers it now. */
  private readonly held = new Map<NodeJS.Timeout, () => void>();

  constructor(options: SearchSlotsOptions) {
    this.slots = options.slots;
    this.budgetMs = options.budgetMs;
    this.queue = new FairQueue({
      readers: options.slots,
      // With one slot, one organization may have it; with more, one is always left to the others.
      perOrganization: Math.max(1, options.slots - 1),
      maxWaitMs: options.budgetMs * ADMIT_BUDGETS,
      waitingPerOrganization: WAITING_PER_ORGANIZATION,
      waitingTotal: WAITING_TOTAL,
      costs: options.costs ?? new RecentSearchCosts(options.budgetMs),
      now: options.now ?? (() => performance.now()),
    });
  }

  /**
   * Runs `fn` (the search of `shape`, see searchShape) when it is the organization's turn. Its run time is
   * learnt as the time it held its slot, unless it tells `ran` how long the search itself took.
   */
  run<T>(organization: string, shape: string, fn: (ran: (ms: number) => void) => Promise<T>): Promise<T> {
    if (this.closed) return Promise.reject(serverBusy('ces is shutting down; retry shortly.', this.budgetMs));
    return new Promise<T>((resolve, reject) => {
      const waitMs = this.budgetMs * WAIT_BUDGETS;
      const item: Waiting = {
        fail: reject,
        start: () => {
          clearTimeout(item.timer);
          let ranMs: number | undefined;
          // The slot is free (and the next search started) by the time the caller hears back.
          const finished = () => {
            this.running--;
            this.queue.done(entry as Entry<Waiting>, ranMs);
            this.pump();
          };
          fn((ms) => {
            ranMs = ms;
          }).then(
            (value) => {
              finished();
              resolve(value);
            },
            (err: unknown) => {
              finished();
              reject(err);
            },
          );
        },
      };
      const entry = this.queue.push(organization, shape, item);
      if ('whose' in entry) {
        this.refuse(entry, reject);
        return;
      }
      item.timer = setTimeout(() => {
        if (!this.queue.remove(entry)) return;
        if (this.queue.atShare(organization)) {
          const message =
            `This search waited ${waitMs} ms for its turn behind this organization's other Context Store ` +
            'searches, which hold its share of the search readers. Send fewer searches at once, or ' +
            'cheaper ones (narrower filters), and retry.';
          reject(queueFull(message, this.budgetMs, { waited_ms: waitMs }));
        } else {
          reject(
            serverBusy(
              `This search waited ${waitMs} ms for its turn: other organizations' searches kept the search ` +
                'readers busy. Retry shortly.',
              this.budgetMs,
            ),
          );
        }
      }, waitMs);
      this.pump();
    });
  }

  /**
   * Answers a refusal once such a search would have been let in (at most a budget later), with Retry-After for
   * what is left: answered at once, a client asking again as soon as it hears back (Retry-After ignored) turns
   * its refusals into a busy loop on the request thread. Measured with bench:search-isolation (4 such clients
   * of the heaviest search over 1M records, 2 cores): answered at once, 5,351 refusals in 30 s took 7.0 s of
   * the event loop's CPU and another tenant's /healthz p99 was 20× its baseline (153 ms); held, 13 refusals
   * and 1.06× (4.6 ms), as with the count-bounded line before (1.09×). bench/results/search-isolation*.json.
   */
  private refuse(r: Refusal, reject: (err: Error) => void): void {
    const holdMs = Math.min(this.budgetMs, Math.max(0, r.untilMs));
    const err = this.refused(r, r.untilMs - holdMs);
    if (holdMs <= 0 || this.held.size >= HELD_REFUSALS) {
      reject(err);
      return;
    }
    const answer = () => {
      clearTimeout(timer);
      this.held.delete(timer);
      reject(err);
    };
    const timer = setTimeout(answer, holdMs);
    this.held.set(timer, answer);
  }

  private refused(r: Refusal, retryAfterMs: number): DomainError {
    const maxWaitMs = this.budgetMs * ADMIT_BUDGETS;
    const wait = Math.round(r.waitMs);
    if (r.whose === 'organization') {
      const why =
        r.by === 'count'
          ? `This organization has ${r.waiting} Context Store searches waiting already, the most it may.`
          : `This organization's ${r.waiting} Context Store searches waiting already would keep this one ` +
            `waiting about ${wait} ms on its share of the search readers, past the ${maxWaitMs} ms a search may ` +
            'expect to wait.';
      return queueFull(
        `${why} Send fewer searches at once, or cheaper ones (narrower filters), and retry.`,
        retryAfterMs,
        {
          waiting: r.waiting,
          expected_wait_ms: wait,
          max_wait_ms: maxWaitMs,
        },
      );
    }
    return serverBusy(
      r.by === 'count'
        ? `ces has ${r.waiting} Context Store searches waiting already; retry shortly.`
        : `ces's search readers are busy: the ${r.waiting} searches waiting would keep this one waiting about ` +
            `${wait} ms for its turn, past the ${maxWaitMs} ms a search may expect to wait. Retry shortly.`,
      this.budgetMs,
      retryAfterMs,
    );
  }

  private pump(): void {
    while (!this.closed && this.running < this.slots) {
      const next = this.queue.next();
      if (!next) return;
      this.running++;
      next.item.start();
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const answer of [...this.held.values()]) answer();
    for (const item of this.queue.drain()) {
      clearTimeout(item.timer);
      item.fail(serverBusy('ces is shutting down; retry shortly.', this.budgetMs));
    }
  }
}
