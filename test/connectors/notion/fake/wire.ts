// Notion wire conventions every route shares. Sources (developers.notion.com):
//   - "Status codes" (/reference/status-codes): every failure is JSON `{object: "error", status, code, message,
//     request_id}`; the codes and the example messages used below come from that page's table.
//   - "Versioning" (/reference/versioning): the `Notion-Version` header is required on every request; without
//     it the API answers 400 `missing_version`.
//   - "Request limits" (/reference/request-limits): an average of three requests per second per connection,
//     bursts allowed; over it, 429 `rate_limited` with a `Retry-After` header in whole seconds.
//   - "Pagination" (/reference/intro#pagination): `start_cursor` + `page_size` (default and maximum 100), in the
//     query string for GET and in the JSON body for POST; answers are `{object: "list", results, next_cursor,
//     has_more, type, <type>: {}, request_id}` and `next_cursor` is null on the last page.
//   - IDs are UUIDs the API accepts with or without dashes and always answers dashed.
import { createHash, randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { send as sendShared } from '../../kit/server.ts';
import { safeEqual } from '../../kit/token.ts';

export const VERSIONS = ['2022-06-28', '2025-09-03'] as const;
export type NotionVersion = (typeof VERSIONS)[number];
/** The version that introduced data sources (and the data_source endpoints). */
export const DATA_SOURCE_VERSION: NotionVersion = '2025-09-03';

export const MAX_PAGE_SIZE = 100;

export interface Answer {
  status: number;
  headers?: Record<string, string>;
  body: unknown;
}

/** The error codes of the status-codes table, each with its HTTP status and a message like Notion's example. */
export const ERRORS = {
  invalid_json: { status: 400, message: 'Error parsing JSON body.' },
  invalid_request_url: { status: 400, message: 'Invalid request URL.' },
  invalid_request: { status: 400, message: 'Unsupported request.' },
  validation_error: { status: 400, message: 'body failed validation.' },
  missing_version: {
    status: 400,
    message:
      'Notion-Version header failed validation: Notion-Version header should be defined, instead was `undefined`.',
  },
  unauthorized: { status: 401, message: 'API token is invalid.' },
  restricted_resource: { status: 403, message: 'API token does not have access to this resource.' },
  object_not_found: { status: 404, message: 'Could not find the requested object.' },
  conflict_error: { status: 409, message: 'Conflict occurred while saving. Please try again.' },
  rate_limited: { status: 429, message: 'You have been rate limited. Please try again in a few minutes.' },
  internal_server_error: { status: 500, message: 'Unexpected error occurred.' },
  bad_gateway: { status: 502, message: 'Bad gateway.' },
  service_unavailable: { status: 503, message: 'Notion is unavailable, please try again later.' },
  gateway_timeout: { status: 504, message: 'Notion timed out while attempting to complete this request.' },
} as const;
export type ErrorCode = keyof typeof ERRORS;

export function requestId(): string {
  return randomUUID();
}

export function errorBody(
  code: ErrorCode,
  message: string = ERRORS[code].message,
  status: number = ERRORS[code].status,
) {
  return { object: 'error', status, code, message, request_id: requestId() };
}

export function fail(code: ErrorCode, message?: string): Answer {
  const body = errorBody(code, message);
  return { status: body.status, body };
}

/** The error code Notion uses for a bare HTTP status (for injected faults without a body). */
export function codeForStatus(status: number): ErrorCode {
  const byStatus: Record<number, ErrorCode> = {
    400: 'validation_error',
    401: 'unauthorized',
    403: 'restricted_resource',
    404: 'object_not_found',
    409: 'conflict_error',
    429: 'rate_limited',
    500: 'internal_server_error',
    502: 'bad_gateway',
    503: 'service_unavailable',
    504: 'gateway_timeout',
  };
  return byStatus[status] ?? (status >= 500 ? 'internal_server_error' : 'invalid_request');
}

export function notFound(kind: string, id: string): Answer {
  return fail(
    'object_not_found',
    `Could not find ${kind} with ID: ${id}. Make sure the relevant pages and databases are shared with your integration.`,
  );
}

export function invalid(message: string): Answer {
  return fail('validation_error', message);
}

/** JSON with Notion's content type and its request id header. */
export function send(res: ServerResponse, answer: Answer): void {
  const body = answer.body as { request_id?: unknown } | undefined;
  const id = typeof body?.request_id === 'string' ? body.request_id : requestId();
  sendShared(
    res,
    answer.status,
    {
      'content-type': 'application/json; charset=utf-8',
      'x-notion-request-id': id,
      ...(answer.headers ?? {}),
    },
    answer.body,
  );
}

/** The Notion-Version header as Notion validates it. */
export function parseVersion(raw: string | string[] | undefined): NotionVersion | Answer {
  const value = Array.isArray(raw) ? raw[0] : raw;
  if (value === undefined || value === '') return fail('missing_version');
  if ((VERSIONS as readonly string[]).includes(value)) return value as NotionVersion;
  return fail(
    'missing_version',
    `Notion-Version header failed validation: Notion-Version header should be one of ${VERSIONS.map((v) => `"${v}"`).join(', ')}, instead was "${value}".`,
  );
}

export function bearer(authorization: string | undefined): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
  return match?.[1];
}

export { safeEqual };

