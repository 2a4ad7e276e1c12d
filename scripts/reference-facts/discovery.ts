/**
 * A Google API discovery document (discovery v1, `"kind": "discovery#restDescription"`: Drive v3, Gmail v1, ...)
 * reduced to the same operation facts an OpenAPI description gives (operations.ts), so the fake contract
 * (test/connectors/kit/contract.ts) reads either without knowing which it came from:
 *
 * - each method of `resources` (nested resources included, as Gmail's `users.messages.attachments`) becomes
 *   `"METHOD /path"`, the path being the root URL's path + `servicePath` + the method's `path` (`{+name}`, a
 *   reserved expansion, written `{name}`), so a template is the path a client sends;
 * - its parameters by `location` (`!` when `required`, always on a path parameter), with the document's global
 *   parameters (`alt`, `fields`, `key`, `prettyPrint`, `quotaUser`, ...) which every method takes;
 * - its `request` schema as a JSON body whose members are the schema's properties; a member is required (`!`)
 *   where its `annotations.required` names the method's id (discovery documents say "required" only there);
 * - its `response` schema as the shape of a 2xx answer (`2XX`: Google answers 200 with the resource, 204 for
 *   a method without one); a method without a `response` keeps `{}` (nothing to check);
 * - `supportsMediaDownload`: the operation also answers its media with `alt=media` (`media_download`), which
 *   is bytes of any type rather than the JSON resource;
 * - `mediaUpload`: the upload endpoints (`protocols.simple.path`, `protocols.resumable.path`, paths from the
 *   root) as operations of their own with the method's parameters and `multipart/related` (and the accepted
 *   media types) as the body's content;
 * - `scopes`: the OAuth scopes any one of which lets a client call the method (a connector asks for the
 *   narrowest set that covers what it serves).
 *
 * Schemas are kept once each under `schemas`, referenced by name, with their members' JSON types (`any` is
 * untyped; int64 is a string in the document and on the wire), properties, array items and map values. The
 * document marks no member of an answer as required, so shapes carry types only. Everything else goes:
 * descriptions, enum descriptions, formats, patterns, bounds, defaults, icons, documentation links.
 */
import { isObject, type Json } from './openapi.ts';
import type { Operation, OperationFacts, Shape } from './operations.ts';

type JsonObject = { [key: string]: Json };

/** An operation of a discovery document: an OpenAPI operation's facts and what only discovery says. */
export interface DiscoveryOperation extends Operation {
  /** the method's discovery id, e.g. `drive.files.list` */
  id: string;
  /** `alt=media` answers the resource's bytes (any content type) instead of its JSON */
  media_download?: true;
  /** the OAuth scopes any one of which authorizes the method */
  scopes?: string[];
}

export interface DiscoveryFacts extends OperationFacts {
  operations: { [key: string]: DiscoveryOperation };
}

