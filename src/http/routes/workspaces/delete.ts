import type { CoreDeps } from '../../../core/context.ts';
import { deleteWorkspace } from '../../../core/workspaces/delete.ts';
import type { App } from '../../app-types.ts';
import { ctxOf } from '../../auth.ts';
import { DeletedSchema, withErrors } from '../../schemas.ts';
import { WorkspaceParams } from './get.ts';

export function register(app: App, deps: CoreDeps) {
  app.delete(
    '/api/v1/workspaces/:workspace_id',
    {
      schema: {
        tags: ['Workspaces'],
        summary: 'Delete a workspace with its connectors and their credentials',
        params: WorkspaceParams,
        response: withErrors({ 200: DeletedSchema }, [409]),
      },
    },
    async (request) => deleteWorkspace(deps, ctxOf(request), request.params.workspace_id),
  );
}
