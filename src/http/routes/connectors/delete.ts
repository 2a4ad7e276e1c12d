import type { App } from '../../../app.ts';
import { deleteConnector } from '../../../core/connectors/delete.ts';
import type { CoreDeps } from '../../../core/context.ts';
import { ctxOf } from '../../auth.ts';
import { DeletedSchema, IdParams, withErrors } from '../../schemas.ts';

export function register(app: App, deps: CoreDeps) {
  app.delete(
    '/api/v1/integrations/connectors/:id',
    {
      schema: {
        tags: ['Connectors'],
        summary: 'Delete a connector and its stored credentials (synchronous)',
        params: IdParams,
        response: withErrors({ 200: DeletedSchema }),
      },
    },
    async (request) => deleteConnector(deps, ctxOf(request), request.params.id),
  );
}
