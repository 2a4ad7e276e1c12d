/**
 * The connector runtime: (definition, credentials, entity, action, params) -> one upstream request -> result
 * and normalised paging metadata. Nothing here knows a provider; every difference is read from the definition.
 *
 * Credentials are only ever placed into the outgoing request. They are never logged, never part of an error
 * message, and scrubbed from any upstream text we echo.
 */
import type { EgressAllowEntry } from '../../config/index.ts';
import { DomainError } from '../../errors.ts';
import type { ResolvedCredentials } from '../credentials.ts';
import { hooksOf } from '../hooks/index.ts';
import {
  type ActionDefinition,
  COLLECTION_ACTIONS,
  type ConnectorDefinition,
  type CredentialOption,
  type RequestDefinition,
} from '../schema.ts';
import {
  appCredentials,
  type CodeExchange,
  type ConsentUrlInput,
  codeExchangeRequest,
  consentUrl,
} from './authorization-code.ts';
import { encodeBody } from './body.ts';
import { BufferBudget, HeldBuffers } from './buffer-budget.ts';
import { credentialCheckError } from './check-errors.ts';
import { type Clock, systemClock } from './clock.ts';
import { type CursorBinding, CursorCodec, type NextRequest } from './cursor.ts';
import { Downloader, type DownloadResult } from './download.ts';
import { credentialOrigins, fileUrl, isPlainObject, withHookBody } from './download-steps.ts';
import { atPath } from './dpath.ts';
import { EgressPolicy } from './egress.ts';
import { UpstreamHttp, type UpstreamResponse } from './http.ts';
import { cutList, jsonSlice } from './json-slice.ts';
import type { RateBuckets, SharedSlots } from './limiter.ts';
import { unparsedListPath } from './list-bytes.ts';
import { type CredentialStore, OAuth2Refresher, settingsFor, tokenResponse, tokenTarget } from './oauth2.ts';
import { NO_RUNTIME_OBSERVER, OPERATION, type RuntimeObserver } from './observer.ts';
import { type NextPage, nextPage } from './paginators.ts';
import { type ResolvedAction, resolveAction, validateParams } from './params.ts';
import { type Payload, recordsPayload } from './payload.ts';
import { recordFieldsFor, writeRecordFields } from './record-fields.ts';
import {
  applyAuth,
  type BaseUrl,
  type BuiltRequest,
  baseHeaders,
  buildRequest,
  paramsFor,
  requestFor,
  resolveBaseUrl,
} from './request.ts';
import { httpFailure, ResilientUpstream } from './resilience.ts';
import { classifyResponse, upstreamError } from './upstream-errors.ts';

export interface RuntimeOptions {
  /** The secret opaque cursors are sealed under (>= 16 bytes; src/connectors/runtime/cursor.ts). */
  cursorKey: Uint8Array;
  /** Connector slug -> base URL (config CES_UPSTREAM_OVERRIDES); trusted, so it may be loopback/private. */
  upstreamOverrides: Record<string, string>;
  /** Connector slug -> the proactive rate limit to hold instead of the definition's, or null for none. */
  rateLimitOverrides?: Record<string, { requests: number; per_seconds: number } | null>;
  /** Private destinations user-given URLs may reach (config CES_EGRESS_ALLOW); everything else must be public. */
  egressAllow?: readonly EgressAllowEntry[];
  /**
   * Per upstream attempt: connect + headers + body. One call with its retries and throttling waits is
   * bounded by `timeoutMs * retry.max_attempts` (see resilience.ts).
   */
  timeoutMs: number;
  userAgent?: string;
  /** Upper bound of one upstream response body (config CES_UPSTREAM_MAX_RESPONSE_BYTES; default 32 MiB). */
  maxResponseBytes?: number;
  /**
   * Upstream response bytes all calls of this runtime may hold in memory at once (config
   * CES_UPSTREAM_BUFFER_BYTES; default 32 MiB). Downloads stream and are not counted.
   */
  bufferBudgetBytes?: number;
  /**
   * The longest a call queues for one of its connector's concurrency slots, and an answer for room in the
   * buffer budget (config CES_UPSTREAM_QUEUE_WAIT_MS; default 5000); both also within the call's deadline.
   */
  queueWaitMs?: number;
  /** Time, sleep and jitter of retries and rate limits; tests inject a fake. */
  clock?: Clock;
  /** Proactive rate limits held across processes (the store's, on PostgreSQL); by default per process. */
  rateBuckets?: RateBuckets;
  /** Concurrency limits held across processes (the store's, on PostgreSQL); by default per process. */
  sharedSlots?: SharedSlots;
  /** Told of upstream requests, retries, rate-limit waits and token refreshes (metrics); by default no one. */
  observer?: RuntimeObserver;
}

