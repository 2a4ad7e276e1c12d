/**
 * Parses and checks one definition file. The schema catches shape errors; `semanticErrors` catches what a
 * schema can't express (placeholders that name nothing, params that can't be placed), so a broken definition
 * fails at start-up instead of on a user's request.
 */
import { Compile } from 'typebox/compile';
import { Settings } from 'typebox/system';
import { parse as parseYaml } from 'yaml';
import { checkContextStore } from './load-context-store.ts';
import { checkHooks, withRetiredHint } from './load-hooks.ts';
import { checkPageSize, checkScoping } from './load-limits.ts';
import { declaredValueProblem, hasType } from './param-values.ts';
import { authorizationProblems } from './runtime/authorization-code.ts';
import { templateParams } from './runtime/body.ts';
import { refreshedAccessField, refreshProblems } from './runtime/oauth2.ts';
import { placementOf } from './runtime/request.ts';
import {
  ACTION_NAMES,
  type ActionDefinition,
  authPlacements,
  COLLECTION_ACTIONS,
  type ConnectorDefinition,
  ConnectorDefinitionSchema,
  type ParamDefinition,
  type RecordFields,
} from './schema.ts';
import { describeSchemaErrors, type SchemaError } from './schema-errors.ts';
import { placeholders } from './template.ts';

// Compiled at the first parse: a process that loads every definition from the build's cache never needs it.
let compiled: ReturnType<typeof Compile<typeof ConnectorDefinitionSchema>> | undefined;
function validator() {
  compiled ??= Compile(ConnectorDefinitionSchema);
  return compiled;
}
const NAME = /^[A-Za-z][A-Za-z0-9_]*$/;
/**
 * Param names may also hold inner hyphens and dots, as some providers' query names do (Gong's `manager-id`,
 * Asana's search filters `assignee.any`, `modified_at.after`); neither can be a `{placeholder}`.
 */
const PARAM_NAME = /^[A-Za-z][A-Za-z0-9_]*([-.][A-Za-z0-9_]+)*$/;
/** RFC 9110 token: what an HTTP header name may be. */
const HEADER_NAME = /^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/;
/** Param names the runtime itself interprets. */
export const RESERVED_PARAMS = ['cursor'] as const;

export function parseDefinition(text: string, fileName: string): ConnectorDefinition {
  let doc: unknown;
  try {
    doc = parseYaml(text);
  } catch (err) {
    throw new Error(`${fileName}: YAML syntax error: ${(err as Error).message}`);
  }
  if (!validator().Check(doc)) {
    const lines = describeSchemaErrors(allErrors(doc), ConnectorDefinitionSchema, doc);
    if (lines.length === 0) lines.push('/: does not match the definition schema');
    throw new Error(lines.map((l) => `${fileName}: ${withRetiredHint(l)}`).join('\n'));
  }
  const def = doc as ConnectorDefinition;
  const problems = semanticErrors(def);
  if (problems.length > 0) throw new Error(problems.map((l) => `${fileName}: ${l}`).join('\n'));
  return deepFreeze(def);
}

/**
 * TypeBox stops collecting after `maxErrors` (8 by default), which a union of six paging styles can use up
 * before reaching the branch the author meant. The setting is global, so it is raised only for this
 * synchronous call and restored before any other code can run.
 */
function allErrors(doc: unknown): Iterable<SchemaError> {
  const previous = Settings.Get().maxErrors;
  Settings.Set({ maxErrors: 500 });
  try {
    return [...validator().Errors(doc)] as SchemaError[];
  } finally {
    Settings.Set({ maxErrors: previous });
  }
}

