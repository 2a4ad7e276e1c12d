import { Type } from 'typebox';
import { deleteConnector } from '../../../core/connectors/delete.ts';
import type { CoreDeps } from '../../../core/context.ts';
import type { App } from '../../app-types.ts';
import { ctxOf } from '../../auth.ts';
import { IdParams, Uuid, withErrors } from '../../schemas.ts';

export function register(app: App, deps: CoreDeps) {
  app.delete(
    '/api/v1/integrations/connectors/:id',
    {
      schema: {
        tags: ['Connectors'],
        summary:
          'Delete a connector and its stored credentials: done when this answers (202 with a job_id, as the reference)',
        params: IdParams,
        response: withErrors({
          202: Type.Object({ job_id: Uuid, id: Uuid, deleted_at: Type.String({ format: 'date-time' }) }),
        }),
      },
    },
    async (request, reply) =>
      reply.code(202).send(await deleteConnector(deps, ctxOf(request), request.params.id)),
  );
}