export interface ExecuteInput {
  connectorId: string;
  definition: ConnectorDefinition;
  credentials: ResolvedCredentials;
  config: Record<string, unknown>;
  entity: string;
  action: string;
  params: Record<string, unknown>;
  /**
   * Persists OAuth2 credentials this call refreshes (and tells when someone else already did). Without it a
   * refresh still happens but its result lives only for this call.
   */
  credentialStore?: CredentialStore | undefined;
  /**
   * Keeps the answer's bytes counted in the buffer budget until this settles (the HTTP reply that carries
   * the payload's bytes is written), since they stay in memory until then. Without it they are released when
   * `execute` returns, so a caller keeping the result for long should pass it.
   */
  holdUntil?: Promise<unknown> | undefined;
  /**
   * The caller keeps the records as bytes (the Context Store's sync) or writes them on as they are (an execute
   * reply nothing is trimmed from): where the runtime itself needs nothing inside the list (list-bytes.ts), it
   * parses only the envelope around it and answers a bytes payload (payload.ts).
   */
  unparsedRecords?: boolean | undefined;
  /**
   * A collection's record cap, from the client's `limit` (limit.ts): at most this many records are answered,
   * and end_cursor resumes after the last one answered, within the same provider page if records are left.
   */
  recordLimit?: number | undefined;
}

/** Paging normalised: whether there is a next page and the cursor that asks for it, plus the declared `meta`. */
export interface ConnectorMetadata {
  has_next_page: boolean;
  end_cursor: string | null;
  [k: string]: unknown;
}

/** A JSON answer of the provider: its records (payload.ts) and where the list goes on. */
export interface ExecuteOutput {
  payload: Payload;
  connector_metadata: ConnectorMetadata;
}

const IDEMPOTENT = new Set(['GET', 'PUT', 'DELETE']);

export class ConnectorRuntime {
  private readonly http: UpstreamHttp;
  private readonly upstream: ResilientUpstream;
  private readonly oauth: OAuth2Refresher;
  /** Params objects `validate` returned: `execute` takes them as they are. */
  private readonly validated = new WeakSet<Record<string, unknown>>();
  private readonly clock: Clock;
  private readonly downloader: Downloader;
  private readonly cursors: CursorCodec;
  private readonly overrides: Record<string, string>;
  private readonly userAgent: string;
  private readonly budget: BufferBudget;

  constructor(opts: RuntimeOptions) {
    this.cursors = new CursorCodec(opts.cursorKey);
    this.overrides = { ...opts.upstreamOverrides };
    this.userAgent = opts.userAgent ?? 'ces/0.1';
    const egress = new EgressPolicy(opts.egressAllow);
    this.downloader = new Downloader({ timeoutMs: opts.timeoutMs }, egress);
    const queueWaitMs = opts.queueWaitMs ?? 5000;
    this.budget = new BufferBudget(opts.bufferBudgetBytes ?? 32 << 20);
    this.http = new UpstreamHttp(
      {
        timeoutMs: opts.timeoutMs,
        maxResponseBytes: opts.maxResponseBytes ?? 32 << 20,
        budget: this.budget,
        budgetWaitMs: queueWaitMs,
      },
      egress,
    );
    this.clock = opts.clock ?? systemClock;
    const observer = opts.observer ?? NO_RUNTIME_OBSERVER;
    this.upstream = new ResilientUpstream(
      this.http,
      {
        timeoutMs: opts.timeoutMs,
        queueWaitMs,
        rateLimitOverrides: opts.rateLimitOverrides ?? {},
        ...(opts.rateBuckets ? { rateBuckets: opts.rateBuckets } : {}),
        ...(opts.sharedSlots ? { sharedSlots: opts.sharedSlots } : {}),
        observer,
      },
      this.clock,
    );
    this.oauth = new OAuth2Refresher({
      // Every answer is the refresher's to interpret; the request is never repeated (idempotent: false).
      send: (req, def) =>
        this.upstream.call(req, { def, action: OPERATION.tokenRefresh }, (res) => ({ ok: true, value: res })),
      overrides: this.overrides,
      userAgent: this.userAgent,
      now: () => this.clock.now(),
      observer,
    });
  }

