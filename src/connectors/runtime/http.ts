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
import { DomainError } from '../../core/errors.ts';
import { UpstreamAgents } from './agents.ts';
import type { BufferBudget, Reservation } from './buffer-budget.ts';
import { checkLiteralHost, EgressDeniedError, type EgressPolicy, PUBLIC_ONLY } from './egress.ts';

export interface UpstreamRequest {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  url: URL;
  headers: Record<string, string>;
  body?: string;
  /** True when the URL is not from the operator's overrides and so must pass the egress policy. */
  guarded: boolean;
  /** Whether repeating the request is harmless (GET/PUT/DELETE); retries must check it. */
  idempotent: boolean;
}

export interface UpstreamResponse {
  status: number;
  /** Lower-case names; repeated headers joined with ", " (correct for Link). */
  headers: Record<string, string>;
  body: Buffer;
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
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    let stage: 'connect' | 'body' = 'connect';
    try {
      let url = req.url;
      for (let hop = 0; ; hop++) {
        this.checkEgress(url, req.guarded, provider);
        const { request, dispatcher } = await this.agents.dispatcher(!req.guarded);
        const res = await request(url, {
          method: req.method,
          headers: req.headers,
          body: req.body,
          signal: controller.signal,
          dispatcher,
        });
        const next = redirectTarget(req, url, res, hop);
        if (next) {
          await res.body.dump();
          url = next;
          continue;
        }
        stage = 'body';
        const { body, reservation } = await this.readBody(res, provider, controller.signal, endsAt);
        const release = () => reservation.release();
        return { status: res.statusCode, headers: flatten(res.headers), body, url, release };
      }
    } catch (err) {
      throw transportError(err, {
        timedOut,
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
   * Reads the whole body within the per-call cap and the buffer budget. A declared Content-Length is checked
   * against the cap before a byte is read, then reserved in full (waiting for room if need be) and read into
   * one buffer of that size. A body without one reserves a first step the same way, then grows as bytes
   * arrive and never waits again, because by then it holds bytes (see buffer-budget.ts).
   */
  private async readBody(
    res: Dispatcher.ResponseData,
    provider: string,
    signal: AbortSignal,
    endsAt: number,
  ): Promise<{ body: Buffer; reservation: Reservation }> {
    const { budget } = this.opts;
    // A budget smaller than the per-call cap is the real cap: a larger answer could never fit.
    const cap = Math.min(this.opts.maxResponseBytes, budget.limit);
    const capVariable =
      cap === this.opts.maxResponseBytes ? 'CES_UPSTREAM_MAX_RESPONSE_BYTES' : 'CES_UPSTREAM_BUFFER_BYTES';
    const declared = declaredLength(res.headers['content-length']);
    if (declared !== undefined && declared > cap) {
      discard(res.body);
      throw tooLarge(provider, cap, capVariable, declared);
    }
    const waitMs = Math.max(0, Math.min(this.opts.budgetWaitMs, endsAt - Date.now()));
    const reservation = await budget.reserve(declared ?? Math.min(READ_STEP, cap), waitMs, signal);
    if (!reservation) {
      discard(res.body);
      const answer =
        declared === undefined ? `${provider}'s answer` : `${provider}'s ${declared}-byte answer`;
      throw budgetBusy(budget, `no room for ${answer} came free within ${waitMs} ms`);
    }
    try {
      if (declared !== undefined)
        return { body: await readDeclared(res.body, declared, provider), reservation };
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of res.body) {
        size += (chunk as Buffer).length;
        if (size > cap) throw tooLarge(provider, cap, capVariable);
        const wanted = Math.min(cap, Math.ceil(size / READ_STEP) * READ_STEP) - reservation.bytes;
        if (wanted > 0 && !reservation.grow(wanted))
          throw budgetBusy(budget, `ran out of room while reading ${provider}'s answer`);
        chunks.push(chunk as Buffer);
      }
      reservation.shrinkTo(size);
      return { body: Buffer.concat(chunks, size), reservation };
    } catch (err) {
      reservation.release();
      discard(res.body);
      throw err;
    }
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
  res: Dispatcher.ResponseData,
  hop: number,
): URL | null {
  if (![301, 302, 303, 307, 308].includes(res.statusCode) || req.method !== 'GET') return null;
  const location = res.headers.location;
  if (typeof location !== 'string' || hop >= MAX_REDIRECTS) return null;
  let next: URL;
  try {
    next = new URL(location, url);
  } catch {
    return null;
  }
  return next.origin === url.origin ? next : null;
}

/**
 * Drops a response without reading it. undici reports a destroyed body as an 'error' event, which would be an
 * uncaught exception (a crashed server) with no listener; the failure that made us drop it is already thrown.
 */
function discard(body: Dispatcher.ResponseData['body']): void {
  body.on('error', () => {});
  body.destroy();
}

/** A body without Content-Length reserves budget in steps of this size as it arrives. */
const READ_STEP = 64 * 1024;

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

/** Into one buffer of the declared size: no second copy, as concatenating chunks would make. */
async function readDeclared(
  body: Dispatcher.ResponseData['body'],
  declared: number,
  provider: string,
): Promise<Buffer> {
  const out = Buffer.allocUnsafe(declared);
  let size = 0;
  for await (const chunk of body) {
    const bytes = chunk as Buffer;
    if (size + bytes.length > declared) {
      throw new UpstreamTransportError(
        'UPSTREAM_BAD_RESPONSE',
        `${provider} sent more bytes than its Content-Length announced.`,
        false,
      );
    }
    bytes.copy(out, size);
    size += bytes.length;
  }
  // Never the unwritten tail: allocUnsafe memory may hold anything.
  return size === declared ? out : out.subarray(0, size);
}

export function flatten(headers: Dispatcher.ResponseData['headers']): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
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
