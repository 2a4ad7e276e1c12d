import { isObject, type Json } from './openapi.ts';

/**
 * The records a hosted connector answers, reduced to the names and types its SDK types them with: per hosted
 * entity and action (list, get, api_search, create, update), the JSON Schema of ONE record, taken from the
 * response schema at the operation's `x-airbyte-record-extractor` (the whole response when it has none); and per
 * entity the schema of one search record, from the SDK's generated `<Entity>SearchData` model.
 *
 * Only types are kept: `type`, `properties`, `items`, the combinators, and nullability. Values (enum, const,
 * default, format, bounds) and prose go; `required` goes and every property may be null, as the generated models
 * declare them `T | None` (a model field declared `T = None` without `| None` refuses an explicit null, so it
 * stays non-null); `additionalProperties` goes, as the models accept extra members. `oneOf` becomes `anyOf`:
 * once every branch may be null, "exactly one" would refuse a null. A `$ref` to a component becomes a `$ref`
 * into the connector's `$defs` (the components its records reach), so cycles stay finite and Stripe's expandable
 * objects are written once.
 */

type JsonObject = { [key: string]: Json };
/**
 * `$defs` holds the components the record schemas reach (`{"$ref": "#/$defs/Customer"}`), once per connector:
 * a record schema compiles with them beside it.
 */
export type RecordFacts = {
  connector: string;
  entities: Record<string, Record<string, Json>>;
  $defs?: Record<string, Json>;
};

/** The actions whose answers are records a caller types (downloads and deletes answer something else). */
const RECORD_ACTIONS = new Set(['list', 'get', 'api_search', 'create', 'update']);
const METHODS = ['get', 'post', 'put', 'patch', 'delete'];
const COMBINATORS = ['anyOf', 'oneOf', 'allOf'] as const;
const NULL: JsonObject = { type: 'null' };

/** Reduces one component or inline schema; `refs` collects the component names it reaches. */
class SchemaReducer {
  readonly defs: Record<string, Json> = {};
  private readonly pending = new Set<string>();

  constructor(private readonly components: JsonObject) {}

  /** `schema` reduced, every property nullable; `$ref`s point at `#/$defs/<name>`. */
  reduce(schema: Json): JsonObject {
    if (!isObject(schema)) return {};
    if (typeof schema.$ref === 'string') return { $ref: `#/$defs/${this.define(schema.$ref)}` };
    const out: JsonObject = {};
    const type = schema.type;
    if (typeof type === 'string' || Array.isArray(type)) out.type = type;
    if (isObject(schema.properties)) {
      const properties: JsonObject = {};
      for (const [name, property] of Object.entries(schema.properties))
        properties[name] = nullable(this.reduce(property));
      out.properties = properties;
    }
    if (isObject(schema.items)) out.items = this.reduce(schema.items);
    for (const keyword of COMBINATORS) {
      const branches = schema[keyword];
      if (!Array.isArray(branches)) continue;
      const reduced = branches.map((branch) => this.reduce(branch));
      const target = keyword === 'allOf' ? 'allOf' : 'anyOf';
      out[target] = [...((out[target] as Json[] | undefined) ?? []), ...reduced];
    }
    // OpenAPI 3.0's and Swagger's ways of saying "or null".
    if (schema.nullable === true || schema['x-nullable'] === true) return nullable(out);
    return out;
  }

  /** The `$defs` name of the component `ref` names, reduced into `defs` once. */
  private define(ref: string): string {
    const match = /^#\/components\/schemas\/(.+)$/.exec(ref);
    if (match === null) throw new Error(`${ref}: only references to components/schemas are followed`);
    const name = (match[1] as string).replace(/~1/g, '/').replace(/~0/g, '~');
    if (name in this.defs || this.pending.has(name)) return name;
    const target = this.components[name];
    if (target === undefined) throw new Error(`${ref}: no such component`);
    this.pending.add(name);
    this.defs[name] = this.reduce(target);
    this.pending.delete(name);
    return name;
  }

  /** The schema `schema` names after following `$ref`s and single-branch `allOf`s (for walking a path). */
  resolve(schema: Json): Json {
    let current = schema;
    for (let hops = 0; hops < 32 && isObject(current); hops++) {
      if (typeof current.$ref === 'string') {
        const name = /^#\/components\/schemas\/(.+)$/.exec(current.$ref)?.[1];
        current = name === undefined ? {} : (this.components[name] ?? {});
      } else if (Array.isArray(current.allOf) && current.allOf.length === 1)
        current = current.allOf[0] as Json;
      else return current;
    }
    return current;
  }
}

