import { type Static, type TSchema, Type } from 'typebox';
import { createConnector } from '../../../core/connectors/create.ts';
import type { CoreDeps } from '../../../core/context.ts';
import type { App } from '../../app-types.ts';
import { ctxOf } from '../../auth.ts';
import { presentConnector } from '../../presenters.ts';
import {
  ConnectorSchema,
  Credentials,
  JsonObject,
  Name,
  RequestedEntitySchema,
  ShortText,
  Uuid,
  withErrors,
} from '../../schemas.ts';

/** `null` means "not given", as in the reference. */
const OrNull = <T extends TSchema>(schema: T) => Type.Optional(Type.Union([schema, Type.Null()]));

/** The reference's ConnectorSourceCreateRequest (and check request), every member accepted. */
export const ConnectorBody = Type.Object(
  {
    workspace_name: Type.Optional(Name(200)),
    customer_name: Type.Optional(Name(200)),
    external_user_id: Type.Optional(Name(200)),
    definition_id: OrNull(Uuid),
    connector_type: OrNull(ShortText(100)),
    source_template_id: OrNull(Uuid),
    name: OrNull(ShortText(200)),
    credentials: Credentials(),
    replication_config: OrNull(JsonObject(100)),
    environment: OrNull(JsonObject(20)),
    entities: OrNull(Type.Array(RequestedEntitySchema, { maxItems: 200 })),
    server_side_oauth_secret_id: OrNull(ShortText(500)),
    // Connection templates choose where a replication goes; ces replicates nowhere, so these are accepted and
    // have no effect (README: API).
    selected_connection_template_tags: Type.Optional(Type.Array(ShortText(100), { maxItems: 50 })),
    selected_connection_template_tags_mode: OrNull(Type.Union([Type.Literal('all'), Type.Literal('any')])),
  },
  { additionalProperties: false },
);

/** The body's values with `null` read as "not given". */
export function connectorInput(b: Static<typeof ConnectorBody>) {
  const given = <T>(v: T | null | undefined) => (v === null ? undefined : v);
  return {
    // customer_name and external_user_id are the reference's deprecated names for workspace_name.
    workspace_name: b.workspace_name ?? b.customer_name ?? b.external_user_id,
    definition_id: given(b.definition_id),
    connector_type: given(b.connector_type),
    source_template_id: given(b.source_template_id),
    name: given(b.name),
    credentials: b.credentials,
    replication_config: given(b.replication_config),
    environment: given(b.environment),
    entities: given(b.entities),
    server_side_oauth_secret_id: given(b.server_side_oauth_secret_id),
  };
}

export function register(app: App, deps: CoreDeps) {
  app.post(
    '/api/v1/integrations/connectors',
    {
      schema: {
        tags: ['Connectors'],
        summary: 'Create a connector; credentials are validated and checked against the provider first',
        body: ConnectorBody,
        response: withErrors({ 200: ConnectorSchema }, [409, 424, 429, 502, 504]),
      },
    },
    async (request) => {
      const connector = await createConnector(deps, ctxOf(request), connectorInput(request.body));
      return presentConnector(connector);
    },
  );
}
