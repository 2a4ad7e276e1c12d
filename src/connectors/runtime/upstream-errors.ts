/**
 * Upstream HTTP answers -> DomainErrors. The definition's `errors.rules` run first (provider quirks such as
 * GitHub's "403 + x-ratelimit-remaining: 0 means rate limited"), then the default status table.
 * Only the allowlisted keys of an upstream body reach the client, with credential values redacted from its
 * values and keys; upstream headers and our request URL never do.
 */
import { DomainError, type ErrorCode } from '../../errors.ts';
import type { ConnectorDefinition, ErrorKind, ErrorRule, ErrorsDefinition } from '../schema.ts';
import { atPath } from './dpath.ts';
import type { UpstreamResponse } from './http.ts';

export interface ErrorContext {
  def: ConnectorDefinition;
  /** `issues.list`, or `credential check`. */
  operation: string;
  /** Credential values to scrub from anything echoed back. */
  secrets: string[];
  now?: () => number;
  /** The entity called, whose `permission_hint` explains a refusal. */
  entity?: string | undefined;
}

const CODES: Record<ErrorKind, ErrorCode> = {
  auth_failed: 'UPSTREAM_AUTH_FAILED',
  forbidden: 'UPSTREAM_FORBIDDEN',
  not_found: 'UPSTREAM_NOT_FOUND',
  rate_limited: 'UPSTREAM_RATE_LIMITED',
  unavailable: 'UPSTREAM_UNAVAILABLE',
  invalid_params: 'INVALID_PARAMS',
  error: 'UPSTREAM_ERROR',
};

/**
 * The error kind of a response, or null for a success. A GraphQL server answers failed operations with a 2xx
 * and an `errors` array (`graphql`: the request was a GraphQL operation); unless a rule says otherwise that
 * is an upstream error, also when `data` holds a partial answer, so a caller never gets half a record silently.
 */
export function classifyResponse(
  res: UpstreamResponse,
  body: unknown,
  errors?: ErrorsDefinition,
  graphql = false,
): ErrorKind | null {
  const read = errorBody(body, errors);
  const rule = errors?.rules?.find((r) => ruleMatches(r, res, read));
  if (rule) return rule.error;
  const s = res.status;
  if (s >= 200 && s < 300) return graphql && hasGraphqlErrors(body) ? 'error' : null;
  if (s === 401) return 'auth_failed';
  if (s === 403) return 'forbidden';
  if (s === 404 || s === 410) return 'not_found';
  if (s === 429) return 'rate_limited';
  if (s === 400 || s === 422) return 'invalid_params';
  if (s === 502 || s === 503 || s === 504) return 'unavailable';
  return 'error';
}

/** A top-level array answered as the errors (`[{message, errorCode}]`) is read under `array_body_key`. */
function errorBody(body: unknown, errors: ErrorsDefinition | undefined): unknown {
  const key = errors?.array_body_key;
  return key !== undefined && Array.isArray(body) ? { [key]: body } : body;
}

function hasGraphqlErrors(body: unknown): boolean {
  if (typeof body !== 'object' || body === null) return false;
  const errors = (body as { errors?: unknown }).errors;
  return Array.isArray(errors) && errors.length > 0;
}

export function upstreamError(
  kind: ErrorKind,
  res: UpstreamResponse,
  body: unknown,
  ctx: ErrorContext,
): DomainError {
  const exposed = exposeBody(
    errorBody(body, ctx.def.errors),
    ctx.def.errors?.expose_body_keys ?? [],
    ctx.secrets,
  );
  const extra = { upstream: { status: res.status, body: exposed } };
  const who = ctx.def.name;
  const op = ctx.operation;
  const said = res.status < 500 ? upstreamMessage(exposed, ctx.def.errors?.message_paths ?? []) : '';
  // The definition's words for what this refusal means (which permission to grant) replace the generic advice.
  const hint = ctx.def.entities.find((e) => e.name === ctx.entity)?.permission_hint;
  const advice = (kind: 'forbidden' | 'not_found', generic: string) =>
    hint?.on.includes(kind) ? hint.text : generic;
  const messages: Record<ErrorKind, string> = {
    auth_failed: `${who} rejected the connector's credentials (HTTP ${res.status}) for ${op}${said}. Update the connector's credentials.`,
    forbidden: `${who} refused ${op} (HTTP ${res.status})${said}. ${advice('forbidden', 'The credentials lack access to this resource or scope.')}`,
    not_found: `${who} found nothing for ${op} (HTTP ${res.status})${said}. ${advice('not_found', 'Check the params and that the credentials can see the resource.')}`,
    rate_limited: `${who} rate limit reached during ${op} (HTTP ${res.status})${said}.`,
    unavailable: `${who} is unavailable (HTTP ${res.status}) during ${op}; try again later.`,
    invalid_params: `${who} rejected the params of ${op} (HTTP ${res.status})${said}.`,
    error: `${who} answered ${op} with HTTP ${res.status}${said}.`,
  };
  const retryAfter =
    kind === 'rate_limited' ? retryAfterSeconds(res, ctx.def.errors, ctx.now ?? Date.now) : undefined;
  const message =
    retryAfter === undefined ? messages[kind] : `${messages[kind]} Retry after ${retryAfter} s.`;
  return new DomainError(CODES[kind], message, {
    extra,
    ...(retryAfter === undefined ? {} : { retryAfter }),
  });
}