  /** The buffer budget right now: bytes held (0 once no answer is in flight or kept), calls waiting for room. */
  get bufferUse(): { held: number; waiting: number } {
    return { held: this.budget.heldBytes, waiting: this.budget.waiting };
  }

  /**
   * 422 before any upstream call: unknown entity/action, missing/mistyped/unknown params. Returns the params to
   * pass to `execute`, which then does not check them again. With the connector's `config`, required params the
   * definition scopes (runtime/scoping.ts) are taken from it when the client leaves them out.
   */
  validate(
    def: ConnectorDefinition,
    entity: string,
    action: string,
    params: Record<string, unknown>,
    config?: Record<string, unknown>,
  ): Record<string, unknown> {
    const scope = config === undefined || def.scoping === undefined ? undefined : { def, config };
    const valid = validateParams(resolveAction(def, entity, action), params, scope);
    this.validated.add(valid);
    return valid;
  }

  async execute(input: ExecuteInput): Promise<ExecuteOutput> {
    const held = new HeldBuffers();
    let handedOver = false;
    try {
      const output = await this.executeHeld(input, held);
      if (input.holdUntil) {
        void input.holdUntil.then(
          () => held.release(),
          () => held.release(),
        );
        handedOver = true;
      }
      return output;
    } finally {
      if (!handedOver) held.release();
    }
  }

