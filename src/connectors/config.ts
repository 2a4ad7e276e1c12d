/** Validation of a connector's `replication_config` against its definition's JSON Schema. */
import { Compile } from 'typebox/compile';
import { DomainError, type ErrorDetail } from '../core/errors.ts';
import type { ConnectorDefinition } from './schema.ts';

type Validator = ReturnType<typeof Compile>;
const validators = new WeakMap<ConnectorDefinition, Validator>();

/**
 * Returns the config unchanged when it is valid; otherwise a VALIDATION_ERROR naming every bad member
 * (`replication_config.repositories: required property 'repositories' not found`).
 */
export function validateReplicationConfig(def: ConnectorDefinition, input: unknown): Record<string, unknown> {
  let validator = validators.get(def);
  if (!validator) {
    validator = Compile(def.replication_config as never);
    validators.set(def, validator);
  }
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw new DomainError('VALIDATION_ERROR', 'replication_config must be an object.', {
      errors: [{ field: 'replication_config', message: 'must be an object', error_code: 'type' }],
    });
  }
  if (validator.Check(input)) return input as Record<string, unknown>;
  const errors: ErrorDetail[] = [];
  for (const e of validator.Errors(input)) {
    if (e.keyword === 'anyOf' || e.keyword === 'boolean') continue;
    const base = `replication_config${e.instancePath.replaceAll('/', '.')}`;
    if (e.keyword === 'required') {
      for (const key of (e.params as { requiredProperties?: string[] }).requiredProperties ?? []) {
        errors.push({
          field: `${base}.${key}`,
          message: `required property '${key}' not found`,
          error_code: 'required',
        });
      }
    } else if (e.keyword === 'additionalProperties') {
      for (const key of (e.params as { additionalProperties?: string[] }).additionalProperties ?? []) {
        errors.push({ field: `${base}.${key}`, message: `unknown property '${key}'`, error_code: 'unknown' });
      }
    } else {
      errors.push({ field: base, message: e.message, error_code: e.keyword });
    }
  }
  const allowed = Object.keys(def.replication_config.properties).join(', ');
  const summary = errors.map((e) => `${e.field}: ${e.message}`).join('; ');
  return fail(`Invalid replication_config for ${def.name}: ${summary}. Accepted properties: ${allowed}.`, errors);
}

function fail(message: string, errors: ErrorDetail[]): never {
  throw new DomainError('VALIDATION_ERROR', message, { errors });
}
