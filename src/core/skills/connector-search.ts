/**
 * The `search` section of a connector skill: which entities the Context Store indexes, their searchable
 * fields, and which operators and sorts each field takes. The operators are not restated here: each is tried
 * against the real query checker (`checkSearch`), so the docs say exactly what a search will accept.
 */
import type { ConnectorDefinition, EntityDefinition } from '../../connectors/schema.ts';
import {
  definitionLayouts,
  type ElementField,
  type EntityLayout,
  type IndexedField,
  type ScalarFieldType,
} from '../../context-store/layout.ts';
import { checkSearch, SEARCH_LIMITS } from '../../context-store/query.ts';
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

/** Every field operator of the search DSL, in the order the docs list them. */
export const FIELD_OPERATORS = [
  'eq',
  'neq',
  'gt',
  'gte',
  'lt',
  'lte',
  'in',
  'like',
  'fuzzy',
  'keyword',
  'contains',
  'any',
] as const;

const SAMPLE: Record<ScalarFieldType, unknown> = {
  string: 'x',
  text: 'x',
  integer: 1,
  number: 1,
  boolean: true,
  timestamp: '2024-01-01T00:00:00Z',
};

function probeArgument(op: string, type: ScalarFieldType, element?: ElementField): unknown {
  if (op === 'in') return [SAMPLE[type]];
  if (op === 'any') return element ? { eq: { [element.name]: SAMPLE[element.type] } } : { eq: {} };
  return SAMPLE[type];
}

function accepts(layout: EntityLayout, filter: unknown, sort?: unknown): boolean {
  try {
    checkSearch(layout, { filter, sort });
    return true;
  } catch {
    return false;
  }
}

/**
 * What the checker accepts depends on a field's type (and its array items or element members), not on its
 * name, so each kind of field is probed once per process: probing every field of every definition (892 of
 * them, 13 checks each) cost 240 ms of start-up, one probe per kind of field about 3 ms.
 */
const probed = new Map<string, { operators: string[]; sortable: boolean }>();

function kindOf(field: IndexedField): string {
  const members = [...(field.properties?.values() ?? [])].map((e) => e.type);
  return `${field.type}|${field.items ?? ''}|${members.join(',')}`;
}

function probe(layout: EntityLayout, field: IndexedField): { operators: string[]; sortable: boolean } {
  const key = kindOf(field);
  let found = probed.get(key);
  if (!found) {
    const scalar: ScalarFieldType =
      field.type === 'array' ? (field.items === undefined ? 'string' : field.items) : field.type;
    const element = field.properties ? [...field.properties.values()][0] : undefined;
    found = {
      operators: FIELD_OPERATORS.filter((op) =>
        accepts(layout, { [op]: { [field.name]: probeArgument(op, scalar, element) } }),
      ),
      sortable: accepts(layout, undefined, [{ [field.name]: 'desc' }]),
    };
    probed.set(key, found);
  }
  return found;
}

/** The operators the search checker accepts on `field`. */
export const fieldOperators = (layout: EntityLayout, field: IndexedField) => probe(layout, field).operators;

export const sortable = (layout: EntityLayout, field: IndexedField) => probe(layout, field).sortable;

const probedElements = new Map<ScalarFieldType, string[]>();

/** The operators `any` accepts on one member of an array field's objects. */
function elementOperators(layout: EntityLayout, field: IndexedField, element: ElementField): string[] {
  let found = probedElements.get(element.type);
  if (!found) {
    found = FIELD_OPERATORS.filter(
      (op) =>
        op !== 'any' &&
        accepts(layout, {
          any: { [field.name]: { [op]: { [element.name]: probeArgument(op, element.type) } } },
        }),
    );
    probedElements.set(element.type, found);
  }
  return found;
}

function typeLabel(field: IndexedField): string {
  if (field.type !== 'array') return field.type;
  if (field.items) return `array of ${field.items}`;
  return 'array of objects';
}

function fieldRows(layout: EntityLayout, entity: EntityDefinition): string[][] {
  const described = new Map((entity.context_store?.fields ?? []).map((f) => [f.name, f.description ?? '']));
  const rows: string[][] = [];
  for (const field of layout.fields.values()) {
    rows.push([
      field.name,
      typeLabel(field),
      fieldOperators(layout, field).join(', '),
      sortable(layout, field) ? 'yes' : 'no',
      described.get(field.name) ?? '',
    ]);
    for (const element of field.properties?.values() ?? []) {
      rows.push([
        `${field.name}[].${element.name}`,
        element.type,
        `inside any: ${elementOperators(layout, field, element).join(', ')}`,
        'no',
        `A member of each element of ${field.name}.`,
      ]);
    }
  }
  return rows;
}

