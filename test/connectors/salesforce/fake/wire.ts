// Salesforce REST API wire conventions shared by every route:
//   - Errors (https://developer.salesforce.com/docs/atlas.en-us.api_rest.meta/api_rest/errorcodes.htm): a
//     top-level JSON array of {message, errorCode} (INVALID_FIELD and the like add `fields`). 401 is
//     INVALID_SESSION_ID; a 403 with REQUEST_LIMIT_EXCEEDED is the org's request allocation spent (no
//     Retry-After); 404 NOT_FOUND; 400 MALFORMED_QUERY, INVALID_FIELD, INVALID_TYPE for a query it can't run.
//   - Limits (https://developer.salesforce.com/docs/atlas.en-us.api_rest.meta/api_rest/headers_api_usage.htm):
//     every answer says the org's use of its allocation in Sforce-Limit-Info: api-usage=<used>/<allocation>.
//   - Versions: every resource is under /services/data/vXX.X; the fake serves the definition's version.
// The message texts are the fake's own, in the shape the reference shows.
export const API_VERSION = 'v63.0';
export const DATA_ROOT = `/services/data/${API_VERSION}`;

export interface SalesforceError {
  message: string;
  errorCode: string;
  fields?: string[];
}

export const errorBody = (errorCode: string, message: string, fields?: string[]): SalesforceError[] => [
  { message, errorCode, ...(fields === undefined ? {} : { fields }) },
];

export const MESSAGES = {
  session: 'Session expired or invalid',
  notFound: 'The requested resource does not exist',
  limit: 'TotalRequests Limit exceeded.',
  forbidden: 'insufficient access rights on object id',
  server:
    'An unexpected error occurred. Please include this ErrorId if you contact support: 1234567890-12345 (-1234567890)',
} as const;

export function bodyForStatus(status: number): SalesforceError[] {
  if (status === 401) return errorBody('INVALID_SESSION_ID', MESSAGES.session);
  if (status === 403) return errorBody('INSUFFICIENT_ACCESS', MESSAGES.forbidden);
  if (status === 404) return errorBody('NOT_FOUND', MESSAGES.notFound);
  return errorBody('UNKNOWN_EXCEPTION', MESSAGES.server);
}

/** The org's API request allocation, as Sforce-Limit-Info reports it. */
export class Allocation {
  used = 0;
  constructor(readonly max: number) {}

  header(): string {
    return `api-usage=${this.used}/${this.max}`;
  }
}

/** A record's `attributes`, as every query, search and rows answer writes it. */
export const attributes = (type: string, id: string) => ({
  type,
  url: `${DATA_ROOT}/sobjects/${type}/${id}`,
});
