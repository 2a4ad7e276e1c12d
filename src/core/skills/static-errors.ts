/**
 * The static skill about errors: the one error body and every code. MEANING is typed by ErrorCode, so a code
 * added to src/errors.ts does not compile until it is documented here; the statuses are read from the one table
 * (src/errors.ts ERROR_STATUS), and the transport's own codes come documented by the transport (see
 * TransportErrorDocs).
 */
import { ERROR_CODES, ERROR_STATUS, type ErrorCode } from '../../errors.ts';
import { heading, json, list, paragraph, type SkillDocument, table, tick } from './types.ts';

/**
 * The codes a transport answers with before any verb runs, with their status and meaning as that transport
 * documents them (HTTP's: src/http/errors.ts TRANSPORT_ERRORS, given to core by the composition root: core
 * never imports http).
 */
export type TransportErrorDocs = Readonly<
  Record<string, { readonly status: number; readonly meaning: string; readonly retryable?: boolean }>
>;

/** What each code means for the caller, and what to do about it. */
const MEANING: Record<ErrorCode, string> = {
  VALIDATION_ERROR:
    'The request does not match the route’s schema; errors[] names each field. Fix the request.',
  ORGANIZATION_REQUIRED:
    'The application belongs to several organizations: send X-Organization-Id with the token request.',
  BAD_REQUEST: 'Malformed HTTP (a bad Content-Length, percent-encoding, a missing Host).',
  UNAUTHENTICATED: 'Missing, invalid, expired or revoked token: get a new one (ces:authentication).',
  INVALID_CLIENT_CREDENTIALS: 'Wrong client_id or client_secret at the token endpoint.',
  FORBIDDEN: 'The token may not do this (a scoped token doing organization-level administration).',
  WORKSPACE_SCOPE_VIOLATION: 'A scoped token used outside its workspace.',
  WORKSPACE_INACTIVE:
    'The workspace is inactive; PUT /api/v1/workspaces/{id} {"status":"active"} to execute again.',
  RATE_LIMITED:
    'This service’s own request limit (per organization, per connect-page end user, or failed token attempts): wait retry_after seconds.',
  QUOTA_EXCEEDED:
    'A count limit of the organization (workspaces, connectors); waiting does not help, deleting does.',
  SERVER_BUSY:
    'This process is out of room for upstream answers, or its search readers are busy for every organization: retry after Retry-After.',
  NOT_FOUND:
    'No such thing (an organization, skill, section or asset). An id of another organization is a 404 too.',
  WORKSPACE_NOT_FOUND: 'No workspace with that id or name in your organization.',
  CONNECTOR_NOT_FOUND: 'No connector with that id in your organization.',
  DEFINITION_NOT_FOUND:
    'No connector type with that id or name: see GET /api/v1/integrations/definitions/sources.',
  SOURCE_TEMPLATE_NOT_FOUND: 'No source template with that id in your organization.',
  CONFLICT: 'The change conflicts with the current state (a duplicate name, a concurrent update).',
  OAUTH_STATE_INVALID:
    'The consent flow’s state is missing, forged, expired or already used (start the flow again), or its application was revoked.',
  PUBLIC_URL_REQUIRED:
    'A consent flow from another machine while the server has no CES_PUBLIC_URL: the operator sets it.',
  INVALID_CREDENTIALS:
    'The credentials do not fit the connector type or the provider refused them at create or check.',
  UNKNOWN_ENTITY: 'The entity is not one of the connector type’s; the message lists them.',
  UNKNOWN_ACTION:
    'The entity has no such action (or is not indexed for search); the message lists the actions.',
  INVALID_PARAMS:
    'A param is unknown, missing or of the wrong type; errors[].field names it (params.<name>).',
  INVALID_CURSOR:
    'The cursor was altered or belongs to another query, connector or list: start again without it.',
  CONNECTOR_REAUTH_REQUIRED:
    'The provider refused to renew the OAuth2 grant: PUT new credentials on the connector.',
  INVALID_QUERY:
    'A search query names an unknown field or operator, a wrong value type, or is past a limit (details: {limit, max}).',
  CONTEXT_STORE_NOT_READY:
    'This entity has no page stored yet (or failed before storing one; the message says why): use list/get meanwhile, follow inspect until its ready_for_search is true.',
  SEARCH_TIMEOUT: 'The search ran past its time budget: narrow the filter.',
  SEARCH_QUEUE_FULL:
    'Your organization’s searches waiting already would keep this one waiting too long: send fewer at once or cheaper ones, retry after Retry-After.',
  UPSTREAM_AUTH_FAILED:
    'The provider refused the connector’s stored credentials (your own token is fine): rotate them.',
  UPSTREAM_FORBIDDEN: 'The provider says the stored credentials lack access to this resource.',
  UPSTREAM_NOT_FOUND: 'The provider has no such record (a wrong id or owner in params).',
  UPSTREAM_RATE_LIMITED: 'The provider’s rate limit: wait retry_after seconds (Retry-After header too).',
  UPSTREAM_BUSY:
    'The connector’s concurrency slots stayed full: retry after Retry-After, or send fewer calls at once.',
  UPSTREAM_RESPONSE_TOO_LARGE: 'The provider’s answer is too large to hold: ask for smaller pages.',
  UPSTREAM_TIMEOUT: 'The provider did not answer in time (after retries).',
  UPSTREAM_UNAVAILABLE: 'The provider could not be reached or answered 5xx (after retries).',
  UPSTREAM_BAD_RESPONSE: 'The provider answered something that is not what its API documents.',
  UPSTREAM_ERROR: 'The provider refused the request; its allowlisted error body is under upstream.',
  EGRESS_DENIED: 'The provider URL resolves to an address this server may not call (private, loopback…).',
  INTERNAL_ERROR: 'A fault of this service; never carries internal details. Quote the request_id.',
};