export function semanticErrors(def: ConnectorDefinition): string[] {
  const out: string[] = [];
  checkBaseUrl(def, out);
  checkCredentials(def, out);
  checkExecuteAliases(def, out);
  checkScoping(def, out);
  const usage = def.rate_limit?.usage_header;
  if (usage?.format === 'remaining' && usage.size_header === undefined)
    out.push(
      '/rate_limit/usage_header/size_header: a count remaining needs the header of the total it is out of',
    );
  if (usage?.format === 'used_of_size' && usage.size_header !== undefined)
    out.push('/rate_limit/usage_header/size_header: used_of_size reads the total from the same header');
  checkHooks(def, out);
  const exposed = def.errors?.expose_body_keys ?? [];
  const arrayKey = def.errors?.array_body_key;
  if (arrayKey !== undefined && !exposed.includes(arrayKey))
    out.push(
      `/errors/array_body_key: '${arrayKey}' must be one of expose_body_keys (an array body reaches clients only under it)`,
    );
  def.errors?.message_paths?.forEach((path, i) => {
    if (!exposed.includes(path[0] ?? ''))
      out.push(
        `/errors/message_paths/${i}: must start with one of expose_body_keys (only those reach clients)`,
      );
  });
  if (placeholders(def.check.path).length > 0)
    out.push('/check/path: the check request cannot use placeholders');
  checkPathSegments(def.check.path, '/check/path', out);
  if (def.check.graphql !== undefined && def.check.method !== 'POST')
    out.push('/check/method: a GraphQL operation is sent as a POST');
  const configProps = def.replication_config.properties;
  for (const [i, key] of (def.replication_config.required ?? []).entries()) {
    if (!(key in configProps)) out.push(`/replication_config/required/${i}: '${key}' is not in properties`);
  }
  try {
    Compile(def.replication_config as never);
  } catch (err) {
    out.push(`/replication_config: not a usable JSON Schema (${(err as Error).message})`);
  }
  const seen = new Set<string>();
  def.entities.forEach((entity, i) => {
    if (seen.has(entity.name)) out.push(`/entities/${i}/name: duplicate entity '${entity.name}'`);
    seen.add(entity.name);
    for (const name of ACTION_NAMES) {
      const action = entity.actions[name];
      if (!action) continue;
      checkAction(action, name, `/entities/${i}/actions/${name}`, out);
      checkPageSize(action, name, `/entities/${i}/actions/${name}`, out);
    }
    if (entity.record_fields) checkRecordFields(entity.record_fields, `/entities/${i}/record_fields`, out);
    for (const name of ACTION_NAMES) {
      const fields = entity.actions[name]?.record_fields;
      if (fields === undefined) continue;
      const at = `/entities/${i}/actions/${name}/record_fields`;
      if (name === 'delete' || name === 'download') out.push(`${at}: a ${name} answers no records`);
      else checkRecordFields(fields, at, out);
    }
    if (entity.context_store)
      checkContextStore(def, entity, entity.context_store, `/entities/${i}/context_store`, out);
    // The text is shown as written: a `{placeholder}` would reach users unfilled.
    if (entity.permission_hint && /\{[^}]*\}/.test(entity.permission_hint.text))
      out.push(`/entities/${i}/permission_hint/text: shown as written; placeholders ({...}) are not filled`);
  });
  return out;
}

/** Segments a key may not name: writing them would reach an object's prototype. */
const PROTOTYPE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/** Each key writes one place: none may be a prefix of another (`a` beside `a.b`) or reach a prototype. */
function checkRecordFields(fields: RecordFields, at: string, out: string[]): void {
  const keys = Object.keys(fields);
  for (const key of keys) {
    const segments = key.split('.');
    if (segments.some((s) => PROTOTYPE_KEYS.has(s))) out.push(`${at}/${key}: names a prototype member`);
    const prefix = keys.find((other) => other !== key && key.startsWith(`${other}.`));
    if (prefix !== undefined) out.push(`${at}/${key}: '${prefix}' is written too, and holds it`);
  }
}

/** An alias of an execute param must not be a name any action already gives a param of its own. */
function checkExecuteAliases(def: ConnectorDefinition, out: string[]): void {
  const taken = new Map<string, string>();
  def.entities.forEach((entity, i) => {
    for (const name of ACTION_NAMES) {
      for (const [pname, p] of Object.entries(entity.actions[name]?.params ?? {})) {
        for (const n of [pname, ...(p.aliases ?? [])])
          taken.set(n, `/entities/${i}/actions/${name}/params/${pname}`);
      }
    }
  });
  const seen = new Set<string>();
  for (const [target, aliases] of Object.entries(def.execute_param_aliases ?? {})) {
    (aliases ?? []).forEach((alias, j) => {
      const at = `/execute_param_aliases/${target}/${j}`;
      if (!PARAM_NAME.test(alias)) out.push(`${at}: '${alias}' is not a valid param name`);
      else if (alias === 'cursor' || seen.has(alias))
        out.push(`${at}: '${alias}' is already an execute param or alias`);
      else if (taken.has(alias)) out.push(`${at}: '${alias}' is also a param at ${taken.get(alias)}`);
      seen.add(alias);
    });
  }
}