  private async executeHeld(input: ExecuteInput, held: HeldBuffers): Promise<ExecuteOutput> {
    const { definition: def } = input;
    const resolved = resolveAction(def, input.entity, input.action);
    const params = this.validated.has(input.params) ? input.params : validateParams(resolved, input.params);
    const binding: CursorBinding = {
      connectorId: input.connectorId,
      entity: input.entity,
      action: input.action,
    };
    const request = requestFor(resolved.action, params);
    const next =
      resolved.paged && params.cursor !== undefined && params.cursor !== null
        ? this.cursors.verify(binding, params.cursor)
        : undefined;
    // A cursor carries the cap it was issued under; the client's other params are ignored with it, so is limit.
    const window = { skip: next?.skip ?? 0, take: next ? next.take : input.recordLimit };
    // Built from the credentials each attempt uses: a token response may set a base URL variable. Built once
    // per credentials (the early check below and the first attempt use the same).
    let last: { credentials: ResolvedCredentials; base: BaseUrl; built: BuiltRequest } | undefined;
    const prepare = (credentials: ResolvedCredentials) => {
      if (last?.credentials !== credentials) {
        const base = resolveBaseUrl(def, input.config, this.overrides, credentials);
        const built = next
          ? this.replay(next, base, request)
          : buildRequest(base, request, paramsFor(resolved.action, request), params);
        last = { credentials, base, built };
      }
      return { base: last.base, built: last.built };
    };
    // Bad settings or a bad cursor fail before any token request, unless the base URL awaits the token's.
    if (!settingsFor(def, input.credentials)) prepare(input.credentials);
    const operation = `${input.entity}.${input.action}`;
    const recordFields = recordFieldsFor(resolved.entity, resolved.actionName);
    // Records ces writes members on are built, not passed on as the provider's bytes.
    const listPath =
      input.unparsedRecords &&
      window.take === undefined &&
      window.skip === 0 &&
      recordFields === undefined &&
      COLLECTION_ACTIONS.includes(resolved.actionName as never)
        ? unparsedListPath(def, resolved.action, request.graphql !== undefined)
        : undefined;
    const authorised = {
      def,
      config: input.config,
      credentials: input.credentials,
      flightKey: input.connectorId,
      store: input.credentialStore,
    };
    let answer: {
      exchanged: Awaited<ReturnType<ConnectorRuntime['exchange']>>;
      base: BaseUrl;
      built: BuiltRequest;
    };
    try {
      answer = (
        await this.oauth.run(authorised, async (credentials) => {
          const { base, built } = prepare(credentials);
          const exchanged = await this.exchange(def, credentials, base, request.method, built, operation, {
            key: input.connectorId,
            listPath,
            idempotent:
              request.idempotent ?? (request.idempotency_key_header === undefined ? undefined : true),
            held,
            graphql: request.graphql !== undefined,
            entity: resolved.entity.name,
            action: resolved.actionName,
          });
          return { exchanged, base, built };
        })
      ).value;
    } catch (err) {
      // A provider that answers "nothing matched" with an error (load-hooks.ts allows it on lists only).
      if (
        resolved.action.uses_hooks?.includes('empty_answer') &&
        err instanceof DomainError &&
        hooksOf(def).emptyAnswer?.(err) === true
      )
        return emptyPage(resolved.action);
      throw err;
    }
    const {
      exchanged: { res, body, authQuery, list },
      base,
      built,
    } = answer;

    // Unparsed, the list is an empty one in the envelope; nothing the runtime reads below lies inside it.
    const collection = COLLECTION_ACTIONS.includes(resolved.actionName as never);
    let selected = atPath(body, resolved.action.record_selector ?? []);
    if (collection && selected === undefined && resolved.action.omits_empty_list === true) selected = [];
    if (collection && !Array.isArray(selected)) {
      throw new DomainError(
        'UPSTREAM_BAD_RESPONSE',
        `${def.name} returned no list of records for ${operation}.`,
      );
    }
    const meta: Record<string, unknown> = {};
    for (const [name, path] of Object.entries(resolved.action.meta ?? {}))
      meta[name] = atPath(body, path) ?? null;
    const capped = collection ? capRecords(selected as unknown[], window) : undefined;
    const page = { res, body, records: selected, sent: built.body, headers: paramHeaders(built, request) };
    const endCursor = this.endCursor(resolved, binding, base, page, authQuery, def.name, {
      resume: capped?.resume,
      take: window.take,
    });
    const selector = resolved.action.record_selector ?? [];
    const connector_metadata = { ...meta, has_next_page: endCursor !== null, end_cursor: endCursor };
    if (list) {
      const payload: Payload = { kind: 'bytes', parts: list, source: { provider: def.name, operation } };
      return { payload, connector_metadata };
    }
    // After the next page was found: a paging style that reads records (a keyset's key) reads the provider's.
    if (recordFields !== undefined) {
      const records = capped ? capped.records : selected;
      const value = records === undefined ? null : writeRecordFields(records, recordFields);
      return { payload: recordsPayload(value), connector_metadata };
    }
    if (capped) return { payload: recordsPayload(capped.records), connector_metadata };
    // The provider's bytes of the records, to be written as they came instead of serialised again: the whole
    // body, or the value its record selector names (found by a scanner, json-slice.ts).
    const json =
      selected === undefined || res.body.length === 0
        ? undefined
        : selector.length === 0
          ? res.body
          : jsonSlice(res.body, selector);
    return { payload: recordsPayload(selected === undefined ? null : selected, json), connector_metadata };
  }

  /** The consent URL of an option's authorization code grant (upstream overrides applied as to its token URL). */
  consentUrl(
    def: ConnectorDefinition,
    option: CredentialOption,
    input: Omit<ConsentUrlInput, 'overrides'>,
  ): URL {
    return consentUrl(def, option, { ...input, overrides: this.overrides });
  }

  /**
   * Exchanges an authorization code at the option's token endpoint (through the same transport, timeouts and
   * egress policy as every upstream call). Returns the option's credentials: the app's client id and secret
   * and the tokens the answer carried.
   */
  async exchangeAuthorizationCode(
    def: ConnectorDefinition,
    option: CredentialOption,
    exchange: CodeExchange,
    config: Record<string, unknown>,
  ): Promise<ResolvedCredentials> {
    const { settings, creds } = appCredentials(option, exchange.clientId, exchange.clientSecret);
    const target = tokenTarget(def, settings, config, this.overrides, creds);
    const req = codeExchangeRequest(settings, exchange, target, this.userAgent);
    const res = await this.upstream.call(req, { def, action: OPERATION.codeExchange }, (r) => ({
      ok: true,
      value: r,
    }));
    return tokenResponse(def, settings, creds, res, this.clock.now(), 'code');
  }

