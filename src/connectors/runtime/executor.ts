/**
 * The connector runtime: (definition, credentials, entity, action, params) -> one upstream request -> result
 * and normalised paging metadata. Nothing here knows a provider; every difference is read from the definition.
 *
 * Credentials are only ever placed into the outgoing request. They are never logged, never part of an error
 * message, and scrubbed from any upstream text we echo.
 */
import { DomainError } from '../../core/errors.ts';
import type { ResolvedCredentials } from '../credentials.ts';
import { COLLECTION_ACTIONS, type ConnectorDefinition, type RequestDefinition } from '../schema.ts';
import { type CursorBinding, CursorCodec } from './cursor.ts';
import { atPath } from './dpath.ts';
import { UpstreamHttp, type UpstreamResponse } from './http.ts';
import { nextPageUrl } from './paginators.ts';
import { type ResolvedAction, resolveAction, validateParams } from './params.ts';
import {
  applyAuth,
  type BaseUrl,
  type BuiltRequest,
  baseHeaders,
  buildRequest,
  resolveBaseUrl,
} from './request.ts';
import { classifyResponse, upstreamError } from './upstream-errors.ts';

export interface RuntimeOptions {
  /** HMAC key for opaque cursors (>= 16 bytes). */
  cursorKey: Uint8Array;
  /** Connector slug -> base URL (config CES_UPSTREAM_OVERRIDES); the ONLY way to reach loopback/private upstreams. */
  upstreamOverrides: Record<string, string>;
  /** Per upstream request: connect + headers + body. */
  timeoutMs: number;
  userAgent?: string;
  /** Upper bound of one upstream response body (default 32 MiB). */
  maxResponseBytes?: number;
}

export interface ExecuteInput {
  connectorId: string;
  definition: ConnectorDefinition;
  credentials: ResolvedCredentials;
  config: Record<string, unknown>;
  entity: string;
  action: string;
  params: Record<string, unknown>;
}

export interface ExecuteOutput {
  result: unknown;
  connector_metadata: { has_next_page: boolean; end_cursor: string | null; [k: string]: unknown };
}

const IDEMPOTENT = new Set(['GET', 'PUT', 'DELETE']);

export class ConnectorRuntime {
  private readonly http: UpstreamHttp;
  private readonly cursors: CursorCodec;
  private readonly overrides: Record<string, string>;
  private readonly userAgent: string;

  constructor(opts: RuntimeOptions) {
    this.cursors = new CursorCodec(opts.cursorKey);
    this.overrides = { ...opts.upstreamOverrides };
    this.userAgent = opts.userAgent ?? 'ces/0.1';
    this.http = new UpstreamHttp({
      timeoutMs: opts.timeoutMs,
      maxResponseBytes: opts.maxResponseBytes ?? 32 << 20,
    });
  }

  /** 422 before any upstream call: unknown entity/action, missing/mistyped/unknown params. */
  validate(def: ConnectorDefinition, entity: string, action: string, params: Record<string, unknown>): void {
    validateParams(resolveAction(def, entity, action), params);
  }

  async execute(input: ExecuteInput): Promise<ExecuteOutput> {
    const { definition: def, params } = input;
    const resolved = resolveAction(def, input.entity, input.action);
    validateParams(resolved, params);
    const base = resolveBaseUrl(def, input.config, this.overrides);
    const binding: CursorBinding = {
      connectorId: input.connectorId,
      entity: input.entity,
      action: input.action,
    };
    const request = resolved.action.request;
    const built =
      resolved.paged && params.cursor !== undefined && params.cursor !== null
        ? this.replay(binding, params.cursor, base, request)
        : buildRequest(base, request, resolved.action.params ?? {}, params);
    const operation = `${input.entity}.${input.action}`;
    const { res, body, authQuery } = await this.exchange(
      def,
      input.credentials,
      base,
      request.method,
      built,
      operation,
    );

    const selected = atPath(body, resolved.action.record_selector ?? []);
    const collection = COLLECTION_ACTIONS.includes(resolved.actionName as never);
    if (collection && !Array.isArray(selected)) {
      throw new DomainError(
        'UPSTREAM_BAD_RESPONSE',
        `${def.name} returned no list of records for ${operation}.`,
      );
    }
    const meta: Record<string, unknown> = {};
    for (const [name, path] of Object.entries(resolved.action.meta ?? {}))
      meta[name] = atPath(body, path) ?? null;
    const endCursor = this.endCursor(resolved, binding, base, res, body, selected, authQuery, def.name);
    return {
      result: selected === undefined ? null : selected,
      connector_metadata: { ...meta, has_next_page: endCursor !== null, end_cursor: endCursor },
    };
  }

