import { Type } from 'typebox';
import { checkExistingConnector, checkNewConnector } from '../../../core/connectors/check.ts';
import type { CoreDeps } from '../../../core/context.ts';
import type { App } from '../../app-types.ts';
import { ctxOf } from '../../auth.ts';
import { IdParams, JsonObject, RequestedEntitySchema, ShortText, withErrors } from '../../schemas.ts';
import { ConnectorBody, connectorInput } from './create.ts';

const CheckResult = Type.Object({}, { additionalProperties: true });

const ExistingBody = Type.Object(
  {
    name: Type.Optional(Type.Union([ShortText(200), Type.Null()])),
    replication_config: Type.Optional(Type.Union([JsonObject(100), Type.Null()])),
    entities: Type.Optional(Type.Union([Type.Array(RequestedEntitySchema, { maxItems: 200 }), Type.Null()])),
  },
  { additionalProperties: false },
);

export function register(app: App, deps: CoreDeps) {
  app.post(
    '/api/v1/integrations/connectors/check',
    {
      schema: {
        tags: ['Connectors'],
        summary:
          "Check a create's credentials and settings against the provider without storing anything: {status: succeeded|failed, …}",
        body: ConnectorBody,
        response: withErrors({ 200: CheckResult }, [502, 503, 504]),
      },
    },
    async (request) => checkNewConnector(deps, ctxOf(request), connectorInput(request.body)),
  );

  app.post(
    '/api/v1/integrations/connectors/:id/check',
    {
      schema: {
        tags: ['Connectors'],
        summary:
          "Check a connector's stored credentials with new settings (or its own); nothing changes. A setting that moves where requests go is refused",
        params: IdParams,
        body: Type.Optional(ExistingBody),
        response: withErrors({ 200: CheckResult }, [502, 503, 504]),
      },
    },
    async (request) => {
      const b = request.body ?? {};
      const given = <T>(v: T | null | undefined) => (v === null ? undefined : v);
      return checkExistingConnector(deps, ctxOf(request), request.params.id, {
        name: given(b.name),
        replication_config: given(b.replication_config),
        entities: given(b.entities),
      });
    },
  );
}
