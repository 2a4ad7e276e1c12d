import { DomainError } from '../../errors.ts';
import type { CoreDeps, RequestContext } from '../context.ts';
import { getWorkspace } from '../workspaces/get.ts';

/** The reference's optional `organization_id` / `workspace_id` of every skills route. */
export interface SkillScope {
  organization_id?: string | undefined;
  workspace_id?: string | undefined;
}

/**
 * Skills hold no tenant data, so the scope changes nothing in the answer; it is still checked like any other
 * tenant id: an organization other than the token's, or a workspace of another organization, is a 404 (existence
 * does not leak), and a scoped token naming another workspace of its own organization is a 403.
 */
export async function checkSkillScope(
  deps: Pick<CoreDeps, 'store'>,
  ctx: RequestContext,
  scope: SkillScope,
): Promise<void> {
  const org = scope.organization_id;
  if (org !== undefined && org.toLowerCase() !== ctx.organizationId.toLowerCase()) {
    throw new DomainError('NOT_FOUND', `Organization ${org} not found.`, {
      errors: [{ field: 'organization_id', message: 'not found', error_code: 'not_found', details: null }],
    });
  }
  if (scope.workspace_id !== undefined) await getWorkspace(deps, ctx, scope.workspace_id);
}
