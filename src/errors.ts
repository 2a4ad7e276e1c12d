/**
 * The closed set of error codes the domain throws (core, the connector runtime, the store, security,
 * context-store, MCP), each with the HTTP status it is answered with: the one code -> status table. Every layer
 * throws DomainError with one of these. The codes only the HTTP transport answers with (a body that is not JSON,
 * a URL too long, no such route…) are not here but in src/http/errors.ts, which extends this table with them;
 * the two together are every code the wire carries.
 */
export const ERROR_STATUS = {
  // request shape
  VALIDATION_ERROR: 422,
  ORGANIZATION_REQUIRED: 400,
  // Malformed HTTP caught by the transport, or a request to a provider that cannot be sent (a header value HTTP
  // can't carry).
  BAD_REQUEST: 400,
  // auth
  UNAUTHENTICATED: 401,
  INVALID_CLIENT_CREDENTIALS: 401,
  FORBIDDEN: 403,
  WORKSPACE_SCOPE_VIOLATION: 403,
  WORKSPACE_INACTIVE: 403,
  // limits that protect the service and its other tenants
  // Too many requests (per organization, or failed token attempts per client id / address): Retry-After.
  RATE_LIMITED: 429,
  // A count limit of the organization (workspaces, connectors): waiting does not help, deleting or an
  // operator raising the limit does, so it is not a 429.
  QUOTA_EXCEEDED: 403,
  // This process is out of a shared resource (buffered upstream bytes, search readers for every organization):
  // Retry-After.
  SERVER_BUSY: 503,
  // resources
  NOT_FOUND: 404,
  WORKSPACE_NOT_FOUND: 404,
  CONNECTOR_NOT_FOUND: 404,
  DEFINITION_NOT_FOUND: 404,
  SOURCE_TEMPLATE_NOT_FOUND: 404,
  CONFLICT: 409,
  // The `state` of a consent flow's callback is missing, forged, expired or already used.
  OAUTH_STATE_INVALID: 400,
  // A consent flow from another machine while CES_PUBLIC_URL is unset: ces cannot tell its own address. Not the
  // caller's fault, but nothing it may send changes it: only the operator setting CES_PUBLIC_URL does.
  PUBLIC_URL_REQUIRED: 403,
  // connectors and execute
  INVALID_CREDENTIALS: 422,
  UNKNOWN_ENTITY: 422,
  UNKNOWN_ACTION: 422,
  INVALID_PARAMS: 422,
  INVALID_CURSOR: 422,
  // The stored OAuth2 grant was refused; only new credentials from the connector's owner help.
  CONNECTOR_REAUTH_REQUIRED: 424,
  // Context Store
  INVALID_QUERY: 422,
  CONTEXT_STORE_NOT_READY: 409,
  // The search ran past its time budget and was stopped; a narrower filter helps.
  SEARCH_TIMEOUT: 503,
  // The organization's searches waiting already fill its share of the search readers for as long as a search
  // may wait: its own doing, so a 429 with Retry-After (SERVER_BUSY is the whole process being overloaded).
  SEARCH_QUEUE_FULL: 429,
  // upstream
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
  // ours
  INTERNAL_ERROR: 500,
} as const satisfies Record<string, number>;

export type ErrorCode = keyof typeof ERROR_STATUS;

export const ERROR_CODES: readonly ErrorCode[] = Object.keys(ERROR_STATUS) as ErrorCode[];

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
