// Slack Web API wire conventions shared by every method (reference: the Swagger 2.0 description of the Web API,
// ../shared/reference/providers/slack.json, plus docs.slack.dev/apis/web-api for what it leaves out):
//   - Every method lives at /api/<method> and takes GET or POST. Arguments come from the query string, an
//     application/x-www-form-urlencoded body, or (for the methods whose `consumes` lists it, i.e. write methods)
//     an application/json body; query and body arguments mix.
//   - Token: `Authorization: Bearer <token>`, or a `token` form parameter. A JSON body can't carry the token.
//   - Answers are HTTP 200 with `{ok: true, ...}` or `{ok: false, error: "<code>"}` (plus `needed`/`provided`
//     for missing_scope, `response_metadata.messages` for invalid_arguments). Problems that don't stop the call
//     come back as `warning` (comma-separated) and `response_metadata.warnings` (missing_charset on a JSON body
//     without a charset, superfluous_charset on a form body with one).
//   - Rate limited: HTTP 429 with `Retry-After` (seconds) and `{ok: false, error: "ratelimited"}`.
//   - Unknown method: HTTP 404 `{ok: false, error: "unknown_method", req_method}`.
//   - Cursor paging: `cursor` + `limit` in, `response_metadata.next_cursor` out ("" on the last page). Cursors are
//     opaque base64 strings (Slack's look like base64 of `team:C061FA5PB` or `next_ts:1512085861000543`); this
//     fake encodes `<kind>:<key of the next record>` the same way and answers invalid_cursor to anything else.
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import type { Answer } from '../../kit/errors.ts';
import { send as sendShared } from '../../kit/server.ts';

export type Args = Record<string, unknown>;

export type { Answer } from '../../kit/errors.ts';

export function ok(body: Record<string, unknown> = {}): Answer {
  return { status: 200, body: { ok: true, ...body } };
}

export function fail(error: string, extra: Record<string, unknown> = {}): Answer {
  return { status: 200, body: { ok: false, error, ...extra } };
}

/** Slack's answer to a call missing a required argument. */
export function missingArg(name: string): Answer {
  return fail('invalid_arguments', {
    response_metadata: { messages: [`[ERROR] missing required field: ${name}`] },
  });
}

/** Slack answers JSON with an explicit charset. */
export function send(res: ServerResponse, answer: Answer): void {
  const body = answer.body;
  const isText = typeof body === 'string' || Buffer.isBuffer(body);
  sendShared(
    res,
    answer.status,
    { ...(isText ? {} : { 'content-type': 'application/json; charset=utf-8' }), ...(answer.headers ?? {}) },
    body,
  );
}

export interface ParsedArgs {
  args: Args;
  /** token sent as a form parameter (Slack accepts it there, not in a JSON body) */
  formToken?: string;
  warnings: string[];
  /** a body Slack refuses outright */
  error?: string;
}

/** Query and body arguments merged (body wins), as Slack reads them. */
export function parseArgs(
  query: URLSearchParams,
  headers: IncomingHttpHeaders,
  rawBody: string,
  acceptsJson: boolean,
): ParsedArgs {
  const args: Args = {};
  const warnings: string[] = [];
  for (const [k, v] of query) if (k !== 'token') args[k] = v;
  if (rawBody === '') return { args, warnings };
  const contentType = String(headers['content-type'] ?? '').toLowerCase();
  const [type = '', ...params] = contentType.split(';').map((s) => s.trim());
  const hasCharset = params.some((p) => p.startsWith('charset='));
  if (type === '') return { args, warnings, error: 'missing_post_type' };
  if (type === 'application/x-www-form-urlencoded') {
    if (hasCharset) warnings.push('superfluous_charset');
    let formToken: string | undefined;
    for (const [k, v] of new URLSearchParams(rawBody)) {
      if (k === 'token') formToken = v;
      else args[k] = v;
    }
    return { args, warnings, ...(formToken === undefined ? {} : { formToken }) };
  }
  if (type === 'application/json') {
    // Read methods take no JSON: Slack ignores such a body.
    if (!acceptsJson) return { args, warnings };
    if (!hasCharset) warnings.push('missing_charset');
    let value: unknown;
    try {
      value = JSON.parse(rawBody);
    } catch {
      return { args, warnings, error: 'invalid_json' };
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value))
      return { args, warnings, error: 'json_not_object' };
    for (const [k, v] of Object.entries(value)) if (k !== 'token') args[k] = v;
    return { args, warnings };
  }
  if (type === 'multipart/form-data') return { args, warnings };
  return { args, warnings, error: 'invalid_post_type' };
}

