import type { CoreDeps, RequestContext } from '../context.ts';
import { isoNow } from '../context.ts';
import { connectorNotFound, loadConnector } from './lookup.ts';

/** Deletion is synchronous: the row and its encrypted credentials are gone when this returns. */
export async function deleteConnector(
  deps: Pick<CoreDeps, 'store' | 'now'>,
  ctx: RequestContext,
  id: string,
) {
  await loadConnector(deps, ctx, id);
  if (!(await deps.store.connectors.delete(ctx.organizationId, id))) throw connectorNotFound(id);
  return { id, deleted_at: isoNow(deps) };
}
