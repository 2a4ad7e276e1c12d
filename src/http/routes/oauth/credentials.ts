// The reference's bring-your-own OAuth app: `PUT /api/v1/oauth/credentials` and
// `DELETE /api/v1/oauth/credentials/connector_type/{connector_type}`.
import { Type } from 'typebox';
import type { CoreDeps } from '../../../core/context.ts';
import { deleteOAuthApp, putOAuthApp } from '../../../core/oauth/apps.ts';
import type { App } from '../../app-types.ts';
import { ctxOf } from '../../auth.ts';
import { JsonObject, ShortText, Uuid, withErrors } from '../../schemas.ts';

const Body = Type.Object(
  {
    connector_type: Type.Optional(Type.Union([ShortText(100), Type.Null()])),
    connector_definition_id: Type.Optional(Type.Union([Uuid, Type.Null()])),
    configuration: JsonObject(20),
  },
  { additionalProperties: false },
);

const Reply = Type.Object({
  id: Uuid,
  scope_type: Type.Literal('organization'),
  scope_id: Uuid,
  connector_type: Type.Literal('source'),
  connector_definition_id: Uuid,
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
});

export function register(app: App, deps: CoreDeps) {
  app.put(
    '/api/v1/oauth/credentials',
    {
      schema: {
        tags: ['OAuth'],
        summary:
          "Set the organization's own OAuth app (client_id, client_secret) for a connector type; the secret is encrypted and never answered",
        body: Body,
        response: withErrors({ 200: Reply }),
      },
    },
    async (request) => {
      const b = request.body;
      return putOAuthApp(deps, ctxOf(request), {
        connector_type: b.connector_type ?? undefined,
        connector_definition_id: b.connector_definition_id ?? undefined,
        configuration: b.configuration,
      });
    },
  );

  app.delete(
    '/api/v1/oauth/credentials/connector_type/:connector_type',
    {
      schema: {
        tags: ['OAuth'],
        summary: "Remove the organization's OAuth app for a connector type (idempotent)",
        params: Type.Object({ connector_type: ShortText(100) }, { additionalProperties: false }),
        response: withErrors({ 204: Type.Null() }),
      },
    },
    async (request, reply) => {
      await deleteOAuthApp(deps, ctxOf(request), request.params.connector_type);
      return reply.code(204).send();
    },
  );
}
