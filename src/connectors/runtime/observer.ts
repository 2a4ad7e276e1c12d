/**
 * What the runtime reports as it works, for metrics. Every argument is a label an implementation may export as
 * it is: a connector type's slug, an entity or action name of its definition, a status class, an outcome, a
 * duration. Never a connector id, a URL, a param or a credential, so no tenant's data can reach a scrape.
 *
 * Called on the execute path, once or twice per upstream request: positional arguments (no object per call),
 * and an implementation must be cheap.
 */
import { isDomainError } from '../../errors.ts';

/** What became of one upstream HTTP exchange: the answer's status class, or the transport failure. */
export type UpstreamStatusClass =
  | '1xx'
  | '2xx'
  | '3xx'
  | '4xx'
  | '5xx'
  | 'timeout'
  | 'too_large'
  | 'bad_response'
  | 'egress_denied'
  | 'transport_error'
  | 'error';

export type OAuthRefreshOutcome = 'success' | 'rejected' | 'error';

export interface RuntimeObserver {
  /**
   * One HTTP exchange with a provider (every attempt, token requests included), and its seconds from sending to
   * the whole answer read. `entity` is '' for requests of no entity (a credential check, a token request).
   */
  upstreamRequest(
    connectorType: string,
    entity: string,
    action: string,
    status: UpstreamStatusClass,
    seconds: number,
  ): void;
  /** A request about to be sent again, as the definition's retry policy allows. */
  retry(connectorType: string, entity: string, action: string): void;
  /** A request held back by the proactive rate limit for `seconds` before it was sent. */
  rateLimitWait(connectorType: string, seconds: number): void;
  /** An OAuth2 token request: new tokens, refused (the connector needs new credentials), or failed otherwise. */
  oauthRefresh(connectorType: string, outcome: OAuthRefreshOutcome): void;
}

export const NO_RUNTIME_OBSERVER: RuntimeObserver = {
  upstreamRequest() {},
  retry() {},
  rateLimitWait() {},
  oauthRefresh() {},
};

/** The `action` of upstream requests that are not an entity's action. */
export const OPERATION = {
  check: 'check',
  tokenRefresh: 'token_refresh',
  codeExchange: 'code_exchange',
} as const;

const CLASSES: readonly UpstreamStatusClass[] = ['1xx', '1xx', '2xx', '3xx', '4xx', '5xx'];

export function statusClass(status: number): UpstreamStatusClass {
  return CLASSES[Math.floor(status / 100)] ?? 'error';
}

/** The class of a failure to get an answer at all (what `UpstreamHttp.send` threw). */
export function failureClass(err: unknown): UpstreamStatusClass {
  if (!isDomainError(err)) return 'error';
  switch (err.code) {
    case 'UPSTREAM_TIMEOUT':
      return 'timeout';
    case 'UPSTREAM_RESPONSE_TOO_LARGE':
      return 'too_large';
    case 'UPSTREAM_BAD_RESPONSE':
      return 'bad_response';
    case 'EGRESS_DENIED':
      return 'egress_denied';
    case 'UPSTREAM_ERROR':
      return 'transport_error';
    default:
      return 'error';
  }
}
