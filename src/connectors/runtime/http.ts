/**
 * One upstream HTTP exchange over undici, with the egress policy, a deadline covering connect + headers +
 * body, a response size cap, the process's buffer budget and same-origin redirects. Transport failures come
 * out as DomainErrors; HTTP error statuses do not (they are mapped by `upstream-errors.ts`, which knows the
 * definition's rules).
 *
 * Retries belong one level up (`resilience.ts` wraps `send`): `UpstreamRequest.idempotent` says which requests
 * may be repeated, and every failure here is an `UpstreamTransportError` that says whether repeating could help.
 */
import type { Dispatcher } from 'undici';
import { DomainError } from '../../errors.ts';
import { UpstreamAgents } from './agents.ts';
import type { BufferBudget, Reservation } from './buffer-budget.ts';
import { checkLiteralHost, EgressDeniedError, type EgressPolicy, PUBLIC_ONLY } from './egress.ts';
import { JoinedOnRead } from './parts.ts';

export interface UpstreamRequest {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  url: URL;
  headers: Record<string, string>;
  body?: string | Buffer;
  /** True when the URL is not from the operator's overrides and so must pass the egress policy. */
  guarded: boolean;
  /** Whether repeating the request is harmless (GET/PUT/DELETE); retries must check it. */
  idempotent: boolean;
  /**
   * The caller takes a success's body as the chunks it arrived in (`UpstreamResponse.parts`) and joins them only
   * if it must: a list written on as it came needs no copy of its bytes into one buffer.
   */
  asParts?: boolean;
}

export interface UpstreamResponse {
  status: number;
  /** Lower-case names; repeated headers joined with ", " (correct for Link). */
  headers: Record<string, string>;
  body: Buffer;
  /**
   * With `UpstreamRequest.asParts`: `body` as the chunks it arrived in, until something reads `body` (which
   * joins them once, and from then on this is that one buffer).
   */
  parts?: readonly Buffer[];
  /** The URL that answered (after same-origin redirects). */
  url: URL;
  /**
   * Gives `body`'s bytes back to the buffer budget; idempotent. `send` leaves it to the caller, which calls it
   * once nothing it keeps still refers to the body or to what was parsed from it.
   */
  release?: () => void;
}

export interface HttpOptions {
  timeoutMs: number;
  /** The largest body one exchange may buffer (config CES_UPSTREAM_MAX_RESPONSE_BYTES). */
  maxResponseBytes: number;
  /** Bytes all exchanges of this process may hold buffered at once (config CES_UPSTREAM_BUFFER_BYTES). */
  budget: BufferBudget;
  /** How long an answer may wait for room in `budget`, within its attempt's deadline. */
  budgetWaitMs: number;
}

export interface SendOptions {
  /** This exchange's share of the caller's deadline; at most `HttpOptions.timeoutMs`. */
  timeoutMs?: number;
}

/**
 * A transport failure. `retryable` is true only for failures where the same request may well succeed on a
 * fresh connection (reset, refused, closed mid-body); never for timeouts (the caller's latency budget is
 * spent), refused egress, or an oversized body.
 */
export class UpstreamTransportError extends DomainError {
  constructor(
    code:
      | 'UPSTREAM_TIMEOUT'
      | 'UPSTREAM_BAD_RESPONSE'
      | 'UPSTREAM_RESPONSE_TOO_LARGE'
      | 'UPSTREAM_ERROR'
      | 'EGRESS_DENIED',
    message: string,
    readonly retryable: boolean,
    extra?: Record<string, unknown>,
  ) {
    super(code, message, extra === undefined ? {} : { extra });
  }
}

/** Socket-level failures worth a second try. DNS NXDOMAIN, TLS and certificate errors are not among them. */
const RETRYABLE_NETWORK_CODES = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'ECONNABORTED',
  'EPIPE',
  'EAI_AGAIN',
  'UND_ERR_SOCKET',
]);

const MAX_REDIRECTS = 3;

/**
 * A call's deadline as its reader needs it: one listener at a time, told when the time is up. Not an
 * AbortController: its EventTarget and listener bookkeeping cost ~5 µs of CPU per call, for a deadline that
 * almost never passes. An AbortSignal is made only for an API that takes one (a wait for budget room).
 */
class Deadline {
  expired = false;
  private listener: (() => void) | undefined;
  private controller: AbortController | undefined;

