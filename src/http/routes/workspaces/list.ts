import { Type } from 'typebox';
import type { CoreDeps } from '../../../core/context.ts';
import { listWorkspaces } from '../../../core/workspaces/list.ts';
import type { App } from '../../app-types.ts';
import { ctxOf } from '../../auth.ts';
import { presentWorkspace } from '../../presenters.ts';
import { OPEN_REQUEST, WorkspaceSchema, withErrors } from '../../schemas.ts';

const Query = Type.Object(
  {
    name_contains: Type.Optional(Type.String({ maxLength: 200 })),
    status: Type.Optional(Type.Union([Type.Literal('active'), Type.Literal('inactive')])),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
    cursor: Type.Optional(Type.String({ maxLength: 1000 })),
  },
  OPEN_REQUEST,
);

export function register(app: App, deps: CoreDeps) {
  app.get(
    '/api/v1/workspaces',
    {
      schema: {
        tags: ['Workspaces'],
        summary: 'List workspaces (keyset-paginated; `next` is the URL of the next page)',
        querystring: Query,
        response: withErrors({
          200: Type.Object({
            data: Type.Array(WorkspaceSchema),
            next: Type.Union([Type.String(), Type.Null()]),
          }),
        }),
      },
    },
    async (request) => {
      const q = request.query;
      const { data, nextCursor } = await listWorkspaces(deps, ctxOf(request), q);
      let next: string | null = null;
      if (nextCursor) {
        const params = new URLSearchParams();
        if (q.name_contains) params.set('name_contains', q.name_contains);
        if (q.status) params.set('status', q.status);
        params.set('limit', String(q.limit ?? 20));
        params.set('cursor', nextCursor);
        next = `/api/v1/workspaces?${params.toString()}`;
      }
      return { data: data.map(presentWorkspace), next };
    },
  );
}
