// The shape of a connector's cases for the definition-driven suite (definition-suite.test.ts): per declared
// `entity.action`, the params of one successful call and of one call the provider refuses. Everything else
// (is it a collection, does it page, is it a download) the suite reads from the definition itself.
import type { ErrorCode } from '../../../src/errors.ts';
import type { Harness } from '../../helpers/harness.ts';
import type { RecordedRequest } from '../kit/server.ts';
import type { HostedTypeException } from './hosted-exceptions.ts';

export type Params = Record<string, unknown>;

/** A response the fake answers instead of its own to the next request whose path starts with `match`. */
export interface Fault {
  status: number;
  /** path prefix as the fake receives it, e.g. `/api/v2/tags` */
  match: string;
  headers?: Record<string, string>;
  /** the answer's body (JSON), for refusals a provider sends with a 2xx (GraphQL's `errors`); default the fake's */
  body?: unknown;
}

export interface ErrorCase {
  params: Params;
  /** the ces code the provider's refusal maps to */
  code: ErrorCode;
  /** where no params make the provider refuse (a list without ids), the provider's answer is injected */
  fault?: Fault;
}

export interface Case {
  happy: Params;
  error: ErrorCase;
  /**
   * A paged collection must be followed across at least two pages; where the provider's data can't fill two
   * pages for it, this says why.
   */
  single_page?: string;
  /**
   * A write the provider answers with no body (HTTP 204, or 201 without content): ces answers `result: null`,
   * which the suite then expects instead of an object; this says which answer it is.
   */
  no_content?: string;
}

/** Keyed `entity.action`, exactly the declared ones. */
export type Cases = Record<string, Case>;

/** What the suite needs of any provider fake. */
export interface SuiteFake {
  requests: RecordedRequest[];
  unhandled: RecordedRequest[];
  failNext(fault: Fault & { times?: number }): void;
  close(): Promise<void>;
}

/** One provider: its fake, the harness env pointing the slug at it, and a connector created through the API. */
export interface SuiteProvider {
  /** Members typed otherwise than the hosted catalog types them, each with its reason (suite/hosted-exceptions.ts). */
  hostedTypeExceptions?: readonly HostedTypeException[];
  start(): Promise<{
    fake: SuiteFake;
    /** extra request logs that must stay free of unhandled requests (e.g. a media host) */
    otherUnhandled?: () => RecordedRequest[];
    env: Record<string, string>;
    connector: Params;
    cases: Cases;
  }>;
}

export type { Harness };
