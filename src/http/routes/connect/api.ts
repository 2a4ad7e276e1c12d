// The connect page's API (`/connect/api/...`): what a widget token may do, and nothing else. Routes are marked
// `auth: 'widget'`: they take a widget token only, and no widget token is taken anywhere else.
import { Type } from 'typebox';
import {
  type ConnectInput,
  widgetCheck,
  widgetConnector,
  widgetConsent,
  widgetCreate,
  widgetSession,
} from '../../../core/connect/widget.ts';
import type { App, AppDeps } from '../../app-types.ts';
import { widgetOf } from '../../auth.ts';
import { consentBase } from '../../consent-base.ts';
import { presentConnector } from '../../presenters.ts';
import {
  ConnectorSchema,
  Credentials,
  IdParams,
  JsonObject,
  ShortText,
  Uuid,
  withErrors,
} from '../../schemas.ts';
import { CALLBACK_PATH } from '../oauth/consent.ts';

export const DONE_PATH = '/connect/oauth-done';

const Fields = {
  template_id: Uuid,
  option: Type.Optional(ShortText(200)),
  name: Type.Optional(ShortText(200)),
};
// The API's own credential bounds (POST /api/v1/integrations/connectors): the page is one more way in.
const Body = Type.Object(
  { ...Fields, credentials: Type.Optional(Credentials()), environment: Type.Optional(JsonObject(20)) },
  { additionalProperties: false },
);

/**
 * A consent flow has no credentials to send; it sends the waiting page's nonce instead, which comes back in
 * the done page's address, so the page believes only the outcome of the flow it started (web/connect.js).
 */
const OAuthBody = Type.Object(
  {
    ...Fields,
    environment: Type.Optional(JsonObject(20)),
    nonce: Type.String({ pattern: '^[A-Za-z0-9_-]{22,128}$' }),
  },
  { additionalProperties: false },
);

const input = (b: ConnectInput): ConnectInput => b;
const config = { auth: 'widget' as const };
const tags = ['Connect page'];

export function register(app: App, deps: AppDeps) {
  app.get(
    '/connect/api/session',
    {
      config,
      schema: {
        tags,
        summary:
          'What the connect page offers this widget token: the enabled templates and how to connect each',
        response: withErrors({ 200: Type.Object({}, { additionalProperties: true }) }),
      },
    },
    async (request) => widgetSession(deps, widgetOf(request).widget),
  );

  app.post(
    '/connect/api/check',
    {
      config,
      schema: {
        tags,
        summary: 'Check credentials for a template against the provider; nothing is stored',
        body: Body,
        response: withErrors({ 200: Type.Object({}, { additionalProperties: true }) }, [502, 503, 504]),
      },
    },
    async (request) => {
      const { ctx, widget } = widgetOf(request);
      return widgetCheck(deps, ctx, widget, input(request.body));
    },
  );

  app.post(
    '/connect/api/connectors',
    {
      config,
      schema: {
        tags,
        summary: "Create a connector from a template in the widget token's workspace",
        body: Body,
        response: withErrors({ 201: ConnectorSchema }, [409, 424, 429, 502, 504]),
      },
    },
    async (request, reply) => {
      const { ctx, widget } = widgetOf(request);
      reply.code(201);
      return presentConnector(await widgetCreate(deps, ctx, widget, input(request.body)));
    },
  );

  app.get(
    '/connect/api/connectors/:id',
    {
      config,
      schema: {
        tags,
        summary: "A connector of the widget token's workspace",
        params: IdParams,
        response: withErrors({ 200: ConnectorSchema }),
      },
    },
    async (request) =>
      presentConnector(await widgetConnector(deps, widgetOf(request).ctx, request.params.id)),
  );

  app.post(
    '/connect/api/oauth',
    {
      config,
      schema: {
        tags,
        summary: 'Begin a consent flow for a template; the browser comes back to the connect page',
        body: OAuthBody,
        response: withErrors({ 200: Type.Object({ consent_url: Type.String() }) }),
      },
    },
    async (request) => {
      const { ctx, widget } = widgetOf(request);
      const { nonce, ...body } = request.body;
      const base = consentBase(deps, request);
      const done = new URL(`${base}${DONE_PATH}`);
      done.searchParams.set('nonce', nonce);
      return widgetConsent(deps, ctx, widget, input(body), {
        callbackUrl: `${base}${CALLBACK_PATH}`,
        doneUrl: done.href,
      });
    },
  );
}
