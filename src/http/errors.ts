import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DomainError, ERROR_CODES, ERROR_STATUS, type ErrorCode, type ErrorDetail } from '../errors.ts';

/**
 * The codes only the HTTP transport answers with (its hooks, parsers and error handler; no verb throws them),
 * with their status and, for the errors skill, what they mean. Core documents them without importing http:
 * the composition root hands this table to it (CoreDeps.transportErrors).
 */
export const TRANSPORT_ERRORS = {
  INVALID_JSON: { status: 400, meaning: 'The body is not valid JSON (or is empty). Fix the body.' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, meaning: 'Send Content-Type: application/json.' },
  PAYLOAD_TOO_LARGE: { status: 413, meaning: 'The body is larger than the server accepts.' },
  URI_TOO_LONG: {
    status: 414,
    meaning: 'The URL is over 4,096 characters or a path segment over 200.',
  },
  HEADERS_TOO_LARGE: { status: 431, meaning: 'The headers are over 16 KiB.' },
  // The request's headers or body did not arrive within the server's timeouts (a slow or stalled client).
  REQUEST_TIMEOUT: {
    status: 408,
    meaning: 'The request did not arrive in time; send it again.',
    retryable: true,
  },
  EXPECTATION_FAILED: { status: 417, meaning: 'An Expect header other than 100-continue.' },
  METHOD_NOT_ALLOWED: { status: 405, meaning: 'The route exists but not with this HTTP method.' },
  NOT_ACCEPTABLE: {
    status: 406,
    meaning:
      'The Accept header does not allow what the route answers (the MCP endpoint needs application/json and text/event-stream).',
  },
  ROUTE_NOT_FOUND: { status: 404, meaning: 'No such route.' },
} as const satisfies Record<string, { status: number; meaning: string; retryable?: true }>;

export type TransportCode = keyof typeof TRANSPORT_ERRORS;
/** Every code an error body on the wire may carry. */
export type WireCode = ErrorCode | TransportCode;

export const WIRE_CODES: readonly WireCode[] = [
  ...ERROR_CODES,
  ...(Object.keys(TRANSPORT_ERRORS) as TransportCode[]),
];

/** The code -> HTTP status table: the domain's own (src/errors.ts), extended with the transport's codes. */
export const STATUS_BY_CODE: Readonly<Record<WireCode, number>> = {
  ...ERROR_STATUS,
  ...(Object.fromEntries(Object.entries(TRANSPORT_ERRORS).map(([c, e]) => [c, e.status])) as Record<
    TransportCode,
    number
  >),
};

/** An error of the HTTP transport itself, raised by its hooks before (or instead of) any verb. */
export class TransportError extends Error {
  readonly code: TransportCode;

  constructor(code: TransportCode, message: string) {
    super(message);
    this.name = 'TransportError';
    this.code = code;
  }
}

export interface ErrorBody {
  message: string;
  code: WireCode;
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
const FASTIFY_CODES: Record<string, { code: WireCode; message: string }> = {
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

const CODE_BY_CLIENT_STATUS: Record<number, WireCode> = {
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
    if (err instanceof TransportError) {
      return sendError(reply, STATUS_BY_CODE[err.code], { code: err.code, message: err.message, errors: [] });
    }
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
