/**
 * Who runs next on the search readers (search-readers.ts). Each organization may run at most `perOrganization`
 * searches at once, and its other searches wait in its own line; when a reader frees up, organizations take
 * turns instead of first come, first served: the next search is that of the organization served least
 * recently, so one organization's burst neither takes every reader nor stands in front of another
 * organization's search. The lines are bounded per organization and in all: past that a search is refused at
 * once rather than kept waiting.
 */
import { DomainError } from '../core/errors.ts';

// A waiting search holds its compiled statement and an open request: the lines are bounded, and a search gives
// up waiting after a few budgets (long enough for the searches ahead of it to run theirs out), so its caller
// hears back within seconds either way.
export const WAITING_PER_ORGANIZATION = 32;
export const WAITING_TOTAL = 256;
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

export const serverBusy = (message: string, budgetMs: number) =>
  new DomainError('SERVER_BUSY', message, { retryAfter: Math.max(1, Math.ceil(budgetMs / 1000)) });

export interface FairQueueLimits {
  /** searches of one organization running at once */
  perOrganization: number;
  /** searches of one organization waiting */
  waitingPerOrganization: number;
  /** searches waiting, all organizations together */
  waitingTotal: number;
}

export type PushOutcome = 'queued' | 'organization-full' | 'full';

export class FairQueue<T> {
  /** Lines of waiting searches, in the order the organizations started waiting (which breaks ties). */
  private readonly waiting = new Map<string, T[]>();
  private readonly running = new Map<string, number>();
  /** When each organization with searches running or waiting was last served (an organization just come: 0). */
  private readonly served = new Map<string, number>();
  private turn = 0;
  private total = 0;

  constructor(readonly limits: FairQueueLimits) {}

  get size(): number {
    return this.total;
  }

  push(organization: string, item: T): PushOutcome {
    const line = this.waiting.get(organization) ?? [];
    if (line.length >= this.limits.waitingPerOrganization) return 'organization-full';
    if (this.total >= this.limits.waitingTotal) return 'full';
    if (line.length === 0) this.waiting.set(organization, line);
    line.push(item);
    this.total++;
    return 'queued';
  }

  /**
   * Takes the next search to start, counting it as running: the first waiting one of the organization served
   * least recently among those below their limit.
   */
  next(): { organization: string; item: T } | undefined {
    let organization: string | undefined;
    let lastServed = Number.POSITIVE_INFINITY;
    for (const org of this.waiting.keys()) {
      if ((this.running.get(org) ?? 0) >= this.limits.perOrganization) continue;
      const served = this.served.get(org) ?? 0;
      if (served < lastServed) [organization, lastServed] = [org, served];
    }
    if (organization === undefined) return undefined;
    const line = this.waiting.get(organization)!;
    const item = line.shift()!;
    this.total--;
    if (line.length === 0) this.waiting.delete(organization);
    this.running.set(organization, (this.running.get(organization) ?? 0) + 1);
    this.served.set(organization, ++this.turn);
    return { organization, item };
  }

  /** A search taken by next() has finished. */
  done(organization: string): void {
    const n = (this.running.get(organization) ?? 0) - 1;
    if (n > 0) this.running.set(organization, n);
    else this.running.delete(organization);
    this.forgetIfIdle(organization);
  }

  /** An organization with nothing running or waiting starts afresh next time (and the maps stay small). */
  private forgetIfIdle(organization: string) {
    if (!this.running.has(organization) && !this.waiting.has(organization)) this.served.delete(organization);
  }

  /** Takes a waiting search out of its line (it waited too long); false when it is no longer waiting. */
  remove(organization: string, item: T): boolean {
    const line = this.waiting.get(organization);
    const i = line ? line.indexOf(item) : -1;
    if (!line || i < 0) return false;
    line.splice(i, 1);
    this.total--;
    if (line.length === 0) {
      this.waiting.delete(organization);
      this.forgetIfIdle(organization);
    }
    return true;
  }

  /** Empties every line, returning what waited. */
  drain(): T[] {
    const all = [...this.waiting.values()].flat();
    this.waiting.clear();
    for (const organization of [...this.served.keys()]) this.forgetIfIdle(organization);
    this.total = 0;
    return all;
  }
}

interface Waiting {
  start(): void;
  fail(err: Error): void;
  timer?: NodeJS.Timeout;
}

/**
 * At most `slots` searches of this process at once (a share of its database connections), started fairly
 * across organizations as FairQueue decides; a search that can't start within WAIT_BUDGETS budgets, or finds
 * the lines full, is refused with SERVER_BUSY.
 */
export class SearchSlots {
  private readonly queue: FairQueue<Waiting>;
  private running = 0;
  private closed = false;

  constructor(
    private readonly slots: number,
    private readonly budgetMs: number,
  ) {
    this.queue = new FairQueue({
      perOrganization: Math.max(1, slots - 1),
      waitingPerOrganization: WAITING_PER_ORGANIZATION,
      waitingTotal: WAITING_TOTAL,
    });
  }

  run<T>(organization: string, fn: () => Promise<T>): Promise<T> {
    if (this.closed) return Promise.reject(serverBusy('ces is shutting down; retry shortly.', this.budgetMs));
    return new Promise<T>((resolve, reject) => {
      const waitMs = this.budgetMs * WAIT_BUDGETS;
      const item: Waiting = {
        fail: reject,
        start: () => {
          clearTimeout(item.timer);
          fn()
            .then(resolve, reject)
            .finally(() => {
              this.running--;
              this.queue.done(organization);
              this.pump();
            });
        },
      };
      const outcome = this.queue.push(organization, item);
      if (outcome !== 'queued') {
        const whose = outcome === 'full' ? 'ces has' : 'This organization has';
        const waiting = outcome === 'full' ? WAITING_TOTAL : WAITING_PER_ORGANIZATION;
        reject(
          serverBusy(
            `${whose} ${waiting} Context Store searches waiting already; retry shortly.`,
            this.budgetMs,
          ),
        );
        return;
      }
      item.timer = setTimeout(() => {
        if (!this.queue.remove(organization, item)) return;
        reject(
          serverBusy(
            `This search waited ${waitMs} ms for its turn: other searches of this organization (or of all) are ` +
              'running. Retry shortly.',
            this.budgetMs,
          ),
        );
      }, waitMs);
      this.pump();
    });
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
    for (const item of this.queue.drain()) {
      clearTimeout(item.timer);
      item.fail(serverBusy('ces is shutting down; retry shortly.', this.budgetMs));
    }
  }
}
