/**
 * An OpenAPI description (3.x, or Swagger 2.0) reduced to what tests and fakes check against: paths, methods,
 * operationIds, parameters, request and response bodies by content type, the schemas and other components,
 * security schemes by type. Prose goes: descriptions, summaries, examples, external docs, `$comment`s, and the
 * vendor extensions (`x-*`) but `x-nullable` (Swagger 2.0's nullability, a constraint). A `title` stays only on
 * a named schema (a member of `components.schemas`, `definitions` or `$defs`), where it names the schema for a
 * test that follows a `$ref`. A Response Object keeps an empty `description` (the field is required), so the
 * result is still a valid description of the same API.
 *
 * The walk knows where a key is a name (a property, a path, a status code, a media type) rather than a keyword,
 * so a property called `description` or `example` is kept; values that are data (`enum`, `const`, `default`,
 * `security`, `discriminator.mapping`) are copied as they are.
 */

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

const PROSE = new Set(['description', 'summary', 'example', 'examples', 'externalDocs', '$comment']);
const DATA = new Set(['enum', 'const', 'default', 'security', 'mapping', 'required']);
const KEPT_EXTENSIONS = new Set(['x-nullable']);

/** What the members of a map of names are. */
type Member = 'node' | 'named-schema' | 'response' | 'callback' | 'scope';

/** Keywords whose value is a map from names (ours to keep) to objects of the given kind. */
const NAME_MAPS: Record<string, Member> = {
  properties: 'node',
  patternProperties: 'node',
  dependentSchemas: 'node',
  dependencies: 'node',
  $defs: 'named-schema',
  definitions: 'named-schema',
  schemas: 'named-schema',
  paths: 'node',
  webhooks: 'node',
  pathItems: 'node',
  responses: 'response',
  parameters: 'node',
  requestBodies: 'node',
  headers: 'node',
  content: 'node',
  encoding: 'node',
  links: 'node',
  variables: 'node',
  securitySchemes: 'node',
  securityDefinitions: 'node',
  callbacks: 'callback',
  scopes: 'scope',
};

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function reduceNode(node: Json, kind: Member): Json {
  if (Array.isArray(node)) return node.map((item) => reduceNode(item, 'node'));
  if (!isObject(node)) return node;
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(node)) {
    if (DATA.has(key)) out[key] = value;
    else if (key.startsWith('x-')) {
      if (KEPT_EXTENSIONS.has(key)) out[key] = value;
    } else if (PROSE.has(key) || (key === 'title' && kind !== 'named-schema')) continue;
    else {
      const members = NAME_MAPS[key];
      out[key] =
        members !== undefined && isObject(value) ? reduceMap(value, members) : reduceNode(value, 'node');
    }
  }
  if (kind === 'response' && !('$ref' in out)) out.description = '';
  return out;
}

function reduceMap(map: JsonObject, kind: Member): JsonObject {
  const out: JsonObject = {};
  for (const [name, value] of Object.entries(map)) {
    if (kind === 'scope') out[name] = '';
    else if (kind === 'callback') out[name] = isObject(value) ? reduceMap(value, 'node') : value;
    else out[name] = reduceNode(value, kind);
  }
  return out;
}

/** The facts of an OpenAPI 3.x or Swagger 2.0 document; throws on anything else. */
export function reduceOpenApi(doc: unknown): Json {
  if (!isObject(doc) || (typeof doc.openapi !== 'string' && typeof doc.swagger !== 'string'))
    throw new Error('not an OpenAPI description: no `openapi` or `swagger` version at the top');
  const out = reduceNode(doc, 'node') as JsonObject;
  const info = isObject(doc.info) ? doc.info : {};
  out.info = { title: info.title ?? '', version: info.version ?? '' };
  return out;
}
