// What every fake answers when things go wrong: a provider's error envelope, its rate-limit answer and the
// faults a test injects. Each fake declares the envelopes (its provider's own body and headers); the kit only
// decides when they are sent.
import { TokenBucket } from './token-bucket.ts';

export { TokenBucket } from './token-bucket.ts';

/** One answer of a fake: a JSON-able body (object), raw bytes (string/Buffer) or a stream, plus headers. */
export interface Answer {
  status: number;
  headers?: Record<string, string>;
  body: unknown;
  /** answered, and recorded in `unhandled` too: the route serves the path but not this use of it */
  unhandled?: boolean;
}

/**
 * A provider's request budget. Off unless a test opts in with `enabled: true`: the throttle tests do, every
 * other test runs at full speed (a 3 req/s bucket otherwise turns a suite into seconds of waiting).
 */
export interface RateLimitOptions {
  enabled: boolean;
  /** requests per second (bursts up to as many), as the provider documents it */
  perSecond: number;
}

export interface RateLimit {
  /** Whole seconds to wait (the Retry-After), or undefined when the request may go through. */
  take(now?: number): number | undefined;
  readonly perSecond: number | undefined;
}

/** The kit's one switch: `rateLimit(undefined)` and `rateLimit({enabled: false, ...})` never refuse. */
export function rateLimit(opts: RateLimitOptions | undefined): RateLimit {
  const perSecond = opts?.enabled === true ? opts.perSecond : undefined;
  const bucket = new TokenBucket(perSecond);
  return { perSecond, take: (now) => bucket.take(now) };
}

/** The fakes' old option (`rateLimitPerSecond: n`, off when unset) as the kit's switch. */
export function perSecond(n: number | undefined): RateLimitOptions | undefined {
  return n === undefined ? undefined : { enabled: true, perSecond: n };
}

export interface FaultTarget {
  /** default 1 */
  times?: number;
  /** path prefix the fault applies to (e.g. `/v2/calls`); default every path */
  match?: string;
}

/** A fault a test injects: the next matching request(s) get this answer instead of the route's. */
export interface Fault extends FaultTarget {
  status: number;
  headers?: Record<string, string>;
  /** object → JSON, string → raw; default: the provider's error body for the status */
  body?: unknown;
}

/** The request is received and never answered: the socket stays open until the client gives up or close(). */
export interface HangFault extends FaultTarget {
  hang: true;
}

/**
 * The status line, the headers and the first `resetAfterBytes` bytes of the body go out, then the socket is
 * destroyed. The answer is the one the request would have had (JSON, a recording, a stream), or the given
 * status (and headers, body) when set.
 */
export interface ResetFault extends FaultTarget {
  resetAfterBytes: number;
  status?: number;
  headers?: Record<string, string>;
  body?: unknown;
}

/** What `failNext` takes: an answer instead of the route's, a hang, or a connection cut mid-answer. */
export type InjectedFault = Fault | HangFault | ResetFault;

/** Faults in the order they were injected; the first whose `match` prefixes the path is used. */
export class FaultQueue<F extends FaultTarget = InjectedFault> {
  private readonly faults: Array<F & { times: number }> = [];

  push(fault: F): void {
    this.faults.push({ ...fault, times: fault.times ?? 1 });
  }

  /** The fault for this path (counted as used), or undefined. */
  take(path: string): F | undefined {
    const index = this.faults.findIndex((f) => f.match === undefined || path.startsWith(f.match));
    const fault = this.faults[index];
    if (fault === undefined) return undefined;
    fault.times -= 1;
    if (fault.times <= 0) this.faults.splice(index, 1);
    return fault;
  }
}

/** A fault as an answer: its headers lower-cased (as node would send them), its body or the provider's. */
export function faultAnswer(fault: Fault, defaultBody: (status: number) => unknown): Answer {
  return {
    status: fault.status,
    headers: lowerKeys(fault.headers ?? {}),
    body: fault.body ?? defaultBody(fault.status),
  };
}

export function lowerKeys(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
}
