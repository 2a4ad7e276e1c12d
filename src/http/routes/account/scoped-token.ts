import { Type } from 'typebox';
import type { CoreDeps } from '../../../core/context.ts';
import { issueScopedToken } from '../../../core/tokens/scoped-token.ts';
import type { App } from '../../app-types.ts';
import { ctxOf } from '../../auth.ts';
import { Name, withErrors } from '../../schemas.ts';

const Body = Type.Object(
  {
    workspace_name: Name(200),
    region_id: Type.Optional(Type.Union([Type.String({ format: 'uuid' }), Type.Null()])),
  },
  { additionalProperties: false },
);

export function register(app: App, deps: CoreDeps) {
  app.post(
    '/api/v1/account/applications/scoped-token',
    {
      schema: {
        tags: ['Authentication'],
        summary: 'Mint a token limited to one workspace (created if missing)',
        body: Body,
        response: withErrors({ 200: Type.Object({ token: Type.String() }) }),
      },
    },
    async (request) =>
      issueScopedToken(deps, ctxOf(request), { workspace_name: request.body.workspace_name }),
  );
}
