import type { Workspace, WorkspaceStatus } from '../../store/port.ts';
import type { CoreDeps, RequestContext } from '../context.ts';
import { requireApplicationToken } from '../context.ts';
import { invalidField } from '../errors.ts';

export interface ListWorkspacesInput {
  name_contains?: string;
  status?: WorkspaceStatus;
  limit?: number;
  cursor?: string;
}

function encodeCursor(ws: Workspace): string {
  return Buffer.from(JSON.stringify({ n: ws.name, i: ws.id }), 'utf8').toString('base64url');
}

function decodeCursor(cursor: string): { name: string; id: string } {
  try {
    const value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown;
    if (
      typeof value === 'object' &&
      value !== null &&
      typeof (value as { n?: unknown }).n === 'string' &&
      typeof (value as { i?: unknown }).i === 'string'
    ) {
      return { name: (value as { n: string }).n, id: (value as { i: string }).i };
    }
  } catch {
    // fall through to the 422 below
  }
  throw invalidField('INVALID_CURSOR', 'cursor', 'The cursor is not one this endpoint returned.');
}

/** Keyset pagination on (name, id): stable while workspaces are added or removed between pages. */
export async function listWorkspaces(deps: Pick<CoreDeps, 'store'>, ctx: RequestContext, input: ListWorkspacesInput) {
  requireApplicationToken(ctx);
  const limit = input.limit ?? 20;
  const rows = await deps.store.workspaces.list(ctx.organizationId, {
    ...(input.name_contains ? { nameContains: input.name_contains } : {}),
    ...(input.status ? { status: input.status } : {}),
    limit: limit + 1,
    ...(input.cursor ? { after: decodeCursor(input.cursor) } : {}),
  });
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return { data: page, nextCursor: rows.length > limit && last ? encodeCursor(last) : null };
}

export async function workspaceStats(deps: Pick<CoreDeps, 'store'>, ctx: RequestContext) {
  requireApplicationToken(ctx);
  const { active, inactive } = await deps.store.workspaces.stats(ctx.organizationId);
  return { active_count: active, inactive_count: inactive, total_count: active + inactive };
}
