import { Type } from 'typebox';
import { inspectConnector } from '../../../core/connectors/context-store.ts';
import type { CoreDeps } from '../../../core/context.ts';
import type { App } from '../../app-types.ts';
import { ctxOf } from '../../auth.ts';
import { IdParams, withErrors } from '../../schemas.ts';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);
const EntityState = Type.Object({
  entity: Type.String(),
  status: Type.String({
    description: 'Initializing | Building Preview | Preview | Ready | Updating | Failed',
  }),
  ready_for_search: Type.Boolean({
    description:
      'Whether search can run on this entity now: its first page is stored (other entities do not matter)',
  }),
  entity_count: Type.Integer(),
  updated_at: Nullable(Type.String()),
  last_error: Type.Union([Type.String(), Type.Null()], {
    description: 'Why the last pass failed (for a refusal, what to grant); null after a pass that succeeded',
  }),
  pass: Type.String({ description: 'backfill | incremental | full: the current or next pass' }),
  backfilled_at: Nullable(Type.String()),
  next_sync_at: Type.String(),
});
const Reply = Type.Object({
  connector_id: Type.String(),
  name: Type.String(),
  workspace_id: Type.String(),
  organization_id: Type.String(),
  source_definition_id: Type.String(),
  source_definition_name: Type.String(),
  source_config_template_id: Type.String({ format: 'uuid' }),
  docs_skill_id: Type.String(),
  context_store: Type.Object({
    status: Nullable(Type.String({ description: 'Loading | Building Preview | Preview | Ready | Failed' })),
    entities: Type.Array(EntityState),
  }),
  context_store_readiness: Type.Object({
    connector_id: Type.String(),
    source_definition_id: Type.String(),
    supported_context_store_entities: Type.Array(
      Type.Object({ entity: Type.String(), suggested: Type.Boolean() }),
    ),
    configured_cache_entities: Type.Array(
      Type.Object({
        entity: Type.String(),
        status: Type.String(),
        ready_for_search: Type.Boolean(),
        supported: Type.Boolean(),
        entity_count: Type.Integer(),
        updated_at: Nullable(Type.String()),
      }),
    ),
  }),
  warnings: Type.Array(Type.String(), { description: 'One per failed entity, with its reason' }),
});

export function register(app: App, deps: CoreDeps) {
  app.get(
    '/api/v1/integrations/connectors/:id/inspect',
    {
      schema: {
        tags: ['Connectors'],
        summary: "The connector's Context Store status and each indexed entity's sync state",
        params: IdParams,
        response: withErrors({ 200: Reply }),
      },
    },
    async (request) => inspectConnector(deps, ctxOf(request), request.params.id),
  );
}
