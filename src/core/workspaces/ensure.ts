import { randomUUID } from 'node:crypto';
import { isDomainError } from '../../errors.ts';
import type { Store, Workspace } from '../../store/port.ts';
import { assertUnderQuota } from '../quotas.ts';

export const DEFAULT_WORKSPACE = 'default';

/**
 * Returns the named workspace, creating it (active) when missing; safe when two requests race to create it.
 * `maxWorkspaces` (0: none) caps the organization's workspaces. The count and the insert share a transaction,
 * which makes the cap exact on SQLite (its transactions take the write lock first); on PostgreSQL's read committed,
 * concurrent creations could pass it by the number of requests racing.
 */
export async function ensureWorkspace(
  store: Store,
  organizationId: string,
  name: string,
  now: string,
  maxWorkspaces = 0,
) {
  const existing = await store.workspaces.getByName(organizationId, name);
  if (existing) return { workspace: existing, created: false };
  const workspace: Workspace = {
    id: randomUUID(),
    organization_id: organizationId,
    name,
    status: 'active',
    cache_enabled: null,
    created_at: now,
    updated_at: now,
  };
  try {
    await store.transaction(async (tx) => {
      if (maxWorkspaces > 0) {
        await tx.organizations.lock(organizationId);
        const count = await tx.workspaces.count(organizationId);
        assertUnderQuota(count, maxWorkspaces, 'workspaces', 'CES_MAX_WORKSPACES_PER_ORGANIZATION');
      }
      await tx.workspaces.create(workspace);
    });
    return { workspace, created: true };
  } catch (err) {
    if (isDomainError(err)) throw err;
    const raced = await store.workspaces.getByName(organizationId, name);
    if (raced) return { workspace: raced, created: false };
    throw err;
  }
}
