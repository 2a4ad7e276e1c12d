import { Type } from 'typebox';
import type { CoreDeps } from '../../../core/context.ts';
import { updateWorkspace } from '../../../core/workspaces/update.ts';
import type { App } from '../../app-types.ts';
import { ctxOf } from '../../auth.ts';
import { presentWorkspace } from '../../presenters.ts';
import { Name, OPEN_REQUEST, WorkspaceSchema, withErrors } from '../../schemas.ts';
import { WorkspaceParams } from './get.ts';

const Body = Type.Object(
  {
    name: Type.Optional(Type.Union([Name(200), Type.Null()])),
    status: Type.Optional(Type.Union([Type.Literal('active'), Type.Literal('inactive'), Type.Null()])),
    cache_enabled: Type.Optional(Type.Union([Type.Boolean(), Type.Null()])),
  },
  OPEN_REQUEST,
);

export function register(app: App, deps: CoreDeps) {
  app.put(
    '/api/v1/workspaces/:workspace_id',
    {
      schema: {
        tags: ['Workspaces'],
        summary: 'Rename a workspace or set it active/inactive (inactive blocks execute)',
        params: WorkspaceParams,
        body: Body,
        response: withErrors({ 200: WorkspaceSchema }, [409]),
      },
    },
    async (request) =>
      presentWorkspace(
        await updateWorkspace(deps, ctxOf(request), request.params.workspace_id, request.body),
      ),
  );
}
