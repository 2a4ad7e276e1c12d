import { Type } from 'typebox';
import type { CoreDeps } from '../../../core/context.ts';
import { issueApplicationToken } from '../../../core/tokens/issue-application-token.ts';
import type { App } from '../../app-types.ts';
import { OPEN_REQUEST, withErrors } from '../../schemas.ts';

const Body = Type.Object(
  {
    client_id: Type.String({ minLength: 1, maxLength: 200 }),
    client_secret: Type.String({ minLength: 1, maxLength: 200 }),
  },
  // OAuth2 client-credentials clients add `grant_type` (and sometimes `scope`).
  OPEN_REQUEST,
);
const Headers = Type.Object({ 'x-organization-id': Type.Optional(Type.String({ format: 'uuid' })) });
const Reply = Type.Object({
  access_token: Type.String(),
  token_type: Type.Literal('bearer'),
  expires_in: Type.Integer(),
  organization_id: Type.String({ format: 'uuid' }),
});

export function register(app: App, deps: CoreDeps) {
  app.post(
    '/api/v1/account/applications/token',
    {
      config: { auth: false },
      schema: {
        tags: ['Authentication'],
        summary: 'Exchange client credentials for an application access token (JWT)',
        security: [],
        body: Body,
        headers: Headers,
        response: withErrors({ 200: Reply }),
      },
    },
    async (request) =>
      issueApplicationToken(deps, {
        client_id: request.body.client_id,
        client_secret: request.body.client_secret,
        // The socket's address: X-Forwarded-For is client-chosen unless the operator configures a trusted proxy.
        sourceAddress: request.ip,
        ...(request.headers['x-organization-id']
          ? { organizationId: request.headers['x-organization-id'] }
          : {}),
      }),
  );
}
