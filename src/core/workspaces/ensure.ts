import { randomUUID } from 'node:crypto';
import type { Store, Workspace } from '../../store/port.ts';

export const DEFAULT_WORKSPACE = 'default';

/** Returns the named workspace, creating it (active) when missing; safe when two requests race to create it. */
export async function ensureWorkspace(store: Store, organizationId: string, name: string, now: string) {
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
    await store.workspaces.create(workspace);
    return { workspace, created: true };
  } catch (err) {
    const raced = await store.workspaces.getByName(organizationId, name);
    if (raced) return { workspace: raced, created: false };
    throw err;
  }
}
