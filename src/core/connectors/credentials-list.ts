/**
 * GET /organizations/{organization_id}/credentials: the organization's connectors (its "credentials", in the
 * reference's words), a page at a time, each with its Context Store status and records indexed, the figures the
 * reference's CLI joins onto its connector list.
 */
import type { CoreDeps, RequestContext } from '../context.ts';
import { DomainError } from '../errors.ts';
import { contextStoreSummary } from './context-store.ts';

export interface CredentialsPage {
  limit: number;
  offset: number;
}

export async function listOrganizationCredentials(
  deps: Pick<CoreDeps, 'store'>,
  ctx: RequestContext,
  organizationId: string,
  page: CredentialsPage,
) {
  // Another organization's id says nothing about that organization, not even that it exists.
  if (organizationId !== ctx.organizationId) {
    throw new DomainError('NOT_FOUND', `Organization ${organizationId} not found.`);
  }
  // A scoped token sees its own workspace's connectors only, and counts only those.
  const all = await deps.store.connectors.list(ctx.organizationId, {
    ...(ctx.workspaceId !== undefined ? { workspaceId: ctx.workspaceId } : {}),
  });
  // The store lists them oldest first (then by id), so a page is the same slice from one call to the next.
  const slice = all.slice(page.offset, page.offset + page.limit);
  const states = await deps.store.contextStore.statesFor(
    ctx.organizationId,
    slice.map((c) => c.id),
  );
  const data = slice.map((c) => {
    const store = contextStoreSummary(states.get(c.id));
    return {
      id: c.id,
      name: c.name,
      workspace_id: c.workspace_id,
      workspace_name: c.workspace_name,
      definition_id: c.definition_id,
      connector_type: c.connector_type,
      credentials_status: c.credentials_status,
      context_store_status: store?.status ?? null,
      context_store_entity_count: store?.entity_count ?? 0,
      created_at: c.created_at,
      updated_at: c.updated_at,
    };
  });
  return { data, total: all.length };
}
