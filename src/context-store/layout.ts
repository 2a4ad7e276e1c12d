/**
 * How a connector type's Context Store entities are laid out in the database: one index table per
 * (definition, entity) with the record as JSON plus one typed column per declared searchable field, and a
 * full-text table over its `string`/`text` fields. Identifiers are derived here and nowhere else; they are
 * built only from names the definition schema restricts to `[A-Za-z0-9_]`, and are quoted wherever used.
 */
import { createHash } from 'node:crypto';
import type {
  ConnectorDefinition,
  ContextStoreDefinition,
  EntityDefinition,
  IndexedFieldDefinition,
} from '../connectors/schema.ts';

export type ScalarFieldType = 'string' | 'text' | 'integer' | 'number' | 'boolean' | 'timestamp';
export type FieldType = ScalarFieldType | 'array';

/** How a field's value is kept in its column. */
export type ColumnKind =
  /** TEXT */
  | 'text'
  /** REAL/INTEGER: numbers, booleans as 0/1, timestamps as epoch milliseconds */
  | 'number'
  /** TEXT holding a JSON array */
  | 'json';

export interface ElementField {
  /** dot path inside one array element */
  name: string;
  path: string[];
  type: ScalarFieldType;
}

export interface IndexedField {
  /** the client-facing name: the record's dot path */
  name: string;
  path: string[];
  type: FieldType;
  column: string;
  kind: ColumnKind;
  /** gets a B-tree index (filters and sort) */
  indexed: boolean;
  /** is a column of the full-text table (`fuzzy`, `keyword`) */
  fullText: boolean;
  /** `timestamp`: how records write it (default ISO 8601) */
  format?: 'iso8601' | 'unix_seconds' | 'unix_ms';
  /** `array` of scalars */
  items?: 'string' | 'integer' | 'number' | 'boolean';
  /** `array` of objects */
  properties?: Map<string, ElementField>;
}

export interface EntityLayout {
  definitionId: string;
  slug: string;
  entity: string;
  /** the index table */
  table: string;
  /** the full-text table, when some field is `string` or `text` */
  ftsTable?: string;
  primaryKey: string[][];
  fields: Map<string, IndexedField>;
  /** Changes whenever anything that shapes the tables changes; a changed layout rebuilds the index. */
  hash: string;
  spec: ContextStoreDefinition;
}

/** Columns every index table has besides the field columns. */
export const BASE_COLUMNS = {
  /** the connector's small integer key (`cs_connectors`), shorter in every index entry than its UUID */
  connectorKey: 'connector_key',
  key: 'record_key',
  data: 'data',
  /** the full pass that last saw the record; a finished full pass deletes the records it did not see */
  generation: 'sync_generation',
  syncedAt: 'synced_at',
} as const;

function ident(s: string): string {
  return s.replace(/[^A-Za-z0-9_]/g, '_').toLowerCase();
}

function kindOf(type: FieldType): ColumnKind {
  if (type === 'string' || type === 'text') return 'text';
  if (type === 'array') return 'json';
  return 'number';
}

function elementFields(def: IndexedFieldDefinition): Map<string, ElementField> | undefined {
  if (!def.properties) return undefined;
  return new Map(
    def.properties.map((p) => [p.name, { name: p.name, path: p.name.split('.'), type: p.type }]),
  );
}

export function entityLayout(def: ConnectorDefinition, entity: EntityDefinition): EntityLayout | undefined {
  const spec = entity.context_store;
  if (!spec) return undefined;
  const table = `cs_${ident(def.slug)}__${ident(entity.name)}`;
  const fields = new Map<string, IndexedField>();
  spec.fields.forEach((f, i) => {
    const field: IndexedField = {
      name: f.name,
      path: f.name.split('.'),
      type: f.type,
      // Numbered so two paths that differ only in punctuation (`a.b` vs `a_b`) never collide.
      column: `f${i}_${ident(f.name)}`.slice(0, 60),
      kind: kindOf(f.type),
      indexed: f.type !== 'text' && f.type !== 'array' && f.index !== false,
      fullText: f.type === 'string' || f.type === 'text',
    };
    if (f.items) field.items = f.items;
    if (f.format) field.format = f.format;
    const props = elementFields(f);
    if (props) field.properties = props;
    fields.set(f.name, field);
  });
  const hasFullText = [...fields.values()].some((f) => f.fullText);
  const shape = {
    v: 2,
    table,
    // A field without its index is marked; the others keep the shape (and so the tables) they had before.
    fields: [...fields.values()].map((f) => [
      f.name,
      f.type,
      f.column,
      f.items ?? null,
      ...(f.indexed || f.type === 'text' || f.type === 'array' ? [] : ['no index']),
    ]),
    pk: entity.primary_key,
  };
  return {
    definitionId: def.id,
    slug: def.slug,
    entity: entity.name,
    table,
    ...(hasFullText ? { ftsTable: `${table}__fts` } : {}),
    primaryKey: entity.primary_key.map((k) => k.split('.')),
    fields,
    hash: createHash('sha256').update(JSON.stringify(shape)).digest('hex').slice(0, 16),
    spec,
  };
}

