/**
 * Checks an execute request's entity, action and params against the definition, before any upstream call.
 * Messages say what is wrong and what would be accepted, because the usual reader is an AI agent that will
 * fix the call and retry.
 */
import { DomainError, type ErrorDetail } from '../../errors.ts';
import { headerValueProblem } from '../header-value.ts';
import { LIMIT_PARAM, pageSizeParam } from '../page-size.ts';
import {
  type ActionDefinition,
  actionNames,
  actionOf,
  COLLECTION_ACTIONS,
  type ConnectorDefinition,
  type EntityDefinition,
  type ObjectPropertyDefinition,
  type ParamDefinition,
} from '../schema.ts';
import { placeholders } from '../template.ts';
import { placementOf, requestFor } from './request.ts';
import { type Scope, type ScopeSource, scopeOf } from './scoping.ts';

export interface ResolvedAction {
  entity: EntityDefinition;
  action: ActionDefinition;
  actionName: string;
  paged: boolean;
}

export function resolveAction(def: ConnectorDefinition, entity: string, action: string): ResolvedAction {
  const ent = def.entities.find((e) => e.name === entity);
  if (!ent) {
    const names = def.entities.map((e) => e.name);
    const hint = suggest(entity, names);
    throw new DomainError(
      'UNKNOWN_ENTITY',
      `Unknown entity '${clip(entity)}' for ${def.name}.${hint} Available entities: ${names.join(', ')}.`,
      {
        errors: [
          {
            field: 'entity',
            message: 'unknown entity',
            error_code: 'unknown_entity',
            details: { available: names },
          },
        ],
      },
    );
  }
  const act = actionOf(ent, action);
  if (!act) {
    const names = actionNames(ent);
    throw new DomainError(
      'UNKNOWN_ACTION',
      `Entity '${ent.name}' of ${def.name} has no action '${clip(action)}'. Available actions: ${names.join(', ')}.`,
      {
        errors: [
          {
            field: 'action',
            message: 'unknown action',
            error_code: 'unknown_action',
            details: { available: names },
          },
        ],
      },
    );
  }
  const paged = act.pagination !== undefined && act.pagination.type !== 'none';
  return { entity: ent, action: act, actionName: action, paged };
}

/**
 * Throws INVALID_PARAMS listing every problem and the accepted params. With a cursor, required params may be
 * absent. Returns the params to send: the same, except that `integer` values given as decimal strings are
 * numbers (see `asInteger`), and required params left out that `scope` answers are added.
 */