function ruleMatches(rule: ErrorRule, res: UpstreamResponse, body: unknown): boolean {
  const { when } = rule;
  if (!when.status.includes(res.status)) return false;
  if (when.header && !valueMatches(res.headers[when.header.name.toLowerCase()], when.header)) return false;
  if (when.body && !valueMatches(atPath(body, when.body.path), when.body)) return false;
  return true;
}

function valueMatches(value: unknown, m: { equals?: unknown; contains?: string }): boolean {
  if (value === undefined) return false;
  // Headers are strings on the wire, so `equals: 0` in YAML must still match the header "0".
  if (
    m.equals !== undefined &&
    value !== m.equals &&
    !(typeof value === 'string' && value === String(m.equals))
  ) {
    return false;
  }
  if (m.contains !== undefined) {
    return typeof value === 'string' && value.toLowerCase().includes(m.contains.toLowerCase());
  }
  return true;
}

/** Seconds to wait: standard Retry-After first, then the definition's headers, then its default. */
export function retryAfterSeconds(
  res: UpstreamResponse,
  errors: ErrorsDefinition | undefined,
  now: () => number,
) {
  const sources = [
    { name: 'retry-after', format: 'retry-after' as const },
    ...(errors?.retry_after_headers ?? []),
  ];
  for (const { name, format } of sources) {
    const raw = res.headers[name.toLowerCase()]?.trim();
    if (!raw) continue;
    let seconds: number | undefined;
    const n = Number(raw);
    if (format === 'retry-after') seconds = Number.isFinite(n) ? n : (Date.parse(raw) - now()) / 1000;
    else if (format === 'seconds') seconds = n;
    else if (format === 'http_date' || format === 'iso8601') seconds = (Date.parse(raw) - now()) / 1000;
    else if (format === 'unix_seconds') seconds = n - now() / 1000;
    else seconds = (n - now()) / 1000;
    if (Number.isFinite(seconds)) return Math.min(86_400, Math.max(1, Math.ceil(seconds as number)));
  }
  return errors?.retry_after_default_seconds;
}

const MAX_STRING = 1000;
const MAX_ITEMS = 20;

function exposeBody(body: unknown, keys: readonly string[], secrets: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return out;
  const scrub = scrubber(secrets);
  for (const key of keys) {
    if (Object.hasOwn(body, key)) out[key] = sanitize((body as Record<string, unknown>)[key], scrub, 0);
  }
  return out;
}

const REDACTED = '[redacted]';

/**
 * Replaces every occurrence of a credential value, also inside longer text, and also percent-encoded (how a
 * query-placed key comes back in an echoed URL). Longest first, so a value that contains another is not
 * left half-shown. Values under 4 characters are skipped: they would redact ordinary words.
 */
function scrubber(secrets: string[]): (text: string) => string {
  const forms = new Set<string>();
  for (const secret of secrets) {
    if (secret.length < 4) continue;
    forms.add(secret);
    forms.add(encodeURIComponent(secret));
  }
  const ordered = [...forms].sort((a, b) => b.length - a.length);
  return (text) => {
    let s = text;
    for (const form of ordered) if (s.includes(form)) s = s.split(form).join(REDACTED);
    return s;
  };
}

/**
 * Bounded copy: upstream bodies are untrusted and may be huge or echo what we sent, in values and in keys
 * (`{"ghp_…": "bad credentials"}`), so both are scrubbed at every depth.
 */
function sanitize(value: unknown, scrub: (text: string) => string, depth: number): unknown {
  if (typeof value === 'string') {
    const s = scrub(value);
    return s.length > MAX_STRING ? `${s.slice(0, MAX_STRING)}...` : s;
  }
  if (typeof value !== 'object' || value === null) return value;
  if (depth >= 4) return '[...]';
  if (Array.isArray(value)) return value.slice(0, MAX_ITEMS).map((v) => sanitize(v, scrub, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value).slice(0, MAX_ITEMS)) {
    const key = scrub(k);
    const clipped = key.length > MAX_STRING ? `${key.slice(0, MAX_STRING)}...` : key;
    // defineProperty: a key such as `__proto__` must stay a plain member, not set the copy's prototype.
    Object.defineProperty(out, clipped, {
      value: sanitize(v, scrub, depth + 1),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}

/**
 * The provider's words: at the first declared `message_paths` that holds text, else the first exposed string,
 * list of strings (Gong's `errors: ["..."]`) or list of `{message}` objects (GraphQL's `errors`), in
 * `expose_body_keys` order. At a declared path, an object of strings (Jira's `errors: {field: text}`) reads
 * as `field: text; ...`.
 */
function upstreamMessage(exposed: Record<string, unknown>, paths: string[][]): string {
  const declared = paths.map((path) => {
    const v = atPath(exposed, path);
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return v;
    const entries = Object.entries(v);
    return entries.length > 0 && entries.every(([, x]) => typeof x === 'string')
      ? entries.map(([k, x]) => `${k}: ${x}`).join('; ')
      : v;
  });
  const texts = [...declared, ...Object.values(exposed)].map((v) => {
    if (!Array.isArray(v) || v.length === 0) return v;
    if (v.every((x) => typeof x === 'string')) return v.join('; ');
    const messages = v.map((x) =>
      typeof x === 'object' && x !== null ? (x as { message?: unknown }).message : x,
    );
    return messages.every((m) => typeof m === 'string') ? messages.join('; ') : v;
  });
  const text = texts.find((v): v is string => typeof v === 'string' && v.length > 0);
  return text ? `: ${text.length > 300 ? `${text.slice(0, 300)}...` : text}` : '';
}
