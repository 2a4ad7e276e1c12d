import { DomainError } from '../../errors.ts';
import type { CoreDeps, RequestContext } from '../context.ts';
import { assertWorkspaceAccess } from '../context.ts';
import { type ConnectorView, viewOf, withContextStore } from './context-store.ts';
import { loadConnector } from './lookup.ts';

export const getConnector = async (
  deps: Pick<CoreDeps, 'store' | 'registry'>,
  ctx: RequestContext,
  id: string,
) => viewOf(deps, await loadConnector(deps, ctx, id));

export interface ListConnectorsInput {
  workspace_id?: string | undefined;
  workspace_name?: string | undefined;
  definition_id?: string | undefined;
}

export async function listConnectors(
  deps: Pick<CoreDeps, 'store' | 'registry'>,
  ctx: RequestContext,
  input: ListConnectorsInput,
): Promise<ConnectorView[]> {
  let workspaceId = input.workspace_id;
  if (input.workspace_name !== undefined) {
    const ws = await deps.store.workspaces.getByName(ctx.organizationId, input.workspace_name);
    // A scoped token learns nothing about other workspaces, not even whether a name exists.
    if (ctx.workspaceId !== undefined && ws?.id !== ctx.workspaceId) assertWorkspaceAccess(ctx, '');
    if (!ws) throw new DomainError('WORKSPACE_NOT_FOUND', `Workspace '${input.workspace_name}' not found.`);
    if (workspaceId !== undefined && workspaceId !== ws.id) return [];
    workspaceId = ws.id;
  } else if (
    workspaceId !== undefined &&
    !(await deps.store.workspaces.get(ctx.organizationId, workspaceId))
  ) {
    throw new DomainError('WORKSPACE_NOT_FOUND', `Workspace ${workspaceId} not found.`);
  }
  if (workspaceId !== undefined) assertWorkspaceAccess(ctx, workspaceId);
  // A scoped token only ever sees its own workspace, even when it names none.
  const scope = workspaceId ?? ctx.workspaceId;
  const connectors = await deps.store.connectors.list(ctx.organizationId, {
    ...(scope ? { workspaceId: scope } : {}),
    ...(input.definition_id ? { definitionId: input.definition_id } : {}),
  });
  return withContextStore(deps, ctx.organizationId, connectors);
}
