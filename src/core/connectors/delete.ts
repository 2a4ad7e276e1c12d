import { randomUUID } from 'node:crypto';
import type { CoreDeps, RequestContext } from '../context.ts';
import { isoNow } from '../context.ts';
import { dropContextStore } from './context-store.ts';
import { connectorNotFound, loadConnector } from './lookup.ts';

/**
 * Deletion is synchronous: the row and its encrypted credentials are gone when this returns. The answer is the
 * reference's 202 `{job_id}` (its clients poll the list until the id is gone, which it already is), with the
 * id and the time of deletion beside it.
 */
export async function deleteConnector(
  deps: Pick<CoreDeps, 'store' | 'now' | 'registry'>,
  ctx: RequestContext,
  id: string,
) {
  const connector = await loadConnector(deps, ctx, id);
  // The index and its syncs first: a worker mid-page then finds its lease gone and writes nothing more.
  await dropContextStore(deps, connector);
  if (!(await deps.store.connectors.delete(ctx.organizationId, id))) throw connectorNotFound(id);
  return { job_id: randomUUID(), id, deleted_at: isoNow(deps) };
}