  expire(): void {
    this.expired = true;
    const listener = this.listener;
    this.listener = undefined;
    listener?.();
    this.controller?.abort();
  }

  /** `listener` hears the deadline pass (it replaces the one before; undefined: none). */
  onExpire(listener: (() => void) | undefined): void {
    this.listener = listener;
  }

  signal(): AbortSignal {
    if (!this.controller) {
      this.controller = new AbortController();
      if (this.expired) this.controller.abort();
    }
    return this.controller.signal;
  }
}

export class UpstreamHttp {
  private readonly agents: UpstreamAgents;

  constructor(
    private readonly opts: HttpOptions,
    private readonly egress: EgressPolicy = PUBLIC_ONLY,
  ) {
    const common = {
      keepAliveTimeout: 10_000,
      headersTimeout: opts.timeoutMs,
      bodyTimeout: opts.timeoutMs,
    };
    this.agents = new UpstreamAgents(common, opts.timeoutMs, egress);
  }

  /** `provider` is the display name used in messages ("GitHub did not answer within 10000 ms"). */
  async send(req: UpstreamRequest, provider: string, sendOpts: SendOptions = {}): Promise<UpstreamResponse> {
    const timeoutMs = Math.max(1, Math.min(this.opts.timeoutMs, sendOpts.timeoutMs ?? this.opts.timeoutMs));
    const endsAt = Date.now() + timeoutMs;
    const deadline = new Deadline();
    const timer = setTimeout(() => deadline.expire(), timeoutMs);
    let stage: 'connect' | 'body' = 'connect';
    try {
      let url = req.url;
      for (let hop = 0; ; hop++) {
        this.checkEgress(url, req.guarded, provider);
        const { dispatcher } = await this.agents.dispatcher(!req.guarded);
        const got = await this.receive(dispatcher, { req, url, hop, provider, deadline, endsAt }, () => {
          stage = 'body';
        });
        if ('redirect' in got) {
          url = got.redirect;
          continue;
        }
        const { reservation } = got;
        const release = () => reservation.release();
        const headers = flatten(got.headers);
        if (Array.isArray(got.body)) return new PartsResponse(got.status, headers, got.body, url, release);
        return { status: got.status, headers, body: got.body, url, release };
      }
    } catch (err) {
      throw transportError(err, {
        timedOut: deadline.expired,
        stage,
        provider,
        timeoutMs,
        host: req.url.host,
      });
    } finally {
      clearTimeout(timer);
    }
  }

  async close(): Promise<void> {
    await this.agents.close();
  }

