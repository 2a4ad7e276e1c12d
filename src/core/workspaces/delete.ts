import type { CoreDeps, RequestContext } from '../context.ts';
import { isoNow, requireApplicationToken } from '../context.ts';
import { DomainError } from '../errors.ts';
import { DEFAULT_WORKSPACE } from './ensure.ts';
import { workspaceNotFound } from './get.ts';

/** Removes the workspace with its connectors and their encrypted credentials, in one transaction. */
export async function deleteWorkspace(
  deps: Pick<CoreDeps, 'store' | 'now'>,
  ctx: RequestContext,
  id: string,
) {
  requireApplicationToken(ctx);
  return deps.store.transaction(async (tx) => {
    const ws = await tx.workspaces.get(ctx.organizationId, id);
    if (!ws) throw workspaceNotFound(id);
    if (ws.name === DEFAULT_WORKSPACE) {
      throw new DomainError('CONFLICT', `The '${DEFAULT_WORKSPACE}' workspace cannot be deleted.`);
    }
    await tx.workspaces.delete(ctx.organizationId, id);
    return { id, deleted_at: isoNow(deps) };
  });
}