export function validateParams(
  resolved: ResolvedAction,
  params: Record<string, unknown>,
  scope?: ScopeSource,
): Record<string, unknown> {
  const declared = resolved.action.params ?? {};
  const problems: ErrorDetail[] = [];
  const accepted: Array<[string, unknown]> = [];
  params = canonicalNames(declared, params, problems);
  const hasCursor = resolved.paged && params.cursor !== undefined && params.cursor !== null;
  const unscoped = new Map<string, Extract<Scope, { kind: 'unscoped' }>>();
  if (scope && !hasCursor) params = withScope(declared, params, scope, unscoped);
  const request = requestFor(resolved.action, params);
  const inPath = placeholders(request.path);
  for (const [name, value] of Object.entries(params)) {
    if (name === 'cursor' && resolved.paged) {
      // `cursor: null` is how many clients ask for the first page.
      if (value !== null && typeof value !== 'string') {
        problems.push(problem(name, `'cursor' must be a string (an end_cursor)`, 'type'));
      }
      accepted.push([name, value]);
      continue;
    }
    // hasOwn: a client-chosen key like `toString` or `__proto__` must not find an inherited member.
    const param = Object.hasOwn(declared, name) ? declared[name] : undefined;
    if (!param) {
      problems.push(problem(clip(name), `unknown param '${clip(name)}'`, 'unknown_param'));
      continue;
    }
    if (value === undefined || value === null) {
      if (param.required && !hasCursor)
        problems.push(problem(name, `'${name}' must not be null`, 'required'));
      accepted.push([name, value]);
      continue;
    }
    const placement = placementOf(name, param, request);
    const raw = param.value_map && param.type === 'array' && !Array.isArray(value) ? [value] : value;
    let sent = withIntegers(raw, param);
    const mapped = param.value_map ? mapValue(name, sent, param.value_map) : { value: sent };
    const why =
      checkValue(name, sent, param) ??
      mapped.problem ??
      checkPathSegment(name, sent, inPath) ??
      checkSentLength(name, sent, placement) ??
      checkHeaderValue(name, sent, placement);
    if (why) problems.push(problem(name, why, 'invalid_value'));
    sent = mapped.value;
    accepted.push([name, sent]);
    // The provider would answer an error or silently ignore one of the two; say so before calling it.
    const clash = hasCursor ? undefined : param.conflicts_with?.find((other) => given(params, other));
    if (clash) problems.push(problem(name, `'${name}' can't be combined with '${clash}'`, 'conflict'));
  }
  if (!hasCursor) {
    for (const [name, param] of Object.entries(declared)) {
      if (param.required && !Object.hasOwn(params, name)) {
        const why = unscoped.get(name);
        const missing = problem(
          name,
          `missing required param '${name}'${why ? ` (${why.reason})` : ''}`,
          'required',
        );
        if (why) missing.details = { config: why.config, configured: why.configured.slice(0, 100) };
        problems.push(missing);
      }
    }
    // With variants a path param may be optional in the declaration, but the chosen endpoint needs it.
    const variants = resolved.action.variants ?? [];
    for (const name of variants.length === 0 ? [] : inPath) {
      if (given(params, name) || declared[name]?.required) continue;
      const others = variants.map((v) => v.when.map((w) => `'${w}'`).join(' and '));
      problems.push(problem(name, `give '${name}', or ${others.join(', or ')}`, 'required'));
    }
  }
  // fromEntries defines own members, so no key can reach a prototype (unknown keys were refused above anyway).
  if (problems.length === 0) return Object.fromEntries(accepted);
  const op = `${resolved.entity.name}.${resolved.actionName}`;
  throw new DomainError(
    'INVALID_PARAMS',
    `Invalid params for ${op}: ${problems.map((p) => p.message).join('; ')}. Accepted params: ${describeParams(resolved)}.`,
    { errors: problems },
  );
}

/**
 * The params with each required one the client left out filled from the connector's replication_config, where
 * the definition scopes it and the config names one value; `unscoped` gets why the others were not.
 */
function withScope(
  declared: Record<string, ParamDefinition>,
  params: Record<string, unknown>,
  source: ScopeSource,
  unscoped: Map<string, Extract<Scope, { kind: 'unscoped' }>>,
): Record<string, unknown> {
  let out = params;
  for (const [name, param] of Object.entries(declared)) {
    if (param.required !== true || given(params, name)) continue;
    const scope = scopeOf(source, name);
    if (scope?.kind === 'one') out = { ...out, [name]: scope.value };
    else if (scope) unscoped.set(name, scope);
  }
  return out;
}

/** The provider's value for a client's value through `value_map` (see the schema), or why there is none. */
function mapValue(
  name: string,
  value: unknown,
  map: Record<string, string | number | boolean>,
): { value: unknown; problem?: string } {
  const key = Array.isArray(value) ? [...new Set(value.map(String))].sort().join(',') : String(value);
  if (Object.hasOwn(map, key)) return { value: map[key] };
  const accepted = Object.keys(map).map((k) => (k.includes(',') ? `[${k}]` : k));
  return { value, problem: `'${name}' takes one of ${accepted.join(', ')}` };
}

/** Each declared param's other names, by alias; worked out once per (frozen) declaration. */
const aliasMaps = new WeakMap<Record<string, ParamDefinition>, ReadonlyMap<string, string>>();

