/**
 * One upstream HTTP exchange over undici, with the egress policy, a deadline covering connect + headers +
 * body, a response size cap and same-origin redirects. Transport failures come out as DomainErrors; HTTP
 * error statuses do not (they are mapped by `upstream-errors.ts`, which knows the definition's rules).
 *
 * Retries belong one level up, wrapped around `send`: `UpstreamRequest.idempotent` says which requests a
 * retry layer may repeat, and every failure here is a DomainError whose code tells it what happened.
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
  async send(req: UpstreamRequest, provider: string): Promise<UpstreamResponse> {
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, this.opts.timeoutMs);
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
        timeoutMs: this.opts.timeoutMs,
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
      throw new DomainError('EGRESS_DENIED', `The upstream URL for ${provider} must use http or https.`);
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
      throw new DomainError('UPSTREAM_BAD_RESPONSE', `${provider} sent a response larger than ${max} bytes.`);
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

function flatten(headers: Dispatcher.ResponseData['headers']): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

interface FailureContext {
  timedOut: boolean;
  stage: 'connect' | 'body';
  provider: string;
  timeoutMs: number;
  host: string;
}

/** Messages name the provider and host, never the URL: query strings may carry API keys. */
function transportError(err: unknown, ctx: FailureContext): DomainError {
  if (err instanceof DomainError) return err;
  const chain = causes(err);
  const denied = chain.find((e): e is EgressDeniedError => e instanceof EgressDeniedError);
  if (denied) {
    return new DomainError(
      'EGRESS_DENIED',
      `The upstream address for ${ctx.provider} is not allowed: ${denied.host} is a ${denied.addressClass} address. ` +
        'ces only connects to public addresses; an operator can allow a specific upstream with CES_UPSTREAM_OVERRIDES.',
      { extra: { host: denied.host, address_class: denied.addressClass } },
    );
  }
  const codes = chain
    .map((e) => (e as { code?: unknown }).code)
    .filter((c): c is string => typeof c === 'string');
  const undiciTimeout = codes.some((c) => /^UND_ERR_(CONNECT|HEADERS|BODY)_TIMEOUT$/.test(c));
  if (ctx.timedOut || undiciTimeout) {
    return new DomainError('UPSTREAM_TIMEOUT', `${ctx.provider} did not answer within ${ctx.timeoutMs} ms.`);
  }
  if (ctx.stage === 'body') {
    return new DomainError(
      'UPSTREAM_BAD_RESPONSE',
      `${ctx.provider} closed the connection before the response was complete.`,
    );
  }
  const code = codes.find((c) => /^[A-Z_]+$/.test(c)) ?? 'network error';
  return new DomainError('UPSTREAM_ERROR', `Could not reach ${ctx.provider} at ${ctx.host} (${code}).`);
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
