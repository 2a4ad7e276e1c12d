import { invalidField } from '../../errors.ts';
import { signValue, verifyValue } from '../../security/signed.ts';
import type { WorkspaceStatus } from '../../store/port.ts';
import type { CoreDeps, RequestContext } from '../context.ts';
import { requireApplicationToken } from '../context.ts';

export interface ListWorkspacesInput {
  name_contains?: string;
  status?: WorkspaceStatus;
  limit?: number;
  cursor?: string;
}

const CURSOR_PURPOSE = 'workspaces.list';

function decodeCursor(key: Uint8Array, organizationId: string, cursor: string): { name: string; id: string } {
  const value = verifyValue(key, CURSOR_PURPOSE, cursor) as
    | { o?: unknown; n?: unknown; i?: unknown }
    | undefined;
  if (value && value.o === organizationId && typeof value.n === 'string' && typeof value.i === 'string') {
    return { name: value.n, id: value.i };
  }
  throw invalidField('INVALID_CURSOR', 'cursor', 'The cursor is not one this endpoint returned.');
}

/** Keyset pagination on (name, id): stable while workspaces are added or removed between pages. */
export async function listWorkspaces(
  deps: Pick<CoreDeps, 'store' | 'secrets'>,
  ctx: RequestContext,
  input: ListWorkspacesInput,
) {
  requireApplicationToken(ctx);
  const limit = input.limit ?? 20;
  const rows = await deps.store.workspaces.list(ctx.organizationId, {
    ...(input.name_contains ? { nameContains: input.name_contains } : {}),
    ...(input.status ? { status: input.status } : {}),
    limit: limit + 1,
    ...(input.cursor
      ? { after: decodeCursor(deps.secrets.cursorKey, ctx.organizationId, input.cursor) }
      : {}),
  });
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  const nextCursor =
    rows.length > limit && last
      ? signValue(deps.secrets.cursorKey, CURSOR_PURPOSE, { o: ctx.organizationId, n: last.name, i: last.id })
      : null;
  return { data: page, nextCursor };
}

export async function workspaceStats(deps: Pick<CoreDeps, 'store'>, ctx: RequestContext) {
  requireApplicationToken(ctx);
  const { active, inactive } = await deps.store.workspaces.stats(ctx.organizationId);
  return { active_count: active, inactive_count: inactive, total_count: active + inactive };
}
