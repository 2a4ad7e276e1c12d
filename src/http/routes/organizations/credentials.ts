import { Type } from 'typebox';
import { listOrganizationCredentials } from '../../../core/connectors/credentials-list.ts';
import type { CoreDeps } from '../../../core/context.ts';
import type { App } from '../../app-types.ts';
import { ctxOf } from '../../auth.ts';
import { presentCredentialsListing } from '../../presenters.ts';
import { Uuid, withErrors } from '../../schemas.ts';

const Params = Type.Object({ organization_id: Uuid }, { additionalProperties: false });
// The reference's CLI asks for pages of 200 and stops at the first shorter page, so a cap below 200 would
// make it stop after the first page: the cap must stay at least 200.
const Query = Type.Object(
  {
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 200 })),
    offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000_000, default: 0 })),
  },
  { additionalProperties: false },
);
const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);
const Item = Type.Object({
  id: Type.String({ description: 'The connector id' }),
  name: Type.String(),
  workspace_id: Type.String(),
  workspace_name: Type.String(),
  definition_id: Type.String(),
  connector_type: Type.String(),
  credentials_status: Type.String({ description: 'valid | needs_reauth' }),
  context_store_status: Nullable(
    Type.String({
      description: 'Loading | Building Preview | Preview | Ready | Failed; null before its first sync',
    }),
  ),
  context_store_entity_count: Type.Integer({ description: 'Records indexed, all entities together' }),
  created_at: Type.String(),
  updated_at: Type.String(),
});

export function register(app: App, deps: CoreDeps) {
  app.get(
    '/api/v1/organizations/:organization_id/credentials',
    {
      schema: {
        tags: ['Connectors'],
        summary:
          "The organization's connectors (a scoped token: its workspace's), a page at a time, with their Context Store status and records indexed; never a credential value",
        params: Params,
        querystring: Query,
        response: withErrors({
          200: Type.Object({
            data: Type.Array(Item),
            total: Type.Integer({ description: 'How many there are, all pages together' }),
          }),
        }),
      },
    },
    async (request) =>
      presentCredentialsListing(
        await listOrganizationCredentials(deps, ctxOf(request), request.params.organization_id, {
          limit: request.query.limit ?? 200,
          offset: request.query.offset ?? 0,
        }),
      ),
  );
}