function checkBaseUrl(def: ConnectorDefinition, out: string[]): void {
  const vars = def.base_url_variables ?? {};
  const inBase = placeholders(def.base_url);
  for (const name of inBase) {
    if (!(name in vars)) out.push(`/base_url: placeholder {${name}} is not declared in base_url_variables`);
  }
  // A token endpoint may have a host of its own (a sandbox login host beside the production one).
  const used = [
    ...inBase,
    ...def.credential_options.flatMap((o) => (o.refresh ? placeholders(o.refresh.token_url) : [])),
  ];
  const sample: Record<string, string> = {};
  for (const [name, v] of Object.entries(vars)) {
    const at = `/base_url_variables/${name}`;
    if (!used.includes(name)) out.push(`${at}: variable is used neither in base_url nor in a token_url`);
    const key = v.config_key ?? (v.credential_field === undefined ? name : undefined);
    if (key !== undefined && !(key in def.replication_config.properties)) {
      out.push(`${at}: config key '${key}' is not a replication_config property`);
    }
    if (v.credential_field !== undefined) checkCredentialVariable(def, v, key, at, out);
    if (v.pattern !== undefined && !compiles(v.pattern))
      out.push(`${at}/pattern: not a valid regular expression`);
    else if (
      v.pattern !== undefined &&
      v.default !== undefined &&
      !new RegExp(v.pattern, 'u').test(v.default)
    )
      out.push(`${at}/default: does not match the variable's pattern ${v.pattern}`);
    sample[name] = v.default ?? 'example';
  }
  let url: URL | undefined;
  try {
    url = new URL(def.base_url.replace(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_, n: string) => sample[n] ?? 'x'));
  } catch {
    out.push('/base_url: does not form a URL (with variable defaults filled in)');
  }
  if (url && url.protocol !== 'https:' && url.protocol !== 'http:') out.push('/base_url: must be http(s)');
}

/**
 * A base URL filled from a credential ends up in logs of the URL and in cursors handed to clients (sealed, but
 * nothing secret belongs there), so the field must not be secret; and every option without the field needs another source for the variable.
 */
function checkCredentialVariable(
  def: ConnectorDefinition,
  v: NonNullable<ConnectorDefinition['base_url_variables']>[string],
  configKey: string | undefined,
  at: string,
  out: string[],
): void {
  const field = v.credential_field as string;
  const holders = def.credential_options.filter((o) => Object.hasOwn(o.fields, field));
  if (holders.length === 0) out.push(`${at}/credential_field: no credential option has a field '${field}'`);
  if (holders.some((o) => o.fields[field]?.secret === true))
    out.push(`${at}/credential_field: '${field}' is a secret field; a base URL must not hold a secret`);
  if (v.pattern === undefined) out.push(`${at}/pattern: required for a variable filled from credentials`);
  if (configKey === undefined && v.default === undefined) {
    def.credential_options.forEach((o, i) => {
      if (!Object.hasOwn(o.fields, field))
        out.push(
          `${at}: credential option ${i} ('${o.title}') has no '${field}' and there is no config_key or default`,
        );
    });
  }
}

function checkCredentials(def: ConnectorDefinition, out: string[]): void {
  const titles = new Set<string>();
  def.credential_options.forEach((opt, i) => {
    const at = `/credential_options/${i}`;
    const title = opt.title.toLowerCase();
    if (titles.has(title)) out.push(`${at}/title: duplicate option title '${opt.title}'`);
    titles.add(title);
    const names = new Set(Object.keys(opt.fields));
    for (const name of names) if (!NAME.test(name)) out.push(`${at}/fields/${name}: invalid field name`);
    const aliases = new Set<string>();
    for (const [name, field] of Object.entries(opt.fields)) {
      for (const alias of field.aliases ?? []) {
        if (names.has(alias) || aliases.has(alias))
          out.push(`${at}/fields/${name}/aliases: '${alias}' is ambiguous`);
        aliases.add(alias);
      }
    }
    opt.required.forEach((r, j) => {
      if (!names.has(r)) out.push(`${at}/required/${j}: '${r}' is not a declared field`);
    });
    // A refreshed access token may be left out by the user: ces obtains it before the first request.
    const refreshed = refreshedAccessField(opt);
    const placements = authPlacements(opt);
    const seen = new Set<string>();
    placements.forEach((auth, k) => {
      const where = Array.isArray(opt.auth) ? `${at}/auth/${k}` : `${at}/auth`;
      // Two placements writing the same header or query key: the second would silently win.
      const target =
        auth.type === 'query'
          ? `query ${auth.name}`
          : `header ${auth.type === 'header' ? auth.name.toLowerCase() : 'authorization'}`;
      if (seen.has(target)) out.push(`${where}: a second placement of ${target}`);
      seen.add(target);
      if (auth.type === 'header' && !HEADER_NAME.test(auth.name))
        out.push(`${where}/name: not an HTTP header name`);
      const templates = Object.entries(auth).filter(([key]) => key !== 'type' && key !== 'name');
      for (const [key, template] of templates) {
        for (const p of placeholders(String(template))) {
          if (!names.has(p)) out.push(`${where}/${key}: placeholder {${p}} is not a declared field`);
          else if (!opt.required.includes(p) && p !== refreshed)
            out.push(`${where}/${key}: placeholder {${p}} must be a required field`);
        }
      }
    });
    out.push(...refreshProblems(def, opt, at));
    out.push(...authorizationProblems(def, opt, at));
  });
}

