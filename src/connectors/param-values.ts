/** Whether a value fits a declared param (used by the load-time checks). */
import { checkValue } from './runtime/params.ts';
import type { ParamDefinition } from './schema.ts';

/** A fixed sync param must pass the same checks a client's value would. */
export function valueFits(param: ParamDefinition, value: unknown): boolean {
  if (param.type === 'array' && Array.isArray(value)) {
    const items = param.items;
    return (
      items !== undefined &&
      items.type !== 'object' &&
      value.every(
        (v) => hasType(v, items.type) && (items.enum === undefined || items.enum.includes(v as never)),
      )
    );
  }
  if (param.type === 'array' || param.type === 'object' || !hasType(value, param.type)) return false;
  if (param.enum !== undefined && !param.enum.includes(value as never)) return false;
  if (typeof value === 'number') {
    if (param.minimum !== undefined && value < param.minimum) return false;
    if (param.maximum !== undefined && value > param.maximum) return false;
  }
  return true;
}

export function hasType(value: unknown, type: ParamDefinition['type']): boolean {
  switch (type) {
    case 'string':
      return typeof value === 'string';
    case 'integer':
      return Number.isInteger(value);
    case 'number':
      return typeof value === 'number';
    case 'boolean':
      return typeof value === 'boolean';
    case 'array':
      return Array.isArray(value);
    case 'object':
      return typeof value === 'object' && value !== null && !Array.isArray(value);
  }
}

/**
 * Why a value the definition itself gives (a fixed sync param, a default sent on every request) would be refused
 * as a client's would be (pattern, lengths, format, bounds), or undefined. Such a value would load and then fail
 * every call; a pattern that does not compile is reported by its own check.
 */
export function declaredValueProblem(
  name: string,
  value: unknown,
  param: ParamDefinition,
): string | undefined {
  try {
    return checkValue(name, value, param);
  } catch {
    return undefined;
  }
}
