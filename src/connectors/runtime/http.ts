/**
 * One upstream HTTP exchange over undici, with the egress policy, a deadline covering connect + headers +
 * body, a response size cap and same-origin redirects. Transport failures come out as DomainErrors; HTTP
 * error statuses do not (they are mapped by `upstream-errors.ts`, which knows the definition's rules).
 *
 * Retries belong one level up (`resilience.ts` wraps `send`): `UpstreamRequest.idempotent` says which requests
 * may be repeated, and every failure here is an `UpstreamTransportError` that says whether repeating could help.
 */
import { Agent, type Dispatcher, request } from 'undici';
import { DomainError } from '../../core/errors.ts';
import { checkLiteralHost, EgressDeniedError, guardedLookup } from './egress.ts';

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
}

export interface HttpOptions {
  timeoutMs: number;
  maxResponseBytes: number;
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
    code: 'UPSTREAM_TIMEOUT' | 'UPSTREAM_BAD_RESPONSE' | 'UPSTREAM_ERROR' | 'EGRESS_DENIED',
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
  private readonly guardedAgent: Agent;
  private readonly trustedAgent: Agent;

  constructor(private readonly opts: HttpOptions) {
    const common = {
      keepAliveTimeout: 10_000,
      headersTimeout: opts.timeoutMs,
      bodyTimeout: opts.timeoutMs,
    };
    this.guardedAgent = new Agent({
      ...common,
      connect: { timeout: opts.timeoutMs, lookup: guardedLookup() },
    });
    this.trustedAgent = new Agent({ ...common, connect: { timeout: opts.timeoutMs } });
  }

  /** `provider` is the display name used in messages ("GitHub did not answer within 10000 ms"). */
  async send(req: UpstreamRequest, provider: string, sendOpts: SendOptions = {}): Promise<UpstreamResponse> {
    const timeoutMs = Math.max(1, Math.min(this.opts.timeoutMs, sendOpts.timeoutMs ?? this.opts.timeoutMs));
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
        const res = await request(url, {
          method: req.method,
          headers: req.headers,
          body: req.body,
          signal: controller.signal,
          dispatcher: req.guarded ? this.guardedAgent : this.trustedAgent,
        });
        const next = redirectTarget(req, url, res, hop);
        if (next) {
          await res.body.dump();
          url = next;
          continue;
        }
        stage = 'body';
        const body = await readCapped(res.body, this.opts.maxResponseBytes, provider);
        return { status: res.statusCode, headers: flatten(res.headers), body, url };
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
    await Promise.all([this.guardedAgent.close(), this.trustedAgent.close()]);
  }

  private checkEgress(url: URL, guarded: boolean, provider: string): void {
    if (url.protocol !== 'https:' && url.protocol !== 'http:') {
      throw new UpstreamTransportError(
        'EGRESS_DENIED',
        `The upstream URL for ${provider} must use http or https.`,
        false,
      );
    }
    if (guarded) checkLiteralHost(url);
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

async function readCapped(
  body: Dispatcher.ResponseData['body'],
  max: number,
  provider: string,
): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += (chunk as Buffer).length;
    if (size > max) {
      body.destroy();
      throw new UpstreamTransportError(
        'UPSTREAM_BAD_RESPONSE',
        `${provider} sent a response larger than ${max} bytes.`,
        false,
      );
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
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
  if (denied) {
    return new UpstreamTransportError(
      'EGRESS_DENIED',
      `The upstream address for ${ctx.provider} is not allowed: ${denied.host} is a ${denied.addressClass} address. ` +
        'ces only connects to public addresses; an operator can allow a specific upstream with CES_UPSTREAM_OVERRIDES.',
      false,
      { host: denied.host, address_class: denied.addressClass },
    );
  }
  const codes = chain
    .map((e) => (e as { code?: unknown }).code)
    .filter((c): c is string => typeof c === 'string');
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
