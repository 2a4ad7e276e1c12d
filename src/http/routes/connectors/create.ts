import { Type } from 'typebox';
import type { App } from '../../../app.ts';
import { createConnector } from '../../../core/connectors/create.ts';
import type { CoreDeps } from '../../../core/context.ts';
import { ctxOf } from '../../auth.ts';
import { presentConnector } from '../../presenters.ts';
import { ConnectorSchema, Credentials, JsonObject, Name, ShortText, withErrors } from '../../schemas.ts';

const Body = Type.Object(
  {
    workspace_name: Type.Optional(Name(200)),
    customer_name: Type.Optional(Name(200)),
    external_user_id: Type.Optional(Name(200)),
    definition_id: Type.Optional(Type.String({ format: 'uuid' })),
    connector_type: Type.Optional(ShortText(100)),
    name: Type.Optional(ShortText(200)),
    credentials: Credentials(),
    replication_config: Type.Optional(JsonObject(100)),
  },
  { additionalProperties: false },
);

export function register(app: App, deps: CoreDeps) {
  app.post(
    '/api/v1/integrations/connectors',
    {
      schema: {
        tags: ['Connectors'],
        summary: 'Create a connector; credentials are validated and checked against the provider first',
        body: Body,
        response: withErrors({ 200: ConnectorSchema }, [409, 424, 429, 502, 504]),
      },
    },
    async (request) => {
      const b = request.body;
      const connector = await createConnector(deps, ctxOf(request), {
        // customer_name and external_user_id are the reference's deprecated names for workspace_name.
        workspace_name: b.workspace_name ?? b.customer_name ?? b.external_user_id,
        definition_id: b.definition_id,
        connector_type: b.connector_type,
        name: b.name,
        credentials: b.credentials,
        replication_config: b.replication_config,
      });
      return presentConnector(connector);
    },
  );
}
