// Asana's wire conventions (https://developers.asana.com/docs/errors, /docs/pagination, /docs/rate-limits):
// every failure is {errors: [{message, help, phrase?}]}, a 500 adds a `phrase` to quote to support; lists page
// with `limit` (1..100) and an opaque `offset` token answered as `next_page: {offset, path, uri}`, null on the
// last page; without `limit` a list is not paged at all, and one too large to answer whole is a 400.
import type { Answer } from '../../kit/errors.ts';
import { CursorCodec, queryInputs } from '../../kit/paging.ts';
import type { RouteRequest } from '../../kit/router.ts';
import { compact, type Json } from './render.ts';

const HELP =
  'For more information on API status codes and how to handle them, read the docs on errors: https://developers.asana.com/docs/errors';

export function errorBody(message: string, status = 400): Json {
  return {
    errors: [{ message, help: HELP, ...(status >= 500 ? { phrase: '6 sad squid snuggle softly' } : {}) }],
  };
}

export function fail(status: number, message: string): Answer {
  return { status, body: errorBody(message, status) };
}

export const DEFAULT_MESSAGES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Not Authorized',
  402: 'Payment Required',
  403: 'Forbidden',
  404: 'Not Found',
  429: 'You have made too many requests recently. Please, be chill.',
  500: 'Server Error',
  503: 'Service Unavailable',
};

export const unknownObject = (what: string, gid: string) => fail(404, `${what}: Unknown object: ${gid}`);
export const missingInput = (what: string) => fail(400, `${what}: Missing input`);

/** The bearer token of an Authorization header. */
export function bearer(header: string | string[] | undefined): string | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  const m = /^Bearer (\S+)$/.exec(value ?? '');
  return m?.[1];
}

/** `opt_fields` of a request (comma-separated), or undefined. */
export function optFields(req: RouteRequest): string[] | undefined {
  const raw = req.query.get('opt_fields');
  return raw === null ? undefined : raw.split(',').filter((f) => f !== '');
}

/** One record answered `{data}`, as every single read and write is. */
export const one = (data: Json, status = 200): Answer => ({ status, body: { data } });

/** Asana's offset tokens look like JWTs (the description's example is `eyJ0eXAiOJiKV1iQLCJhbGciOiJIUzI1NiJ9`). */
const tokens = new CursorCodec({
  wrap: (payload, mac) => `eyJ0eXAiOiJKV1QiLCJhbGciOiJIUzI1NiJ9.${payload}.${mac}`,
  unwrap: (cursor) => {
    const parts = cursor.split('.');
    return parts.length === 3 ? [parts[1] as string, parts[2] as string] : undefined;
  },
});

export interface ListOptions {
  /** the most records an unpaged answer (no `limit`) may hold before Asana asks for paging */
  wholeLimit?: number;
  /** the endpoint takes no `limit` (getUsersForWorkspace, getUsersForTeam): one answer of everything */
  unpaged?: boolean;
}

/**
 * A list answer: the records (full form, compacted here) paged by `limit`/`offset`, with `next_page`
 * naming the same request with the next offset.
 */
export function list(
  req: RouteRequest,
  all: readonly Json[],
  origin: string,
  opts: ListOptions = {},
): Answer {
  const fields = optFields(req);
  const rawLimit = req.query.get('limit');
  if (opts.unpaged === true || rawLimit === null) {
    if (all.length > (opts.wholeLimit ?? 1000))
      return fail(
        400,
        'The result is too large. You should use pagination (may require specifying a workspace)!',
      );
    return { status: 200, body: { data: all.map((r) => compact(r, fields)), next_page: null } };
  }
  const limit = Number(rawLimit);
  if (!/^[0-9]+$/.test(rawLimit) || limit < 1 || limit > 100)
    return fail(400, 'limit: Must be an integer between 1 and 100');
  const route = req.pathname;
  const inputs = queryInputs(req.query, ['offset']);
  const page = tokens.page(all, {
    cursor: req.query.get('offset') ?? undefined,
    route,
    inputs,
    limit,
  });
  if (page === undefined) return fail(400, 'offset: Your pagination token is invalid.');
  let next_page: Json | null = null;
  if (page.nextCursor !== undefined) {
    const url = new URL(req.recorded.path, origin);
    url.searchParams.set('offset', page.nextCursor);
    const path = `${url.pathname.replace(/^\/api\/1\.0/, '')}${url.search}`;
    next_page = { offset: page.nextCursor, path, uri: url.toString() };
  }
  return { status: 200, body: { data: page.items.map((r) => compact(r, fields)), next_page } };
}