  /**
   * One request on `dispatcher`, its answer read from undici's handler callbacks straight into one buffer: a
   * response stream and its async iteration cost ~50 µs of CPU per call (a tenth of an execute's), for bytes
   * that are wanted whole anyway. The body is read within the per-call cap and the buffer budget: a declared
   * Content-Length is checked against the cap before a byte is read, then reserved in full (reading paused
   * while it waits for room) and read into one buffer of that size (with `asParts`, a success's chunks are kept
   * as they came instead). A body without one reserves a first step
   * the same way, then grows as bytes arrive and never waits again, because by then it holds bytes (see
   * buffer-budget.ts). A same-origin redirect's body is read and dropped up to DRAIN_BYTES, then cut off.
   * `onHeaders` hears that a final answer's status line and headers have arrived.
   */
  private receive(
    dispatcher: Dispatcher,
    call: {
      req: UpstreamRequest;
      url: URL;
      hop: number;
      provider: string;
      deadline: Deadline;
      endsAt: number;
    },
    onHeaders: () => void,
  ): Promise<Received> {
    const { req, url, hop, provider, deadline, endsAt } = call;
    const { budget, budgetWaitMs, maxResponseBytes } = this.opts;
    // A budget smaller than the per-call cap is the real cap: a larger answer could never fit.
    const cap = Math.min(maxResponseBytes, budget.limit);
    const capVariable =
      cap === maxResponseBytes ? 'CES_UPSTREAM_MAX_RESPONSE_BYTES' : 'CES_UPSTREAM_BUFFER_BYTES';
    return new Promise<Received>((resolve, reject) => {
      let controller: Dispatcher.DispatchController | undefined;
      let settled = false;
      let status = 0;
      let headers: Dispatcher.ResponseData['headers'] = {};
      let redirect: URL | null = null;
      let dropped = 0;
      let declared: number | undefined;
      let reservation: Reservation | undefined;
      /**
       * Paused until the budget has room. undici reads no more once paused; should a chunk still come, it waits
       * in `early` rather than be lost.
       */
      let waiting = false;
      const early: Buffer[] = [];
      let ended = false;
      /** With a declared length (and not `asParts`): the one buffer of that size. Otherwise: the chunks so far. */
      let whole: Buffer | undefined;
      const chunks: Buffer[] = [];
      let size = 0;

      const settle = () => {
        settled = true;
        deadline.onExpire(undefined);
      };
      const fail = (err: unknown) => {
        if (settled) return;
        settle();
        reservation?.release();
        if (controller && !controller.aborted) controller.abort(asError(err));
        reject(err);
      };
      const succeed = (value: Received) => {
        if (settled) return;
        settle();
        resolve(value);
      };
      const aborted = () => fail(new Error('the deadline passed'));

      /** Keeps a chunk of a final answer; false when that failed the exchange. */
      const take = (chunk: Buffer): boolean => {
        if (whole) {
          if (size + chunk.length > whole.length) {
            fail(moreThanDeclared(provider));
            return false;
          }
          chunk.copy(whole, size);
          size += chunk.length;
          return true;
        }
        size += chunk.length;
        if (declared !== undefined) {
          // Read as parts: the whole declared length is reserved already.
          if (size > declared) {
            fail(moreThanDeclared(provider));
            return false;
          }
          chunks.push(chunk);
          return true;
        }
        if (size > cap) {
          fail(tooLarge(provider, cap, capVariable));
          return false;
        }
        const held = reservation as Reservation;
        const wanted = Math.min(cap, Math.ceil(size / READ_STEP) * READ_STEP) - held.bytes;
        if (wanted > 0 && !held.grow(wanted)) {
          fail(budgetBusy(budget, `ran out of room while reading ${provider}'s answer`));
          return false;
        }
        chunks.push(chunk);
        return true;
      };
      const finish = () => {
        const held = reservation as Reservation;
        if (whole) {
          // Never the unwritten tail: allocUnsafe memory may hold anything.
          const body = size === whole.length ? whole : whole.subarray(0, size);
          succeed({ status, headers, body, reservation: held });
          return;
        }
        held.shrinkTo(size);
        const body = req.asParts && status >= 200 && status < 300 ? chunks : Buffer.concat(chunks, size);
        succeed({ status, headers, body, reservation: held });
      };
      const granted = (room: Reservation) => {
        reservation = room;
        // Parts only for a success: anything else is read as one buffer for its error rules.
        const parts = req.asParts === true && status >= 200 && status < 300;
        if (declared !== undefined && !parts) whole = Buffer.allocUnsafe(declared);
        for (const chunk of early.splice(0)) if (!take(chunk)) return;
        if (ended) finish();
      };

      const handler: Dispatcher.DispatchHandler = {
        onRequestStart(c) {
          controller = c;
          // Given up (the deadline passed) while it waited for a connection.
          if (settled) c.abort(new Error('the exchange was given up'));
        },
        onResponseStart(c, statusCode, responseHeaders) {
          if (settled || statusCode < 200) return; // 1xx: informational, the answer follows
          status = statusCode;
          headers = responseHeaders;
          redirect = redirectTarget(req, url, statusCode, responseHeaders, hop);
          if (redirect) return;
          onHeaders();
          declared = declaredLength(responseHeaders['content-length']);
          if (declared !== undefined && declared > cap) {
            fail(tooLarge(provider, cap, capVariable, declared));
            return;
          }
          const first = declared ?? Math.min(READ_STEP, cap);
          const now = budget.reserveNow(first);
          if (now) {
            granted(now);
            return;
          }
          const waitMs = Math.max(0, Math.min(budgetWaitMs, endsAt - Date.now()));
          waiting = true;
          c.pause();
          budget.reserve(first, waitMs, deadline.signal()).then((room) => {
            waiting = false;
            if (settled) {
              room?.release();
              return;
            }
            if (!room) {
              const answer =
                declared === undefined ? `${provider}'s answer` : `${provider}'s ${declared}-byte answer`;
              fail(budgetBusy(budget, `no room for ${answer} came free within ${waitMs} ms`));
              return;
            }
            granted(room);
            // Also when that finished the answer (its end came while paused): undici reads on for the next one.
            c.resume();
          }, fail);
        },
        onResponseData(c, chunk) {
          if (settled) return;
          if (redirect) {
            dropped += chunk.length;
            if (dropped > DRAIN_BYTES) {
              // Not worth reading on: follow it now, and let this connection go.
              succeed({ redirect });
              c.abort(new Error('a redirect body too large to drain'));
            }
            return;
          }
          if (waiting) early.push(chunk);
          else take(chunk);
        },
        onResponseEnd() {
          if (settled) return;
          if (redirect) {
            succeed({ redirect });
            return;
          }
          ended = true;
          if (!waiting) finish();
        },
        onResponseError(_c, err) {
          fail(err);
        },
      };

      if (deadline.expired) {
        aborted();
        return;
      }
      deadline.onExpire(aborted);
      try {
        dispatcher.dispatch(
          {
            origin: url.origin,
            path: `${url.pathname}${url.search}`,
            method: req.method,
            headers: req.headers,
            body: req.body ?? null,
          },
          handler,
        );
      } catch (err) {
        fail(err);
      }
    });
  }

