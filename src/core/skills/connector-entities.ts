/**
 * The entity parts of a connector skill, from the definition: each entity's actions and their params (types,
 * required, defaults, enums, bounds, aliases), and concrete execute bodies for its list, get and search.
 */
import { pageSizeParam as declaredPageSize, LIMIT_PARAM } from '../../connectors/page-size.ts';
import { limitDescription } from '../../connectors/runtime/limit.ts';
import {
  type ActionDefinition,
  type ActionName,
  actionNames,
  COLLECTION_ACTIONS,
  type ConnectorDefinition,
  type EntityDefinition,
  type ParamDefinition,
} from '../../connectors/schema.ts';
import { definitionLayouts, type EntityLayout } from '../../context-store/layout.ts';
import { entitySearchBlocks, exampleSearch } from './connector-search.ts';
import {
  type ContentBlock,
  heading,
  json,
  list,
  paragraph,
  type SkillSection,
  table,
  tick,
} from './types.ts';

export const isPaginated = (action: ActionDefinition) =>
  action.pagination !== undefined && action.pagination.type !== 'none';

/** A paginated action's page-size param (the definition's `page_size_param`, or the one inferred). */
export function pageSizeParam(action: ActionDefinition): [string, ParamDefinition] | undefined {
  if (!isPaginated(action)) return undefined;
  const name = declaredPageSize(action);
  const param = name === undefined ? undefined : action.params?.[name];
  return name !== undefined && param ? [name, param] : undefined;
}

const show = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v));

function typeOf(p: ParamDefinition): string {
  if (p.type === 'array' && p.items) return `array of ${p.items.type}`;
  return p.format ? `${p.type} (${p.format})` : p.type;
}

function allowed(p: ParamDefinition): string {
  const parts: string[] = [];
  const values = p.enum ?? p.items?.enum;
  if (values) parts.push(values.map(show).join(', '));
  if (p.minimum !== undefined || p.maximum !== undefined)
    parts.push(`${p.minimum ?? '…'}–${p.maximum ?? '…'}`);
  if (p.max_length !== undefined) parts.push(`at most ${p.max_length} characters`);
  if (p.pattern) parts.push(`pattern ${p.pattern}`);
  if (p.properties) parts.push(`members: ${Object.keys(p.properties).join(', ')}`);
  return parts.join('; ');
}

function describe(p: ParamDefinition): string {
  const notes = [p.description];
  if (p.aliases?.length) notes.push(`Also accepted as ${p.aliases.map(tick).join(', ')}.`);
  if (p.conflicts_with?.length) notes.push(`Not together with ${p.conflicts_with.map(tick).join(', ')}.`);
  return notes.join(' ');
}

function paramRows(def: ConnectorDefinition, action: ActionDefinition, actionName: ActionName): string[][] {
  const rows = Object.entries(action.params ?? {}).map(([name, p]) => {
    const scope = p.required ? def.scoping?.find((s) => s.param === name) : undefined;
    const scoped = scope
      ? ` May be left out when the connector's replication_config.${scope.config} names a single one.`
      : '';
    return [
      name,
      typeOf(p),
      p.required ? 'yes' : 'no',
      p.default === undefined ? '' : show(p.default),
      allowed(p),
      describe(p) + scoped,
    ];
  });
  const size = COLLECTION_ACTIONS.includes(actionName) ? declaredPageSize(action) : LIMIT_PARAM;
  if (size !== LIMIT_PARAM) {
    const maximum = size === undefined ? undefined : action.params?.[size]?.maximum;
    rows.push([LIMIT_PARAM, 'integer', 'no', '', '1–…', limitDescription(size, maximum)]);
  }
  if (isPaginated(action)) {
    const aliases = def.execute_param_aliases?.cursor;
    rows.push([
      'cursor',
      'string',
      'no',
      '',
      '',
      `The end_cursor of the previous page (connector_metadata.end_cursor); the other params may then be left out.${
        aliases ? ` Also accepted as ${aliases.map(tick).join(', ')}.` : ''
      }`,
    ]);
  }
  return rows;
}

function actionBlocks(
  def: ConnectorDefinition,
  entity: EntityDefinition,
  name: ActionName,
  level: number,
): ContentBlock[] {
  const action = entity.actions[name]!;
  const notes = [action.description];
  if (isPaginated(action)) notes.push('Paginated: pass connector_metadata.end_cursor back as params.cursor.');
  if (name === 'download')
    notes.push('Answers the file itself (Content-Type, Content-Disposition; Range honoured), not JSON.');
  if (action.uses_hooks?.includes('empty_answer'))
    notes.push('A query matching nothing answers an empty page, not a 404.');
  const rows = paramRows(def, action, name);
  return [
    heading(`${entity.name}.${name}`, level),
    paragraph(notes.join(' ')),
    rows.length === 0
      ? paragraph('No params.')
      : table(['Param', 'Type', 'Required', 'Default', 'Allowed', 'Description'], rows),
  ];
}

