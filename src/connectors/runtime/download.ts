/**
 * Streams one file from a provider to the client without holding it in memory.
 *
 * It has its own agents because a download's limits differ from a JSON call's: no overall deadline (a large
 * file takes as long as it takes) but an idle timeout between chunks. Redirects are followed across origins,
 * as file hosts (Zendesk's attachment storage, GitHub's codeload) live elsewhere; the credentials are only
 * sent to the origin they belong to, and every hop passes the egress policy on its own (an operator who allows
 * a private API host with CES_EGRESS_ALLOW names its storage host too; the allowance never carries over).
 */
import { Readable } from 'node:stream';
import type { Dispatcher } from 'undici';
import { DomainError } from '../../errors.ts';
import type { ConnectorDefinition } from '../schema.ts';
import { UpstreamAgents } from './agents.ts';
import { checkLiteralHost, type EgressPolicy, PUBLIC_ONLY } from './egress.ts';
import { flatten, transportError, type UpstreamResponse } from './http.ts';
import { classifyResponse, upstreamError } from './upstream-errors.ts';

export interface DownloadResult {
  status: 200 | 206;
  /** Only the allowlisted response headers below, lower-case. */
  headers: Record<string, string>;
  body: Readable;
}

export interface DownloadRequest {
  def: ConnectorDefinition;
  operation: string;
  url: URL;
  /** Headers for the credential's own origin (they carry the credential). */
  authHeaders: Record<string, string>;
  /** Headers for any other origin. */
  plainHeaders: Record<string, string>;
  /** The origins the credential may go to (the API's, declared file hosts); redirects elsewhere drop `authHeaders`. */
  authOrigins: string[];
  /** The operator's override origin, the only one allowed to resolve to a loopback or private address. */
  trustedOrigin: string | null;
  range?: string | undefined;
  filename?: string | undefined;
  contentType?: string | undefined;
  /** Credential values to scrub from any upstream text echoed in an error. */
  secrets: string[];
}

const MAX_REDIRECTS = 5;
const ERROR_BODY_LIMIT = 64 * 1024;
const PASSED_HEADERS = [
  'content-type',
  'content-length',
  'content-range',
  'accept-ranges',
  'etag',
  'last-modified',
];

export class Downloader {
  private readonly agents: UpstreamAgents;

  constructor(
    private readonly opts: { timeoutMs: number },
    private readonly egress: EgressPolicy = PUBLIC_ONLY,
  ) {
    // bodyTimeout is undici's idle timeout between body chunks, not a deadline for the whole body.
    const common = { keepAliveTimeout: 10_000, headersTimeout: opts.timeoutMs, bodyTimeout: opts.timeoutMs };
    this.agents = new UpstreamAgents(common, opts.timeoutMs, egress);
  }

  async fetch(req: DownloadRequest): Promise<DownloadResult> {
    const provider = req.def.name;
    let url = req.url;
    for (let hop = 0; ; hop++) {
      const trusted = req.trustedOrigin !== null && url.origin === req.trustedOrigin;
      if (url.protocol !== 'https:' && url.protocol !== 'http:') {
        throw new DomainError('EGRESS_DENIED', `${provider} pointed the download to a non-http(s) URL.`);
      }
      const headers = { ...(req.authOrigins.includes(url.origin) ? req.authHeaders : req.plainHeaders) };
      if (req.range) headers.range = req.range;
      let res: Dispatcher.ResponseData;
      try {
        if (!trusted) checkLiteralHost(url, this.egress);
        const { request, dispatcher } = await this.agents.dispatcher(trusted);
        res = await request(url, { method: 'GET', headers, dispatcher });
      } catch (err) {
        throw this.failed(err, provider, url, 'connect');
      }
      const location = res.headers.location;
      if ([301, 302, 303, 307, 308].includes(res.statusCode) && typeof location === 'string') {
        await res.body.dump();
        if (hop >= MAX_REDIRECTS) {
          throw new DomainError(
            'UPSTREAM_BAD_RESPONSE',
            `${provider} redirected the download too many times.`,
          );
        }
        url = new URL(location, url);
        continue;
      }
      if (res.statusCode < 200 || res.statusCode >= 300) throw await this.failure(req, res, url);
      return this.success(req, res, url);
    }
  }