function checkAction(action: ActionDefinition, name: string, at: string, out: string[]): void {
  const params = action.params ?? {};
  const inPath = placeholders(action.request.path);
  const method = action.request.method;
  if (action.download !== undefined && name !== 'download')
    out.push(`${at}/download: only the download action`);
  if (action.omits_empty_list === true && !COLLECTION_ACTIONS.includes(name as never))
    out.push(`${at}/omits_empty_list: only ${COLLECTION_ACTIONS.join(' and ')} actions answer a list`);
  else if (action.omits_empty_list === true && (action.record_selector ?? []).length === 0)
    out.push(`${at}/omits_empty_list: the records are the whole body, which an answer cannot leave out`);
  if (name === 'download' && (action.pagination !== undefined || action.record_selector !== undefined)) {
    out.push(`${at}: a download streams one file; it has no pagination or record_selector`);
  }
  if (name === 'download' && method !== 'GET' && action.download?.file_url === undefined) {
    out.push(`${at}/request/method: a direct download must be a GET`);
  }
  for (const p of inPath) {
    const param = params[p];
    if (!param) out.push(`${at}/request/path: placeholder {${p}} is not a declared param`);
    else if (param.in !== undefined && param.in !== 'path') out.push(`${at}/params/${p}/in: must be 'path'`);
    else if (
      param.required !== true &&
      action.variants === undefined &&
      !action.request.path.endsWith(`/{${p}}`)
    )
      out.push(`${at}/params/${p}/required: only the last path segment may be optional`);
    else if (param.type === 'array' || param.type === 'object')
      out.push(`${at}/params/${p}/type: a path param cannot be an ${param.type}`);
  }
  const names = new Set(Object.keys(params));
  for (const [pname, param] of Object.entries(params)) {
    for (const alias of param.aliases ?? []) {
      const aat = `${at}/params/${pname}/aliases`;
      if (!PARAM_NAME.test(alias)) out.push(`${aat}: '${alias}' is not a valid param name`);
      else if ((RESERVED_PARAMS as readonly string[]).includes(alias))
        out.push(`${aat}: '${alias}' is reserved by ces`);
      else if (names.has(alias))
        out.push(`${aat}: '${alias}' is already the name or an alias of another param`);
      names.add(alias);
    }
  }
  for (const [pname, param] of Object.entries(params)) {
    const pat = `${at}/params/${pname}`;
    if (!PARAM_NAME.test(pname)) out.push(`${pat}: invalid param name`);
    if ((RESERVED_PARAMS as readonly string[]).includes(pname))
      out.push(`${pat}: '${pname}' is reserved by ces`);
    if (param.in === 'path' && !inPath.includes(pname))
      out.push(`${pat}/in: not a placeholder of request.path`);
    if (param.in === 'body' && method === 'GET') out.push(`${pat}/in: a GET request has no body`);
    if ((param.type === 'array') !== (param.items !== undefined)) {
      out.push(`${pat}/items: required for type array and only allowed there`);
    }
    if (param.style !== undefined && param.type !== 'array') out.push(`${pat}/style: only for arrays`);
    if (param.items?.type === 'object') {
      const placed = placementOf(pname, param, action.request);
      if (placed !== 'body') out.push(`${pat}/items/type: objects travel only in a body (not ${placed})`);
      if (param.items.enum !== undefined) out.push(`${pat}/items/enum: not for object items`);
    }
    if (param.type === 'object') checkObjectParam(param, method, pat, out);
    else if (param.properties !== undefined) out.push(`${pat}/properties: only for type object`);
    if (param.pattern !== undefined && !compiles(param.pattern))
      out.push(`${pat}/pattern: invalid regular expression`);
    param.enum?.forEach((v, j) => {
      if (!hasType(v, param.type)) out.push(`${pat}/enum/${j}: must be of type ${param.type}`);
    });
    if (param.default !== undefined && !defaultFits(param))
      out.push(`${pat}/default: does not match the param`);
    if (param.send_default === true && param.default === undefined)
      out.push(`${pat}/send_default: needs a default to send`);
    else if (param.send_default === true && defaultFits(param)) {
      const why = declaredValueProblem(pname, param.default, param);
      if (why !== undefined)
        out.push(`${pat}/default: is sent on every request but fails its own check: ${why}`);
    }
    param.conflicts_with?.forEach((other, j) => {
      if (other === pname || !Object.hasOwn(params, other))
        out.push(`${pat}/conflicts_with/${j}: '${other}' is not another param of this action`);
    });
  }
  const paged = action.pagination && action.pagination.type !== 'none';
  if (paged && !COLLECTION_ACTIONS.includes(name as never)) {
    out.push(`${at}/pagination: only ${COLLECTION_ACTIONS.join(' and ')} actions can page`);
  }
  const styles = action.pagination?.type === 'first_of' ? action.pagination.styles : [action.pagination];
  const inBody = styles.some((p) => p !== undefined && 'in' in p && p.in === 'body');
  if (inBody && !hasBody(method)) {
    out.push(`${at}/pagination: a ${method} request has no body to put the cursor in (in: body)`);
  }
  if (action.download?.follow !== undefined && action.download.file_url === undefined)
    out.push(`${at}/download/follow: only after file_url (it reads the answer of that URL)`);
  checkPathSegments(action.request.path, `${at}/request/path`, out);
  checkVariants(action, at, out);
  checkBodyTemplate(action, at, out);
  checkQueryTemplate(action, at, out);
  checkMedia(action, at, out);
  checkGraphql(action, at, out);
}

