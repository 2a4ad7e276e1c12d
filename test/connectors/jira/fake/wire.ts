// Jira Cloud wire conventions shared by every route (REST API v3, reference: the platform OpenAPI document,
// ../shared/reference/providers/jira.json, plus developer.atlassian.com pages where it is silent):
//   - Auth: `Authorization: Basic base64(email:api_token)` (securitySchemes.basicAuth). A refused credential is
//     answered 401 with a text/html body "Client must be authenticated to access this resource." (what a Cloud
//     site sends for a wrong API token; the reference gives no body for 401).
//   - Errors (400/403/404/…): the ErrorCollection schema, `{errorMessages: string[], errors: {field: message}}`.
//   - Timestamps: `2021-01-17T12:34:00.000+0000` (millisecond precision, numeric offset without a colon).
//   - Offset paging (PageBean*, PageOf*): `{startAt, maxResults, total, isLast?, values|comments|worklogs}`.
//   - Rate limits ("Rate limiting" page): 429 with `Retry-After` (seconds), `X-RateLimit-Limit`,
//     `X-RateLimit-Remaining`, `X-RateLimit-Reset` (ISO 8601 as yyyy-MM-ddTHH:mmZ) and `RateLimit-Reason`
//     (`jira-burst-based` for the per-second burst limit that governs API-token traffic).

import { timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import { type Answer, type RouteRequest, sendJson } from '../../kit/index.ts';

export const JIRA_FAKE_SITE = 'ces-fake.atlassian.net';
export const JIRA_FAKE_EMAIL = 'ces.bot@example.com';
export const JIRA_FAKE_API_TOKEN = 'ATATT3xFfGF0cesFakeApiToken0001=C0FFEE01';

export const API_PREFIX = '/rest/api/3';

export const UNAUTHENTICATED_TEXT = 'Client must be authenticated to access this resource.';
export const RATE_LIMITED_MESSAGE = 'Rate limit exceeded.';

/** object → JSON; string/Buffer → raw (the route sets content-type); undefined → empty */
export type Result = Answer;

export function basicMatches(headers: IncomingHttpHeaders, email: string, token: string): boolean {
  const raw = headers.authorization;
  if (raw === undefined) return false;
  const m = /^basic\s+(.+)$/i.exec(raw.trim());
  if (!m) return false;
  const decoded = Buffer.from(m[1] as string, 'base64').toString('utf8');
  const a = Buffer.from(decoded);
  const b = Buffer.from(`${email}:${token}`);
  return a.length === b.length && timingSafeEqual(a, b);
}

export function errorCollection(errorMessages: string[], errors: Record<string, string> = {}) {
  return { errorMessages, errors };
}

export const fail = (status: number, message: string): Result => ({
  status,
  body: errorCollection([message]),
});
export const fieldErrors = (errors: Record<string, string>): Result => ({
  status: 400,
  body: errorCollection([], errors),
});
export const ok = (body: unknown, status = 200): Result => ({ status, body });
export const noContent = (): Result => ({ status: 204, body: undefined });

export function unauthenticated(): Result {
  return {
    status: 401,
    headers: { 'content-type': 'text/html;charset=UTF-8' },
    body: UNAUTHENTICATED_TEXT,
  };
}

/** Jira's own body for a status, used by failNext when the fault brings none. */
export function defaultErrorFor(status: number): Result {
  if (status === 401) return unauthenticated();
  const messages: Record<number, string> = {
    400: 'The request is invalid.',
    403: 'You do not have permission to perform this operation.',
    404: 'The requested resource does not exist or you do not have permission to see it.',
    409: 'The request could not be completed due to a conflicting update.',
    413: 'The per-issue limit has been breached.',
    429: RATE_LIMITED_MESSAGE,
  };
  return fail(status, messages[status] ?? (status >= 500 ? 'Internal server error' : 'Request failed'));
}

/** Jira's 429 after `wait` seconds of a per-second burst budget are missing. */
export function rateLimited(wait: number, perSecond: number): Answer {
  const reset = new Date(Date.now() + wait * 1000).toISOString().slice(0, 16);
  return {
    status: 429,
    headers: {
      'retry-after': String(wait),
      'x-ratelimit-limit': String(perSecond),
      'x-ratelimit-remaining': '0',
      'x-ratelimit-reset': `${reset}Z`,
      'ratelimit-reason': 'jira-burst-based',
      'x-ratelimit-nearlimit': 'true',
    },
    body: errorCollection([RATE_LIMITED_MESSAGE]),
  };
}

/** Jira's writer: JSON as application/json;charset=UTF-8 unless the answer says otherwise. */
export function send(res: ServerResponse, out: Answer): void {
  const json = out.body !== undefined && typeof out.body !== 'string' && !Buffer.isBuffer(out.body);
  sendJson(
    res,
    json ? { ...out, headers: { 'content-type': 'application/json;charset=UTF-8', ...out.headers } } : out,
  );
}

/** `2021-01-17T12:34:00.000+0000`, in UTC (the seeded users' time zone). */
export function jiraTime(ms: number): string {
  return new Date(ms).toISOString().replace('Z', '+0000');
}

/** Parses Jira's timestamp form (and plain ISO 8601) for request bodies such as a worklog's `started`. */
export function parseJiraTime(raw: unknown): number | undefined {
  if (typeof raw !== 'string') return undefined;
  const m = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,3})?)([+-]\d{2}):?(\d{2})$/.exec(raw);
  const iso = m ? `${m[1]}${m[2]}:${m[3]}` : raw;
  if (!m && !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?Z$/.test(raw)) return undefined;
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? undefined : ms;
}