/** A string argument (JSON numbers and booleans read as their text), or undefined when absent or empty. */
export function str(args: Args, name: string): string | undefined {
  const v = args[name];
  if (v === undefined || v === null) return undefined;
  const s =
    typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : undefined;
  return s === undefined || s === '' ? undefined : s;
}

/** Slack's booleans: true, "true", 1, "1". */
export function bool(args: Args, name: string): boolean {
  const v = args[name];
  return v === true || v === 1 || v === 'true' || v === '1';
}

/** A whole-number argument, or undefined when absent or not a number. */
export function int(args: Args, name: string): number | undefined {
  const s = str(args, name);
  if (s === undefined || !/^-?\d+$/.test(s)) return undefined;
  return Number(s);
}

/** The page size of a cursor list: the client's `limit` (1..max), else the fake's default. */
export function pageLimit(args: Args, fallback: number, max = 1000): number {
  const limit = int(args, 'limit');
  if (limit === undefined || limit <= 0) return fallback;
  return Math.min(limit, max);
}

export function encodeCursor(kind: string, key: string): string {
  return Buffer.from(`${kind}:${key}`).toString('base64');
}

/** The key a cursor continues from; undefined when there is no cursor; 'invalid' when it isn't one of ours. */
export function decodeCursor(args: Args, kind: string): string | undefined | 'invalid' {
  const raw = str(args, 'cursor');
  if (raw === undefined) return undefined;
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(raw)) return 'invalid';
  const text = Buffer.from(raw, 'base64').toString('utf8');
  const prefix = `${kind}:`;
  if (!text.startsWith(prefix) || text.length === prefix.length) return 'invalid';
  return text.slice(prefix.length);
}

/**
 * A Slack timestamp ("1700000000.000100", or a bare "1700000000") in its canonical 10.6-digit form, which
 * orders correctly as a string. Undefined when absent, 'invalid' when it isn't a timestamp.
 */
export function canonicalTs(raw: string | undefined): string | undefined | 'invalid' {
  if (raw === undefined) return undefined;
  const m = /^(\d{1,10})(?:\.(\d{0,6})\d*)?$/.exec(raw);
  if (!m) return 'invalid';
  return `${(m[1] as string).padStart(10, '0')}.${(m[2] ?? '').padEnd(6, '0')}`;
}

/** A ts string from seconds and microseconds. */
export function tsOf(seconds: number, micros = 0): string {
  return `${String(seconds).padStart(10, '0')}.${String(micros).padStart(6, '0')}`;
}

/** Slack's body for an HTTP status injected with failNext when the fault brings none. */
export function defaultFaultBody(status: number, path: string): unknown {
  if (status === 429) return { ok: false, error: 'ratelimited' };
  if (status === 404) return { ok: false, error: 'unknown_method', req_method: methodOf(path) };
  if (status === 401 || status === 403) return { ok: false, error: 'invalid_auth' };
  if (status === 408) return { ok: false, error: 'request_timeout' };
  if (status === 400) return { ok: false, error: 'invalid_arguments' };
  if (status >= 500) return { ok: false, error: 'internal_error' };
  return { ok: false, error: 'fatal_error' };
}

/** `conversations.list` from `/api/conversations.list?x=1`. */
export function methodOf(path: string): string {
  const pathname = new URL(path, 'http://fake.invalid').pathname;
  return pathname.startsWith('/api/') ? decodeURIComponent(pathname.slice(5)) : pathname;
}
