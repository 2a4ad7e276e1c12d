import { Type } from 'typebox';
import { updateConnector } from '../../../core/connectors/update.ts';
import type { CoreDeps } from '../../../core/context.ts';
import type { App } from '../../app-types.ts';
import { ctxOf } from '../../auth.ts';
import { presentConnector } from '../../presenters.ts';
import {
  ConnectorSchema,
  Credentials,
  IdParams,
  JsonObject,
  RequestedEntitySchema,
  ShortText,
  withErrors,
} from '../../schemas.ts';

/** The reference's ConnectorSourceUpdateRequest (`null`: unchanged) plus `credentials`, which it can't rotate. */
const Body = Type.Object(
  {
    name: Type.Optional(Type.Union([ShortText(200), Type.Null()])),
    replication_config: Type.Optional(Type.Union([JsonObject(100), Type.Null()])),
    entities: Type.Optional(Type.Union([Type.Array(RequestedEntitySchema, { maxItems: 200 }), Type.Null()])),
    credentials: Type.Optional(Type.Union([Credentials(), Type.Null()])),
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
          'Rename, change replication_config or the requested entities, or rotate credentials (validated and checked first); moving the destination of the credentials needs them again',
        params: IdParams,
        body: Body,
        response: withErrors({ 200: ConnectorSchema }, [424, 429, 502, 504]),
      },
    },
    async (request) => {
      const b = request.body;
      const given = <T>(v: T | null | undefined) => (v === null ? undefined : v);
      const updated = await updateConnector(deps, ctxOf(request), request.params.id, {
        name: given(b.name),
        replication_config: given(b.replication_config),
        entities: given(b.entities),
        credentials: given(b.credentials),
      });
      return presentConnector(updated);
    },
  );
}
