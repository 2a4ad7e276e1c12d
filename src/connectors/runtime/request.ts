/** Turns a definition + config + params into the URL, headers and body of one upstream request. */
import { randomUUID } from 'node:crypto';
import { DomainError, invalidField } from '../../errors.ts';
import { BoundedCache } from '../bounded-cache.ts';
import type { ResolvedCredentials } from '../credentials.ts';
import { headerValueProblem } from '../header-value.ts';
import {
  type ActionDefinition,
  authPlacements,
  type ConnectorDefinition,
  type ParamDefinition,
  type RequestDefinition,
} from '../schema.ts';
import { placeholders, render } from '../template.ts';
import {
  type BodyFormat,
  fillQuery,
  fillTemplate,
  formPairs,
  type MediaMembers,
  templateParams,
} from './body.ts';

export interface BaseUrl {
  /** Without a trailing slash, so `base + '/repos/...'` keeps any base path (GitHub Enterprise's `/api/v3`). */
  href: string;
  origin: string;
  /** False only when the URL came from the operator's `upstreamOverrides`. */
  guarded: boolean;
}

export function resolveBaseUrl(
  def: ConnectorDefinition,
  config: Record<string, unknown>,
  overrides: Record<string, string>,
  credentials?: ResolvedCredentials,
): BaseUrl {
  const override = overrides[def.slug];
  if (override !== undefined) return toBase(override, false, `upstream override for '${def.slug}'`);
  const values: Record<string, string> = {};
  const used = placeholders(def.base_url);
  for (const [name, v] of Object.entries(def.base_url_variables ?? {})) {
    // Only what this URL needs: a token URL's host variable is not the API's, nor the reverse.
    if (!used.includes(name)) continue;
    const { value, field, key } = variableSource(name, v, config, credentials);
    if (value === undefined) {
      const where = [
        v.credential_field && `credentials.${v.credential_field}`,
        key && `replication_config.${key}`,
      ];
      const named = where.filter(Boolean);
      throw badConfig(
        named[0] as string,
        `${named.join(' or ')} is required to build the ${def.name} base URL (${v.description}).`,
      );
    }
    // Where the value came from names the field to fix; the value itself is never echoed.
    if (v.pattern !== undefined && !patternOf(v.pattern).test(value)) {
      throw badConfig(field, `${field} must match ${v.pattern}.`);
    }
    values[name] = value;
  }
  return toBase(render(def.base_url, values), true, 'the base URL built from the connector settings');
}

type BaseUrlVariable = NonNullable<ConnectorDefinition['base_url_variables']>[string];

/** Variable patterns compiled once (a definition's, so few); `test` on a non-global RegExp keeps no state. */
const patterns = new BoundedCache<RegExp>(1_000);
const patternOf = (source: string) => patterns.get(source) ?? patterns.keep(source, new RegExp(source, 'u'));

/** A base-URL variable's value (credentials first, then replication_config, then the default) and its source. */
function variableSource(
  name: string,
  v: BaseUrlVariable,
  config: Record<string, unknown>,
  credentials: ResolvedCredentials | undefined,
): { value: string | undefined; field: string; key: string | undefined } {
  const key = v.config_key ?? (v.credential_field === undefined ? name : undefined);
  const cred = v.credential_field;
  const fromCredentials = cred === undefined ? undefined : nonEmpty(credentials?.values[cred]);
  if (fromCredentials !== undefined) return { value: fromCredentials, field: `credentials.${cred}`, key };
  const fromConfig = key === undefined ? undefined : nonEmpty(config[key]);
  return { value: fromConfig ?? v.default, field: `replication_config.${key ?? name}`, key };
}

/**
 * The settings that decide where a connector's credentials are sent (the base URL, and so an OAuth2 token
 * endpoint built from the same variables) and whose value differs between two configurations: each as the
 * field that set it. Credentials are the stored ones; they take precedence over the config as at request time.
 */
export function movedDestinationFields(
  def: ConnectorDefinition,
  before: Record<string, unknown>,
  after: Record<string, unknown>,
  credentials: ResolvedCredentials | undefined,
): string[] {
  const moved: string[] = [];
  for (const [name, v] of Object.entries(def.base_url_variables ?? {})) {
    const was = variableSource(name, v, before, credentials);
    const now = variableSource(name, v, after, credentials);
    if (was.value !== now.value) moved.push(now.field);
  }
  return moved;
}

