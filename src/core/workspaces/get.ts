import { DomainError } from '../../errors.ts';
import type { Workspace } from '../../store/port.ts';
import type { CoreDeps, RequestContext } from '../context.ts';
import { assertWorkspaceAccess } from '../context.ts';

export const workspaceNotFound = (what: string) =>
  new DomainError('WORKSPACE_NOT_FOUND', `Workspace ${what} not found.`);

/** An id of another organization reads as "not found", never "forbidden": existence does not leak. */
export async function getWorkspace(
  deps: Pick<CoreDeps, 'store'>,
  ctx: RequestContext,
  id: string,
): Promise<Workspace> {
  const ws = await deps.store.workspaces.get(ctx.organizationId, id);
  if (!ws) throw workspaceNotFound(id);
  assertWorkspaceAccess(ctx, ws.id);
  return ws;
}

export async function getWorkspaceByName(
  deps: Pick<CoreDeps, 'store'>,
  ctx: RequestContext,
  name: string,
): Promise<Workspace> {
  const ws = await deps.store.workspaces.getByName(ctx.organizationId, name);
  if (!ws) throw workspaceNotFound(`'${name}'`);
  assertWorkspaceAccess(ctx, ws.id);
  return ws;
}
