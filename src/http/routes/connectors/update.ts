import { Type } from 'typebox';
import type { App } from '../../../app.ts';
import { updateConnector } from '../../../core/connectors/update.ts';
import type { CoreDeps } from '../../../core/context.ts';
import { ctxOf } from '../../auth.ts';
import { presentConnector } from '../../presenters.ts';
import { ConnectorSchema, Credentials, IdParams, JsonObject, ShortText, withErrors } from '../../schemas.ts';

const Body = Type.Object(
  {
    name: Type.Optional(ShortText(200)),
    replication_config: Type.Optional(JsonObject(100)),
    credentials: Type.Optional(Credentials()),
  },
  { additionalProperties: false },
);

export function register(app: App, deps: CoreDeps) {
  app.put(
    '/api/v1/integrations/connectors/:id',
    {
      schema: {
        tags: ['Connectors'],
        summary:
          'Rename, change replication_config, or rotate credentials (validated and checked first); moving the destination of the credentials needs them again',
        params: IdParams,
        body: Body,
        response: withErrors({ 200: ConnectorSchema }, [424, 429, 502, 504]),
      },
    },
    async (request) =>
      presentConnector(await updateConnector(deps, ctxOf(request), request.params.id, request.body)),
  );
}
