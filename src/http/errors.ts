import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DomainError, type ErrorCode, type ErrorDetail } from '../errors.ts';

/** The one code -> HTTP status table. */
export const STATUS_BY_CODE: Record<ErrorCode, number> = {
  VALIDATION_ERROR: 422,
  INVALID_JSON: 400,
  UNSUPPORTED_MEDIA_TYPE: 415,
  PAYLOAD_TOO_LARGE: 413,
  ORGANIZATION_REQUIRED: 400,
  BAD_REQUEST: 400,
  URI_TOO_LONG: 414,
  HEADERS_TOO_LARGE: 431,
  // The request's headers or body did not arrive within the server's timeouts (a slow or stalled client).
  REQUEST_TIMEOUT: 408,
  // An Expect header other than 100-continue.
  EXPECTATION_FAILED: 417,
  UNAUTHENTICATED: 401,
  INVALID_CLIENT_CREDENTIALS: 401,
  FORBIDDEN: 403,
  WORKSPACE_SCOPE_VIOLATION: 403,
  WORKSPACE_INACTIVE: 403,
  // Too many requests (per organization, or failed token attempts per client id / address): Retry-After.
  RATE_LIMITED: 429,
  // A count limit of the organization (workspaces, connectors): waiting does not help, deleting or an
  // operator raising the limit does, so it is not a 429.
  QUOTA_EXCEEDED: 403,
  // This process is out of a shared resource (buffered upstream bytes, search readers for every organization):
  // Retry-After.
  SERVER_BUSY: 503,
  NOT_FOUND: 404,
  WORKSPACE_NOT_FOUND: 404,
  CONNECTOR_NOT_FOUND: 404,
  DEFINITION_NOT_FOUND: 404,
  SOURCE_TEMPLATE_NOT_FOUND: 404,
  CONFLICT: 409,
  OAUTH_STATE_INVALID: 400,
  // Not the caller's fault, but nothing it may send changes it: only the operator setting CES_PUBLIC_URL does.
  PUBLIC_URL_REQUIRED: 403,
  INVALID_CREDENTIALS: 422,
  UNKNOWN_ENTITY: 422,
  UNKNOWN_ACTION: 422,
  INVALID_PARAMS: 422,
  INVALID_QUERY: 422,
  CONTEXT_STORE_NOT_READY: 409,
  // The search ran past its time budget and was stopped; a narrower filter helps.
  SEARCH_TIMEOUT: 503,
  // The organization's searches waiting already fill its share of the search readers for as long as a search
  // may wait: its own doing, so a 429 with Retry-After (SERVER_BUSY is the whole process being overloaded).
  SEARCH_QUEUE_FULL: 429,
  INVALID_CURSOR: 422,
  // The stored OAuth2 grant was refused; only new credentials from the connector's owner help.
  CONNECTOR_REAUTH_REQUIRED: 424,
  // The caller's own token is fine; the *stored* credentials were refused by the provider.
  UPSTREAM_AUTH_FAILED: 424,
  UPSTREAM_FORBIDDEN: 424,
  UPSTREAM_NOT_FOUND: 404,
  UPSTREAM_RATE_LIMITED: 429,
  // The connector's concurrency slots stayed full for the whole queue budget (ces's own limit, not the provider's).
  UPSTREAM_BUSY: 503,
  UPSTREAM_RESPONSE_TOO_LARGE: 502,
  UPSTREAM_TIMEOUT: 504,
  UPSTREAM_UNAVAILABLE: 502,
  UPSTREAM_BAD_RESPONSE: 502,
  UPSTREAM_ERROR: 502,
  EGRESS_DENIED: 422,
  METHOD_NOT_ALLOWED: 405,
  NOT_ACCEPTABLE: 406,
  ROUTE_NOT_FOUND: 404,
  INTERNAL_ERROR: 500,
};

export interface ErrorBody {
  message: string;
  code: ErrorCode;
  request_id: string;
  errors: ErrorDetail[];
  [extra: string]: unknown;
}

export function sendError(reply: FastifyReply, status: number, body: Omit<ErrorBody, 'request_id'>) {
  return reply
    .code(status)
    .type('application/json; charset=utf-8')
    .send({ ...body, request_id: reply.request.id });
}

