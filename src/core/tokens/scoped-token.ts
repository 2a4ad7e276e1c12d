import { DomainError } from '../../errors.ts';
import type { CoreDeps, RequestContext } from '../context.ts';
import { isoNow, requireApplicationToken } from '../context.ts';
import { ensureWorkspace } from '../workspaces/ensure.ts';

/** As the reference service does, minting a scoped token creates its workspace when it does not exist yet. */
export async function issueScopedToken(
  deps: Pick<CoreDeps, 'store' | 'tokens' | 'now' | 'quotas'>,
  ctx: RequestContext,
  input: { workspace_name: string },
): Promise<{ token: string }> {
  requireApplicationToken(ctx);
  const { workspace } = await ensureWorkspace(
    deps.store,
    ctx.organizationId,
    input.workspace_name,
    isoNow(deps),
    deps.quotas.workspacesPerOrganization,
  );
  const { token } = await deps.tokens.issue({
    kind: 'scoped',
    applicationId: ctx.applicationId,
    organizationId: ctx.organizationId,
    workspaceId: workspace.id,
  });
  return { token };
}

export async function scopedTokenInfo(deps: Pick<CoreDeps, 'store'>, ctx: RequestContext) {
  if (ctx.kind !== 'scoped' || !ctx.workspaceId) {
    throw new DomainError(
      'FORBIDDEN',
      'This endpoint describes a scoped token; the token sent is an application token.',
    );
  }
  const workspace = await deps.store.workspaces.get(ctx.organizationId, ctx.workspaceId);
  if (!workspace)
    throw new DomainError('WORKSPACE_NOT_FOUND', 'The workspace of this token no longer exists.');
  return { organization_id: ctx.organizationId, workspace_id: workspace.id, workspace_name: workspace.name };
}