/** `schema` that also accepts null. */
function nullable(schema: JsonObject): JsonObject {
  const type = schema.type;
  if (typeof type === 'string') return type === 'null' ? schema : { ...schema, type: [type, 'null'] };
  if (Array.isArray(type)) return type.includes('null') ? schema : { ...schema, type: [...type, 'null'] };
  if (Array.isArray(schema.anyOf) && Object.keys(schema).length === 1)
    return schema.anyOf.some((b) => isObject(b) && b.type === 'null')
      ? schema
      : { anyOf: [...schema.anyOf, NULL] };
  if (Object.keys(schema).length === 0) return schema;
  return { anyOf: [schema, NULL] };
}

/** Whether `schema` types anything: names a member, an item, or a type other than a bare object. */
function typesSomething(schema: Json, defs: Record<string, Json>, seen = new Set<string>()): boolean {
  if (!isObject(schema)) return false;
  if (typeof schema.$ref === 'string') {
    const name = schema.$ref.slice('#/$defs/'.length);
    if (seen.has(name)) return false;
    seen.add(name);
    return typesSomething(defs[name] ?? {}, defs, seen);
  }
  if (isObject(schema.properties) && Object.keys(schema.properties).length > 0) return true;
  if (schema.items !== undefined) return true;
  for (const keyword of ['anyOf', 'allOf'])
    if (
      Array.isArray(schema[keyword]) &&
      (schema[keyword] as Json[]).some((b) => typesSomething(b, defs, seen))
    )
      return true;
  const types = (Array.isArray(schema.type) ? schema.type : [schema.type]).filter((t) => t !== 'null');
  return types.length > 0 && !(types.length === 1 && types[0] === 'object');
}

/** The members of `defs` the schemas of `entities` reach (a skipped record may have reached others). */
function reachable(
  entities: Record<string, Record<string, Json>>,
  defs: Record<string, Json>,
): Record<string, Json> {
  const out: Record<string, Json> = {};
  const visit = (node: Json): void => {
    if (Array.isArray(node)) node.forEach(visit);
    else if (isObject(node))
      for (const [key, value] of Object.entries(node)) {
        if (key === '$ref' && typeof value === 'string') {
          const name = value.slice('#/$defs/'.length);
          if (!(name in out) && defs[name] !== undefined) {
            out[name] = defs[name];
            visit(defs[name]);
          }
        } else visit(value);
      }
  };
  visit(entities as unknown as Json);
  return out;
}

/** The response schema of an operation's success answer (its first 2xx with a JSON body). */
function successSchema(operation: JsonObject): Json | undefined {
  if (!isObject(operation.responses)) return undefined;
  for (const [status, response] of Object.entries(operation.responses)) {
    if (!/^2\d\d$/.test(status) || !isObject(response) || !isObject(response.content)) continue;
    for (const [media, content] of Object.entries(response.content))
      if (/json/.test(media) && isObject(content) && content.schema !== undefined) return content.schema;
  }
  return undefined;
}

/** The schema of one record: the response schema walked down `extractor` (`$.a.b`), an array's items. */
function recordSchema(
  response: Json,
  extractor: string | undefined,
  reducer: SchemaReducer,
  at: string,
): Json {
  const path = extractor ?? '$';
  if (!/^\$(\.[A-Za-z_][\w]*)*$/.test(path))
    throw new Error(`${at}: record extractor ${path} is not a $.a.b path`);
  // Walked through resolved schemas; what is answered is the schema as written there, so a record that is a
  // component stays a `$ref` to it.
  let current: Json = response;
  for (const member of path.split('.').slice(1)) {
    const resolved = reducer.resolve(current);
    const properties = isObject(resolved) && isObject(resolved.properties) ? resolved.properties : {};
    current = properties[member] ?? {};
  }
  const resolved = reducer.resolve(current);
  const type = isObject(resolved) ? resolved.type : undefined;
  if (type === 'array' || (Array.isArray(type) && type.includes('array')))
    return (resolved as JsonObject).items ?? {};
  return current;
}

const PYTHON_TYPES: Record<string, string> = {
  str: 'string',
  int: 'integer',
  float: 'number',
  bool: 'boolean',
};

