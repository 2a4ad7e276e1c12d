/**
 * Load-time checks of `context_store` declarations (see load.ts and docs/connector-definitions.md).
 */
import { declaredValueProblem, valueFits } from './param-values.ts';
import type { ConnectorDefinition, ContextStoreDefinition, EntityDefinition } from './schema.ts';
import { placeholders } from './template.ts';

/**
 * The Context Store worker builds every sync request from these declarations alone, so each name must
 * resolve (a list param, a replication_config key, an entity, a timestamp field) and every required list
 * param must get a value on every request, the first backfill included.
 */
export function checkContextStore(
  def: ConnectorDefinition,
  entity: EntityDefinition,
  spec: ContextStoreDefinition,
  at: string,
  out: string[],
): void {
  checkIndexedFields(spec, at, out);
  if (spec.query_cap !== undefined && spec.incremental?.param === undefined)
    out.push(
      `${at}/query_cap: a new query starts from the incremental field, so it needs incremental with a param`,
    );
  const action = spec.action ?? 'list';
  const list = entity.actions[action];
  if (list === undefined) {
    out.push(`${at}: the Context Store replicates through the ${action} action, which this entity lacks`);
    return;
  }
  const params = list.params ?? {};
  const configProps = def.replication_config.properties;
  const isParam = (name: string) => Object.hasOwn(params, name);
  // Which part of the declaration sets each list param; a param set twice would be ambiguous.
  const setBy = new Map<string, string>();
  const claim = (name: string, pointer: string) => {
    const other = setBy.get(name);
    if (other !== undefined) out.push(`${pointer}: list param '${name}' is already set by ${other}`);
    else setBy.set(name, pointer);
  };

  for (const [name, value] of Object.entries(spec.params ?? {})) {
    const param = params[name];
    if (param === undefined) out.push(`${at}/params/${name}: '${name}' is not a param of the list action`);
    else if (!valueFits(param, value))
      out.push(`${at}/params/${name}: ${JSON.stringify(value)} does not fit the list param`);
    else {
      const why = declaredValueProblem(name, value, param);
      if (why !== undefined)
        out.push(`${at}/params/${name}: ${JSON.stringify(value)} would fail every sync request: ${why}`);
      claim(name, `${at}/params/${name}`);
    }
  }

  const partitions = spec.partitions;
  const pattern = partitions === undefined ? [] : placeholders(partitions.pattern);
  if (partitions !== undefined) {
    const pat = `${at}/partitions`;
    const prop = configProps[partitions.config] as { type?: unknown } | undefined;
    if (prop === undefined)
      out.push(`${pat}/config: '${partitions.config}' is not a replication_config property`);
    else if (prop.type !== undefined && prop.type !== 'array')
      out.push(`${pat}/config: replication_config property '${partitions.config}' must be an array`);
    if (pattern.length === 0) out.push(`${pat}/pattern: has no {placeholder}`);
    for (const name of pattern) {
      if (!isParam(name)) out.push(`${pat}/pattern: placeholder {${name}} is not a param of the list action`);
      else claim(name, `${pat}/pattern`);
    }
    if (partitions.wildcard !== undefined)
      checkWildcard(def, partitions.wildcard, pattern, `${pat}/wildcard`, out);
  }

  const inc = spec.incremental;
  let firstBound = false;
  if (inc !== undefined) {
    const pat = `${at}/incremental`;
    // A bound (`param`, `until`) goes into a list param whose type fits the bound's format.
    const boundParam = (name: string, key: 'param' | 'until') => {
      const param = params[name];
      if (param === undefined) {
        out.push(`${pat}/${key}: '${name}' is not a param of the list action`);
        return;
      }
      claim(name, `${pat}/${key}`);
      // Unix bounds are numbers, written as text into a string param (Slack's `oldest`); the others are text.
      const numeric = inc.format === 'unix_seconds' || inc.format === 'unix_ms';
      const fits =
        param.type === 'string' || (numeric && (param.type === 'integer' || param.type === 'number'));
      if (!fits)
        out.push(
          `${pat}/${key}: list param '${name}' is ${param.type}, but ${inc.format ?? 'iso8601'} bounds are ${numeric ? 'numbers (or their text)' : 'strings'}`,
        );
    };
    // Either a filter param receives the bound, or the list is read newest first until a record is older.
    if (inc.param !== undefined && inc.order === undefined) boundParam(inc.param, 'param');
    else if ((inc.param === undefined) === (inc.order === undefined))
      out.push(
        `${pat}: needs exactly one of param (a filter) or order: descending (a sorted list read until the bound)`,
      );
    if (inc.order !== undefined && (inc.until !== undefined || inc.earliest !== undefined))
      out.push(`${pat}/order: a sorted read has no window (until, earliest)`);
    const field = spec.fields.find((f) => f.name === inc.field);
    if (field === undefined) out.push(`${pat}/field: '${inc.field}' is not a declared field`);
    else if (field.type !== 'timestamp')
      out.push(`${pat}/field: '${inc.field}' is a ${field.type} field, not a timestamp`);
    if (inc.start_from !== undefined) {
      if (!Object.hasOwn(configProps, inc.start_from))
        out.push(`${pat}/start_from: '${inc.start_from}' is not a replication_config property`);
      firstBound = (def.replication_config.required ?? []).includes(inc.start_from);
    }
    if (inc.earliest !== undefined) {
      if (Number.isNaN(Date.parse(inc.earliest)))
        out.push(`${pat}/earliest: '${inc.earliest}' is not a date`);
      firstBound = true;
    }
    if (inc.until !== undefined) {
      if (inc.until === inc.param) out.push(`${pat}/until: '${inc.until}' is already the incremental param`);
      else boundParam(inc.until, 'until');
    }
  }

  for (const [name, source] of setBy) {
    for (const other of params[name]?.conflicts_with ?? []) {
      if (setBy.has(other)) out.push(`${source}: list param '${name}' can't be combined with '${other}'`);
    }
  }
  for (const [name, param] of Object.entries(params)) {
    if (param.required !== true) continue;
    const source = setBy.get(name);
    if (source === undefined)
      out.push(`${at}: required list param '${name}' is set by neither params, partitions nor incremental`);
    // An incremental param has no value before the first sync unless a required config key bounds it.
    else if (source === `${at}/incremental/param` && !firstBound)
      out.push(
        `${at}/incremental/start_from: list param '${name}' is required, so the first sync needs a bound from a required replication_config key (or incremental/earliest)`,
      );
  }
}

