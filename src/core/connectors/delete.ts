import type { CoreDeps, RequestContext } from '../context.ts';
import { isoNow } from '../context.ts';
import { dropContextStore } from './context-store.ts';
import { connectorNotFound, loadConnector } from './lookup.ts';

/** Deletion is synchronous: the row and its encrypted credentials are gone when this returns. */
export async function deleteConnector(
  deps: Pick<CoreDeps, 'store' | 'now' | 'registry'>,
  ctx: RequestContext,
  id: string,
) {
  const connector = await loadConnector(deps, ctx, id);
  // The index and its syncs first: a worker mid-page then finds its lease gone and writes nothing more.
  await dropContextStore(deps, connector);
  if (!(await deps.store.connectors.delete(ctx.organizationId, id))) throw connectorNotFound(id);
  return { id, deleted_at: isoNow(deps) };
}