/** `kept(key)` says whether the operation `METHOD /path` stays (all of them, and no `subset` flag, when omitted). */
export function reduceDiscovery(
  doc: unknown,
  source: string,
  kept?: (key: string) => boolean,
): DiscoveryFacts {
  if (!isObject(doc) || doc.kind !== 'discovery#restDescription' || typeof doc.rootUrl !== 'string')
    throw new Error(`${source}: not a Google discovery document (kind discovery#restDescription, rootUrl)`);
  const keep = kept ?? (() => true);
  const root = new URL(doc.rootUrl).pathname.replace(/\/?$/, '/');
  const service = typeof doc.servicePath === 'string' ? doc.servicePath : '';
  const schemas = isObject(doc.schemas) ? doc.schemas : {};
  const globals = paramsByWhere(isObject(doc.parameters) ? doc.parameters : {});
  const named: { [name: string]: Shape } = {};
  const pending: string[] = [];
  const refer = (name: string): Shape => {
    if (!(name in named)) {
      named[name] = {};
      pending.push(name);
    }
    return { $ref: name };
  };
  const shape = (node: Json | undefined, depth = 0): Shape => {
    if (!isObject(node) || depth > 40) return {};
    if (typeof node.$ref === 'string') return refer(node.$ref);
    const out: Shape = {};
    if (typeof node.type === 'string' && node.type !== 'any') out.type = [node.type];
    if (isObject(node.properties)) {
      const properties: { [name: string]: Shape } = {};
      for (const [name, sub] of Object.entries(node.properties)) properties[name] = shape(sub, depth + 1);
      out.properties = properties;
    }
    if (node.items !== undefined) out.items = shape(node.items, depth + 1);
    return out;
  };

  const operations: { [key: string]: DiscoveryOperation } = {};
  const visit = (resources: JsonObject) => {
    for (const resource of Object.values(resources)) {
      if (!isObject(resource)) continue;
      for (const method of Object.values(isObject(resource.methods) ? resource.methods : {})) {
        if (!isObject(method) || typeof method.httpMethod !== 'string' || typeof method.path !== 'string')
          continue;
        const id = String(method.id ?? '');
        const parameters = merge(
          globals,
          paramsByWhere(isObject(method.parameters) ? method.parameters : {}),
        );
        const base: DiscoveryOperation = { id, responses: {} };
        if (Object.keys(parameters).length > 0) base.parameters = parameters;
        const scopes = Array.isArray(method.scopes) ? method.scopes.map(String) : [];
        if (scopes.length > 0) base.scopes = scopes;
        const request = isObject(method.request) ? method.request : undefined;
        const requestSchema =
          typeof request?.$ref === 'string' ? schemas[request.$ref] : (request as Json | undefined);
        const members = bodyMembers(requestSchema, id);
        const response = isObject(method.response) ? shape(method.response) : {};
        base.responses = { '2XX': response };
        const verb = method.httpMethod.toUpperCase();
        const key = `${verb} ${root}${service}${template(method.path)}`;
        if (keep(key))
          operations[key] = {
            ...base,
            ...(members === undefined ? {} : { body: { content: ['application/json'], members } }),
            ...(method.supportsMediaDownload === true ? { media_download: true as const } : {}),
          };
        const upload = isObject(method.mediaUpload) ? method.mediaUpload : undefined;
        const protocols = isObject(upload?.protocols) ? upload.protocols : {};
        const accept = Array.isArray(upload?.accept) ? upload.accept.map(String) : [];
        for (const protocol of Object.values(protocols)) {
          if (!isObject(protocol) || typeof protocol.path !== 'string') continue;
          const uploadKey = `${verb} ${root}${template(protocol.path).replace(/^\//, '')}`;
          if (!keep(uploadKey)) continue;
          const content = ['multipart/related', ...accept.filter((m) => m !== 'multipart/related')];
          // The media itself is the body (uploadType=media), or the last part of a multipart/related one.
          operations[uploadKey] = { ...base, body: { content, members: members ?? [], open: true } };
        }
      }
      if (isObject(resource.resources)) visit(resource.resources);
    }
  };
  visit(isObject(doc.resources) ? doc.resources : {});
  for (let name = pending.shift(); name !== undefined; name = pending.shift())
    named[name] = shape(schemas[name]);
  return { source, ...(kept ? { subset: true as const } : {}), operations, schemas: named };
}

/** `{+name}` (RFC 6570 reserved expansion) is still one named parameter of the template. */
const template = (path: string) => path.replace(/\{\+([^}]+)\}/g, '{$1}');

/** Parameters by `location`, each with `!` when required (path parameters always are). */
function paramsByWhere(params: JsonObject): { [where: string]: string[] } {
  const out: { [where: string]: string[] } = {};
  for (const [name, p] of Object.entries(params)) {
    if (!isObject(p) || typeof p.location !== 'string') continue;
    const required = p.required === true || p.location === 'path';
    out[p.location] = [...(out[p.location] ?? []), `${name}${required ? '!' : ''}`];
  }
  return out;
}

function merge(
  a: { [where: string]: string[] },
  b: { [where: string]: string[] },
): { [where: string]: string[] } {
  const out: { [where: string]: string[] } = {};
  for (const where of new Set([...Object.keys(a), ...Object.keys(b)])) {
    const own = b[where] ?? [];
    const bare = new Set(own.map((n) => n.replace(/!$/, '')));
    // A method's own declaration of a global parameter wins (it may make it required).
    out[where] = [...(a[where] ?? []).filter((n) => !bare.has(n.replace(/!$/, ''))), ...own];
  }
  return out;
}

/** The top-level members of a request schema, `!` where `annotations.required` names the method. */
function bodyMembers(schema: Json | undefined, methodId: string): string[] | undefined {
  if (!isObject(schema)) return undefined;
  const properties = isObject(schema.properties) ? schema.properties : {};
  return Object.entries(properties).map(([name, sub]) => {
    const annotations = isObject(sub) && isObject(sub.annotations) ? sub.annotations : {};
    const required = Array.isArray(annotations.required) && annotations.required.includes(methodId);
    return `${name}${required ? '!' : ''}`;
  });
}