/** A query integer; `undefined` when absent, `'invalid'` when not an integer. */
export function intParam(query: URLSearchParams, name: string): number | undefined | 'invalid' {
  const raw = query.get(name);
  if (raw === null || raw === '') return undefined;
  return /^-?\d+$/.test(raw) ? Number(raw) : 'invalid';
}

/** Offset paging as Jira's list resources answer it; maxResults is capped at `max` (Jira silently caps). */
export function offsetWindow(
  query: URLSearchParams,
  defaults: { maxResults: number; max: number },
): { startAt: number; maxResults: number } | Result {
  const startAt = intParam(query, 'startAt');
  const maxResults = intParam(query, 'maxResults');
  if (startAt === 'invalid' || maxResults === 'invalid')
    return fail(400, 'startAt and maxResults must be integers.');
  const s = Math.max(0, startAt ?? 0);
  const m = maxResults === undefined ? defaults.maxResults : Math.min(Math.max(maxResults, 0), defaults.max);
  return { startAt: s, maxResults: m };
}

/** Comma-separated and repeated query values, flattened (`fields=a,b&fields=c`). */
export function listParam(query: URLSearchParams, name: string): string[] {
  return query
    .getAll(name)
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter((v) => v !== '');
}

/** An `expand` value (comma-separated) as a set. */
export function expandOf(raw: unknown): Set<string> {
  return new Set(
    String(raw ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
  );
}

export function boolParam(query: URLSearchParams, name: string, fallback: boolean): boolean {
  const raw = query.get(name);
  if (raw === null) return fallback;
  return raw.toLowerCase() === 'true';
}

/** An Atlassian Document Format document holding the given paragraphs of plain text. */
export type Adf = { type: 'doc'; version: 1; content: unknown[] };
export function adf(...paragraphs: string[]): Adf {
  return {
    type: 'doc',
    version: 1,
    content: paragraphs.map((text) => ({ type: 'paragraph', content: [{ type: 'text', text }] })),
  };
}
export function isAdf(value: unknown): value is Adf {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return v.type === 'doc' && v.version === 1 && Array.isArray(v.content);
}
/** The text of an ADF document, paragraphs joined by newlines (for renderedFields). */
export function adfText(doc: unknown): string {
  const walk = (node: unknown): string => {
    if (typeof node !== 'object' || node === null) return '';
    const n = node as { type?: string; text?: string; content?: unknown[] };
    if (n.type === 'text') return n.text ?? '';
    const inner = (n.content ?? []).map(walk);
    return n.type === 'doc' ? inner.join('\n') : inner.join('');
  };
  return walk(doc);
}
export function renderHtml(doc: unknown): string {
  const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  return adfText(doc)
    .split('\n')
    .map((p) => `<p>${esc(p)}</p>`)
    .join('');
}

/** Jira's duration text with its default 8-hour days and 5-day weeks: 12000 → "3h 20m". */
export function formatDuration(seconds: number): string {
  let minutes = Math.round(seconds / 60);
  const parts: string[] = [];
  for (const [unit, size] of [
    ['w', 5 * 8 * 60],
    ['d', 8 * 60],
    ['h', 60],
    ['m', 1],
  ] as const) {
    const n = Math.floor(minutes / size);
    if (n > 0) parts.push(`${n}${unit}`);
    minutes -= n * size;
  }
  return parts.length === 0 ? '0m' : parts.join(' ');
}

/** "1w 2d 3h 20m" / "90m" / "2" (minutes) → seconds, or undefined when not a duration. */
export function parseDuration(raw: unknown): number | undefined {
  if (typeof raw !== 'string' || raw.trim() === '') return undefined;
  const text = raw.trim();
  if (/^\d+$/.test(text)) return Number(text) * 60;
  const sizes: Record<string, number> = { w: 5 * 8 * 3600, d: 8 * 3600, h: 3600, m: 60 };
  let total = 0;
  for (const part of text.split(/\s+/)) {
    const m = /^(\d+(?:\.\d+)?)([wdhm])$/.exec(part);
    if (!m) return undefined;
    total += Number(m[1]) * (sizes[m[2] as string] as number);
  }
  return Math.round(total);
}

export const INVALID_PAYLOAD = 'Invalid request payload. Refer to the REST API documentation and try again.';

/** The body as a JSON object, or the 400 Jira answers for a missing or malformed payload. */
export function objectBody(req: RouteRequest): { body: Record<string, unknown> } | { error: Result } {
  const b = req.json;
  return b === undefined || b === 'invalid' ? { error: fail(400, INVALID_PAYLOAD) } : { body: b };
}
