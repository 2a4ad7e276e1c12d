// Reading Stripe's parameters the way Stripe validates them: every parameter an operation doesn't declare is refused
// (`parameter_unknown`), required ones are checked (`parameter_missing`), and values arrive as strings that must
// parse as the declared type (`parameter_invalid_integer`, `Invalid boolean`, …). An empty string unsets a value.
import { fail, invalid, missingParam, type Param, type Params, unknownParam } from './wire.ts';

/** Refuses the first parameter not in `allowed` (`expand` is allowed everywhere). */
export function checkKnown(params: Params, allowed: readonly string[]): void {
  for (const key of Object.keys(params))
    if (key !== 'expand' && !allowed.includes(key)) fail(unknownParam(key));
}

export function required(params: Params, ...names: string[]): void {
  for (const name of names) {
    const v = params[name];
    if (v === undefined || v === '') fail(missingParam(name));
  }
}

export function str(params: Params, name: string): string | undefined {
  const v = params[name];
  if (v === undefined) return undefined;
  if (typeof v !== 'string') fail(invalid(`Invalid string: ${JSON.stringify(v)}`, name));
  return v;
}

/** A string that may be unset with an empty value: undefined = not given, null = unset. */
export function nullableStr(params: Params, name: string): string | null | undefined {
  const v = str(params, name);
  return v === '' ? null : v;
}

export function int(params: Params, name: string, label = name): number | undefined {
  const v = params[name];
  if (v === undefined) return undefined;
  return parseInteger(v, label);
}

export function parseInteger(v: Param, label: string): number {
  if (typeof v !== 'string' || !/^-?\d+$/.test(v))
    fail(
      invalid(
        `Invalid integer: ${typeof v === 'string' ? v : JSON.stringify(v)}`,
        label,
        'parameter_invalid_integer',
      ),
    );
  return Number(v);
}

export function bool(params: Params, name: string): boolean | undefined {
  const v = params[name];
  if (v === undefined) return undefined;
  if (v === 'true') return true;
  if (v === 'false') return false;
  fail(invalid(`Invalid boolean: ${typeof v === 'string' ? v : JSON.stringify(v)}`, name));
}

export function oneOf<T extends string>(params: Params, name: string, values: readonly T[]): T | undefined {
  const v = str(params, name);
  if (v === undefined) return undefined;
  if (!(values as readonly string[]).includes(v))
    fail(invalid(`Invalid ${name}: must be one of ${values.join(', ')}`, name));
  return v as T;
}

export function hash(params: Params, name: string): Record<string, Param> | undefined {
  const v = params[name];
  if (v === undefined) return undefined;
  if (v === '') return {};
  if (typeof v !== 'object' || Array.isArray(v)) fail(invalid('Invalid hash', name));
  return v;
}

export function array(params: Params, name: string): Param[] | undefined {
  const v = params[name];
  if (v === undefined) return undefined;
  if (v === '') return [];
  if (!Array.isArray(v)) fail(invalid('Invalid array', name));
  return v;
}

/**
 * Stripe's metadata update: keys are merged in, a key set to '' is removed, and `metadata=''` clears all.
 * At most 50 keys, keys up to 40 characters and values up to 500.
 */
export function mergeMetadata(current: Record<string, string>, params: Params): Record<string, string> {
  const given = params.metadata;
  if (given === undefined) return current;
  if (given === '') return {};
  if (typeof given !== 'object' || Array.isArray(given)) fail(invalid('Invalid hash', 'metadata'));
  const next = { ...current };
  for (const [k, v] of Object.entries(given)) {
    if (typeof v !== 'string') fail(invalid('Invalid metadata: values must be strings', `metadata[${k}]`));
    if (k.length > 40) fail(invalid('Metadata keys can have up to 40 characters.', `metadata[${k}]`));
    if (v.length > 500) fail(invalid('Metadata values can have up to 500 characters.', `metadata[${k}]`));
    if (v === '') delete next[k];
    else next[k] = v;
  }
  if (Object.keys(next).length > 50) fail(invalid('Metadata can have up to 50 keys.', 'metadata'));
  return next;
}

/** A timestamp filter: an integer for equality, or a hash of gt/gte/lt/lte. */
export type Range = { gt?: number; gte?: number; lt?: number; lte?: number; eq?: number };

export function range(params: Params, name: string): Range | undefined {
  const v = params[name];
  if (v === undefined) return undefined;
  if (typeof v === 'string') return { eq: parseInteger(v, name) };
  if (Array.isArray(v)) fail(invalid('Invalid hash', name));
  const out: Range = {};
  for (const [k, raw] of Object.entries(v)) {
    if (k !== 'gt' && k !== 'gte' && k !== 'lt' && k !== 'lte') fail(unknownParam(`${name}[${k}]`));
    out[k] = parseInteger(raw, `${name}[${k}]`);
  }
  return out;
}

export function inRange(value: number | null | undefined, r: Range | undefined): boolean {
  if (r === undefined) return true;
  if (value === null || value === undefined) return false;
  if (r.eq !== undefined && value !== r.eq) return false;
  if (r.gt !== undefined && !(value > r.gt)) return false;
  if (r.gte !== undefined && !(value >= r.gte)) return false;
  if (r.lt !== undefined && !(value < r.lt)) return false;
  if (r.lte !== undefined && !(value <= r.lte)) return false;
  return true;
}

/** Copies simple fields given in `params` onto `target`: strings ('' → null), integers or booleans. */
export function assign(
  target: Record<string, unknown>,
  params: Params,
  fields: Record<string, 'string' | 'integer' | 'boolean' | 'hash' | 'array'>,
): void {
  for (const [name, type] of Object.entries(fields)) {
    if (params[name] === undefined) continue;
    if (type === 'string') target[name] = nullableStr(params, name);
    else if (type === 'integer') target[name] = params[name] === '' ? null : int(params, name);
    else if (type === 'boolean') target[name] = bool(params, name);
    else if (type === 'hash') target[name] = params[name] === '' ? null : hash(params, name);
    else target[name] = array(params, name);
  }
}
