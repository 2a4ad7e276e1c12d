import type { FastifyInstance, FastifyRequest } from 'fastify';

/** Names the members of a request that were accepted and ignored: `body.grant_type`, `query.foo`. */
export const IGNORED_FIELDS_HEADER = 'x-ces-ignored-fields';

/** Bounds on what the header echoes of names a client chose. */
const MAX_NAMES = 20;
const MAX_NAME_LENGTH = 100;

type Part = 'body' | 'querystring';
type Open = { part: Part; known: ReadonlySet<string> };

/**
 * An object schema that is open (its `additionalProperties` is `true`) as the reference's request schemas are:
 * its members are checked, members it does not name are dropped before validation and named in the reply's
 * `x-ces-ignored-fields` header, so clients that send extras keep working and a typo stays visible. A schema
 * closed with `additionalProperties: false` still refuses them (422), where an unknown member would change what
 * the request does. Only the top level is open: nested objects keep their own rule.
 */
function openSchema(schema: unknown): ReadonlySet<string> | undefined {
  if (typeof schema !== 'object' || schema === null) return undefined;
  const s = schema as { type?: unknown; properties?: unknown; additionalProperties?: unknown };
  if (s.type !== 'object' || s.additionalProperties !== true) return undefined;
  if (typeof s.properties !== 'object' || s.properties === null) return undefined;
  return new Set(Object.keys(s.properties));
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * A client's key as header text: percent-encoded (no CR/LF, no non-ASCII, which would make setting the header
 * throw) and bounded. encodeURIComponent throws on half of a surrogate pair, so those become U+FFFD first.
 */
function headerName(prefix: string, key: string): string {
  return `${prefix}.${encodeURIComponent(key.slice(0, MAX_NAME_LENGTH).replace(LONE_SURROGATE, '\uFFFD'))}`;
}

function dropUnknown(value: unknown, known: ReadonlySet<string>, prefix: string, names: string[]): void {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return;
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    if (known.has(key)) continue;
    delete record[key];
    if (names.length < MAX_NAMES) names.push(headerName(prefix, key));
  }
}

const ignoredNames = new WeakMap<FastifyRequest, string[]>();

export function installIgnoredMembers(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    const schema = route.schema as Partial<Record<Part, unknown>> | undefined;
    const open: Open[] = [];
    for (const part of ['body', 'querystring'] as const) {
      const known = openSchema(schema?.[part]);
      if (known) open.push({ part, known });
    }
    if (open.length === 0) return;
    const strip = (request: FastifyRequest, _reply: unknown, done: () => void) => {
      const names: string[] = [];
      for (const { part, known } of open) {
        if (part === 'body') dropUnknown(request.body, known, 'body', names);
        else dropUnknown(request.query, known, 'query', names);
      }
      if (names.length > 0) ignoredNames.set(request, names);
      done();
    };
    const before = route.preValidation;
    route.preValidation =
      before === undefined ? [strip] : [...(Array.isArray(before) ? before : [before]), strip];
  });
  app.addHook('onSend', (request, reply, payload, done) => {
    const names = ignoredNames.get(request);
    if (names) reply.header(IGNORED_FIELDS_HEADER, names.join(', '));
    done(null, payload);
  });
}
