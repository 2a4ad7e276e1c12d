/**
 * What the Context Store's worker and search report, for metrics. As with the runtime's observer
 * (connectors/runtime/observer.ts), every argument may be exported as a label as it is: connector type slugs,
 * entity names, pass kinds, outcomes, operator kinds. Never an organization, workspace or connector id, nor a
 * query's values.
 */
import type { SearchOperator } from '../context-store/query-operators.ts';
import type { SyncPass } from '../context-store/sync-state.ts';
import { isDomainError } from '../errors.ts';

/**
 * How one claimed sync ended: its pass finished (`success`); stopped with this process, to be resumed
 * (`stopped`); its lease was taken over (`lease_lost`); delayed by the provider's rate limit (`rate_limited`);
 * failed and to be retried with backoff (`retry`); or marked Failed (`failed`).
 */
export type SyncOutcome = 'success' | 'stopped' | 'lease_lost' | 'rate_limited' | 'retry' | 'failed';

export type SearchOutcome = 'ok' | 'invalid_query' | 'timeout' | 'queue_full' | 'busy' | 'error';

export interface ContextStoreObserver {
  /** Records written to the index by one committed batch of a pass. */
  recordsWritten(connectorType: string, entity: string, count: number): void;
  syncPass(connectorType: string, entity: string, pass: SyncPass, outcome: SyncOutcome): void;
  /** One search: from checking the query to the rows read. */
  search(operator: SearchOperator, outcome: SearchOutcome, seconds: number): void;
}

export function searchOutcome(err: unknown): SearchOutcome {
  if (!isDomainError(err)) return 'error';
  switch (err.code) {
    case 'INVALID_QUERY':
    case 'INVALID_CURSOR':
      return 'invalid_query';
    case 'SEARCH_TIMEOUT':
      return 'timeout';
    case 'SEARCH_QUEUE_FULL':
      return 'queue_full';
    case 'SERVER_BUSY':
      return 'busy';
    default:
      return 'error';
  }
}