/** Does any base-URL variable read this config? (Then a config change may move the credentials elsewhere.) */
export function destinationConfigKeys(def: ConnectorDefinition): string[] {
  return Object.entries(def.base_url_variables ?? {}).flatMap(([name, v]) => {
    const key = v.config_key ?? (v.credential_field === undefined ? name : undefined);
    return key === undefined ? [] : [key];
  });
}

function nonEmpty(value: unknown): string | undefined {
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

/**
 * Base URLs already checked, by their text: every call builds its connector's base URL again (from settings
 * and credentials that rarely change), and parsing and checking it cost several µs of an execute. Only valid
 * ones are kept (an invalid one throws each time, with the message of its source).
 */
const checkedBases = new BoundedCache<BaseUrl>(1_000);

function toBase(raw: string, guarded: boolean, what: string): BaseUrl {
  const key = guarded ? `g${raw}` : `o${raw}`;
  return checkedBases.get(key) ?? checkedBases.keep(key, Object.freeze(parseBase(raw, guarded, what)));
}

function parseBase(raw: string, guarded: boolean, what: string): BaseUrl {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw badConfig(null, `${what} is not a valid URL.`);
  }
  // Credentials, queries or fragments in a base URL would leak into every request or confuse path joining.
  if (
    (url.protocol !== 'https:' && url.protocol !== 'http:') ||
    url.username ||
    url.password ||
    url.search ||
    url.hash
  ) {
    throw badConfig(null, `${what} must be a plain http(s) URL without credentials, query or fragment.`);
  }
  return { href: url.href.replace(/\/+$/, ''), origin: url.origin, guarded };
}

/** `field` is the full path of the setting at fault (`replication_config.x`, `credentials.y`). */
function badConfig(field: string | null, message: string): DomainError {
  return new DomainError('VALIDATION_ERROR', message, {
    errors: [{ field: field ?? 'replication_config', message, error_code: 'invalid_config' }],
  });
}

type Placement = 'path' | 'query' | 'header' | 'body';

/** The request the given params select: the first variant whose `when` params are all given, else `request`. */
export function requestFor(action: ActionDefinition, params: Record<string, unknown>): RequestDefinition {
  const given = (name: string) => params[name] !== undefined && params[name] !== null;
  return action.variants?.find((v) => v.when.every(given))?.request ?? action.request;
}

/**
 * The params a request sends: all declared ones, except path params of the action's other requests that this
 * one has no place for (an id is never sent as a query param because a variant was chosen).
 */
export function paramsFor(action: ActionDefinition, req: RequestDefinition): Record<string, ParamDefinition> {
  const declared = action.params ?? {};
  if (action.variants === undefined) return declared;
  const own = new Set(placeholders(req.path));
  const elsewhere = new Set(
    [action.request, ...action.variants.map((v) => v.request)].flatMap((r) => placeholders(r.path)),
  );
  return Object.fromEntries(
    Object.entries(declared).filter(([name]) => own.has(name) || !elsewhere.has(name)),
  );
}

export function placementOf(name: string, param: ParamDefinition, req: RequestDefinition): Placement {
  if (param.in) return param.in;
  if (placeholders(req.path).includes(name)) return 'path';
  return req.method === 'GET' || req.method === 'DELETE' ? 'query' : 'body';
}

export interface BuiltRequest {
  url: URL;
  headers: Record<string, string>;
  /** The body as a JSON value; encoded as `bodyFormat` says when sent (JSON if absent). */
  body?: Record<string, unknown>;
  bodyFormat?: BodyFormat;
  /** With `multipart_related`: the body members holding the file and its media type. */
  media?: MediaMembers;
}

