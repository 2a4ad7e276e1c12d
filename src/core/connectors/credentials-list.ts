/**
 * GET /organizations/{organization_id}/credentials: the organization's connectors (its "credentials", in the
 * reference's words), a page at a time, each with its Context Store status and records indexed, the figures the
 * reference's CLI joins onto its connector list.
 */

import { DomainError } from '../../errors.ts';
import type { Connector } from '../../store/port.ts';
import type { CoreDeps, RequestContext } from '../context.ts';
import { type ContextStoreSummary, contextStoreSummary } from './context-store.ts';

export interface CredentialsPage {
  limit: number;
  offset: number;
}

/** One page of the organization's connectors, each with its Context Store summary, and how many there are. */
export interface CredentialsListing {
  items: Array<{ connector: Connector; store: ContextStoreSummary | null }>;
  total: number;
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
  return {
    items: slice.map((connector) => ({ connector, store: contextStoreSummary(states.get(connector.id)) })),
    total: all.length,
  };
}