/** Placeholders that stand inside longer text of a template (not a whole string). */
function textPlaceholders(template: unknown): string[] {
  const out = new Set<string>();
  const walk = (node: unknown) => {
    if (typeof node === 'string') {
      if (!/^\{[^{}]+\}$/.test(node)) for (const name of placeholders(node)) out.add(name);
    } else if (Array.isArray(node)) node.forEach(walk);
    else if (node !== null && typeof node === 'object') Object.values(node).forEach(walk);
  };
  walk(template);
  return [...out];
}

/** Each variant names declared params, and its path only declared params that are path params everywhere. */
function checkVariants(action: ActionDefinition, at: string, out: string[]): void {
  const params = action.params ?? {};
  action.variants?.forEach((variant, i) => {
    const vat = `${at}/variants/${i}`;
    variant.when.forEach((name, j) => {
      if (!Object.hasOwn(params, name)) out.push(`${vat}/when/${j}: '${name}' is not a declared param`);
    });
    for (const p of placeholders(variant.request.path)) {
      const param = params[p];
      if (!param) out.push(`${vat}/request/path: placeholder {${p}} is not a declared param`);
      else if (param.in !== undefined && param.in !== 'path')
        out.push(`${at}/params/${p}/in: must be 'path'`);
      else if (param.type === 'array' || param.type === 'object')
        out.push(`${at}/params/${p}/type: a path param cannot be an ${param.type}`);
    }
    if (variant.request.graphql !== undefined || variant.request.body !== undefined)
      out.push(`${vat}/request: a variant is a plain REST request (no graphql or body template)`);
    if (action.download !== undefined || action.pagination !== undefined)
      out.push(`${vat}: only single-record actions (no paging, no download) have variants`);
    checkPathSegments(variant.request.path, `${vat}/request/path`, out);
  });
}

/**
 * A body template may only name body params of its action, and only where a body is sent as JSON or a form;
 * a param it names must not also be a top-level member of another name (the body would carry it twice).
 */
