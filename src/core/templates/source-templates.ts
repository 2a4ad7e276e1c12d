/**
 * Source templates (the reference's `/integrations/templates/sources`): how an organization enables a connector
 * type for its end users — a name, the replication_config values it fixes, tags to pick templates by, and which
 * entities the Context Store indexes (`customization.stream_selection_mode: whitelist` with `stream_whitelist`).
 *
 * Every connector type also has an implicit default template, the same for every organization (its id derived
 * from the definition's): what a connector created without a template answers as its `source_template`, and
 * what an organization clones to start its own.
 */
import { createHash, randomUUID } from 'node:crypto';
import { connectorSpecification } from '../../connectors/catalog.ts';
import type { ConnectorDefinition } from '../../connectors/schema.ts';
import { definitionLayouts } from '../../context-store/layout.ts';
import { DomainError } from '../../errors.ts';
import type { SourceTemplate, SourceTemplateMode } from '../../store/port.ts';
import { validateReplicationConfig } from '../connectors/replication-config.ts';
import type { CoreDeps, RequestContext } from '../context.ts';
import { isoNow, requireApplicationToken } from '../context.ts';

/** A template as the API shows it: an organization's own, or a connector type's implicit default. */
export interface TemplateView {
  id: string;
  /** null for a default template (global: every organization has it) */
  organization_id: string | null;
  definition: ConnectorDefinition;
  name: string;
  partial_default_config: Record<string, unknown>;
  customization: Record<string, unknown> | null;
  tags: string[];
  mode: SourceTemplateMode;
  created_at: string | null;
  updated_at: string | null;
}

