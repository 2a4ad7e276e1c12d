import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

/**
 * The hosted service's published OpenAPI 3.1 document, reduced to its facts (`test/reference/agent-api.openapi.json`,
 * written by `npm run reference:facts`), read for tests that check ces's answers against the reference's own
 * response schemas, so its clients work unchanged.
 *
 * Validation: Ajv in the JSON Schema 2020-12 dialect (OpenAPI 3.1's), `strict: false`, `allErrors: true`. The
 * whole document is added to Ajv under its file URL as `$id`, and each operation's schema is compiled as a `$ref`
 * to its JSON pointer inside that document, so every `#/components/schemas/...` reference resolves as written.
 * `discriminator` is an OpenAPI annotation Ajv leaves alone here (its own `discriminator` option refuses `mapping`
 * and a tag that is not `required`, as the connection templates' `data_hosting_type` is not); the `oneOf` beside
 * it, whose branches each fix the tag with `const`, carries the constraint.
 */

export const REFERENCE_SPEC_PATH = path.resolve(import.meta.dirname, '../reference/agent-api.openapi.json');
const SPEC_ID = pathToFileURL(REFERENCE_SPEC_PATH).href;
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;
const JSON_MEDIA_TYPE = 'application/json';

type Json = Record<string, unknown>;

let specCache: Json | undefined;
function spec(): Json {
  specCache ??= JSON.parse(readFileSync(REFERENCE_SPEC_PATH, 'utf8')) as Json;
  return specCache;
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function escapeToken(token: string): string {
  return token.replaceAll('~', '~0').replaceAll('/', '~1');
}

function pointerOf(tokens: readonly string[]): string {
  return tokens.map((t) => `/${escapeToken(t)}`).join('');
}

function at(pointer: string): unknown {
  let node: unknown = spec();
  for (const raw of pointer.split('/').slice(1)) {
    const token = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    if (!isObject(node) && !Array.isArray(node)) return undefined;
    node = (node as Json)[token];
  }
  return node;
}

/** Follows a Reference Object (`{ $ref: '#/...' }`, e.g. to `components/responses`) to what it names. */
function follow(pointer: string): { pointer: string; node: unknown } {
  let node = at(pointer);
  for (let hops = 0; isObject(node) && typeof node.$ref === 'string' && hops < 32; hops++) {
    const ref = node.$ref;
    if (!ref.startsWith('#/')) throw new Error(`reference spec: only local $refs are supported, got ${ref}`);
    pointer = decodeURIComponent(ref.slice(1));
    node = at(pointer);
  }
  return { pointer, node };
}

function operationPointer(method: string, pathTemplate: string): string | undefined {
  const m = method.toLowerCase();
  const item = (spec().paths as Json | undefined)?.[pathTemplate];
  if (!isObject(item) || !(METHODS as readonly string[]).includes(m) || !isObject(item[m])) return undefined;
  return pointerOf(['paths', pathTemplate, m]);
}

function operationName(method: string, pathTemplate: string): string {
  const pointer = operationPointer(method, pathTemplate);
  const id = pointer ? (at(pointer) as Json).operationId : undefined;
  return `${method.toUpperCase()} ${pathTemplate}${typeof id === 'string' ? ` (${id})` : ''}`;
}

/** The JSON pointer of the response object OpenAPI picks for `status`: exact code, then `4XX`-style, then `default`. */
function responsePointer(method: string, pathTemplate: string, status: number): string | undefined {
  const op = operationPointer(method, pathTemplate);
  if (!op) return undefined;
  const responses = (at(op) as Json).responses;
  if (!isObject(responses)) return undefined;
  const key = [String(status), `${Math.floor(status / 100)}XX`, 'default'].find((k) => k in responses);
  return key === undefined ? undefined : follow(`${op}/responses/${escapeToken(key)}`).pointer;
}

function jsonSchemaPointer(ownerPointer: string | undefined): string | undefined {
  if (!ownerPointer) return undefined;
  const content = (at(ownerPointer) as Json | undefined)?.content;
  if (!isObject(content) || !isObject(content[JSON_MEDIA_TYPE])) return undefined;
  const media = content[JSON_MEDIA_TYPE] as Json;
  return isObject(media.schema) || typeof media.schema === 'boolean'
    ? `${ownerPointer}/content/${escapeToken(JSON_MEDIA_TYPE)}/schema`
    : undefined;
}

/**
 * A copy of the schema at `pointer`; a schema that is nothing but a `$ref` is followed, so callers see the named
 * component's `properties` and `required` directly. Nested `$ref`s stay as written (`#/components/schemas/...`).
 */
function schemaCopy(pointer: string | undefined): object | undefined {
  if (!pointer) return undefined;
  let node = at(pointer);
  for (
    let hops = 0;
    isObject(node) && Object.keys(node).length === 1 && typeof node.$ref === 'string';
    hops++
  ) {
    if (hops >= 32 || !node.$ref.startsWith('#/')) break;
    node = at(decodeURIComponent(node.$ref.slice(1)));
  }
  return isObject(node) ? structuredClone(node) : undefined;
}

/** Every operation in the reference spec, method upper-case, path as the spec writes it. */
export function referenceOperations(): Array<{ method: string; path: string }> {
  const paths = spec().paths;
  if (!isObject(paths)) return [];
  return Object.entries(paths).flatMap(([p, item]) =>
    isObject(item)
      ? METHODS.filter((m) => isObject(item[m])).map((m) => ({ method: m.toUpperCase(), path: p }))
      : [],
  );
}

/**
 * The JSON schema of the `application/json` response of `method pathTemplate` for `status` (path as written in the
 * spec, e.g. `/api/v1/integrations/connectors/{id}`); undefined when the spec defines none (unknown operation, no
 * such status, or a response without a JSON body such as a 204). See `schemaCopy` for the shape returned.
 */
export function referenceResponseSchema(
  method: string,
  pathTemplate: string,
  status: number,
): object | undefined {
  return schemaCopy(jsonSchemaPointer(responsePointer(method, pathTemplate, status)));
}

/** The JSON schema of the `application/json` request body of `method pathTemplate`; undefined when there is none. */
export function referenceRequestSchema(method: string, pathTemplate: string): object | undefined {
  const op = operationPointer(method, pathTemplate);
  if (!op || !isObject((at(op) as Json).requestBody)) return undefined;
  return schemaCopy(jsonSchemaPointer(follow(`${op}/requestBody`).pointer));
}

/** The names under `components.schemas`. */
export function referenceComponentNames(): string[] {
  const schemas = (spec().components as Json | undefined)?.schemas;
  return isObject(schemas) ? Object.keys(schemas) : [];
}

let ajvCache: Ajv2020 | undefined;
function ajv(): Ajv2020 {
  if (ajvCache) return ajvCache;
  const instance = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(instance);
  // Any format the spec uses that ajv-formats does not know is accepted as-is rather than warned about.
  const formats = new Set<string>();
  const collect = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(collect);
    else if (isObject(node)) {
      if (typeof node.format === 'string') formats.add(node.format);
      Object.values(node).forEach(collect);
    }
  };
  collect(spec());
  for (const name of formats) if (!instance.formats[name]) instance.addFormat(name, true);
  instance.addSchema({ ...spec(), $id: SPEC_ID });
  ajvCache = instance;
  return instance;
}