function checkBodyTemplate(action: ActionDefinition, at: string, out: string[]): void {
  const req = action.request;
  if (req.body_format !== undefined && req.graphql !== undefined)
    out.push(`${at}/request/body_format: a GraphQL operation is always sent as JSON`);
  if (req.body_format !== undefined && !hasBody(req.method))
    out.push(`${at}/request/body_format: a ${req.method} request has no body`);
  if (req.body === undefined) return;
  if (req.graphql !== undefined) out.push(`${at}/request/body: a GraphQL operation builds its own body`);
  if (!hasBody(req.method)) out.push(`${at}/request/body: a ${req.method} request has no body`);
  const params = action.params ?? {};
  for (const name of templateParams(req.body)) {
    const param = params[name];
    if (param === undefined) out.push(`${at}/request/body: placeholder {${name}} is not a declared param`);
    else if (placementOf(name, param, req) !== 'body')
      out.push(`${at}/params/${name}/in: the body template places it, so it must be a body param`);
  }
  // A value written into longer text (a query language: Jira's JQL) must be kept from rewriting it.
  for (const name of textPlaceholders(req.body)) {
    const param = params[name];
    if (param?.type === 'string' && !param.pattern && !param.enum && !param.format)
      out.push(
        `${at}/params/${name}: the body template writes it into text, so it needs a pattern, enum or format`,
      );
  }
  const members = new Set(Object.keys(req.body));
  for (const [name, param] of Object.entries(params)) {
    if (placementOf(name, param, req) !== 'body' || templateParams(req.body).includes(name)) continue;
    const key = param.api_name ?? name;
    if (members.has(key)) out.push(`${at}/params/${name}: the body template already has a member '${key}'`);
  }
}

/**
 * A multipart/related body names its file's params, both body params; the media type is written into a part's
 * header, so its param must be held to a pattern or enum (no line break can end the header early).
 */
function checkMedia(action: ActionDefinition, at: string, out: string[]): void {
  const req = action.request;
  const multipart = req.body_format === 'multipart_related';
  if (multipart !== (req.media !== undefined)) {
    out.push(
      multipart
        ? `${at}/request/media: a multipart_related body needs it (the params of the file and its type)`
        : `${at}/request/media: only with body_format: multipart_related`,
    );
    return;
  }
  if (req.media === undefined) return;
  const params = action.params ?? {};
  for (const key of ['content', 'content_type'] as const) {
    const name = req.media[key];
    const param = params[name];
    if (param === undefined) out.push(`${at}/request/media/${key}: '${name}' is not a declared param`);
    else if (placementOf(name, param, req) !== 'body' || param.type !== 'string')
      out.push(`${at}/request/media/${key}: '${name}' must be a string body param`);
  }
  const type = params[req.media.content_type];
  if (type !== undefined && !type.pattern && !type.enum)
    out.push(`${at}/params/${req.media.content_type}: a part's media type needs a pattern or enum`);
  if (req.body !== undefined) out.push(`${at}/request/body: a multipart_related body is its params' members`);
}

/**
 * A query template may only name query params of its action, each written into text guarded as in a body
 * template (a part that is exactly one placeholder is the client's own text, as a search box's); a member it
 * fills must not also be a query param's key (the URL would carry it twice).
 */
function checkQueryTemplate(action: ActionDefinition, at: string, out: string[]): void {
  const req = action.request;
  if (req.query === undefined) return;
  const params = action.params ?? {};
  const named = templateParams(req.query);
  for (const name of named) {
    const param = params[name];
    if (param === undefined) out.push(`${at}/request/query: placeholder {${name}} is not a declared param`);
    else if (placementOf(name, param, req) !== 'query')
      out.push(`${at}/params/${name}/in: the query template places it, so it must be a query param`);
  }
  for (const name of textPlaceholders(req.query)) {
    const param = params[name];
    if (param?.type === 'string' && !param.pattern && !param.enum && !param.format)
      out.push(
        `${at}/params/${name}: the query template writes it into text, so it needs a pattern, enum or format`,
      );
  }
  const members = new Set(Object.keys(req.query));
  for (const [name, param] of Object.entries(params)) {
    if (placementOf(name, param, req) !== 'query' || named.includes(name)) continue;
    const key = param.api_name ?? name;
    if (members.has(key)) out.push(`${at}/params/${name}: the query template already has a member '${key}'`);
  }
}

/**
 * `..` may only lead a path, to climb out of the base URL's path (a GraphQL endpoint beside a versioned REST
 * root, as GitHub Enterprise's /api/graphql beside /api/v3); URL resolution never leaves the base's origin.
 * Anywhere else a dot segment would only obscure which endpoint is called.
 */
