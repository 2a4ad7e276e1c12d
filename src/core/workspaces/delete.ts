import { DomainError } from '../../errors.ts';
import { dropContextStore } from '../connectors/context-store.ts';
import type { CoreDeps, RequestContext } from '../context.ts';
import { isoNow, requireApplicationToken } from '../context.ts';
import { DEFAULT_WORKSPACE } from './ensure.ts';
import { workspaceNotFound } from './get.ts';

/**
 * Removes the workspace with its connectors and their encrypted credentials, in one transaction. Their Context
 * Store indexes go first, a chunk at a time (dropContextStore): removed by the transaction's cascade, a large
 * index would hold the database's write lock for seconds.
 */
export async function deleteWorkspace(
  deps: Pick<CoreDeps, 'store' | 'now' | 'registry'>,
  ctx: RequestContext,
  id: string,
) {
  requireApplicationToken(ctx);
  const ws = await deps.store.workspaces.get(ctx.organizationId, id);
  if (!ws) throw workspaceNotFound(id);
  if (ws.name === DEFAULT_WORKSPACE) throw defaultUndeletable();
  for (const connector of await deps.store.connectors.list(ctx.organizationId, { workspaceId: id })) {
    await dropContextStore(deps, connector);
  }
  return deps.store.transaction(async (tx) => {
    const current = await tx.workspaces.get(ctx.organizationId, id);
    if (!current) throw workspaceNotFound(id);
    if (current.name === DEFAULT_WORKSPACE) throw defaultUndeletable();
    await tx.workspaces.delete(ctx.organizationId, id);
    return { id, deleted_at: isoNow(deps) };
  });
}

function defaultUndeletable() {
  return new DomainError('CONFLICT', `The '${DEFAULT_WORKSPACE}' workspace cannot be deleted.`);
}
