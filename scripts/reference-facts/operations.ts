/**
 * A provider's OpenAPI 3.x or Swagger 2.0 description reduced to what the fake contract checks
 * (test/connectors/kit/contract.ts): per operation its method and path template, its parameters (name, where,
 * required), the members of its request body, and per documented status the shape of the answer — member names,
 * JSON types, which members are required, array items — with named schemas kept once under `schemas` and
 * referenced by name. Everything else goes: prose, examples, formats, enums, patterns, bounds.
 *
 * `paths` carry the server's base path (Swagger's `basePath`, the path of OpenAPI's first server URL), so a
 * template is the path a client sends. Parameter and schema `$ref`s are resolved; a `$ref` to a named schema stays
 * a reference (`{"$ref": "<name>"}`), which keeps GitHub's 800 operations sharing a few hundred schemas small.
 */
import { isObject, type Json } from './openapi.ts';

type JsonObject = { [key: string]: Json };

export interface Shape {
  $ref?: string;
  /** JSON types, 'null' included when the schema is nullable; absent = any */
  type?: string[];
  required?: string[];
  properties?: { [name: string]: Shape };
  items?: Shape;
  /** the answer matches one of these (oneOf, anyOf) */
  anyOf?: Shape[];
}

export interface Operation {
  /** `in` -> parameter names, each with `!` appended when required: {"query": ["page", "per_page"], "path": ["owner!"]} */
  parameters?: { [where: string]: string[] };
  /** the request body's media types and top-level members (`!` when required); `open` when undeclared members pass */
  body?: { content: string[]; members: string[]; open?: true };
  /** status (or "default") -> the JSON answer's shape; {} for a documented status without a JSON body */
  responses: { [status: string]: Shape };
}

