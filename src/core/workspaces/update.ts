import { DomainError } from '../../errors.ts';
import type { Workspace, WorkspaceStatus } from '../../store/port.ts';
import type { CoreDeps, RequestContext } from '../context.ts';
import { isoNow, requireApplicationToken } from '../context.ts';
import { DEFAULT_WORKSPACE } from './ensure.ts';
import { workspaceNotFound } from './get.ts';

export interface UpdateWorkspaceInput {
  name?: string | null;
  status?: WorkspaceStatus | null;
  cache_enabled?: boolean | null;
}

export async function updateWorkspace(
  deps: Pick<CoreDeps, 'store' | 'now'>,
  ctx: RequestContext,
  id: string,
  input: UpdateWorkspaceInput,
): Promise<Workspace> {
  requireApplicationToken(ctx);
  return deps.store.transaction(async (tx) => {
    const current = await tx.workspaces.get(ctx.organizationId, id);
    if (!current) throw workspaceNotFound(id);
    const name = input.name ?? undefined;
    if (name !== undefined && name !== current.name) {
      if (current.name === DEFAULT_WORKSPACE) {
        throw new DomainError(
          'CONFLICT',
          `The '${DEFAULT_WORKSPACE}' workspace cannot be renamed; clients fall back to it.`,
        );
      }
      if (await tx.workspaces.getByName(ctx.organizationId, name)) {
        throw new DomainError('CONFLICT', `A workspace named '${name}' already exists.`);
      }
    }
    const updated = await tx.workspaces.update(ctx.organizationId, id, {
      ...(name !== undefined ? { name } : {}),
      ...(input.status ? { status: input.status } : {}),
      ...('cache_enabled' in input ? { cache_enabled: input.cache_enabled ?? null } : {}),
      now: isoNow(deps),
    });
    if (!updated) throw workspaceNotFound(id);
    return updated;
  });
}
