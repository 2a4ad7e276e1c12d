/**
 * The closed set of error codes ces answers with. `src/http/errors.ts` owns the code -> HTTP status table;
 * core and the connector runtime only ever throw DomainError with one of these codes.
 */
export const ERROR_CODES = [
  // request shape
  'VALIDATION_ERROR',
  'INVALID_JSON',
  'UNSUPPORTED_MEDIA_TYPE',
  'PAYLOAD_TOO_LARGE',
  'ORGANIZATION_REQUIRED',
  'BAD_REQUEST',
  'URI_TOO_LONG',
  'HEADERS_TOO_LARGE',
  'REQUEST_TIMEOUT',
  'EXPECTATION_FAILED',
  // auth
  'UNAUTHENTICATED',
  'INVALID_CLIENT_CREDENTIALS',
  'FORBIDDEN',
  'WORKSPACE_SCOPE_VIOLATION',
  'WORKSPACE_INACTIVE',
  // limits that protect the service and its other tenants
  'RATE_LIMITED',
  'QUOTA_EXCEEDED',
  'SERVER_BUSY',
  // resources
  'NOT_FOUND',
  'WORKSPACE_NOT_FOUND',
  'CONNECTOR_NOT_FOUND',
  'DEFINITION_NOT_FOUND',
  'SOURCE_TEMPLATE_NOT_FOUND',
  'CONFLICT',
  // The `state` of a consent flow's callback is missing, forged, expired or already used.
  'OAUTH_STATE_INVALID',
  // A consent flow from another machine while CES_PUBLIC_URL is unset: ces cannot tell its own address.
  'PUBLIC_URL_REQUIRED',
  // connectors and execute
  'INVALID_CREDENTIALS',
  'UNKNOWN_ENTITY',
  'UNKNOWN_ACTION',
  'INVALID_PARAMS',
  'INVALID_CURSOR',
  'CONNECTOR_REAUTH_REQUIRED',
  // Context Store
  'INVALID_QUERY',
  'CONTEXT_STORE_NOT_READY',
  'SEARCH_TIMEOUT',
  // The organization's own searches waiting already would keep another waiting past its time (429).
  'SEARCH_QUEUE_FULL',
  // upstream
  'UPSTREAM_AUTH_FAILED',
  'UPSTREAM_FORBIDDEN',
  'UPSTREAM_NOT_FOUND',
  'UPSTREAM_RATE_LIMITED',
  'UPSTREAM_BUSY',
  'UPSTREAM_RESPONSE_TOO_LARGE',
  'UPSTREAM_TIMEOUT',
  'UPSTREAM_UNAVAILABLE',
  'UPSTREAM_BAD_RESPONSE',
  'UPSTREAM_ERROR',
  'EGRESS_DENIED',
  // ours
  'METHOD_NOT_ALLOWED',
  'NOT_ACCEPTABLE',
  'ROUTE_NOT_FOUND',
  'INTERNAL_ERROR',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

/** One entry of the `errors` array of the error body (compatible with the reference `ApiError`). */
export interface ErrorDetail {
  field: string | null;
  message: string;
  error_code: string;
  details?: Record<string, unknown> | null;
}

export interface DomainErrorOptions {
  errors?: ErrorDetail[];
  /** Seconds the caller should wait (UPSTREAM_RATE_LIMITED, RATE_LIMITED, *_BUSY); becomes `retry_after` and a `Retry-After` header. */
  retryAfter?: number;
  /**
   * Extra top-level members of the error body. Only data that is safe to show a client may go here:
   * for upstream failures, the allowlisted subset of the upstream body built by the runtime.
   */
  extra?: Record<string, unknown>;
  cause?: unknown;
}

export class DomainError extends Error {
  readonly code: ErrorCode;
  readonly errors: ErrorDetail[];
  readonly retryAfter: number | undefined;
  readonly extra: Record<string, unknown> | undefined;

  constructor(code: ErrorCode, message: string, options: DomainErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'DomainError';
    this.code = code;
    this.errors = options.errors ?? [];
    this.retryAfter = options.retryAfter;
    this.extra = options.extra;
  }
}

export function isDomainError(value: unknown): value is DomainError {
  return value instanceof DomainError;
}

/** Shorthand for a 422 about one field. */
export function invalidField(
  code: ErrorCode,
  field: string,
  message: string,
  details?: Record<string, unknown>,
) {
  return new DomainError(code, message, {
    errors: [{ field, message, error_code: code.toLowerCase(), details: details ?? null }],
  });
}