function aliasesOf(declared: Record<string, ParamDefinition>): ReadonlyMap<string, string> {
  let byAlias = aliasMaps.get(declared);
  if (!byAlias) {
    const map = new Map<string, string>();
    for (const [name, p] of Object.entries(declared))
      for (const alias of p.aliases ?? []) map.set(alias, name);
    byAlias = map;
    aliasMaps.set(declared, byAlias);
  }
  return byAlias;
}

/**
 * The params under their declared names: a key that is another name of a declared param (its `aliases`) is
 * renamed; one param given under two of its names is a problem. Unknown keys stay as they are (refused later).
 */
function canonicalNames(
  declared: Record<string, ParamDefinition>,
  params: Record<string, unknown>,
  problems: ErrorDetail[],
): Record<string, unknown> {
  const byAlias = aliasesOf(declared);
  if (byAlias.size === 0) return params;
  const out: Array<[string, unknown]> = [];
  const seen = new Map<string, string>();
  for (const [key, value] of Object.entries(params)) {
    const name = Object.hasOwn(declared, key) ? key : (byAlias.get(key) ?? key);
    const first = seen.get(name);
    if (first !== undefined) {
      problems.push(
        problem(name, `'${name}' is given twice (as '${first}' and '${clip(key)}')`, 'duplicate'),
      );
      continue;
    }
    seen.set(name, key);
    out.push([name, value]);
  }
  return Object.fromEntries(out);
}

/**
 * Takes a connector's other names for ces's own execute params (`execute_param_aliases`) out of `params`: a
 * cursor alias becomes `cursor`, a select_fields alias the field selection. Either given under two names is a 422.
 */
export function liftExecuteAliases(
  def: ConnectorDefinition,
  params: Record<string, unknown>,
  selectFields: string[] | null | undefined,
): { params: Record<string, unknown>; selectFields: string[] | null | undefined } {
  const aliases = def.execute_param_aliases;
  if (!aliases) return { params, selectFields };
  const out = { ...params };
  const problems: ErrorDetail[] = [];
  for (const alias of aliases.cursor ?? []) {
    if (!Object.hasOwn(out, alias)) continue;
    if (given(out, 'cursor'))
      problems.push(problem(alias, `'${alias}' and 'cursor' both give the page cursor`, 'duplicate'));
    else out.cursor = out[alias];
    delete out[alias];
  }
  let fields = selectFields;
  for (const alias of aliases.select_fields ?? []) {
    if (!Object.hasOwn(out, alias)) continue;
    const value = out[alias];
    delete out[alias];
    if (value === null || value === undefined) continue;
    const ok =
      Array.isArray(value) &&
      value.length <= 200 &&
      value.every((f) => typeof f === 'string' && f.length > 0 && f.length <= 300);
    if (!ok) problems.push(problem(alias, `'${alias}' must be an array of up to 200 field names`, 'type'));
    else if (fields?.length)
      problems.push(problem(alias, `'${alias}' and select_fields both choose fields`, 'duplicate'));
    else fields = value as string[];
  }
  if (problems.length > 0) {
    throw new DomainError('INVALID_PARAMS', `Invalid params: ${problems.map((p) => p.message).join('; ')}.`, {
      errors: problems,
    });
  }
  return { params: out, selectFields: fields };
}

function given(params: Record<string, unknown>, name: string): boolean {
  return Object.hasOwn(params, name) && params[name] !== undefined && params[name] !== null;
}

export function describeParams(resolved: ResolvedAction): string {
  const parts = Object.entries(resolved.action.params ?? {}).map(([name, p]) => {
    const type = p.enum ? p.enum.map((v) => JSON.stringify(v)).join('|') : p.type;
    return `${name} (${type}${p.required ? ', required' : ''})`;
  });
  if (
    COLLECTION_ACTIONS.includes(resolved.actionName as never) &&
    pageSizeParam(resolved.action) !== LIMIT_PARAM
  )
    parts.push('limit (integer)');
  if (resolved.paged) parts.push('cursor (string)');
  return parts.length > 0 ? parts.join(', ') : 'none';
}

