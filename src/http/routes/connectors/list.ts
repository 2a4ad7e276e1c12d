import { Type } from 'typebox';
import { listConnectors } from '../../../core/connectors/read.ts';
import type { CoreDeps } from '../../../core/context.ts';
import type { App } from '../../app-types.ts';
import { ctxOf } from '../../auth.ts';
import { presentConnectorListItem } from '../../presenters.ts';
import { ConnectorListItemSchema, Name, OPEN_REQUEST, withErrors } from '../../schemas.ts';

const Query = Type.Object(
  {
    workspace_id: Type.Optional(Type.String({ format: 'uuid' })),
    workspace_name: Type.Optional(Name(200)),
    customer_name: Type.Optional(Name(200)),
    external_user_id: Type.Optional(Name(200)),
    definition_id: Type.Optional(Type.String({ format: 'uuid' })),
  },
  OPEN_REQUEST,
);

export function register(app: App, deps: CoreDeps) {
  app.get(
    '/api/v1/integrations/connectors',
    {
      schema: {
        tags: ['Connectors'],
        summary: 'List connectors, optionally of one workspace and/or one connector type',
        querystring: Query,
        response: withErrors({ 200: Type.Object({ data: Type.Array(ConnectorListItemSchema) }) }),
      },
    },
    async (request) => {
      const q = request.query;
      const connectors = await listConnectors(deps, ctxOf(request), {
        workspace_id: q.workspace_id,
        workspace_name: q.workspace_name ?? q.customer_name ?? q.external_user_id,
        definition_id: q.definition_id,
      });
      return { data: connectors.map(presentConnectorListItem) };
    },
  );
}
