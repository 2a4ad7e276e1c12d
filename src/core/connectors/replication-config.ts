import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { ConnectorDefinition } from '../../connectors/schema.ts';
import { DomainError } from '../../errors.ts';
import { jsonDepthExceeds, MAX_JSON_DEPTH } from '../json-depth.ts';

const ajv = new Ajv2020({ allErrors: true, strict: false, useDefaults: true });
addFormats.default(ajv);
const compiled = new WeakMap<ConnectorDefinition, ValidateFunction>();
const compiledPartial = new WeakMap<ConnectorDefinition, ValidateFunction>();

/**
 * Validates (and fills defaults into) a connector's replication_config against its definition's JSON Schema.
 * Returns a copy; the caller's object is never mutated.
 */
export function validateReplicationConfig(
  def: ConnectorDefinition,
  input: unknown,
  options: { partial?: boolean; field?: string } = {},
): Record<string, unknown> {
  const cache = options.partial ? compiledPartial : compiled;
  let validate = cache.get(def);
  if (!validate) {
    // A part of a config (a source template's fixed values): every value checked, none required.
    const schema = options.partial
      ? { ...(def.replication_config as object), required: [] }
      : (def.replication_config as object);
    validate = ajv.compile(schema);
    cache.set(def, validate);
  }
  const name = options.field ?? 'replication_config';
  // Before anything recursive (structuredClone, Ajv) sees the value: deep enough input overflows their stack.
  if (jsonDepthExceeds(input, MAX_JSON_DEPTH)) {
    const message = `is nested deeper than ${MAX_JSON_DEPTH} levels`;
    throw new DomainError('VALIDATION_ERROR', `Invalid ${name}: ${message}.`, {
      errors: [
        {
          field: name,
          message,
          error_code: 'max_depth',
          details: { max_depth: MAX_JSON_DEPTH },
        },
      ],
    });
  }
  const value = structuredClone(input ?? {}) as Record<string, unknown>;
  if (validate(value)) return value;
  const errors = (validate.errors ?? []).map((e) => {
    const missing = e.keyword === 'required' ? `.${String(e.params.missingProperty)}` : '';
    const extra = e.keyword === 'additionalProperties' ? `.${String(e.params.additionalProperty)}` : '';
    const field = `${name}${e.instancePath.replaceAll('/', '.')}${missing}${extra}`;
    return { field, message: e.message ?? 'is invalid', error_code: e.keyword, details: null };
  });
  throw new DomainError(
    'VALIDATION_ERROR',
    `Invalid ${name} for ${def.name}: ${errors.map((e) => `${e.field} ${e.message}`).join('; ')}.`,
    { errors },
  );
}