/**
 * Agents send ids as strings (the hosted service's SDK declares `ticket_id` and `attachment_id` so), so an
 * `integer` param also takes the canonical decimal form of a safe integer: digits only, no sign, blanks,
 * exponent or leading zero. Anything else stays a string and fails the type check; a looser reading would
 * send a different id than the one the client wrote ("01", "1e3") or one that doesn't survive as a number.
 */
const DECIMAL = /^(0|[1-9][0-9]*)$/;

function asInteger(value: unknown): unknown {
  if (typeof value !== 'string' || !DECIMAL.test(value)) return value;
  const n = Number(value);
  return Number.isSafeInteger(n) ? n : value;
}

/** The value with every place the param declares `integer` (itself, array items, object members) converted. */
function withIntegers(value: unknown, p: ParamDefinition): unknown {
  if (p.type === 'integer') return asInteger(value);
  if (p.type === 'array' && p.items?.type === 'integer' && Array.isArray(value)) return value.map(asInteger);
  if (p.type === 'object' && p.properties && isType(value, 'object')) {
    const props = p.properties;
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>).map(([key, member]) => [
        key,
        Object.hasOwn(props, key) && member !== null && member !== undefined
          ? withIntegers(member, props[key] as ObjectPropertyDefinition)
          : member,
      ]),
    );
  }
  return value;
}

// An ObjectPropertyDefinition is a ParamDefinition without the placement keys, so members reuse this check.
export function checkValue(name: string, value: unknown, p: ParamDefinition): string | undefined {
  if (p.type === 'object') {
    if (!isType(value, 'object')) return `'${name}' must be an object`;
    return p.properties ? checkMembers(name, value as object, p.properties) : undefined;
  }
  if (p.type === 'array') {
    if (!Array.isArray(value)) return `'${name}' must be an array`;
    const itemType = p.items?.type ?? 'string';
    for (const [i, item] of value.entries()) {
      if (!isType(item, itemType))
        return `'${name}[${i}]' must be ${article(itemType)}${integerHint(item, itemType)}`;
      if (p.items?.enum && !p.items.enum.includes(item as never))
        return `'${name}[${i}]' must be one of ${list(p.items.enum)}`;
    }
    return undefined;
  }
  if (!isType(value, p.type)) return `'${name}' must be ${article(p.type)}${integerHint(value, p.type)}`;
  if (p.enum && !p.enum.includes(value as never)) return `'${name}' must be one of ${list(p.enum)}`;
  if (typeof value === 'number') {
    if (p.minimum !== undefined && value < p.minimum) return `'${name}' must be >= ${p.minimum}`;
    if (p.maximum !== undefined && value > p.maximum) return `'${name}' must be <= ${p.maximum}`;
  }
  if (typeof value === 'string') {
    if (p.min_length !== undefined && value.length < p.min_length)
      return `'${name}' must have at least ${p.min_length} characters`;
    if (p.max_length !== undefined && value.length > p.max_length)
      return `'${name}' must have at most ${p.max_length} characters`;
    if (p.pattern !== undefined && !new RegExp(p.pattern, 'u').test(value))
      return `'${name}' must match ${p.pattern}`;
    if (p.format === 'date-time' && !DATE_TIME.test(value))
      return `'${name}' must be an ISO 8601 date-time (2024-01-31T12:00:00Z)`;
    if (p.format === 'date' && !DATE.test(value)) return `'${name}' must be a date (2024-01-31)`;
  }
  return undefined;
}

/** The members of an `object` param: unknown ones are refused (a typo would otherwise be silently ignored upstream). */
function checkMembers(
  name: string,
  value: object,
  props: Record<string, ObjectPropertyDefinition>,
): string | undefined {
  for (const key of Object.keys(value)) {
    if (!Object.hasOwn(props, key))
      return `'${name}' has an unknown member '${clip(key)}' (accepted: ${Object.keys(props).join(', ')})`;
  }
  for (const [key, prop] of Object.entries(props)) {
    const member = (value as Record<string, unknown>)[key];
    if (member === undefined || member === null) {
      if (prop.required) return `'${name}.${key}' is required`;
      continue;
    }
    const why = checkValue(`${name}.${key}`, member, prop);
    if (why) return why;
  }
  return undefined;
}