/** Everything about one entity: its actions with their params, and its searchable fields when indexed. */
export function entityBlocks(
  def: ConnectorDefinition,
  entity: EntityDefinition,
  level: number,
): ContentBlock[] {
  const layout = definitionLayouts(def).find((l) => l.entity === entity.name);
  const names = actionNames(entity);
  const out: ContentBlock[] = [
    heading(entity.name, level),
    paragraph(entity.description),
    list([
      `Actions: ${names.map(tick).join(', ')}${layout ? `, plus ${tick('search')} (Context Store)` : ''}.`,
      `Primary key: ${entity.primary_key.map(tick).join(', ')}.`,
      layout
        ? 'Indexed by the Context Store: search it without calling the provider.'
        : 'Not indexed by the Context Store: read it with the live actions.',
      ...(entity.permission_hint
        ? [`Refused (${entity.permission_hint.on.map(tick).join(', ')}): ${entity.permission_hint.text}`]
        : []),
    ]),
  ];
  for (const name of names) out.push(...actionBlocks(def, entity, name, level + 1));
  if (layout) out.push(...entitySearchBlocks(def, layout, level + 1));
  return out;
}

/**
 * All entities: an index table, then each entity's blocks. `blocks` are the per-entity sections' own (shared,
 * not copied: they are built once and never changed).
 */
export function entitiesSection(def: ConnectorDefinition, blocks: readonly ContentBlock[][]): SkillSection {
  const layouts = new Set(definitionLayouts(def).map((l) => l.entity));
  const content: ContentBlock[] = [
    table(
      ['Entity', 'Actions', 'Context Store', 'Description'],
      def.entities.map((e) => [
        e.name,
        actionNames(e).join(', '),
        layouts.has(e.name) ? 'search' : '',
        e.description,
      ]),
    ),
  ];
  for (const b of blocks) content.push(...b);
  return {
    id: 'entities',
    title: 'Entities and actions',
    summary: `All ${def.entities.length} entities, their actions and every param (type, required, default, allowed values).`,
    content,
  };
}

export const entitySectionId = (entity: string) => `entities.${entity}`;

export function entitySection(entity: EntityDefinition, blocks: ContentBlock[]): SkillSection {
  return {
    id: entitySectionId(entity.name),
    title: `Entity ${entity.name}`,
    summary: `${entity.description} Actions: ${actionNames(entity).join(', ')}.`,
    content: blocks,
  };
}

// ---- examples

function sampleValue(name: string, p: ParamDefinition): unknown {
  if (p.default !== undefined) return p.default;
  const values = p.enum ?? (p.type === 'array' ? undefined : p.items?.enum);
  if (values?.length) return values[0];
  switch (p.type) {
    case 'integer':
    case 'number':
      return Math.max(p.minimum ?? 1, 1);
    case 'boolean':
      return true;
    case 'object':
      return {};
    case 'array':
      return [p.items?.enum?.[0] ?? (p.items?.type === 'string' ? `<${name} item>` : 1)];
    default:
      if (p.format === 'date-time') return '2024-01-01T00:00:00Z';
      if (p.format === 'date') return '2024-01-01';
      return `<${name}>`;
  }
}

function requiredParams(action: ActionDefinition): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, p] of Object.entries(action.params ?? {}))
    if (p.required) out[name] = sampleValue(name, p);
  return out;
}

function selectFields(layout: EntityLayout | undefined): string[] | undefined {
  return layout ? [...layout.fields.keys()].slice(0, 3) : undefined;
}

/** Execute bodies for an entity's list, get and search (those it has). */
export function entityExamples(def: ConnectorDefinition, entity: EntityDefinition): ContentBlock[] {
  const layout = definitionLayouts(def).find((l) => l.entity === entity.name);
  const fields = selectFields(layout);
  const out: ContentBlock[] = [];
  const list = entity.actions.list;
  if (list) {
    const params = requiredParams(list);
    const size = pageSizeParam(list);
    if (size) params[size[0]] = Math.min(10, size[1].maximum ?? 10);
    out.push(
      json({ entity: entity.name, action: 'list', params, ...(fields ? { select_fields: fields } : {}) }),
    );
    if (isPaginated(list))
      out.push(
        json({
          entity: entity.name,
          action: 'list',
          params: { cursor: '<end_cursor of the previous page>' },
        }),
      );
  }
  const get = entity.actions.get;
  if (get) out.push(json({ entity: entity.name, action: 'get', params: requiredParams(get) }));
  if (layout) out.push(json({ entity: entity.name, action: 'search', params: exampleSearch(layout) }));
  return out.length ? [heading(entity.name, 3), ...out] : [];
}

export function examplesSection(def: ConnectorDefinition): SkillSection {
  const content: ContentBlock[] = [
    paragraph(
      `Bodies of POST /api/v1/integrations/connectors/{connector_id}/execute. Values in angle brackets are placeholders to replace; numbers and dates are examples.`,
    ),
  ];
  for (const entity of def.entities) content.push(...entityExamples(def, entity));
  return {
    id: 'examples',
    title: 'Examples',
    summary: 'Concrete execute request bodies for list, get and search of each entity.',
    content,
  };
}