  private checkEgress(url: URL, guarded: boolean, provider: string): void {
    if (url.protocol !== 'https:' && url.protocol !== 'http:') {
      throw new UpstreamTransportError(
        'EGRESS_DENIED',
        `The upstream URL for ${provider} must use http or https.`,
        false,
      );
    }
    if (guarded) checkLiteralHost(url, this.egress);
  }
}

/** Follows only same-origin redirects of GETs: a redirect must never carry our credentials to another host. */
function redirectTarget(
  req: UpstreamRequest,
  url: URL,
  status: number,
  headers: Dispatcher.ResponseData['headers'],
  hop: number,
): URL | null {
  if (![301, 302, 303, 307, 308].includes(status) || req.method !== 'GET') return null;
  const location = headers.location;
  if (typeof location !== 'string' || hop >= MAX_REDIRECTS) return null;
  let next: URL;
  try {
    next = new URL(location, url);
  } catch {
    return null;
  }
  return next.origin === url.origin ? next : null;
}

/** A body without Content-Length reserves budget in steps of this size as it arrives. */
const READ_STEP = 64 * 1024;

/** A redirect's body is read and dropped up to this size, then its connection is dropped instead. */
const DRAIN_BYTES = 128 * 1024;

/** What one exchange answered: a same-origin redirect to follow, or a final answer read whole. */
type Received =
  | { redirect: URL }
  | {
      status: number;
      headers: Dispatcher.ResponseData['headers'];
      /** An array: the chunks as they came (`asParts`). */
      body: Buffer | Buffer[];
      reservation: Reservation;
    };

/** An answer read as parts (`UpstreamRequest.asParts`); `body` joins them at its first read. */
class PartsResponse implements UpstreamResponse {
  readonly #body: JoinedOnRead;

  constructor(
    readonly status: number,
    readonly headers: Record<string, string>,
    parts: readonly Buffer[],
    readonly url: URL,
    readonly release: () => void,
  ) {
    this.#body = new JoinedOnRead(parts);
  }

  get parts(): readonly Buffer[] {
    return this.#body.parts;
  }

  get body(): Buffer {
    return this.#body.joined();
  }
}

function moreThanDeclared(provider: string): UpstreamTransportError {
  return new UpstreamTransportError(
    'UPSTREAM_BAD_RESPONSE',
    `${provider} sent more bytes than its Content-Length announced.`,
    false,
  );
}

function asError(err: unknown): Error {
  return err instanceof Error ? err : new Error(String(err));
}

function declaredLength(value: Dispatcher.ResponseData['headers'][string]): number | undefined {
  if (typeof value !== 'string' || !/^\d{1,16}$/.test(value)) return undefined;
  const n = Number(value);
  return Number.isSafeInteger(n) ? n : undefined;
}

function tooLarge(
  provider: string,
  cap: number,
  capVariable: string,
  declared?: number,
): UpstreamTransportError {
  const size = declared === undefined ? 'an answer larger than' : `an answer of ${declared} bytes, more than`;
  return new UpstreamTransportError(
    'UPSTREAM_RESPONSE_TOO_LARGE',
    `${provider} sent ${size} the ${cap} bytes ces reads of one upstream answer (${capVariable}). ` +
      'Ask for a smaller page, or have the operator raise the limit.',
    false,
  );
}