/** A plausible first query on an entity: full text on a text field, newest first by a timestamp. */
export function exampleSearch(layout: EntityLayout): Record<string, unknown> {
  const fields = [...layout.fields.values()];
  const words = fields.find((f) => f.type === 'string' || f.type === 'text');
  const fresh = layout.spec.incremental?.field;
  const time =
    fields.find((f) => f.type === 'timestamp' && f.name === fresh) ??
    fields.find((f) => f.type === 'timestamp');
  const filter: Record<string, unknown>[] = [];
  if (words) filter.push({ fuzzy: { [words.name]: '<words to find>' } });
  if (time) filter.push({ gte: { [time.name]: '2024-01-01T00:00:00Z' } });
  const query: Record<string, unknown> = {};
  if (filter.length === 1) query.filter = filter[0];
  if (filter.length > 1) query.filter = { and: filter };
  const sortBy = time ?? fields.find((f) => sortable(layout, f));
  if (sortBy) query.sort = [{ [sortBy.name]: 'desc' }];
  return { query, limit: 10, fields: fields.slice(0, 4).map((f) => f.name) };
}

function partitionNote(entity: EntityDefinition): string | undefined {
  const p = entity.context_store?.partitions;
  if (!p) return undefined;
  return `Scoped by ${tick(`replication_config.${p.config}`)} (items like ${tick(p.pattern)}${
    p.wildcard ? `; ${tick('*')} for every ${p.wildcard.param}` : ''
  }): with that key absent or empty, nothing of ${tick(entity.name)} is indexed.`;
}

/** The blocks about one indexed entity, for the `search` section and the entity's own section. */
export function entitySearchBlocks(
  def: ConnectorDefinition,
  layout: EntityLayout,
  level: number,
): ContentBlock[] {
  const entity = def.entities.find((e) => e.name === layout.entity)!;
  const spec = layout.spec;
  const notes = [
    `Actions ${tick('search')} (result: the records, an array) and ${tick('context_store_search')} (result: ${tick('{data, meta: {has_more, cursor, took_ms}}')}) read the index, never the live API.`,
    spec.suggested ? 'Suggested: indexed by default in entity pickers.' : undefined,
    spec.incremental
      ? `Kept fresh incrementally by ${tick(spec.incremental.field)}.`
      : 'Refreshed by full passes.',
    partitionNote(entity),
  ].filter((s): s is string => s !== undefined);
  return [
    heading(`Searching ${layout.entity}`, level),
    list(notes),
    table(['Field', 'Type', 'Operators', 'Sortable', 'Description'], fieldRows(layout, entity)),
    paragraph('Example params:'),
    json(exampleSearch(layout)),
  ];
}

export function searchSection(def: ConnectorDefinition): SkillSection {
  const layouts = definitionLayouts(def);
  const content: ContentBlock[] = [];
  if (layouts.length === 0) {
    content.push(
      paragraph(
        `No entity of ${def.name} is indexed by the Context Store: ${tick('search')} is not available; use ${tick('list')}, ${tick('get')} and ${tick('api_search')} (the live API).`,
      ),
    );
  } else {
    content.push(
      paragraph(
        `The Context Store indexes these ${def.name} entities in the background after a connector is created; search them with action ${tick('search')} or ${tick('context_store_search')}: params ${tick('{query: {filter, sort}, limit, cursor, fields}')}, limit 1–1000 (default 100). ${tick('search')} answers the records as an array: page on with params.cursor = connector_metadata.end_cursor while has_next_page. ${tick('context_store_search')} answers ${tick('{data: [records], meta: {has_more, cursor, took_ms}}')}: page on with params.cursor = meta.cursor while meta.has_more (the same cursor as end_cursor, which it also carries). Readiness is per entity: check it with GET /api/v1/integrations/connectors/{id}/inspect (ready_for_search); until an entity's first page is stored a search of it answers 409 CONTEXT_STORE_NOT_READY: use list/get meanwhile.`,
      ),
      table(
        ['Entity', 'Suggested', 'Searchable fields'],
        layouts.map((l) => [l.entity, l.spec.suggested ? 'yes' : 'no', [...l.fields.keys()].join(', ')]),
      ),
      paragraph(
        `Operators by field type: string takes comparisons, in, like, fuzzy and keyword; text (long prose) only like, fuzzy and keyword, and is not sortable; numbers and timestamps take comparisons and in; arrays take contains (of scalars) or any (of objects). A query holds at most ${SEARCH_LIMITS.conditions} conditions, ${SEARCH_LIMITS.depth} levels of nesting and ${SEARCH_LIMITS.sortKeys} sort keys; see the static skill ces:search-dsl for the whole DSL.`,
      ),
    );
    for (const layout of layouts) content.push(...entitySearchBlocks(def, layout, 3));
  }
  return {
    id: 'search',
    title: 'Context Store search',
    summary: `Indexed entities (${layouts.length}), their searchable fields, operators and sorts.`,
    content,
  };
}