/**
 * Path params are encoded as one segment each, but `.` and `..` survive encoding and URL parsers resolve them,
 * so `repo: '..'` could walk out of the declared path.
 */
function checkPathSegment(name: string, value: unknown, inPath: readonly string[]): string | undefined {
  if (!inPath.includes(name)) return undefined;
  const s = String(value);
  if (s === '' || s === '.' || s === '..')
    return `'${name}' must not be empty, '.' or '..' (it is a URL path segment)`;
  return undefined;
}

/**
 * Longest value ces puts into a URL or a header. Providers refuse longer request lines and headers (414, 431),
 * which would reach the client as a 502 for what is the client's mistake.
 */
const MAX_SENT_LENGTH = 4096;

function checkSentLength(name: string, value: unknown, placement: string): string | undefined {
  if (placement === 'body') return undefined;
  const text = Array.isArray(value) ? value.map(String).join(',') : String(value);
  if (text.length <= MAX_SENT_LENGTH) return undefined;
  const where = placement === 'header' ? 'an HTTP header' : 'a URL';
  return `'${name}' is longer than ${MAX_SENT_LENGTH} characters, more than ${where} can carry`;
}

/** A param sent as a header must be sendable as one; undici would otherwise fail the call after it started. */
function checkHeaderValue(name: string, value: unknown, placement: string): string | undefined {
  if (placement !== 'header') return undefined;
  const text = Array.isArray(value) ? value.map(String).join(',') : String(value);
  const why = headerValueProblem(text);
  return why === undefined ? undefined : `'${name}' ${why}, which an HTTP header can't carry`;
}

/**
 * The same check for a value the caller passes outside the declared params but that ces sends as a header
 * (the reference SDK's `range_header` of a download): INVALID_PARAMS naming it.
 */
export function assertHeaderParam(name: string, value: string): void {
  const why = checkSentLength(name, value, 'header') ?? checkHeaderValue(name, value, 'header');
  if (why === undefined) return;
  throw new DomainError('INVALID_PARAMS', `Invalid params: ${why}.`, {
    errors: [problem(name, why, 'invalid_value')],
  });
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;

function isType(value: unknown, type: string): boolean {
  if (type === 'object') return typeof value === 'object' && value !== null && !Array.isArray(value);
  if (type === 'integer') return Number.isInteger(value);
  if (type === 'number') return typeof value === 'number' && Number.isFinite(value);
  return typeof value === type;
}

function article(type: string): string {
  return type === 'integer' ? 'an integer' : `a ${type}`;
}

/** A string refused as an integer: say which strings are taken, so the caller can fix the value. */
function integerHint(value: unknown, type: string): string {
  return type === 'integer' && typeof value === 'string'
    ? ' (a number, or a string of its decimal digits such as "42")'
    : '';
}

function list(values: readonly unknown[]): string {
  return values.map((v) => JSON.stringify(v)).join(', ');
}

function problem(name: string, message: string, code: string): ErrorDetail {
  return { field: `params.${name}`, message, error_code: code, details: null };
}

function clip(s: string): string {
  return s.length > 64 ? `${s.slice(0, 61)}...` : s;
}

/** "Did you mean 'issues'?" for near misses (edit distance <= 2). */
function suggest(input: string, names: string[]): string {
  const best = names
    .map((n) => ({ n, d: distance(input.toLowerCase(), n.toLowerCase()) }))
    .sort((a, b) => a.d - b.d)[0];
  return best && best.d <= 2 ? ` Did you mean '${best.n}'?` : '';
}

function distance(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > 2 || a.length > 64) return 99;
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(
        (prev[j] ?? 0) + 1,
        (cur[j - 1] ?? 0) + 1,
        (prev[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    }
    prev = cur;
  }
  return prev[b.length] ?? 99;
}