/** A UUID as Notion answers it (dashed, lower case), from either form it accepts; undefined when not an id. */
export function normalizeId(raw: string): string | undefined {
  const hex = raw.replace(/-/g, '').toLowerCase();
  if (!/^[0-9a-f]{32}$/.test(hex)) return undefined;
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** Refusal of a path id that is no UUID, worded like Notion's path validation. */
export function badPathId(name: string, raw: string): Answer {
  return invalid(`path failed validation: path.${name} should be a valid uuid, instead was \`"${raw}"\`.`);
}

/** A deterministic UUID (version-4 layout) for a seeded record. */
export function seededId(...parts: Array<string | number>): string {
  const hex = createHash('sha1').update(parts.join(':')).digest('hex');
  const variant = ((Number.parseInt(hex[16] as string, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** Notion's timestamps are ISO strings rounded to the minute, with milliseconds: 2022-07-15T16:52:00.000Z. */
export function minuteIso(ms: number): string {
  return new Date(Math.floor(ms / 60_000) * 60_000).toISOString();
}

export function richText(content: string, link: string | null = null) {
  return {
    type: 'text',
    text: { content, link: link === null ? null : { url: link } },
    annotations: {
      bold: false,
      italic: false,
      strikethrough: false,
      underline: false,
      code: false,
      color: 'default',
    },
    plain_text: content,
    href: link,
  };
}

export function plainText(rich: unknown): string {
  if (!Array.isArray(rich)) return '';
  return rich
    .map((item) => {
      const t = item as { plain_text?: unknown; text?: { content?: unknown } };
      if (typeof t.plain_text === 'string') return t.plain_text;
      return typeof t.text?.content === 'string' ? t.text.content : '';
    })
    .join('');
}

/** Rich text from a request (`[{text: {content, link?}}]`), as Notion stores and answers it; undefined if malformed. */
export function richTextFromRequest(raw: unknown): ReturnType<typeof richText>[] | undefined {
  if (!Array.isArray(raw) || raw.length > 100) return undefined;
  const out: ReturnType<typeof richText>[] = [];
  for (const item of raw) {
    const text = (item as { text?: { content?: unknown; link?: { url?: unknown } | null } } | null)?.text;
    if (typeof text?.content !== 'string' || text.content.length > 2000) return undefined;
    out.push(richText(text.content, typeof text.link?.url === 'string' ? text.link.url : null));
  }
  return out;
}

export interface PageParams {
  size: number;
  cursor: string | undefined;
}

/** `page_size` / `start_cursor` from a GET query or a POST body, validated as Notion does. */
export function pageParams(
  source: URLSearchParams | Record<string, unknown>,
  defaultSize: number,
): PageParams | Answer {
  const where = source instanceof URLSearchParams ? 'query' : 'body';
  const rawSize = source instanceof URLSearchParams ? source.get('page_size') : source.page_size;
  const rawCursor = source instanceof URLSearchParams ? source.get('start_cursor') : source.start_cursor;
  let size = Math.min(defaultSize, MAX_PAGE_SIZE);
  if (rawSize !== null && rawSize !== undefined) {
    const n = typeof rawSize === 'string' && /^-?\d+$/.test(rawSize) ? Number(rawSize) : rawSize;
    if (typeof n !== 'number' || !Number.isInteger(n))
      return invalid(
        `${where} failed validation: ${where}.page_size should be a number, instead was \`${JSON.stringify(rawSize)}\`.`,
      );
    if (n < 1 || n > MAX_PAGE_SIZE)
      return invalid(
        `${where} failed validation: ${where}.page_size should be ${n < 1 ? '≥ `1`' : `≤ \`${MAX_PAGE_SIZE}\``}, instead was \`${n}\`.`,
      );
    size = n;
  }
  if (rawCursor !== null && rawCursor !== undefined && typeof rawCursor !== 'string')
    return invalid(
      `${where} failed validation: ${where}.start_cursor should be a string, instead was \`${JSON.stringify(rawCursor)}\`.`,
    );
  return { size, cursor: rawCursor === null || rawCursor === '' ? undefined : rawCursor };
}

export function isAnswer(value: unknown): value is Answer {
  return typeof value === 'object' && value !== null && 'status' in value && 'body' in value;
}

/**
 * One page of a list. Like Notion's, a cursor is the id of the first record of the next page, so it survives
 * records being added before it; a cursor naming no record of the list is refused.
 */
export function paginate<T extends { id: string }>(
  all: readonly T[],
  params: PageParams,
): { items: T[]; next_cursor: string | null; has_more: boolean } | Answer {
  let offset = 0;
  if (params.cursor !== undefined) {
    const id = normalizeId(params.cursor);
    offset = id === undefined ? -1 : all.findIndex((item) => item.id === id);
    if (offset < 0) return invalid(`start_cursor provided is invalid: ${params.cursor}`);
  }
  const items = all.slice(offset, offset + params.size);
  const next = all[offset + params.size];
  return { items, next_cursor: next === undefined ? null : next.id, has_more: next !== undefined };
}

/** A list answer in Notion's envelope. */
export function listBody(type: string, results: unknown[], next_cursor: string | null, has_more: boolean) {
  return { object: 'list', results, next_cursor, has_more, type, [type]: {}, request_id: requestId() };
}
