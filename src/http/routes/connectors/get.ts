import { getConnector } from '../../../core/connectors/read.ts';
import type { CoreDeps } from '../../../core/context.ts';
import type { App } from '../../app-types.ts';
import { ctxOf } from '../../auth.ts';
import { presentConnector } from '../../presenters.ts';
import { ConnectorSchema, IdParams, withErrors } from '../../schemas.ts';

export function register(app: App, deps: CoreDeps) {
  app.get(
    '/api/v1/integrations/connectors/:id',
    {
      schema: {
        tags: ['Connectors'],
        summary: 'Get a connector (never its credentials)',
        params: IdParams,
        response: withErrors({ 200: ConnectorSchema }),
      },
    },
    async (request) => presentConnector(await getConnector(deps, ctxOf(request), request.params.id)),
  );
}