/** The default template's id: a UUID (version 8, name-based) derived from the definition's id. */
export function defaultTemplateId(definitionId: string): string {
  const h = createHash('sha256').update(`ces.default-source-template:${definitionId}`).digest('hex');
  const variant = ((Number.parseInt(h[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-8${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

export function defaultTemplate(def: ConnectorDefinition): TemplateView {
  return {
    id: defaultTemplateId(def.id),
    organization_id: null,
    definition: def,
    name: def.name,
    partial_default_config: {},
    customization: null,
    tags: [],
    mode: 'DIRECT',
    created_at: null,
    updated_at: null,
  };
}

const templateNotFound = (id: string) =>
  new DomainError('SOURCE_TEMPLATE_NOT_FOUND', `Source template ${id} not found.`);

function viewOf(deps: Pick<CoreDeps, 'registry'>, t: SourceTemplate): TemplateView {
  const definition = deps.registry.byId(t.definition_id);
  // A template of a connector type this server no longer carries: nothing can be made from it.
  if (!definition) throw templateNotFound(t.id);
  return { ...t, definition };
}

/** An organization's template or a default one, by id; SOURCE_TEMPLATE_NOT_FOUND otherwise. */
export async function getTemplate(
  deps: Pick<CoreDeps, 'store' | 'registry'>,
  organizationId: string,
  id: string,
): Promise<TemplateView> {
  const def = deps.registry.all().find((d) => defaultTemplateId(d.id) === id);
  if (def) return defaultTemplate(def);
  const stored = await deps.store.sourceTemplates.get(organizationId, id);
  if (!stored) throw templateNotFound(id);
  return viewOf(deps, stored);
}

export interface ListTemplatesInput {
  use_global?: boolean | undefined;
  tags?: string[] | undefined;
  tags_mode?: 'all' | 'any' | undefined;
}

/** Tag selection as the reference does it: no tags selects all; `any` (default) one shared tag; `all` every one. */
export function matchesTags(tags: readonly string[], wanted: readonly string[] | undefined, mode = 'any') {
  if (!wanted || wanted.length === 0) return true;
  return mode === 'all' ? wanted.every((t) => tags.includes(t)) : wanted.some((t) => tags.includes(t));
}

export async function listTemplates(
  deps: Pick<CoreDeps, 'store' | 'registry'>,
  ctx: RequestContext,
  input: ListTemplatesInput,
): Promise<TemplateView[]> {
  const own = (await deps.store.sourceTemplates.list(ctx.organizationId))
    .filter((t) => deps.registry.byId(t.definition_id))
    .map((t) => viewOf(deps, t));
  const all = input.use_global ? [...own, ...deps.registry.all().map(defaultTemplate)] : own;
  return all.filter((t) => matchesTags(t.tags, input.tags, input.tags_mode));
}

export interface CustomizationInput {
  stream_selection_mode?: 'all' | 'suggested' | 'whitelist' | undefined;
  stream_whitelist?: string[] | null | undefined;
  stream_customizations?: Record<string, unknown> | null | undefined;
  stream_mappers?: Record<string, unknown> | null | undefined;
}

/** Checks the entities a customization names against the definition; returns what is stored. */
function checkCustomization(def: ConnectorDefinition, c: CustomizationInput | null | undefined) {
  if (!c) return null;
  const names = new Set(def.entities.map((e) => e.name));
  const unknown = (c.stream_whitelist ?? []).filter((e) => !names.has(e));
  if (unknown.length > 0) {
    throw new DomainError(
      'VALIDATION_ERROR',
      `customization.stream_whitelist names entities ${def.name} does not have: ${unknown.join(', ')}.`,
      {
        errors: unknown.map((e) => ({
          field: 'customization.stream_whitelist',
          message: `unknown entity '${e}'`,
          error_code: 'unknown_entity',
          details: { entities: [...names] },
        })),
      },
    );
  }
  const out: Record<string, unknown> = { stream_selection_mode: c.stream_selection_mode ?? 'suggested' };
  if (c.stream_whitelist != null) out.stream_whitelist = [...c.stream_whitelist];
  // Replication-only settings: kept and shown as given, without effect in ces (it replicates to no destination).
  if (c.stream_customizations != null) out.stream_customizations = c.stream_customizations;
  if (c.stream_mappers != null) out.stream_mappers = c.stream_mappers;
  return out;
}

export interface CreateTemplateInput {
  actor_definition_id?: string | undefined;
  partial_default_config?: Record<string, unknown> | undefined;
  original_source_template_id?: string | undefined;
  name?: string | null | undefined;
  customization?: CustomizationInput | null | undefined;
  mode?: SourceTemplateMode | null | undefined;
  tags?: string[] | undefined;
}

/** Creates a template for a connector type, or clones one (`original_source_template_id`). */
export async function createTemplate(
  deps: Pick<CoreDeps, 'store' | 'registry' | 'now'>,
  ctx: RequestContext,
  input: CreateTemplateInput,
): Promise<TemplateView> {
  requireApplicationToken(ctx);
  let base: Omit<TemplateView, 'id' | 'organization_id' | 'created_at' | 'updated_at'>;
  if (input.original_source_template_id !== undefined) {
    const original = await getTemplate(deps, ctx.organizationId, input.original_source_template_id);
    base = { ...original };
  } else {
    const def = input.actor_definition_id ? deps.registry.byId(input.actor_definition_id) : undefined;
    if (!def) {
      throw new DomainError(
        'DEFINITION_NOT_FOUND',
        `Connector definition ${input.actor_definition_id} not found.`,
      );
    }
    base = { ...defaultTemplate(def) };
  }
  const def = base.definition;
  const partial =
    input.partial_default_config !== undefined
      ? validateReplicationConfig(def, input.partial_default_config, {
          partial: true,
          field: 'partial_default_config',
        })
      : base.partial_default_config;
  const now = isoNow(deps);
  const template: SourceTemplate = {
    id: randomUUID(),
    organization_id: ctx.organizationId,
    definition_id: def.id,
    name: input.name?.trim() || base.name,
    partial_default_config: partial,
    customization:
      input.customization !== undefined ? checkCustomization(def, input.customization) : base.customization,
    tags: input.tags ?? base.tags,
    mode: input.mode ?? base.mode,
    created_at: now,
    updated_at: now,
  };
  await deps.store.sourceTemplates.create(template);
  return viewOf(deps, template);
}

export interface UpdateTemplateInput {
  name?: string | null | undefined;
  partial_default_config?: Record<string, unknown> | null | undefined;
  customization?: CustomizationInput | null | undefined;
  mode?: SourceTemplateMode | null | undefined;
  /** The reference pushes config changes to existing connections; ces reads the template at each use. */
  propagate?: boolean | null | undefined;
}

/** null means "unchanged", as in the reference; a default template can't be changed (clone it). */
export async function updateTemplate(
  deps: Pick<CoreDeps, 'store' | 'registry' | 'now'>,
  ctx: RequestContext,
  id: string,
  input: UpdateTemplateInput,
): Promise<TemplateView> {
  requireApplicationToken(ctx);
  const current = await getTemplate(deps, ctx.organizationId, id);
  if (current.organization_id === null) {
    throw new DomainError(
      'FORBIDDEN',
      `Source template ${id} is the default template of ${current.definition.name}, the same for every organization; clone it (POST /api/v1/integrations/templates/sources with original_source_template_id) and change the clone.`,
    );
  }
  const def = current.definition;
  const updated = await deps.store.sourceTemplates.update(ctx.organizationId, id, {
    ...(input.name != null ? { name: input.name.trim() || current.name } : {}),
    ...(input.partial_default_config != null
      ? {
          partial_default_config: validateReplicationConfig(def, input.partial_default_config, {
            partial: true,
            field: 'partial_default_config',
          }),
        }
      : {}),
    ...(input.customization != null ? { customization: checkCustomization(def, input.customization) } : {}),
    ...(input.mode != null ? { mode: input.mode } : {}),
    now: isoNow(deps),
  });
  if (!updated) throw templateNotFound(id);
  return viewOf(deps, updated);
}

export async function deleteTemplate(
  deps: Pick<CoreDeps, 'store' | 'registry' | 'now'>,
  ctx: RequestContext,
  id: string,
): Promise<{ id: string; deleted_at: string }> {
  requireApplicationToken(ctx);
  const current = await getTemplate(deps, ctx.organizationId, id);
  if (current.organization_id === null) {
    throw new DomainError(
      'FORBIDDEN',
      `Source template ${id} is the default template of ${current.definition.name}; it can't be deleted.`,
    );
  }
  if (!(await deps.store.sourceTemplates.delete(ctx.organizationId, id))) throw templateNotFound(id);
  return { id, deleted_at: isoNow(deps) };
}

/**
 * The entities a connector's Context Store indexes: those of the definition, narrowed by its template's
 * whitelist and by the entities its creator asked for (any mode that reads).
 */
export function indexedEntities(
  def: ConnectorDefinition,
  template: Pick<TemplateView, 'customization'> | undefined,
  requested: ReadonlyArray<{ entity: string; modes?: readonly string[] | null }> | null,
): string[] {
  let entities = definitionLayouts(def).map((l) => l.entity);
  const c = template?.customization as CustomizationInput | null | undefined;
  if (c?.stream_selection_mode === 'whitelist' && c.stream_whitelist) {
    const allowed = new Set(c.stream_whitelist);
    entities = entities.filter((e) => allowed.has(e));
  }
  if (requested) {
    const wanted = new Set(
      requested
        .filter((r) => !r.modes || r.modes.length === 0 || r.modes.includes('read'))
        .map((r) => r.entity),
    );
    entities = entities.filter((e) => wanted.has(e));
  }
  return entities;
}

/** The reference's template shapes. */
export function presentTemplateDetail(t: TemplateView) {
  const def = t.definition;
  const hasIndex = definitionLayouts(def).length > 0;
  return {
    id: t.id,
    name: t.name,
    icon: def.icon_url,
    source_definition_id: def.id,
    user_config_spec: connectorSpecification(def),
    partial_default_config: t.partial_default_config,
    customization: t.customization,
    tags: t.tags,
    mode: t.mode,
    is_experimental: false,
    runtime_mode: hasIndex ? ('direct_and_context_store' as const) : ('direct_only' as const),
    supports_context_store: hasIndex,
    created_at: t.created_at,
    updated_at: t.updated_at,
  };
}

export function presentTemplateSummary(t: TemplateView) {
  const d = presentTemplateDetail(t);
  return {
    id: d.id,
    name: d.name,
    icon: d.icon,
    connector_name: t.definition.slug,
    organization_id: t.organization_id,
    actor_definition_id: t.definition.id,
    tags: d.tags,
    customization: d.customization,
    mode: d.mode,
    runtime_mode: d.runtime_mode,
    supports_context_store: d.supports_context_store,
    created_at: d.created_at,
    updated_at: d.updated_at,
  };
}

/** GET by id adds how to fill the credential form, per credential option title. */
export function presentTemplateGet(t: TemplateView) {
  const tooltip: Record<string, string> = {};
  for (const o of t.definition.credential_options) tooltip[o.title] = o.description;
  return { ...presentTemplateDetail(t), auth_tooltip: tooltip, connector_name: t.definition.slug };
}