  /**
   * Live check of credentials at connector create/rotate: performs the definition's `check` request.
   * A 401/403 answer becomes INVALID_CREDENTIALS; other failures map as in `execute`.
   * Returns the credentials to store: for an OAuth2 option the check may have refreshed them (a rotated,
   * single-use refresh token must not be lost), so callers store these rather than the ones they passed.
   */
  async checkCredentials(
    def: ConnectorDefinition,
    credentials: ResolvedCredentials,
    config: Record<string, unknown>,
    connectorId?: string,
    /** A stored connector's credentials: where a refresh during the check stores rotated tokens. */
    credentialStore?: CredentialStore,
  ): Promise<ResolvedCredentials> {
    if (!settingsFor(def, credentials)) resolveBaseUrl(def, config, this.overrides, credentials);
    try {
      const call = credentialStore
        ? { def, config, credentials, flightKey: connectorId, store: credentialStore }
        : { def, config, credentials };
      const checked = await this.oauth.run(call, (c) => {
        const base = resolveBaseUrl(def, config, this.overrides, c);
        const built = buildRequest(base, def.check, {}, {});
        return this.exchange(def, c, base, def.check.method, built, 'the credential check', {
          key: connectorId,
          idempotent: def.check.idempotent,
          graphql: def.check.graphql !== undefined,
          action: OPERATION.check,
        });
      });
      return checked.credentials;
    } catch (err) {
      throw credentialCheckError(def, err);
    }
  }

  /**
   * The `download` action: streams the file. With a declared `file_url` the action's request answers JSON
   * metadata naming the file's URL; otherwise the request itself answers with the file (after redirects).
   */
  async download(input: ExecuteInput, range?: string): Promise<DownloadResult> {
    const { definition: def } = input;
    const resolved = resolveAction(def, input.entity, input.action);
    if (resolved.actionName !== 'download') {
      throw new DomainError('UNKNOWN_ACTION', `Action '${input.action}' does not download a file.`);
    }
    const params = validateParams(resolved, input.params);
    // OAuth2: a stale access token is renewed first (a streamed download is not replayed after a 401).
    const credentials = await this.oauth.fresh({
      def,
      config: input.config,
      credentials: input.credentials,
      flightKey: input.connectorId,
      store: input.credentialStore,
    });
    input = { ...input, credentials };
    const base = resolveBaseUrl(def, input.config, this.overrides, input.credentials);
    const request = requestFor(resolved.action, params);
    const options = resolved.action.download ?? {};
    const built = withHookBody(
      buildRequest(base, request, paramsFor(resolved.action, request), params),
      resolved.action.uses_hooks?.includes('download_body') ? hooksOf(def).downloadBody : undefined,
    );
    const operation = `${input.entity}.download`;

    const authOrigins = credentialOrigins(
      base,
      options.credentials_to,
      this.overrides[def.slug] !== undefined,
    );
    const plainHeaders = { ...baseHeaders(def, this.userAgent), ...built.headers, accept: '*/*' };
    /** The headers for a URL: with the credential only on the API's origin and the declared file hosts. */
    const headersFor = (url: URL) => {
      const headers = { ...plainHeaders };
      if (authOrigins.includes(url.origin)) applyAuth(def, input.credentials, url, headers);
      return headers;
    };
    let url = built.url;
    let filename: string | undefined;
    let contentType: string | undefined;
    if (options.file_url) {
      const { body } = await this.exchange(def, input.credentials, base, request.method, built, operation, {
        key: input.connectorId,
        idempotent: request.idempotent,
        entity: resolved.entity.name,
        action: 'download',
      });
      const linkUrl = resolved.action.uses_hooks?.includes('download_url')
        ? hooksOf(def).downloadUrl
        : undefined;
      let found = fileUrl(def.name, operation, base, body, options, linkUrl);
      if (options.follow) {
        // The first URL answers JSON that names the file; fetched like the file would be (credentials only
        // on the declared origins), but buffered and parsed.
        const second = await this.exchange(
          def,
          input.credentials,
          base,
          'GET',
          { url: found.url, headers: {} },
          operation,
          {
            key: input.connectorId,
            authorise: (target) => headersFor(target),
            entity: resolved.entity.name,
            action: 'download',
          },
        );
        found = fileUrl(def.name, operation, base, second.body, options.follow);
      }
      url = found.url;
      filename = found.filename;
      contentType = found.contentType;
    }
    return this.downloader.fetch({
      def,
      operation,
      url,
      authHeaders: headersFor(url),
      plainHeaders,
      authOrigins,
      trustedOrigin: base.guarded ? null : base.origin,
      range,
      filename,
      contentType,
      secrets: Object.values(input.credentials.values),
    });
  }