const validators = new Map<string, ValidateFunction>();
function validatorAt(pointer: string): ValidateFunction {
  let validate = validators.get(pointer);
  if (!validate) {
    const fragment = pointer
      .split('/')
      .slice(1)
      .map((token) => `/${encodeURIComponent(token)}`)
      .join('');
    validate = ajv().compile({ $ref: `${SPEC_ID}#${fragment}` });
    validators.set(pointer, validate);
  }
  return validate;
}

/** The compiled (cached) validator of `components.schemas[name]`; throws when there is no such schema. */
export function referenceComponentValidator(name: string): ValidateFunction {
  const pointer = pointerOf(['components', 'schemas', name]);
  if (at(pointer) === undefined) throw new Error(`reference spec: no component schema ${name}`);
  return validatorAt(pointer);
}

function describe(error: ErrorObject): string {
  const where = error.instancePath || '(root)';
  const p = error.params as Record<string, unknown>;
  let detail = '';
  if (error.keyword === 'additionalProperties') detail = `: ${JSON.stringify(p.additionalProperty)}`;
  else if (error.keyword === 'enum') detail = `: ${JSON.stringify(p.allowedValues)}`;
  else if (error.keyword === 'const') detail = `: ${JSON.stringify(p.allowedValue)}`;
  return `${where} ${error.message ?? error.keyword}${detail}  [${error.schemaPath}]`;
}

/**
 * Asserts that `body` validates against the reference's `application/json` response schema of
 * `method pathTemplate` for `status`. Throws an AssertionError listing every violation (instance path and
 * message) when it does not, and an Error when the spec has no such operation, status or JSON body, so a typo in a
 * test does not pass silently.
 */
export function assertMatchesReference(
  method: string,
  pathTemplate: string,
  status: number,
  body: unknown,
): void {
  const op = operationName(method, pathTemplate);
  if (!operationPointer(method, pathTemplate)) {
    throw new Error(`reference spec: no operation ${op}`);
  }
  const owner = responsePointer(method, pathTemplate, status);
  if (!owner) {
    const defined = Object.keys((at(operationPointer(method, pathTemplate)!) as Json).responses ?? {});
    throw new Error(`reference spec: ${op} defines no response ${status} (defined: ${defined.join(', ')})`);
  }
  const pointer = jsonSchemaPointer(owner);
  if (!pointer) throw new Error(`reference spec: ${op} response ${status} has no ${JSON_MEDIA_TYPE} schema`);
  const validate = validatorAt(pointer);
  if (validate(body)) return;
  const errors = (validate.errors ?? []).map(describe);
  throw new assert.AssertionError({
    message: `${op} ${status}: body does not match the reference schema (${errors.length} violation(s)):\n  ${errors.join('\n  ')}`,
    actual: body,
    expected: `the reference schema at ${pointer}`,
    operator: 'assertMatchesReference',
  });
}