function budgetBusy(budget: BufferBudget, detail: string): DomainError {
  return new DomainError(
    'SERVER_BUSY',
    `ces already holds as many upstream answers in memory as it allows (${budget.limit} bytes, ` +
      `CES_UPSTREAM_BUFFER_BYTES) and ${detail}. Retry shortly.`,
    { retryAfter: 1 },
  );
}

export function flatten(headers: Dispatcher.ResponseData['headers']): Record<string, string> {
  const out: Record<string, string> = {};
  // for…in, not Object.entries: no array per header (a GitHub answer has ~20 of them, on every call).
  for (const name in headers) {
    const value = headers[name];
    if (value === undefined) continue;
    out[name.toLowerCase()] = typeof value === 'string' ? value : value.join(', ');
  }
  return out;
}

export interface FailureContext {
  timedOut: boolean;
  stage: 'connect' | 'body';
  provider: string;
  timeoutMs: number;
  host: string;
}

/** Messages name the provider and host, never the URL: query strings may carry API keys. */
export function transportError(err: unknown, ctx: FailureContext): DomainError {
  if (err instanceof DomainError) return err;
  const chain = causes(err);
  const denied = chain.find((e): e is EgressDeniedError => e instanceof EgressDeniedError);
  if (denied) return egressDenied(denied, ctx.provider);
  const codes = chain
    .map((e) => (e as { code?: unknown }).code)
    .filter((c): c is string => typeof c === 'string');
  if (codes.includes('UND_ERR_INVALID_ARG') && chain.some((e) => /\bheader\b/.test(String(e)))) {
    // undici refused a header value (a character HTTP can't carry): nothing was sent, and the value came
    // from the caller's input, which the checks before this point should already have refused.
    return new DomainError(
      'BAD_REQUEST',
      `The request to ${ctx.provider} could not be sent: a header value holds characters HTTP headers can't carry.`,
    );
  }
  const undiciTimeout = codes.some((c) => /^UND_ERR_(CONNECT|HEADERS|BODY)_TIMEOUT$/.test(c));
  if (ctx.timedOut || undiciTimeout) {
    return new UpstreamTransportError(
      'UPSTREAM_TIMEOUT',
      `${ctx.provider} did not answer within ${ctx.timeoutMs} ms.`,
      false,
    );
  }
  if (ctx.stage === 'body') {
    // The status line and headers arrived, so the upstream is up: a connection lost mid-body is transient.
    return new UpstreamTransportError(
      'UPSTREAM_BAD_RESPONSE',
      `${ctx.provider} closed the connection before the response was complete.`,
      true,
    );
  }
  const code = codes.find((c) => /^[A-Z_]+$/.test(c)) ?? 'network error';
  return new UpstreamTransportError(
    'UPSTREAM_ERROR',
    `Could not reach ${ctx.provider} at ${ctx.host} (${code}).`,
    codes.some((c) => RETRYABLE_NETWORK_CODES.has(c)),
  );
}

const EGRESS_HINT =
  'ces connects only to public addresses; an operator can allow a private destination with CES_EGRESS_ALLOW.';

/**
 * A literal IP is the caller's own input, so its class can be named. For a host name the answer is the same
 * whether it resolved to a refused address or did not resolve at all: anything finer would let a caller who
 * controls a base URL map the internal DNS.
 */
function egressDenied(denied: EgressDeniedError, provider: string): UpstreamTransportError {
  if (!denied.resolved) {
    return new UpstreamTransportError(
      'EGRESS_DENIED',
      `The upstream address for ${provider} is not allowed: ${denied.host} is not a public address. ${EGRESS_HINT}`,
      false,
      { host: denied.host, address_class: denied.addressClass },
    );
  }
  return new UpstreamTransportError(
    'EGRESS_DENIED',
    `The upstream host for ${provider} is not allowed or not reachable as a public address: ${denied.host}. ${EGRESS_HINT}`,
    denied.transient,
    { host: denied.host },
  );
}

function causes(err: unknown): unknown[] {
  const out: unknown[] = [];
  let cur: unknown = err;
  while (cur && out.length < 8) {
    out.push(cur);
    if (cur instanceof AggregateError) out.push(...cur.errors);
    cur = (cur as { cause?: unknown }).cause;
  }
  return out;
}