  async close(): Promise<void> {
    await this.downloader.close();
    await this.http.close();
  }

  private replay(next: NextRequest, base: BaseUrl, req: RequestDefinition): BuiltRequest {
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
    // Sealed with the URL: the values validated on the first page, which a client can't alter.
    for (const [k, v] of Object.entries(next.headers ?? {})) if (typeof v === 'string') headers[k] = v;
    return {
      url,
      headers,
      ...(isPlainObject(next.body) ? { body: next.body } : {}),
      ...(req.body_format === undefined ? {} : { bodyFormat: req.body_format }),
    };
  }

  /**
   * Sends one request (retried and throttled per the definition; `call.key` is the connector id the limits
   * are kept for) and returns the parsed body of a success; any failure is thrown as a DomainError.
   */
  private async exchange(
    def: ConnectorDefinition,
    credentials: ResolvedCredentials,
    base: BaseUrl,
    method: RequestDefinition['method'],
    built: BuiltRequest,
    operation: string,
    call: {
      key?: string | undefined;
      idempotent?: boolean | undefined;
      held?: HeldBuffers;
      graphql?: boolean;
      /** Places the credential instead of `applyAuth` (a URL that may be off the API's origin). */
      authorise?: (url: URL) => Record<string, string>;
      /** What metrics call the request: the entity ('' for none) and the action or operation. */
      entity?: string;
      action?: string;
      /** The record selector of a list left unparsed in a success (list-bytes.ts). */
      listPath?: readonly string[] | undefined;
    } = {},
  ): Promise<{ res: UpstreamResponse; body: unknown; authQuery: string[]; list?: readonly Buffer[] }> {
    const headers = { ...baseHeaders(def, this.userAgent), ...built.headers };
    const encoded =
      built.body === undefined ? undefined : encodeBody(built.body, built.bodyFormat ?? 'json', built.media);
    if (encoded !== undefined) headers['content-type'] = encoded.contentType;
    const url = new URL(built.url);
    let authQuery: string[] = [];
    if (call.authorise) Object.assign(headers, call.authorise(url));
    else authQuery = applyAuth(def, credentials, url, headers);
    const secrets = Object.values(credentials.values);
    const now = () => this.clock.now();
    const request = {
      method,
      url,
      headers,
      // Only the operator's override origin is trusted; any other host passes the egress policy.
      guarded: base.guarded || url.origin !== base.origin,
      idempotent: call.idempotent ?? IDEMPOTENT.has(method),
      ...(encoded === undefined ? {} : { body: encoded.content }),
      // A list left unparsed is cut from the chunks as they came: no copy of them into one buffer.
      ...(call.listPath ? { asParts: true } : {}),
    };
    const ctx = { def, key: call.key, held: call.held, entity: call.entity, action: call.action };
    return this.upstream.call(request, ctx, (res) => {
      // A success's list may stay unparsed: the envelope around it is parsed (and checked) alone.
      const cut =
        call.listPath && res.status >= 200 && res.status < 300
          ? cutList(res.parts ?? [res.body], call.listPath)
          : undefined;
      const parsed = cut ? parseText(cut.envelope) : parseJson(res);
      const body = parsed.ok ? parsed.value : undefined;
      const kind = classifyResponse(res, body, def.errors, call.graphql === true);
      if (kind) {
        const error = upstreamError(kind, res, body, { def, operation, secrets, now, entity: call.entity });
        return httpFailure(kind, res, error, now);
      }
      if (!parsed.ok) {
        const type = res.headers['content-type']?.split(';')[0] ?? 'no content-type';
        const message = `${def.name} returned a response to ${operation} that is not valid JSON (HTTP ${res.status}, ${type}).`;
        return { ok: false, retryable: false, error: new DomainError('UPSTREAM_BAD_RESPONSE', message) };
      }
      return { ok: true, value: { res, body, authQuery, ...(cut ? { list: cut.list } : {}) } };
    });
  }