export interface OperationFacts {
  /** what the facts were reduced from, e.g. "providers/github.json" */
  source: string;
  /** only the operations test/reference/providers/<slug>.operations.txt lists were kept */
  subset?: true;
  /** "METHOD /path/{template}" -> the operation */
  operations: { [key: string]: Operation };
  schemas: { [name: string]: Shape };
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
const JSON_MEDIA = /^application\/(?:[\w.+-]+\+)?json\b|^\*\/\*$/;
const BODY_MEDIA = /json|x-www-form-urlencoded|multipart\/form-data/;
const SCHEMA_REF = /^#\/(?:components\/schemas|definitions)\/(.+)$/;

/** `kept(key)` says whether the operation `METHOD /path` stays (all of them, and no `subset` flag, when omitted). */
export function reduceOperations(
  doc: unknown,
  source: string,
  kept?: (key: string) => boolean,
): OperationFacts {
  const subset = kept !== undefined;
  const keep = kept ?? (() => true);
  if (!isObject(doc) || (typeof doc.openapi !== 'string' && typeof doc.swagger !== 'string'))
    throw new Error(`${source}: not an OpenAPI description`);
  const swagger = typeof doc.swagger === 'string';
  const base = basePath(doc).replace(/\/$/, '');
  const named: { [name: string]: Shape } = {};
  const pending: string[] = [];
  const resolve = (node: Json | undefined): Json | undefined => {
    let out = node;
    for (let hops = 0; isObject(out) && typeof out.$ref === 'string' && hops < 16; hops += 1)
      out = pointer(doc, out.$ref);
    return out;
  };
  /** `s` with a top-level `$ref` replaced by its named schema's shape (allOf merges members, not names). */
  const flatten = (s: Shape, depth: number): Shape => {
    if (s.$ref === undefined) return s;
    const node = pointer(doc, swagger ? `#/definitions/${s.$ref}` : `#/components/schemas/${s.$ref}`);
    return isObject(node) ? flatten(shape(node, depth + 1), depth + 1) : {};
  };
  const shape = (node: Json | undefined, depth = 0): Shape => {
    if (!isObject(node) || depth > 40) return {};
    const ref = typeof node.$ref === 'string' ? SCHEMA_REF.exec(node.$ref) : null;
    if (ref?.[1] !== undefined) {
      const name = decodeURIComponent(ref[1]);
      if (!(name in named)) {
        named[name] = {};
        pending.push(name);
      }
      return { $ref: name };
    }
    if (typeof node.$ref === 'string') return shape(resolve(node), depth + 1);
    const out: Shape = {};
    const nullable = node.nullable === true || node['x-nullable'] === true;
    const types =
      typeof node.type === 'string' ? [node.type] : Array.isArray(node.type) ? node.type.map(String) : [];
    if (types.length > 0) out.type = nullable && !types.includes('null') ? [...types, 'null'] : types;
    const required = Array.isArray(node.required) ? node.required.map(String) : [];
    const properties: { [name: string]: Shape } = {};
    if (isObject(node.properties))
      for (const [name, sub] of Object.entries(node.properties)) properties[name] = shape(sub, depth + 1);
    if (node.items !== undefined) out.items = shape(node.items, depth + 1);
    if (Array.isArray(node.allOf)) {
      // allOf is the conjunction: its parts' required members and properties add up.
      for (const part of node.allOf) {
        const merged = flatten(shape(part, depth + 1), depth + 1);
        required.push(...(merged.required ?? []));
        Object.assign(properties, merged.properties ?? {});
        if (merged.type !== undefined && out.type === undefined) out.type = merged.type;
        if (merged.items !== undefined) out.items ??= merged.items;
      }
    }
    const alternatives = [node.oneOf, node.anyOf].filter(Array.isArray).flat();
    if (alternatives.length > 0) {
      out.anyOf = alternatives.map((alt) => shape(alt, depth + 1));
      // `nullable` beside a oneOf/anyOf without a `type` (GitHub's, Stripe's optional references) admits null.
      if (nullable && out.type === undefined) out.anyOf.push({ type: ['null'] });
    }
    if (required.length > 0) out.required = [...new Set(required)];
    if (Object.keys(properties).length > 0) out.properties = properties;
    return out;
  };

  const operations: { [key: string]: Operation } = {};
  const paths = isObject(doc.paths) ? doc.paths : {};
  for (const [template, rawItem] of Object.entries(paths)) {
    const item = resolve(rawItem);
    if (!isObject(item)) continue;
    for (const method of METHODS) {
      const op = item[method];
      const key = `${method.toUpperCase()} ${base}${template}`;
      if (!isObject(op) || !keep(key)) continue;
      const params = new Map<string, JsonObject>();
      for (const raw of [item.parameters, op.parameters].filter(Array.isArray).flat()) {
        const p = resolve(raw);
        if (isObject(p) && typeof p.name === 'string' && typeof p.in === 'string')
          params.set(`${p.in}:${p.name}`, p);
      }
      const operation: Operation = { responses: {} };
      const byWhere: { [where: string]: string[] } = {};
      const form: string[] = [];
      let bodySchema: Json | undefined;
      for (const p of params.values()) {
        const name = `${p.name}${p.required === true || p.in === 'path' ? '!' : ''}`;
        if (p.in === 'body') bodySchema = p.schema;
        else if (p.in === 'formData') form.push(name);
        else byWhere[String(p.in)] = [...(byWhere[String(p.in)] ?? []), name];
      }
      if (Object.keys(byWhere).length > 0) operation.parameters = byWhere;
      if (swagger) {
        const consumes = [op.consumes, doc.consumes].find(Array.isArray)?.map(String) ?? ['application/json'];
        if (form.length > 0) operation.body = { content: consumes, members: form };
        else if (bodySchema !== undefined) operation.body = bodyOf(consumes, flatten(shape(bodySchema), 0));
      } else {
        const body = resolve(op.requestBody);
        const content = isObject(body) && isObject(body.content) ? body.content : {};
        const media = Object.keys(content).filter((m) => BODY_MEDIA.test(m));
        const first = media[0];
        const schema = first === undefined ? undefined : (content[first] as JsonObject | undefined)?.schema;
        if (first !== undefined) operation.body = bodyOf(media, flatten(shape(schema), 0));
      }
      const responses = resolve(op.responses);
      if (isObject(responses))
        for (const [status, rawAnswer] of Object.entries(responses)) {
          const answer = resolve(rawAnswer);
          if (!isObject(answer)) continue;
          let schema: Json | undefined;
          if (swagger) schema = answer.schema;
          else if (isObject(answer.content)) {
            const media = Object.keys(answer.content).find((m) => JSON_MEDIA.test(m));
            schema =
              media === undefined ? undefined : (answer.content[media] as JsonObject | undefined)?.schema;
          }
          operation.responses[status] = shape(schema);
        }
      operations[key] = operation;
    }
  }
  // Named schemas are reduced once each, after the operations that reach them.
  for (let name = pending.shift(); name !== undefined; name = pending.shift()) {
    const node = pointer(doc, swagger ? `#/definitions/${name}` : `#/components/schemas/${name}`);
    named[name] = shape(node);
  }
  return { source, ...(subset ? { subset: true as const } : {}), operations, schemas: named };
}

function bodyOf(content: string[], flat: Shape): NonNullable<Operation['body']> {
  const required = new Set(flat.required ?? []);
  const names = Object.keys(flat.properties ?? {});
  const members = names.map((n) => (required.has(n) ? `${n}!` : n));
  const body: NonNullable<Operation['body']> = { content, members };
  // A body schema without declared members (or a union of them) does not say which members are allowed.
  if (names.length === 0 || flat.anyOf !== undefined) body.open = true;
  return body;
}

function basePath(doc: JsonObject): string {
  if (typeof doc.basePath === 'string') return doc.basePath;
  const server = Array.isArray(doc.servers) ? doc.servers[0] : undefined;
  if (!isObject(server) || typeof server.url !== 'string') return '';
  // A scheme-relative server URL (`//your-domain.atlassian.net`, Confluence v1) names a host, not a path.
  const url = server.url.startsWith('//') ? `https:${server.url}` : server.url;
  try {
    return new URL(url.replace(/\{[^}]*\}/g, 'x')).pathname;
  } catch {
    return url.startsWith('/') ? url : '';
  }
}

/** The node a local JSON pointer (`#/a/b~1c`) names, or undefined. */
function pointer(doc: JsonObject, ref: string): Json | undefined {
  if (!ref.startsWith('#/')) return undefined;
  let node: Json | undefined = doc;
  for (const raw of ref.slice(2).split('/')) {
    const key = decodeURIComponent(raw.replace(/~1/g, '/').replace(/~0/g, '~'));
    node = isObject(node) ? node[key] : undefined;
  }
  return node;
}