function checkPathSegments(path: string, at: string, out: string[]): void {
  const segments = path.split('/').slice(1);
  const climbing = segments.findIndex((seg) => seg !== '..');
  const rest = climbing === -1 ? [] : segments.slice(climbing);
  if (climbing === -1) out.push(`${at}: names no endpoint after '..'`);
  else if (rest.some((seg) => seg === '.' || seg === '..'))
    out.push(`${at}: '.' and '..' segments are only allowed at the start`);
}

/** The variables a GraphQL document declares (`$name: Type` in its operation's variable definitions). */
function declaredVariables(query: string): Set<string> {
  return new Set([...query.matchAll(/\$([_A-Za-z][_0-9A-Za-z]*)\s*:/g)].map((m) => m[1] as string));
}

function checkGraphql(action: ActionDefinition, at: string, out: string[]): void {
  const req = action.request;
  const styles = action.pagination?.type === 'first_of' ? action.pagination.styles : [action.pagination];
  const relay = styles.filter((p) => p?.type === 'relay');
  if (req.graphql === undefined) {
    if (relay.length > 0) out.push(`${at}/pagination: relay paging needs a request.graphql operation`);
    return;
  }
  if (req.method !== 'POST') out.push(`${at}/request/method: a GraphQL operation is sent as a POST`);
  if (action.download !== undefined)
    out.push(`${at}/request/graphql: a download cannot be a GraphQL operation`);
  const declared = declaredVariables(req.graphql.query);
  for (const name of Object.keys(req.graphql.variables ?? {})) {
    if (!declared.has(name))
      out.push(`${at}/request/graphql/variables/${name}: the query declares no variable $${name}`);
  }
  const templated = templateParams(req.graphql.variables ?? {});
  for (const name of templated) {
    const param = action.params?.[name];
    if (param === undefined)
      out.push(`${at}/request/graphql/variables: placeholder {${name}} is not a declared param`);
    else if (placementOf(name, param, req) !== 'body')
      out.push(`${at}/params/${name}/in: the variables template places it, so it must be a body param`);
  }
  for (const [pname, param] of Object.entries(action.params ?? {})) {
    if (placementOf(pname, param, req) !== 'body' || templated.includes(pname)) continue;
    const variable = param.api_name ?? pname;
    if (!declared.has(variable))
      out.push(`${at}/params/${pname}: the query declares no variable $${variable} for this param`);
  }
  for (const p of relay) {
    if (p?.type === 'relay' && !declared.has(p.variable))
      out.push(`${at}/pagination: the query declares no variable $${p.variable} for the page cursor`);
  }
}

function hasBody(method: string): boolean {
  return method !== 'GET' && method !== 'DELETE';
}

/**
 * An object travels as a body member, or in a query with bracketed keys (`created[gte]=...`, one level of
 * scalar members); its declared members are checked like params.
 */
function checkObjectParam(param: ParamDefinition, method: string, pat: string, out: string[]): void {
  const placed = param.in ?? (hasBody(method) ? 'body' : 'query');
  if (placed !== 'body' && placed !== 'query')
    out.push(`${pat}/type: an object param goes in the body or the query (not ${placed})`);
  if (placed === 'query') {
    if (param.properties === undefined)
      out.push(`${pat}/properties: an object param in a query declares its members`);
    for (const [key, prop] of Object.entries(param.properties ?? {})) {
      if (prop.type === 'object' || prop.type === 'array')
        out.push(`${pat}/properties/${key}/type: a query object's members are scalars`);
    }
  }
  for (const [key, prop] of Object.entries(param.properties ?? {})) {
    const at = `${pat}/properties/${key}`;
    if ((prop.type === 'array') !== (prop.items !== undefined))
      out.push(`${at}/items: required for type array and only allowed there`);
    prop.enum?.forEach((v, j) => {
      if (!hasType(v, prop.type)) out.push(`${at}/enum/${j}: must be of type ${prop.type}`);
    });
  }
}

function defaultFits(param: ParamDefinition): boolean {
  if (!hasType(param.default, param.type)) return false;
  return param.enum === undefined || param.enum.includes(param.default as never);
}

function compiles(pattern: string): boolean {
  try {
    new RegExp(pattern, 'u');
    return true;
  } catch {
    return false;
  }
}

/** Definitions are shared by every request; freezing them makes accidental mutation by the runtime loud. */
export function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}
