/**
 * `record_fields`: members written on each record a provider answers, so ces's records type as the hosted
 * catalog types them (GitHub's `id` is its GraphQL node id there, and REST's number `database_id`). Every value
 * is read from the record as the provider sent it before any is written, so two members can swap.
 */
import type { ActionName, EntityDefinition, RecordFieldDefinition, RecordFields } from '../schema.ts';
import { atPath } from './dpath.ts';

/** The actions whose answers are records (a delete's answer or a download's bytes are not). */
const RECORD_ACTIONS: ReadonlySet<string> = new Set<ActionName>([
  'list',
  'get',
  'api_search',
  'create',
  'update',
]);

interface Writer {
  /** The key's segments. */
  path: string[];
  from: string[];
  type: RecordFieldDefinition['type'];
}

/** Compiled per record_fields object (definitions are frozen, so identity is stable). */
const compiled = new WeakMap<RecordFields, Writer[]>();

/**
 * The record_fields that apply to `action` of `entity`: the action's own (which may be `{}`, none), else the
 * entity's; undefined when none apply.
 */
export function recordFieldsFor(entity: EntityDefinition, actionName: string): RecordFields | undefined {
  if (!RECORD_ACTIONS.has(actionName)) return undefined;
  const fields = entity.actions[actionName as ActionName]?.record_fields ?? entity.record_fields;
  return fields === undefined || Object.keys(fields).length === 0 ? undefined : fields;
}

function writers(fields: RecordFields): Writer[] {
  let out = compiled.get(fields);
  if (!out) {
    out = Object.entries(fields).map(([key, spec]) => ({
      path: key.split('.'),
      from: spec.from,
      type: spec.type,
    }));
    compiled.set(fields, out);
  }
  return out;
}

/** `selected` (one record, or a collection's list of them) with `fields` written on each record. */
export function writeRecordFields(selected: unknown, fields: RecordFields): unknown {
  const list = writers(fields);
  return Array.isArray(selected) ? selected.map((r) => writeRecord(r, list)) : writeRecord(selected, list);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function writeRecord(record: unknown, list: Writer[]): unknown {
  // Something that is not an object (a provider's null for "no record") has no members to write.
  if (!isRecord(record)) return record;
  const values = list.map((w) => convert(atPath(record, w.from), w.type));
  // Objects along a written path are copied, not changed: the provider's record stays as it came (the paging
  // style read it; a keyset's record_key is the provider's).
  const out: Record<string, unknown> = { ...record };
  const copied = new Set<object>([out]);
  list.forEach((w, i) => {
    let at = out;
    for (const segment of w.path.slice(0, -1)) {
      const next = at[segment];
      if (next === undefined || next === null) {
        const made: Record<string, unknown> = {};
        copied.add(made);
        at[segment] = made;
        at = made;
      } else if (isRecord(next)) {
        const own = copied.has(next) ? next : { ...next };
        copied.add(own);
        at[segment] = own;
        at = own;
      } else return; // a scalar or a list in the way is the provider's data: it is not replaced
    }
    at[w.path[w.path.length - 1] as string] = values[i];
  });
  return out;
}

const INTEGER = /^-?(0|[1-9]\d*)$/;
const DECIMAL = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/;

/** `value` as `type`; null when absent, null, or not convertible. */
export function convert(value: unknown, type: RecordFieldDefinition['type']): unknown {
  if (value === undefined || value === null) return null;
  switch (type) {
    case undefined:
      return value;
    case 'string':
      if (typeof value === 'string') return value;
      if (typeof value === 'number') return Number.isFinite(value) ? String(value) : null;
      return typeof value === 'boolean' ? String(value) : null;
    case 'integer': {
      if (typeof value === 'number') return Number.isInteger(value) ? value : null;
      // A string whose number a double cannot hold exactly would come out as another number.
      const n = typeof value === 'string' && INTEGER.test(value) ? Number(value) : Number.NaN;
      return Number.isSafeInteger(n) ? n : null;
    }
    case 'number': {
      const n = typeof value === 'string' && DECIMAL.test(value) ? Number(value) : value;
      return typeof n === 'number' && Number.isFinite(n) ? n : null;
    }
    case 'boolean':
      if (typeof value === 'boolean') return value;
      return value === 'true' ? true : value === 'false' ? false : null;
  }
}