/** The JSON Schema of a Python annotation of the generated models (`str | None`, `list[Any]`, `dict[str, Any]`). */
function pythonType(annotation: string, at: string): JsonObject {
  const parts = annotation.split('|').map((p) => p.trim());
  const orNull = parts.includes('None');
  const types = parts.filter((p) => p !== 'None');
  if (types.length !== 1) throw new Error(`${at}: annotation ${annotation} is not one type or None`);
  const type = types[0] as string;
  let schema: JsonObject;
  if (type === 'Any') return {};
  if (PYTHON_TYPES[type] !== undefined) schema = { type: PYTHON_TYPES[type] };
  else if (/^list\[(.+)\]$/.test(type)) {
    const item = /^list\[(.+)\]$/.exec(type)?.[1] as string;
    schema = item === 'Any' ? { type: 'array' } : { type: 'array', items: pythonType(item, at) };
  } else if (/^dict\[str, *.+\]$/.test(type)) schema = { type: 'object' };
  else throw new Error(`${at}: annotation ${annotation} is not a type the search models use`);
  return orNull ? nullable(schema) : schema;
}

/**
 * The search record schemas of `models` (the SDK's generated models.py), by hosted entity: each class
 * `<Entity>SearchData`, its fields by the names pydantic reads (a `Field(alias=...)` names the member).
 */
export function searchSchemas(models: string, entities: string[]): Record<string, JsonObject> {
  const classes = new Map<string, string[]>();
  let current: string[] | undefined;
  for (const line of models.split('\n')) {
    const head = /^class (\w+)SearchData\(BaseModel\):/.exec(line);
    if (head !== null) {
      current = [];
      classes.set(head[1] as string, current);
    } else if (/^\S/.test(line)) current = undefined;
    else current?.push(line);
  }
  const out: Record<string, JsonObject> = {};
  for (const entity of entities) {
    const lines = classes.get(pascal(entity));
    if (lines === undefined) continue;
    const properties: JsonObject = {};
    for (const line of lines) {
      const field = /^ {4}(\w+): ([^=]+?) = (.+)$/.exec(line);
      if (field === null) continue;
      const [, name, annotation, value] = field as unknown as [string, string, string, string];
      const alias = /alias="([^"]+)"/.exec(value)?.[1];
      properties[alias ?? name] = pythonType(annotation, `${pascal(entity)}SearchData.${name}`);
    }
    if (Object.keys(properties).length > 0) out[entity] = { type: 'object', properties };
  }
  return out;
}

function pascal(snake: string): string {
  return snake
    .split(/[_-]/)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join('');
}

/** The record facts of one hosted connector: its spec (connector.yaml, parsed) and its generated models.py. */
export function reduceHostedRecords(connector: string, spec: unknown, models: string): RecordFacts {
  if (!isObject(spec) || !isObject(spec.paths))
    throw new Error(`${connector}: not an OpenAPI spec with paths`);
  const components =
    isObject(spec.components) && isObject(spec.components.schemas) ? spec.components.schemas : {};
  const entities: Record<string, Record<string, Json>> = {};
  const reducer = new SchemaReducer(components);
  const allEntities = new Set<string>();
  for (const [route, item] of Object.entries(spec.paths)) {
    if (!isObject(item)) continue;
    for (const method of METHODS) {
      const operation = item[method];
      if (!isObject(operation) || typeof operation['x-airbyte-entity'] !== 'string') continue;
      const entity = operation['x-airbyte-entity'];
      const action = operation['x-airbyte-action'];
      allEntities.add(entity);
      if (typeof action !== 'string' || !RECORD_ACTIONS.has(action)) continue;
      const at = `${connector} ${method.toUpperCase()} ${route}`;
      const response = successSchema(operation);
      if (response === undefined) continue;
      const extractor = operation['x-airbyte-record-extractor'];
      const record = reducer.reduce(
        recordSchema(response, typeof extractor === 'string' ? extractor : undefined, reducer, at),
      );
      if (!typesSomething(record, reducer.defs)) continue;
      const actions = entities[entity] ?? {};
      // Some entities list through two operations (a variant by parameter): the same records, or either.
      const before = actions[action];
      if (before !== undefined && JSON.stringify(before) !== JSON.stringify(record))
        throw new Error(`${at}: a second ${entity}.${action} with other records`);
      actions[action] = record;
      entities[entity] = actions;
    }
  }
  const contextStore = spec.info && isObject(spec.info) ? spec.info['x-airbyte-context-store'] : undefined;
  if (isObject(contextStore) && Array.isArray(contextStore.entities))
    for (const e of contextStore.entities)
      if (isObject(e) && typeof e.entity === 'string') allEntities.add(e.entity);
  for (const [entity, schema] of Object.entries(searchSchemas(models, [...allEntities]))) {
    const actions = entities[entity] ?? {};
    actions.search = schema;
    entities[entity] = actions;
  }
  const defs = reachable(entities, reducer.defs);
  return Object.keys(defs).length > 0 ? { connector, entities, $defs: defs } : { connector, entities };
}