  async close(): Promise<void> {
    await this.agents.close();
  }

  /** Same classification as JSON calls; undici's own timeouts are the idle timeouts here (no overall deadline). */
  private failed(err: unknown, provider: string, url: URL, stage: 'connect' | 'body') {
    return transportError(err, {
      timedOut: false,
      stage,
      provider,
      timeoutMs: this.opts.timeoutMs,
      host: url.host,
    });
  }

  private async failure(req: DownloadRequest, res: Dispatcher.ResponseData, url: URL): Promise<DomainError> {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of res.body) {
      size += (chunk as Buffer).length;
      if (size > ERROR_BODY_LIMIT) {
        res.body.destroy();
        break;
      }
      chunks.push(chunk as Buffer);
    }
    const body = Buffer.concat(chunks);
    let parsed: unknown;
    try {
      parsed = body.length > 0 ? JSON.parse(body.toString('utf8')) : undefined;
    } catch {
      parsed = undefined;
    }
    const upstream: UpstreamResponse = { status: res.statusCode, headers: flatten(res.headers), body, url };
    const kind = classifyResponse(upstream, parsed, req.def.errors) ?? 'error';
    return upstreamError(kind, upstream, parsed, {
      def: req.def,
      operation: req.operation,
      secrets: req.secrets,
    });
  }

  private async success(
    req: DownloadRequest,
    res: Dispatcher.ResponseData,
    url: URL,
  ): Promise<DownloadResult> {
    const upstream = flatten(res.headers);
    const headers: Record<string, string> = {};
    for (const name of PASSED_HEADERS) if (upstream[name] !== undefined) headers[name] = upstream[name];
    if (
      req.contentType &&
      (!headers['content-type'] || headers['content-type'] === 'application/octet-stream')
    ) {
      headers['content-type'] = req.contentType;
    }
    headers['content-type'] ??= 'application/octet-stream';
    headers['content-disposition'] = contentDisposition(upstream['content-disposition'], req.filename, url);

    // An empty body is an upstream fault, never an empty 200 (the reference service's known defect). A declared
    // length settles it without touching the stream; only a chunked body needs its first chunk peeked.
    const declared = headers['content-length'] === undefined ? Number.NaN : Number(headers['content-length']);
    if (declared === 0) {
      await res.body.dump();
      throw new DomainError(
        'UPSTREAM_BAD_RESPONSE',
        `${req.def.name} returned an empty file for ${req.operation}; nothing to download.`,
      );
    }
    if (Number.isInteger(declared) && declared > 0) {
      return { status: res.statusCode === 206 ? 206 : 200, headers, body: res.body };
    }
    const iterator = res.body[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
    let first: IteratorResult<Buffer>;
    try {
      do first = await iterator.next();
      while (!first.done && first.value.length === 0);
    } catch (err) {
      throw this.failed(err, req.def.name, url, 'body');
    }
    if (first.done) {
      throw new DomainError(
        'UPSTREAM_BAD_RESPONSE',
        `${req.def.name} returned an empty file for ${req.operation}; nothing to download.`,
      );
    }
    const head = first.value;
    const body = Readable.from(
      (async function* () {
        yield head;
        for (;;) {
          const next = await iterator.next();
          if (next.done) return;
          yield next.value;
        }
      })(),
      { objectMode: false },
    );
    // A client that goes away must release the upstream connection too.
    body.once('close', () => {
      if (!res.body.destroyed) res.body.destroy();
    });
    return { status: res.statusCode === 206 ? 206 : 200, headers, body };
  }
}

/** Upstream's disposition wins; else the declared filename; else the last path segment of the file URL. */
export function contentDisposition(
  upstream: string | undefined,
  filename: string | undefined,
  url: URL,
): string {
  if (upstream && /^(attachment|inline)\b/i.test(upstream)) return upstream;
  const fallback = decodeURIComponent(url.pathname.split('/').filter(Boolean).pop() ?? '') || 'download';
  const name = (filename?.trim() || fallback).replace(/[\r\n]/g, ' ');
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}
