/**
 * What a Context Store search is expected to cost, learnt from the searches that ran: a moving mean of run
 * times per organization and query shape (the compiled statement over one connector's index), and per
 * organization for a shape it has not run yet. The search queue (search-queue.ts) admits a search by the wait
 * the searches ahead of it imply, so a line of cheap searches is long before it is slow.
 */
import { createHash } from 'node:crypto';

export interface SearchCosts {
  /** Expected run time (ms) of the organization's search of this shape. */
  estimate(organization: string, shape: string): number;
  /** A search of this shape ran for `ms`. */
  observe(organization: string, shape: string, ms: number): void;
}

/**
 * A short key for a search's shape: its compiled statement (values are parameters, so searches differing only
 * in values share it) over one connector (whose size is most of the cost).
 */
export function searchShape(connectorId: string, sql: string): string {
  return createHash('sha1').update(connectorId).update('\0').update(sql).digest('base64');
}

/** Weight of the newest run in the moving means: a shape's cost follows its index within a few runs. */
const WEIGHT = 0.3;
/**
 * What a search is assumed to cost before anything of its organization has run, as a share of the budget.
 * Small, so that a first burst of cheap searches is let in (400 waiting per reader within two budgets); a
 * costly shape is known once one has run, and those let in on the guess meanwhile still give up after
 * WAIT_BUDGETS, behind their own organization's searches only.
 */
const PRIOR_SHARE = 1 / 200;
/** Means kept (shapes, and organizations), the least recently run forgotten first. */
const REMEMBERED = 10_000;

export class RecentSearchCosts implements SearchCosts {
  private readonly shapes = new Map<string, number>();
  private readonly organizations = new Map<string, number>();

  constructor(private readonly budgetMs: number) {}

  estimate(organization: string, shape: string): number {
    return (
      this.shapes.get(`${organization}\0${shape}`) ??
      this.organizations.get(organization) ??
      this.budgetMs * PRIOR_SHARE
    );
  }

  observe(organization: string, shape: string, ms: number): void {
    // A search is stopped at its budget, so no run costs more; one that was stopped counts as the budget.
    const cost = Math.min(Math.max(0, ms), this.budgetMs);
    blend(this.shapes, `${organization}\0${shape}`, cost);
    blend(this.organizations, organization, cost);
  }
}

function blend(means: Map<string, number>, key: string, cost: number): void {
  const mean = means.get(key);
  // Re-inserted, so the map's order is by last run and its first key the one to forget.
  means.delete(key);
  means.set(key, mean === undefined ? cost : mean + WEIGHT * (cost - mean));
  if (means.size > REMEMBERED) means.delete(means.keys().next().value as string);
}
