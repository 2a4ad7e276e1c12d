/**
 * The time budget of a search on SQLite. better-sqlite3 offers neither sqlite3_interrupt nor a progress
 * handler, so the stop comes from inside the statement: every search statement calls the SQL function
 * `ces_search_budget` as it reads rows (SearchDialect.rowGuard), and past the deadline that function throws,
 * which makes SQLite abandon the statement at that row and better-sqlite3 rethrow the error to the caller. The
 * connection is usable again at once.
 *
 * One budget per thread: a thread runs one statement at a time (better-sqlite3 is synchronous), so the deadline
 * is the running statement's.
 */
import { performance } from 'node:perf_hooks';

/** Thrown from inside a search statement past its deadline; the statement has stopped when the caller sees it. */
export class SearchBudgetExceeded extends Error {
  constructor(readonly budgetMs: number) {
    super(`search stopped after its budget of ${budgetMs} ms`);
    this.name = 'SearchBudgetExceeded';
  }
}

const clock = () => performance.now();
let running: { deadline: number; budgetMs: number; now: () => number } | undefined;

/** The guard's SQL function: true, or a throw once the running statement is past its deadline. */
export function searchBudgetGuard(_row: unknown): number {
  if (running && running.now() > running.deadline) throw new SearchBudgetExceeded(running.budgetMs);
  return 1;
}

/** Runs `fn` (which runs search statements) with `budgetMs` to do it in; `now` is for tests. */
export function withinSearchBudget<T>(budgetMs: number, fn: () => T, now: () => number = clock): T {
  const outer = running;
  running = { deadline: now() + budgetMs, budgetMs, now };
  try {
    return fn();
  } finally {
    running = outer;
  }
}