function fromDomainError(reply: FastifyReply, err: DomainError) {
  if (STATUS_BY_CODE[err.code] === 401) reply.header('www-authenticate', 'Bearer');
  if (err.retryAfter !== undefined)
    reply.header('retry-after', String(Math.max(0, Math.ceil(err.retryAfter))));
  return sendError(reply, STATUS_BY_CODE[err.code], {
    ...(err.extra ?? {}),
    ...(err.retryAfter !== undefined ? { retry_after: Math.max(0, Math.ceil(err.retryAfter)) } : {}),
    message: err.message,
    code: err.code,
    // Every entry has the reference ApiError's four members, whichever layer built it.
    errors: err.errors.map((e) => ({ ...e, field: e.field ?? null, details: e.details ?? null })),
  });
}

type AjvError = { instancePath: string; keyword: string; message?: string; params: Record<string, unknown> };

function validationDetails(context: string | undefined, errors: AjvError[]): ErrorDetail[] {
  const root = context === 'querystring' ? 'query' : (context ?? 'body');
  return errors.map((e) => {
    let field = `${root}${e.instancePath.replaceAll('/', '.')}`;
    let message = e.message ?? 'is invalid';
    if (e.keyword === 'required') field += `.${String(e.params.missingProperty)}`;
    if (e.keyword === 'additionalProperties') {
      field += `.${String(e.params.additionalProperty)}`;
      message = 'is not a known field';
    }
    return { field, message, error_code: e.keyword, details: null };
  });
}

/** Framework errors that carry these codes are the client's fault and get a stable code of ours. */
const FASTIFY_CODES: Record<string, { code: ErrorCode; message: string }> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    code: 'UNSUPPORTED_MEDIA_TYPE',
    message: 'Unsupported Content-Type; send application/json.',
  },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: {
    code: 'INVALID_JSON',
    message: 'Content-Length does not match the body.',
  },
  FST_ERR_CTP_EMPTY_JSON_BODY: { code: 'INVALID_JSON', message: 'The JSON body is empty.' },
  FST_ERR_CTP_INVALID_JSON_BODY: { code: 'INVALID_JSON', message: 'The body is not valid JSON.' },
  FST_ERR_CTP_BODY_TOO_LARGE: {
    code: 'PAYLOAD_TOO_LARGE',
    message: 'The request body is larger than allowed.',
  },
};

const CODE_BY_CLIENT_STATUS: Record<number, ErrorCode> = {
  400: 'BAD_REQUEST',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  408: 'REQUEST_TIMEOUT',
  413: 'PAYLOAD_TOO_LARGE',
  414: 'URI_TOO_LONG',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  417: 'EXPECTATION_FAILED',
  422: 'VALIDATION_ERROR',
  429: 'RATE_LIMITED',
  431: 'HEADERS_TOO_LARGE',
};

export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    if (err instanceof DomainError) return fromDomainError(reply, err);
    if (err.validation) {
      const errors = validationDetails(err.validationContext, err.validation as AjvError[]);
      const summary = errors
        .slice(0, 5)
        .map((e) => `${e.field} ${e.message}`)
        .join('; ');
      return sendError(reply, 422, {
        message: `Invalid request: ${summary}.`,
        code: 'VALIDATION_ERROR',
        errors,
      });
    }
    const known = err.code ? FASTIFY_CODES[err.code] : undefined;
    if (known) return sendError(reply, STATUS_BY_CODE[known.code], { ...known, errors: [] });
    if (err instanceof SyntaxError || (err.statusCode === 400 && /JSON/i.test(err.message))) {
      return sendError(reply, 400, {
        code: 'INVALID_JSON',
        message: 'The body is not valid JSON.',
        errors: [],
      });
    }
    if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) {
      // A plugin's client error (the docs' static files: a bad path, an unsatisfiable range): a code of ours
      // whose status is the one the table gives it, so code and status always agree.
      const code = CODE_BY_CLIENT_STATUS[err.statusCode] ?? 'BAD_REQUEST';
      request.log.info({ code: err.code, status: err.statusCode }, 'client error from the framework');
      return sendError(reply, STATUS_BY_CODE[code], {
        code,
        message: 'The request was rejected.',
        errors: [],
      });
    }
    // A 5xx never echoes an internal message.
    request.log.error({ err }, 'unhandled error');
    return sendError(reply, 500, {
      code: 'INTERNAL_ERROR',
      message: 'Internal server error. Quote the request_id when reporting it.',
      errors: [],
    });
  });

  app.setNotFoundHandler((request, reply) => {
    // Echo enough of the path to recognise it, never a client's kilobytes.
    const path = request.url.split('?')[0] ?? '';
    const shown = path.length > 100 ? `${path.slice(0, 100)}…` : path;
    return sendError(reply, 404, {
      code: 'ROUTE_NOT_FOUND',
      message: `No route ${request.method} ${shown}.`,
      errors: [],
    });
  });
}
