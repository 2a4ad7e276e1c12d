// The consent flow: `POST /api/v1/integrations/connectors/oauth/initiate` (the hosted service's path) and the
// public callback the provider sends the end user's browser back to.
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { completeConsent, initiateConsent } from '../../../core/oauth/consent.ts';
import type { App, AppDeps } from '../../app-types.ts';
import { ctxOf } from '../../auth.ts';
import { consentBase } from '../../consent-base.ts';
import { JsonObject, Name, RequestedEntitySchema, ShortText, Uuid, withErrors } from '../../schemas.ts';

export const CALLBACK_PATH = '/api/v1/integrations/connectors/oauth/callback';

/**
 * CES_PUBLIC_URL, or the scheme and host this request came to (behind a proxy: set CES_PUBLIC_URL), for links
 * handed to an authenticated caller, which chose that host itself. A consent flow's URLs reach an end user's
 * browser instead, and come from consentBase (../../consent-base.ts), which never reads the Host header.
 */
export function publicBase(deps: Pick<AppDeps, 'publicUrl'>, request: FastifyRequest): string {
  return deps.publicUrl ?? `${request.protocol}://${request.host}`;
}

const OrNull = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) =>
  Type.Optional(Type.Union([schema, Type.Null()]));

const InitiateBody = Type.Object(
  {
    workspace_name: Type.Optional(Name(200)),
    external_user_id: Type.Optional(Name(200)),
    definition_id: OrNull(Uuid),
    connector_type: OrNull(ShortText(100)),
    source_template_id: OrNull(Uuid),
    redirect_url: ShortText(2000),
    name: OrNull(ShortText(200)),
    replication_config: OrNull(JsonObject(100)),
    environment: OrNull(JsonObject(20)),
    entities: OrNull(Type.Array(RequestedEntitySchema, { maxItems: 200 })),
    /** ces's own: which credential option to consent for when a type has several. */
    option_title: OrNull(ShortText(200)),
    // The hosted service's provider-specific consent inputs; ces's consent parameters come from the connector
    // definition, so this is accepted and has no effect (README: Let your users connect).
    oauth_input_configuration: OrNull(JsonObject(20)),
  },
  { additionalProperties: false },
);

const CallbackQuery = Type.Object(
  {
    state: Type.Optional(Type.String({ maxLength: 2000 })),
    code: Type.Optional(Type.String({ maxLength: 4000 })),
    error: Type.Optional(Type.String({ maxLength: 200 })),
    error_description: Type.Optional(Type.String({ maxLength: 2000 })),
  },
  // Providers add their own members (scope, session_state, Notion's workspace details, …).
  { additionalProperties: true },
);

export function register(app: App, deps: AppDeps) {
  app.post(
    '/api/v1/integrations/connectors/oauth/initiate',
    {
      schema: {
        tags: ['OAuth'],
        summary:
          "Begin an end user's consent for the organization's OAuth app; answers the provider's consent URL",
        body: InitiateBody,
        response: withErrors({ 200: Type.Object({ consent_url: Type.String() }) }),
      },
    },
    async (request) => {
      const b = request.body;
      const given = <T>(v: T | null | undefined) => (v === null ? undefined : v);
      return initiateConsent(
        deps,
        ctxOf(request),
        {
          workspace_name: b.workspace_name ?? b.external_user_id,
          definition_id: given(b.definition_id),
          connector_type: given(b.connector_type),
          source_template_id: given(b.source_template_id),
          redirect_url: b.redirect_url,
          name: given(b.name),
          replication_config: given(b.replication_config),
          environment: given(b.environment),
          entities: given(b.entities),
          option_title: given(b.option_title),
        },
        { callbackUrl: `${consentBase(deps, request)}${CALLBACK_PATH}` },
      );
    },
  );

  app.get(
    CALLBACK_PATH,
    {
      // Reached by the end user's browser from the provider: the signed, single-use state is the credential.
      config: { auth: false },
      schema: {
        tags: ['OAuth'],
        summary:
          "The provider's redirect after consent: creates the connector and redirects to the flow's redirect_url",
        querystring: CallbackQuery,
        response: withErrors({ 302: Type.Null() }),
      },
    },
    async (request, reply) => {
      const q = request.query;
      // The same base as the flow's initiate had: the code is exchanged with the redirect_uri it was sent to.
      const callbackUrl = `${consentBase(deps, request)}${CALLBACK_PATH}`;
      const { redirect } = await completeConsent(
        deps,
        { state: q.state, code: q.code, error: q.error, error_description: q.error_description },
        callbackUrl,
      );
      reply.header('cache-control', 'no-store').header('referrer-policy', 'no-referrer');
      return reply.redirect(redirect, 302);
    },
  );
}
