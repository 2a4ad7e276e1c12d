import { randomUUID } from 'node:crypto';
import { DomainError } from '../../errors.ts';
import type { Store } from '../../store/port.ts';
import { DEFAULT_WORKSPACE, ensureWorkspace } from '../workspaces/ensure.ts';

/** An organization always starts with its `default` workspace. */
export async function createOrganization(store: Store, input: { name: string; now: string }) {
  const name = input.name.trim();
  if (!name) throw new DomainError('VALIDATION_ERROR', 'An organization needs a name.');
  return store.transaction(async (tx) => {
    const org = { id: randomUUID(), name, created_at: input.now };
    await tx.organizations.create(org);
    const { workspace } = await ensureWorkspace(tx, org.id, DEFAULT_WORKSPACE, input.now);
    return { organization: org, defaultWorkspace: workspace };
  });
}
