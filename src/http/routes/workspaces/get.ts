import { Type } from 'typebox';
import type { CoreDeps } from '../../../core/context.ts';
import { getWorkspace } from '../../../core/workspaces/get.ts';
import type { App } from '../../app-types.ts';
import { ctxOf } from '../../auth.ts';
import { presentWorkspace } from '../../presenters.ts';
import { Uuid, WorkspaceSchema, withErrors } from '../../schemas.ts';

export const WorkspaceParams = Type.Object({ workspace_id: Uuid }, { additionalProperties: false });

export function register(app: App, deps: CoreDeps) {
  app.get(
    '/api/v1/workspaces/:workspace_id',
    {
      schema: {
        tags: ['Workspaces'],
        summary: 'Get a workspace',
        params: WorkspaceParams,
        response: withErrors({ 200: WorkspaceSchema }),
      },
    },
    async (request) =>
      presentWorkspace(await getWorkspace(deps, ctxOf(request), request.params.workspace_id)),
  );
}
