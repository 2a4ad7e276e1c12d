// ces answers every error with one body: {message, code, request_id, errors[]} (README "Errors"). CesError
// carries it with the HTTP status; its subclasses group codes by status, so callers can catch a kind of failure
// with instanceof, or one code with isCesError(err, 'CONNECTOR_NOT_FOUND').
import { ERROR_CODES, type ErrorCode } from './generated/error-codes.ts';

export { ERROR_CODES, type ErrorCode };

/**
 * `UNEXPECTED_RESPONSE`: the SDK's own code for an error answer that is not ces's error body (a proxy's HTML
 * page, a truncated body); the status and the raw text are kept.
 */
export type CesErrorCode = ErrorCode | 'UNEXPECTED_RESPONSE';

/** One entry of `errors`: which field, what is wrong with it, and details for programs. */
export interface CesErrorDetail {
  field: string | null;
  message: string;
  error_code: string;
  details?: Record<string, unknown> | null;
}

/** The error body as ces sends it (members beyond these, e.g. `context_store_status`, are kept in `body`). */
export interface CesErrorBody {
  message: string;
  code: string;
  request_id: string;
  errors: CesErrorDetail[];
  retry_after?: number;
  upstream?: Record<string, unknown>;
  [member: string]: unknown;
}

export class CesError<C extends CesErrorCode = CesErrorCode> extends Error {
  override readonly name: string = 'CesError';
  readonly code: C;
  readonly status: number;
  /** Quote it when reporting a problem: the server's logs carry it. */
  readonly requestId: string | undefined;
  readonly errors: CesErrorDetail[];
  /** Seconds to wait before retrying (429, and 503 SERVER_BUSY / UPSTREAM_BUSY), from the body or Retry-After. */
  readonly retryAfter: number | undefined;
  /** The whole error body (or the raw text of an UNEXPECTED_RESPONSE). */
  readonly body: CesErrorBody | string | undefined;

  constructor(
    status: number,
    code: C,
    message: string,
    options: {
      requestId?: string | undefined;
      errors?: CesErrorDetail[];
      retryAfter?: number | undefined;
      body?: CesErrorBody | string;
    } = {},
  ) {
    super(message);
    this.status = status;
    this.code = code;
    this.requestId = options.requestId;
    this.errors = options.errors ?? [];
    this.retryAfter = options.retryAfter;
    this.body = options.body;
  }
}

/** 401: no valid token (`UNAUTHENTICATED`) or wrong client credentials (`INVALID_CLIENT_CREDENTIALS`). */
export class AuthenticationError extends CesError {
  override readonly name = 'AuthenticationError';
}
/** 403: the token may not do this (`FORBIDDEN`, `WORKSPACE_SCOPE_VIOLATION`, `WORKSPACE_INACTIVE`, `QUOTA_EXCEEDED`). */
export class PermissionError extends CesError {
  override readonly name = 'PermissionError';
}
/** 404: `CONNECTOR_NOT_FOUND`, `WORKSPACE_NOT_FOUND`, `DEFINITION_NOT_FOUND`, `UPSTREAM_NOT_FOUND`, … */
export class NotFoundError extends CesError {
  override readonly name = 'NotFoundError';
}
/** 409: `CONFLICT`, `CONTEXT_STORE_NOT_READY` (its body has `context_store_status`). */
export class ConflictError extends CesError {
  override readonly name = 'ConflictError';
}
/** 400 and 422: the request is wrong (`VALIDATION_ERROR`, `INVALID_PARAMS`, `INVALID_QUERY`, …); see `errors`. */
export class ValidationError extends CesError {
  override readonly name = 'ValidationError';
}
/**
 * 429: `RATE_LIMITED` (ces's own limit), `SEARCH_QUEUE_FULL` (your organization's searches waiting already) or
 * `UPSTREAM_RATE_LIMITED`; wait `retryAfter` seconds.
 */
export class RateLimitError extends CesError {
  override readonly name = 'RateLimitError';
}
/** 424, 502, 504: the provider refused the stored credentials, failed, or timed out. */
export class UpstreamError extends CesError {
  override readonly name = 'UpstreamError';
}
/** 500 and 503: ces could not answer now (`SERVER_BUSY`, `UPSTREAM_BUSY`, `SEARCH_TIMEOUT`, `INTERNAL_ERROR`). */
export class ServerError extends CesError {
  override readonly name = 'ServerError';
}

type ErrorClass = new (...args: ConstructorParameters<typeof CesError<CesErrorCode>>) => CesError;

function classFor(status: number): ErrorClass {
  if (status === 401) return AuthenticationError;
  if (status === 403) return PermissionError;
  if (status === 404) return NotFoundError;
  if (status === 409) return ConflictError;
  if (status === 400 || status === 422) return ValidationError;
  if (status === 429) return RateLimitError;
  if (status === 424 || status === 502 || status === 504) return UpstreamError;
  if (status >= 500) return ServerError;
  return CesError;
}

function isErrorBody(value: unknown): value is CesErrorBody {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return typeof v.code === 'string' && typeof v.message === 'string';
}

/** The typed error for an error answer; `parsed` is the body as JSON, or its text when it was not JSON. */
export function errorFromResponse(response: Response, parsed: unknown): CesError {
  const header = response.headers.get('retry-after');
  const headerRetry = header !== null && /^\d+$/.test(header) ? Number(header) : undefined;
  const Class = classFor(response.status);
  if (!isErrorBody(parsed)) {
    const text = typeof parsed === 'string' ? parsed : JSON.stringify(parsed ?? '');
    return new Class(
      response.status,
      'UNEXPECTED_RESPONSE',
      `ces answered ${response.status} without its error body: ${text.slice(0, 200)}`,
      { requestId: response.headers.get('x-request-id') ?? undefined, retryAfter: headerRetry, body: text },
    );
  }
  return new Class(response.status, parsed.code as CesErrorCode, parsed.message, {
    requestId: parsed.request_id ?? response.headers.get('x-request-id') ?? undefined,
    errors: Array.isArray(parsed.errors) ? parsed.errors : [],
    retryAfter: typeof parsed.retry_after === 'number' ? parsed.retry_after : headerRetry,
    body: parsed,
  });
}

/** Is `err` an error answer of ces (with this code, when given)? Narrows `err.code`. */
export function isCesError<C extends CesErrorCode>(err: unknown, code?: C): err is CesError<C> {
  return err instanceof CesError && (code === undefined || err.code === code);
}

/** An openapi-fetch call's data, or the typed error of its error answer. */
export async function unwrap<T>(
  pending: Promise<{ data?: T; error?: unknown; response: Response }>,
): Promise<T> {
  const { data, error, response } = await pending;
  if (!response.ok) throw errorFromResponse(response, error);
  return data as T;
}