  /**
   * Live check of credentials at connector create/rotate: performs the definition's `check` request.
   * A 401/403 answer becomes INVALID_CREDENTIALS; other failures map as in `execute`.
   */
  async checkCredentials(
    def: ConnectorDefinition,
    credentials: ResolvedCredentials,
    config: Record<string, unknown>,
    _connectorId?: string,
  ): Promise<void> {
    const base = resolveBaseUrl(def, config, this.overrides);
    const built = buildRequest(base, def.check, {}, {});
    try {
      await this.exchange(def, credentials, base, def.check.method, built, 'the credential check');
    } catch (err) {
      if (
        err instanceof DomainError &&
        (err.code === 'UPSTREAM_AUTH_FAILED' || err.code === 'UPSTREAM_FORBIDDEN')
      ) {
        const upstream = (err.extra?.upstream ?? {}) as { status?: number; body?: Record<string, unknown> };
        const said = typeof upstream.body?.message === 'string' ? `: ${upstream.body.message}` : '';
        throw new DomainError(
          'INVALID_CREDENTIALS',
          `The provider rejected these credentials (${def.name} answered HTTP ${upstream.status ?? '4xx'}${said}). Check the token and its scopes.`,
          {
            extra: err.extra,
            errors: [
              {
                field: 'credentials',
                message: 'rejected by the provider',
                error_code: 'invalid_credentials',
              },
            ],
          },
        );
      }
      throw err;
    }
  }

  async close(): Promise<void> {
    await this.http.close();
  }

  private replay(
    binding: CursorBinding,
    cursor: unknown,
    base: BaseUrl,
    req: RequestDefinition,
  ): BuiltRequest {
    const next = this.cursors.verify(binding, cursor);
    let url: URL | undefined;
    try {
      url = new URL(next.url);
    } catch {
      url = undefined;
    }
    // Re-checked at replay: the base URL comes from config, which may have changed since the cursor was issued.
    if (!url || url.origin !== base.origin) {
      throw new DomainError(
        'INVALID_CURSOR',
        "params.cursor points outside the connector's current base URL; start again without a cursor.",
        {
          errors: [
            {
              field: 'params.cursor',
              message: 'cursor no longer matches the base URL',
              error_code: 'invalid_cursor',
            },
          ],
        },
      );
    }
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers ?? {})) headers[k.toLowerCase()] = v;
    return { url, headers, ...(next.body === undefined ? {} : { body: JSON.stringify(next.body) }) };
  }

  /** Sends one request and returns the parsed body of a success; any failure is thrown as a DomainError. */
  private async exchange(
    def: ConnectorDefinition,
    credentials: ResolvedCredentials,
    base: BaseUrl,
    method: RequestDefinition['method'],
    built: BuiltRequest,
    operation: string,
  ): Promise<{ res: UpstreamResponse; body: unknown; authQuery: string | undefined }> {
    const headers = { ...baseHeaders(def, this.userAgent), ...built.headers };
    if (built.body !== undefined) headers['content-type'] = 'application/json';
    const url = new URL(built.url);
    const authQuery = applyAuth(def, credentials, url, headers);
    const res = await this.http.send(
      {
        method,
        url,
        headers,
        guarded: base.guarded,
        idempotent: IDEMPOTENT.has(method),
        ...(built.body === undefined ? {} : { body: built.body }),
      },
      def.name,
    );
    const parsed = parseJson(res);
    const kind = classifyResponse(res, parsed.ok ? parsed.value : undefined, def.errors);
    if (kind) {
      const secrets = Object.values(credentials.values);
      throw upstreamError(kind, res, parsed.ok ? parsed.value : undefined, { def, operation, secrets });
    }
    if (!parsed.ok) {
      const type = res.headers['content-type']?.split(';')[0] ?? 'no content-type';
      throw new DomainError(
        'UPSTREAM_BAD_RESPONSE',
        `${def.name} returned a response to ${operation} that is not valid JSON (HTTP ${res.status}, ${type}).`,
      );
    }
    return { res, body: parsed.value, authQuery };
  }

  private endCursor(
    resolved: ResolvedAction,
    binding: CursorBinding,
    base: BaseUrl,
    res: UpstreamResponse,
    body: unknown,
    records: unknown,
    authQuery: string | undefined,
    provider: string,
  ): string | null {
    if (!resolved.paged || !Array.isArray(records)) return null;
    const next = nextPageUrl(resolved.action.pagination, {
      url: res.url,
      headers: res.headers,
      body,
      records,
    });
    if (!next) return null;
    if (next.origin !== base.origin) {
      // Following it would send the connector's credentials to a host the operator never configured.
      throw new DomainError(
        'UPSTREAM_BAD_RESPONSE',
        `${provider}'s next-page link points to another host (${next.host}); ces does not follow it.`,
      );
    }
    if (authQuery !== undefined) next.searchParams.delete(authQuery);
    return this.cursors.sign(binding, { url: next.href });
  }
}

function parseJson(res: UpstreamResponse): { ok: true; value: unknown } | { ok: false } {
  if (res.body.length === 0) return { ok: true, value: null };
  try {
    return { ok: true, value: JSON.parse(res.body.toString('utf8')) };
  } catch {
    return { ok: false };
  }
}