/** Builds the first-page request. Params must already be validated. */
export function buildRequest(
  base: BaseUrl,
  req: RequestDefinition,
  declared: Record<string, ParamDefinition>,
  params: Record<string, unknown>,
): BuiltRequest {
  const pathValues: Record<string, string> = {};
  const headers: Record<string, string> = {};
  const body: Record<string, unknown> = {};
  // Params the body template places are not also top-level members.
  const template = req.graphql?.variables ?? req.body;
  const templated = new Set(template === undefined ? [] : templateParams(template));
  const templateValues: Record<string, unknown> = {};
  // Params a query template places are written into its text, not sent under their own names.
  const queryTemplated = queryTemplateParams(req);
  const query: Array<[string, string]> = [];
  // Declared order, not the client's order, so the same call always produces the same URL.
  for (const [name, param] of Object.entries(declared)) {
    const value = paramValue(name, param, params);
    if (value === undefined || value === null) continue;
    const key = param.api_name ?? name;
    switch (placementOf(name, param, req)) {
      case 'path':
        pathValues[name] = scalar(value);
        break;
      case 'query':
        if (queryTemplated?.has(name)) {
          templateValues[name] = value;
          break;
        }
        // An object param: one query key per member, bracketed (`created[gte]=1700000000`).
        if (typeof value === 'object' && !Array.isArray(value)) query.push(...formPairs(value, key));
        else if (Array.isArray(value) && param.style === 'repeat')
          for (const v of value) query.push([key, scalar(v)]);
        else query.push([key, Array.isArray(value) ? value.map(scalar).join(',') : scalar(value)]);
        break;
      case 'header':
        headers[key.toLowerCase()] = Array.isArray(value) ? value.map(scalar).join(',') : scalar(value);
        break;
      case 'body':
        if (templated.has(name)) templateValues[name] = value;
        else body[key] = value;
        break;
    }
  }
  if (req.query !== undefined)
    query.unshift(
      ...(queryTemplated === undefined ? constantQuery(req.query) : fillQuery(req.query, templateValues)),
    );
  // encodeURIComponent makes each value exactly one segment ('/' -> %2F); '.'/'..' are rejected by validation.
  const target = base.href + render(optionalTail(req.path, pathValues), pathValues, encodeURIComponent);
  let url: URL;
  if (query.length > 0 && !/[?#]/.test(target)) {
    // Parsed once, with its query: the same URL as setting `search` on the parsed path, one parse fewer.
    url = new URL(`${target}?${withPairs('', query)}`);
  } else {
    url = new URL(target);
    // A path template with a query of its own keeps it, the params appended after.
    if (query.length > 0) url.search = withPairs(url.search, query);
  }
  for (const [k, v] of Object.entries(req.headers ?? {})) headers[k.toLowerCase()] = v;
  const keyHeader = req.idempotency_key_header?.toLowerCase();
  if (keyHeader !== undefined && headers[keyHeader] === undefined) headers[keyHeader] = randomUUID();
  if (req.graphql !== undefined) {
    // Declared order again; a client's value overrides a declared constant of the same variable.
    const variables = { ...fillTemplate(req.graphql.variables ?? {}, templateValues), ...body };
    return { url, headers, body: { query: req.graphql.query, variables } };
  }
  const members = req.body === undefined ? body : { ...fillTemplate(req.body, templateValues), ...body };
  const hasBody = req.method !== 'GET' && (req.body !== undefined || Object.keys(members).length > 0);
  return {
    url,
    headers,
    ...(hasBody ? { body: members } : {}),
    ...(req.body_format === undefined ? {} : { bodyFormat: req.body_format }),
    ...(req.media === undefined
      ? {}
      : {
          media: {
            content: declared[req.media.content]?.api_name ?? req.media.content,
            contentType: declared[req.media.content_type]?.api_name ?? req.media.content_type,
            encoding: req.media.encoding,
          },
        }),
  };
}

/** The params a request's query template names; undefined when its query is all constants (most requests). */
const queryTemplates = new WeakMap<object, Set<string> | undefined>();
function queryTemplateParams(req: RequestDefinition): Set<string> | undefined {
  if (req.query === undefined) return undefined;
  if (queryTemplates.has(req.query)) return queryTemplates.get(req.query);
  const names = templateParams(req.query);
  const out = names.length === 0 ? undefined : new Set(names);
  queryTemplates.set(req.query, out);
  return out;
}

/** A query of constants only: strings, or parts sent joined by spaces. */
function constantQuery(query: Record<string, string | readonly string[]>): Array<[string, string]> {
  return Object.entries(query).map(([k, v]) => [k, typeof v === 'string' ? v : v.join(' ')]);
}

/** `search` with `pairs` appended, serialised once (each url.searchParams.append writes the whole query back). */
function withPairs(search: string, pairs: Array<[string, string]>): string {
  const params = new URLSearchParams(search);
  for (const [k, v] of pairs) params.append(k, v);
  return params.toString();
}

/** The client's value, else the default of a `send_default` param unless a conflicting param was given. */
function paramValue(name: string, param: ParamDefinition, params: Record<string, unknown>): unknown {
  const given = Object.hasOwn(params, name) ? params[name] : undefined;
  if (given !== undefined && given !== null) return given;
  if (param.send_default !== true) return undefined;
  const conflicting = (param.conflicts_with ?? []).some(
    (other) => Object.hasOwn(params, other) && params[other] !== undefined && params[other] !== null,
  );
  return conflicting ? undefined : param.default;
}

function scalar(value: unknown): string {
  return typeof value === 'string' ? value : String(value);
}

/** Headers every request of a connector carries; later sources override earlier ones. */
export function baseHeaders(def: ConnectorDefinition, userAgent: string): Record<string, string> {
  const out: Record<string, string> = { accept: 'application/json', 'user-agent': userAgent };
  for (const [k, v] of Object.entries(def.headers ?? {})) out[k.toLowerCase()] = v;
  return out;
}

/**
 * Puts the credential everywhere the option says. Returns the query parameter names used, so paginators can
 * keep them out of cursors (sealed, but handed to clients: a credential has no place in one).
 */
export function applyAuth(
  def: ConnectorDefinition,
  credentials: ResolvedCredentials,
  url: URL,
  headers: Record<string, string>,
): string[] {
  let kept = placedAuth.get(credentials);
  if (kept?.def !== def) {
    kept = { def, placed: placeAuth(def, credentials) };
    // Only frozen credentials, which cannot change under the kept answer (those execute shares between calls).
    if (Object.isFrozen(credentials) && Object.isFrozen(credentials.values))
      placedAuth.set(credentials, kept);
  }
  for (const [name, value] of kept.placed.headers) headers[name] = value;
  const inQuery: string[] = [];
  for (const [name, value] of kept.placed.query) {
    url.searchParams.set(name, value);
    inQuery.push(name);
  }
  return inQuery;
}

/** Where a connector's credentials go: header and query values, in the option's order. */
interface AuthPlacement {
  headers: Array<[string, string]>;
  query: Array<[string, string]>;
}

/**
 * Placed once per credentials object and definition: the calls of a connector share its credentials object
 * (src/core/connectors/credential-store.ts) and each placed the same values again (templates, header checks,
 * Basic's base64).
 */
const placedAuth = new WeakMap<ResolvedCredentials, { def: ConnectorDefinition; placed: AuthPlacement }>();

function placeAuth(def: ConnectorDefinition, credentials: ResolvedCredentials): AuthPlacement {
  const option = def.credential_options.find((o) => o.title === credentials.option);
  if (!option) {
    throw new DomainError(
      'INVALID_CREDENTIALS',
      `The connector's credentials use option '${credentials.option}', which ${def.name} does not define; update the connector's credentials.`,
    );
  }
  const fill = (template: string) => {
    let out: string;
    try {
      out = render(template, credentials.values);
    } catch {
      throw new DomainError(
        'INVALID_CREDENTIALS',
        `The connector's credentials for '${option.title}' are incomplete; update them.`,
      );
    }
    return out;
  };
  // Values are checked when credentials are stored; this catches ones stored before that check, and
  // tokens a provider's refresh endpoint issued, naming the field as a 422 instead of failing to send.
  const header = (name: string, template: string, prefix = '') => {
    for (const field of placeholders(template)) {
      const why = headerValueProblem(credentials.values[field] ?? '');
      if (why !== undefined) {
        const message = `credentials.${field} ${why}, which an HTTP header can't carry; update the connector's credentials.`;
        throw invalidField('INVALID_CREDENTIALS', `credentials.${field}`, message);
      }
    }
    placed.headers.push([name, prefix + fill(template)]);
  };
  const placed: AuthPlacement = { headers: [], query: [] };
  for (const auth of authPlacements(option)) {
    switch (auth.type) {
      case 'bearer':
        header('authorization', auth.token, 'Bearer ');
        break;
      case 'header':
        header(auth.name.toLowerCase(), auth.value);
        break;
      case 'basic':
        // Base64 carries any text.
        placed.headers.push([
          'authorization',
          `Basic ${Buffer.from(`${fill(auth.username)}:${fill(auth.password)}`).toString('base64')}`,
        ]);
        break;
      case 'query':
        placed.query.push([auth.name, fill(auth.value)]);
        break;
    }
  }
  return placed;
}

/** An optional path param may only be the last segment (`/tarball/{ref}`); without a value that segment goes. */
function optionalTail(path: string, values: Record<string, string>): string {
  const tail = /\/\{([A-Za-z_][A-Za-z0-9_]*)\}$/.exec(path);
  return tail?.[1] !== undefined && values[tail[1]] === undefined ? path.slice(0, tail.index) : path;
}
