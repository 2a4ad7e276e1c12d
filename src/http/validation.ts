import { Ajv, type Options } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifySchema, FastifySchemaCompiler } from 'fastify';

/**
 * Bodies are validated strictly (a string "5" is not the integer 5; unknown fields are errors), while
 * querystrings and path params, which are text by nature, are coerced to their declared types.
 */
function makeAjv(options: Options): Ajv {
  const ajv = new Ajv({
    allErrors: true,
    strict: false,
    useDefaults: true,
    removeAdditional: false,
    ...options,
  });
  addFormats.default(ajv);
  return ajv;
}

// Made at the first compile, not at import: each instance costs tens of milliseconds of start-up.
let strict: Ajv | undefined;
let coercing: Ajv | undefined;

export const validatorCompiler: FastifySchemaCompiler<FastifySchema> = ({ schema, httpPart }) => {
  let ajv: Ajv;
  if (httpPart === 'body') {
    strict ??= makeAjv({ coerceTypes: false });
    ajv = strict;
  } else {
    coercing ??= makeAjv({ coerceTypes: 'array' });
    ajv = coercing;
  }
  return ajv.compile(schema as object) as ReturnType<FastifySchemaCompiler<FastifySchema>>;
};