const memo = new WeakMap<ConnectorDefinition, EntityLayout[]>();

/** Every Context Store entity of a definition, in declaration order (computed once per loaded definition). */
export function definitionLayouts(def: ConnectorDefinition): EntityLayout[] {
  let out = memo.get(def);
  if (!out) {
    out = [];
    for (const entity of def.entities) {
      const layout = entityLayout(def, entity);
      if (layout) out.push(layout);
    }
    memo.set(def, out);
  }
  return out;
}

/** The value at a dot path of a JSON value, or undefined. */
export function valueAt(record: unknown, path: readonly string[]): unknown {
  let cur: unknown = record;
  for (const key of path) {
    if (cur === null || typeof cur !== 'object' || Array.isArray(cur)) return undefined;
    cur = (cur as Record<string, unknown>)[key];
  }
  return cur;
}

/** An ISO 8601 timestamp as epoch milliseconds; undefined when it is not one. */
export function timestampMs(value: unknown): number | undefined {
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}/.test(value)) return undefined;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? undefined : ms;
}

/** A Unix time (seconds, possibly fractional and as a string like Slack's ts; or milliseconds) in epoch ms. */
function epochMs(value: unknown, format: 'unix_seconds' | 'unix_ms'): number | undefined {
  const n =
    typeof value === 'number'
      ? value
      : typeof value === 'string' && /^\d+(\.\d+)?$/.test(value)
        ? Number(value)
        : Number.NaN;
  if (!Number.isFinite(n)) return undefined;
  return format === 'unix_seconds' ? Math.round(n * 1000) : Math.round(n);
}

/** A record's value for a field's column (null when absent or of the wrong type). */
export function columnValue(field: IndexedField, record: unknown): string | number | null {
  const v = valueAt(record, field.path);
  if (v === undefined || v === null) return null;
  switch (field.type) {
    case 'string':
    case 'text':
      return typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : null;
    case 'integer':
    case 'number':
      return typeof v === 'number' && Number.isFinite(v) ? v : null;
    case 'boolean':
      return typeof v === 'boolean' ? (v ? 1 : 0) : null;
    case 'timestamp':
      return (
        (field.format === undefined || field.format === 'iso8601'
          ? timestampMs(v)
          : epochMs(v, field.format)) ?? null
      );
    case 'array':
      if (!Array.isArray(v)) return null;
      return JSON.stringify(field.properties ? v.map((e) => projectElement(e, field.properties!)) : v);
  }
}

/**
 * Of an array element, only the declared members (same nesting), which is all `any` can look at: whole
 * elements (GitHub labels and users carry a dozen URLs each) made up a tenth of an index's size.
 */
function projectElement(element: unknown, properties: Map<string, ElementField>): unknown {
  if (element === null || typeof element !== 'object' || Array.isArray(element)) return element;
  const out: Record<string, unknown> = {};
  for (const p of properties.values()) {
    const value = valueAt(element, p.path);
    if (value === undefined) continue;
    let node: Record<string, unknown> | undefined = out;
    for (const [i, key] of p.path.entries()) {
      if (!node) break;
      if (i === p.path.length - 1) {
        node[key] = value;
        break;
      }
      if (node[key] === undefined) node[key] = {};
      const child: unknown = node[key];
      // `a` and `a.b` both declared: the whole `a` is kept already.
      node = child !== null && typeof child === 'object' ? (child as Record<string, unknown>) : undefined;
    }
  }
  return out;
}

/** The record's primary key as one string (components joined by U+001F, which never appears in ids). */
export function recordKey(layout: EntityLayout, record: unknown): string | undefined {
  const parts: string[] = [];
  for (const path of layout.primaryKey) {
    const v = valueAt(record, path);
    if (typeof v === 'string' || typeof v === 'number') parts.push(String(v));
    else return undefined;
  }
  return parts.join('\u001f');
}

/**
 * `name` double-quoted as an SQL identifier. Layout identifiers are already restricted to `[A-Za-z0-9_]`; this
 * refuses anything else again so that no quote can ever reach SQL text through an identifier.
 */
export function quoteIdent(name: string): string {
  if (!/^[A-Za-z0-9_]+$/.test(name))
    throw new Error(`refusing unsafe SQL identifier ${JSON.stringify(name)}`);
  return `"${name}"`;
}
