// The reference's source templates: `/api/v1/integrations/templates/sources` (list, create or clone) and
// `/{id}` (get, patch, delete), organization-scoped.
import { type Static, Type } from 'typebox';
import type { CoreDeps } from '../../../core/context.ts';
import {
  createTemplate,
  deleteTemplate,
  getTemplate,
  listTemplates,
  presentTemplateDetail,
  presentTemplateGet,
  presentTemplateSummary,
  updateTemplate,
} from '../../../core/templates/source-templates.ts';
import { DomainError } from '../../../errors.ts';
import type { App } from '../../app-types.ts';
import { ctxOf } from '../../auth.ts';
import {
  IdParams,
  JsonObject,
  OPEN_REQUEST,
  ShortText,
  SourceTemplateSchema,
  Uuid,
  withErrors,
} from '../../schemas.ts';

const Mode = Type.Union([Type.Literal('DIRECT'), Type.Literal('REPLICATION'), Type.Literal('MULTI')]);
const OrNull = <T extends Parameters<typeof Type.Union>[0][number]>(s: T) =>
  Type.Optional(Type.Union([s, Type.Null()]));
const Tags = Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { maxItems: 50, uniqueItems: true });

/** SourceTemplateCustomization: the entities to index (`whitelist`); the replication-only parts are kept as given. */
const Customization = Type.Object(
  {
    stream_selection_mode: Type.Optional(
      Type.Union([Type.Literal('all'), Type.Literal('suggested'), Type.Literal('whitelist')]),
    ),
    stream_whitelist: OrNull(Type.Array(ShortText(100), { maxItems: 200 })),
    stream_customizations: OrNull(JsonObject(200)),
    stream_mappers: OrNull(JsonObject(200)),
  },
  { additionalProperties: false },
);

/** SourceTemplateCreateRequest or SourceTemplateCloneRequest, plus `tags` (templates are picked by them). */
const CreateBody = Type.Object(
  {
    actor_definition_id: Type.Optional(Uuid),
    partial_default_config: Type.Optional(JsonObject(100)),
    original_source_template_id: Type.Optional(Uuid),
    name: OrNull(ShortText(200)),
    customization: OrNull(Customization),
    mode: OrNull(Mode),
    tags: Type.Optional(Tags),
  },
  { additionalProperties: false },
);

const PatchBody = Type.Object(
  {
    name: OrNull(ShortText(200)),
    propagate: OrNull(Type.Boolean()),
    partial_default_config: OrNull(JsonObject(100)),
    customization: OrNull(Customization),
    mode: OrNull(Mode),
  },
  { additionalProperties: false },
);

const ListQuery = Type.Object(
  {
    use_global: Type.Optional(Type.Boolean()),
    tags: Type.Optional(Type.Union([Tags, Type.String({ minLength: 1, maxLength: 100 })])),
    tags_mode: Type.Optional(Type.Union([Type.Literal('all'), Type.Literal('any')])),
  },
  OPEN_REQUEST,
);

function createInput(b: Static<typeof CreateBody>) {
  return {
    actor_definition_id: b.actor_definition_id,
    partial_default_config: b.partial_default_config,
    original_source_template_id: b.original_source_template_id,
    name: b.name,
    customization: b.customization,
    mode: b.mode,
    tags: b.tags,
  };
}

export function register(app: App, deps: CoreDeps) {
  const tags = ['Source templates'];
  app.get(
    '/api/v1/integrations/templates/sources',
    {
      schema: {
        tags,
        summary:
          "The organization's source templates (with use_global, every connector type's default template too), by tags",
        querystring: ListQuery,
        response: withErrors({ 200: Type.Object({ data: Type.Array(SourceTemplateSchema) }) }),
      },
    },
    async (request) => {
      const q = request.query;
      const wanted = typeof q.tags === 'string' ? [q.tags] : q.tags;
      const list = await listTemplates(deps, ctxOf(request), {
        use_global: q.use_global,
        tags: wanted,
        tags_mode: q.tags_mode,
      });
      return { data: list.map(presentTemplateSummary) };
    },
  );

  // Not in the published spec, but what the hosted CLI lists templates with (`connectors list-available`).
  // A static path, so the router prefers it to `/:id` (which would refuse `global` as not a UUID).
  app.get(
    '/api/v1/integrations/templates/sources/global',
    {
      schema: {
        tags,
        summary: 'The templates a connector can be created from: the same list as `?use_global=true`',
        // It takes no parameter: any is ignored, and named as the open routes name theirs.
        querystring: Type.Object({}, OPEN_REQUEST),
        response: withErrors({ 200: Type.Object({ data: Type.Array(SourceTemplateSchema) }) }),
      },
    },
    async (request) => {
      const list = await listTemplates(deps, ctxOf(request), { use_global: true });
      return { data: list.map(presentTemplateSummary) };
    },
  );

  app.post(
    '/api/v1/integrations/templates/sources',
    {
      schema: {
        tags,
        summary:
          'Enable a connector type for end users (actor_definition_id + partial_default_config), or clone a template (original_source_template_id)',
        body: CreateBody,
        response: withErrors({ 200: SourceTemplateSchema }),
      },
    },
    async (request) => {
      const b = request.body;
      const one = (b.actor_definition_id !== undefined) !== (b.original_source_template_id !== undefined);
      if (!one || (b.original_source_template_id === undefined && b.partial_default_config === undefined)) {
        throw new DomainError(
          'VALIDATION_ERROR',
          'Give actor_definition_id with partial_default_config (a new template), or original_source_template_id (a clone).',
          {
            errors: [
              {
                field: 'actor_definition_id',
                message:
                  'exactly one of actor_definition_id (with partial_default_config) or original_source_template_id is required',
                error_code: 'one_of',
                details: null,
              },
            ],
          },
        );
      }
      return presentTemplateDetail(await createTemplate(deps, ctxOf(request), createInput(b)));
    },
  );

  app.get(
    '/api/v1/integrations/templates/sources/:id',
    {
      schema: {
        tags,
        summary:
          'A source template, with its credential form (user_config_spec) and help per credential option',
        params: IdParams,
        response: withErrors({ 200: SourceTemplateSchema }),
      },
    },
    async (request) =>
      presentTemplateGet(await getTemplate(deps, ctxOf(request).organizationId, request.params.id)),
  );

  app.patch(
    '/api/v1/integrations/templates/sources/:id',
    {
      schema: {
        tags,
        summary: "Change an organization's template (null: unchanged); connectors read it at each use",
        params: IdParams,
        body: PatchBody,
        response: withErrors({ 200: SourceTemplateSchema }),
      },
    },
    async (request) =>
      presentTemplateDetail(await updateTemplate(deps, ctxOf(request), request.params.id, request.body)),
  );

  app.delete(
    '/api/v1/integrations/templates/sources/:id',
    {
      schema: {
        tags,
        summary:
          "Delete an organization's template (its connectors keep working, shown with the default template)",
        params: IdParams,
        response: withErrors({
          200: Type.Object({ id: Uuid, deleted_at: Type.String({ format: 'date-time' }) }),
        }),
      },
    },
    async (request) => deleteTemplate(deps, ctxOf(request), request.params.id),
  );
}