function checkWildcard(
  def: ConnectorDefinition,
  wildcard: NonNullable<NonNullable<ContextStoreDefinition['partitions']>['wildcard']>,
  pattern: readonly string[],
  at: string,
  out: string[],
): void {
  if (!pattern.includes(wildcard.param))
    out.push(`${at}/param: '${wildcard.param}' is not a placeholder of the pattern`);
  const list = def.entities.find((e) => e.name === wildcard.entity)?.actions.list;
  if (list === undefined) {
    out.push(`${at}/entity: '${wildcard.entity}' is not an entity with a list action`);
    return;
  }
  const params = list.params ?? {};
  for (const [name, template] of Object.entries(wildcard.params)) {
    if (!Object.hasOwn(params, name))
      out.push(`${at}/params/${name}: '${name}' is not a param of ${wildcard.entity}'s list action`);
    for (const p of placeholders(template)) {
      if (p === wildcard.param || !pattern.includes(p))
        out.push(`${at}/params/${name}: placeholder {${p}} must be another placeholder of the pattern`);
    }
  }
  for (const [name, param] of Object.entries(params)) {
    if (param.required === true && !Object.hasOwn(wildcard.params, name))
      out.push(`${at}/params: required param '${name}' of ${wildcard.entity}'s list action is not given`);
  }
}

/** Field names are what clients filter on, so they must be unique; array fields say what their items are. */
function checkIndexedFields(spec: ContextStoreDefinition, at: string, out: string[]): void {
  const names = new Set<string>();
  spec.fields.forEach((field, j) => {
    const pat = `${at}/fields/${j}`;
    if (names.has(field.name)) out.push(`${pat}/name: duplicate field '${field.name}'`);
    names.add(field.name);
    if (field.index === true && (field.type === 'text' || field.type === 'array'))
      out.push(`${pat}/index: a ${field.type} field has no B-tree index`);
    if (field.type !== 'array') {
      if (field.items !== undefined) out.push(`${pat}/items: only for type array`);
      if (field.format !== undefined && field.type !== 'timestamp')
        out.push(`${pat}/format: only for type timestamp`);
      if (field.properties !== undefined) out.push(`${pat}/properties: only for type array`);
    } else if ((field.items === undefined) === (field.properties === undefined)) {
      out.push(`${pat}: an array field needs exactly one of items (scalars) or properties (objects)`);
    }
    const members = new Set<string>();
    field.properties?.forEach((prop, k) => {
      if (members.has(prop.name)) out.push(`${pat}/properties/${k}/name: duplicate member '${prop.name}'`);
      members.add(prop.name);
    });
  });
}