const RETRYABLE: ErrorCode[] = [
  'RATE_LIMITED',
  'UPSTREAM_RATE_LIMITED',
  'SERVER_BUSY',
  'SEARCH_QUEUE_FULL',
  'UPSTREAM_BUSY',
  'UPSTREAM_TIMEOUT',
  'UPSTREAM_UNAVAILABLE',
];

export function errorsSkill(transport: TransportErrorDocs): SkillDocument {
  const codes: Array<{ code: string; status: number; meaning: string }> = [
    ...ERROR_CODES.map((code) => ({ code, status: ERROR_STATUS[code], meaning: MEANING[code] })),
    ...Object.entries(transport).map(([code, doc]) => ({ code, status: doc.status, meaning: doc.meaning })),
  ];
  const byStatus = [...codes].sort((a, b) => a.status - b.status);
  const retryable = [
    ...RETRYABLE.map((c) => `${c} (${ERROR_STATUS[c]})`),
    ...Object.entries(transport)
      .filter(([, doc]) => doc.retryable)
      .map(([c, doc]) => `${c} (${doc.status})`),
  ];
  return {
    id: 'ces:errors',
    kind: 'static',
    title: 'Errors and error codes',
    summary:
      'The one error body every route answers with, every stable code with its HTTP status, and which errors to retry.',
    tags: ['errors', 'error-codes', 'status', 'retry', 'troubleshooting'],
    provenance: 'static: bundled with ces (src/errors.ts and src/http/errors.ts codes)',
    warnings: [],
    guidance: [
      heading('Reading an error', 2),
      list([
        `Branch on ${tick('code')} (stable UPPER_SNAKE), never on the message text.`,
        `${tick('errors[].field')} names the offending input (e.g. params.owner, query.limit, cursor).`,
        'A 401 is about your own token; a 424 is about the connector’s stored credentials at the provider.',
        'Retry only what the retrying section lists, after retry_after seconds when given.',
      ]),
    ],
    sections: [
      {
        id: 'body',
        title: 'The error body',
        summary: 'One shape on every route, compatible with the reference ApiErrorResponse.',
        content: [
          json({
            message: "Unknown entity 'isues'. Available entities: repositories, issues, …",
            code: 'UNKNOWN_ENTITY',
            request_id: 'req_…',
            errors: [{ field: 'entity', message: '…', error_code: 'unknown_entity', details: null }],
          }),
          list([
            'request_id is also in the x-request-id header; quote it when reporting a problem.',
            'Rate limits add retry_after (seconds) and a Retry-After header.',
            'A provider’s error body reaches you only as an allowlisted subset under upstream.',
            'CONTEXT_STORE_NOT_READY adds context_store_status and entity_status.',
          ]),
        ],
      },
      {
        id: 'codes',
        title: 'Codes',
        summary: `All ${codes.length} codes with their HTTP status and what to do.`,
        content: [
          table(
            ['Code', 'Status', 'Meaning and what to do'],
            byStatus.map((c) => [c.code, String(c.status), c.meaning]),
          ),
        ],
      },
      {
        id: 'retrying',
        title: 'Which errors to retry',
        summary: 'Transient errors worth repeating, and the ones that need a change first.',
        content: [
          paragraph('Worth repeating unchanged, after retry_after / Retry-After when given:'),
          list(retryable),
          paragraph(
            'ces already retried idempotent upstream calls with backoff before answering UPSTREAM_* errors; a write (create, update) is repeated by ces only where the provider makes it safe. Everything else needs a changed request, new credentials, or a reactivated workspace first.',
          ),
        ],
      },
    ],
  };
}