  private endCursor(
    resolved: ResolvedAction,
    binding: CursorBinding,
    base: BaseUrl,
    page: {
      res: UpstreamResponse;
      body: unknown;
      records: unknown;
      sent: Record<string, unknown> | undefined;
      /** Headers the client's params set (an API version): the next page must send them too. */
      headers: Record<string, string>;
    },
    authQuery: string[],
    provider: string,
    /** `resume`: records of this page are left after the cap, so the cursor asks for this page again from there. */
    window: { resume: number | undefined; take: number | undefined },
  ): string | null {
    const { res, body, records } = page;
    if (!resolved.paged || !Array.isArray(records)) return null;
    const found: NextPage | null =
      window.resume !== undefined
        ? { url: new URL(res.url), ...(isPlainObject(page.sent) ? { body: page.sent } : {}) }
        : nextPage(resolved.action.pagination, {
            url: res.url,
            headers: res.headers,
            body,
            records,
            ...(page.sent === undefined ? {} : { requestBody: page.sent }),
          });
    if (!found) return null;
    const next = found.url;
    if (next.origin !== base.origin) {
      // Following it would send the connector's credentials to a host the operator never configured.
      throw new DomainError(
        'UPSTREAM_BAD_RESPONSE',
        `${provider}'s next-page link points to another host (${next.host}); ces does not follow it.`,
      );
    }
    for (const name of authQuery) next.searchParams.delete(name);
    return this.cursors.sign(binding, {
      url: next.href,
      ...(found.body ? { body: found.body } : {}),
      ...(Object.keys(page.headers).length > 0 ? { headers: page.headers } : {}),
      ...(window.resume === undefined ? {} : { skip: window.resume }),
      ...(window.take === undefined ? {} : { take: window.take }),
    });
  }
}

/**
 * The headers a request got from the client's params, not from the definition's constants (which replay adds
 * itself) nor the credential (added at send time, never sealed into a cursor).
 */
function paramHeaders(built: BuiltRequest, req: RequestDefinition): Record<string, string> {
  const skipped = skippedHeaders(req);
  const out: Record<string, string> = {};
  for (const name in built.headers) {
    if (!skipped.has(name)) out[name] = built.headers[name] as string;
  }
  return out;
}

/** Per request definition (definitions are frozen): its constant headers' names and its idempotency key's. */
const skippedByRequest = new WeakMap<RequestDefinition, ReadonlySet<string>>();

function skippedHeaders(req: RequestDefinition): ReadonlySet<string> {
  let skipped = skippedByRequest.get(req);
  if (!skipped) {
    const names = new Set(Object.keys(req.headers ?? {}).map((k) => k.toLowerCase()));
    if (req.idempotency_key_header !== undefined) names.add(req.idempotency_key_header.toLowerCase());
    skipped = names;
    skippedByRequest.set(req, skipped);
  }
  return skipped;
}

/**
 * The records of a page inside the cap's window (`skip` records already answered from it, at most `take`
 * more), and where the next call resumes on the same page when records are left; undefined without a window.
 */
function capRecords(
  records: unknown[],
  window: { skip: number; take: number | undefined },
): { records: unknown[]; resume: number | undefined } | undefined {
  if (window.skip === 0 && (window.take === undefined || records.length <= window.take)) return undefined;
  const end = window.take === undefined ? records.length : window.skip + window.take;
  return { records: records.slice(window.skip, end), resume: end < records.length ? end : undefined };
}

/** The answer to a list whose provider said 404 for "nothing matched": no records, no next page. */
function emptyPage(action: ActionDefinition): ExecuteOutput {
  const meta: Record<string, unknown> = {};
  for (const name of Object.keys(action.meta ?? {})) meta[name] = null;
  return {
    payload: recordsPayload([]),
    connector_metadata: { ...meta, has_next_page: false, end_cursor: null },
  };
}

function parseText(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
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
