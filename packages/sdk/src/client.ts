import createClient, { type Client } from 'openapi-fetch';
import { clientCredentials, FixedToken, RenewingToken, type TokenSource } from './auth.ts';
import { type Download, type DownloadRequest, download } from './download.ts';
import { unwrap } from './errors.ts';
import type { paths } from './generated/openapi.ts';
import { Connectors, Definitions, Workspaces } from './resources.ts';
import type { SearchParams, SearchSpec } from './search.ts';
import type { CallOptions, ExecuteRequest, ExecuteResult, ScopedTokenReply } from './types.ts';

interface CommonOptions {
  /** Where ces answers, e.g. `http://127.0.0.1:8080` (without `/api/v1`). */
  baseUrl: string;
  /** Another fetch (a proxy agent, a test double); default: the global fetch. */
  fetch?: typeof fetch;
  /** The clock renewal is timed by (ms since the epoch); for tests. */
  now?: () => number;
}
/** An application's client credentials: tokens are exchanged, renewed before they expire and on a 401. */
export interface ClientCredentialsOptions extends CommonOptions {
  clientId: string;
  clientSecret: string;
  /** For an application of several organizations (sent as X-Organization-Id). */
  organizationId?: string;
  token?: never;
}
/**
 * A token you already have (e.g. a scoped token minted by your backend), used as it is; or a function that
 * mints one, called again shortly before the token's `exp` and after a 401.
 */
export interface TokenOptions extends CommonOptions {
  token: string | (() => Promise<string>);
  clientId?: never;
  clientSecret?: never;
}
export type CesOptions = ClientCredentialsOptions | TokenOptions;

const EXECUTE = '/api/v1/integrations/connectors/{id}/execute';

/**
 * A client of one ces server: typed methods over its API, and `api`, the typed openapi-fetch client (same
 * authentication) for any route the methods do not cover.
 */
export class Ces {
  readonly baseUrl: string;
  /** openapi-fetch's client over every route of the OpenAPI document, with this client's token. */
  readonly api: Client<paths>;
  readonly connectors: Connectors;
  readonly definitions: Definitions;
  readonly workspaces: Workspaces;
  private readonly auth: TokenSource;
  private readonly fetchImpl: typeof fetch;
  private readonly now: () => number;

  constructor(options: CesOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.fetchImpl = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.now = options.now ?? Date.now;
    const { token } = options;
    if (typeof token === 'string') this.auth = new FixedToken(token);
    else if (token) {
      this.auth = new RenewingToken(async () => ({ token: await token(), expiresInMs: undefined }), this.now);
    } else {
      const { clientId, clientSecret, organizationId } = options as ClientCredentialsOptions;
      const fetchToken = clientCredentials({
        baseUrl: this.baseUrl,
        clientId,
        clientSecret,
        organizationId,
        fetch: this.fetchImpl,
      });
      this.auth = new RenewingToken(fetchToken, this.now);
    }
    this.api = createClient<paths>({ baseUrl: this.baseUrl, fetch: (request) => this.send(request) });
    this.connectors = new Connectors(this.api);
    this.definitions = new Definitions(this.api);
    this.workspaces = new Workspaces(this.api);
  }

  /** The bearer token requests carry now (exchanged or renewed first when needed). */
  token(): Promise<string> {
    return this.auth.token();
  }

  // Every authenticated request goes through here: the current token, and after a 401 one more try with a
  // fresh one (a token revoked or expired early); a second 401 is the caller's error.
  private async send(request: Request): Promise<Response> {
    const retry = request.clone();
    const token = await this.auth.token();
    request.headers.set('authorization', `Bearer ${token}`);
    const response = await this.fetchImpl(request);
    if (response.status !== 401 || !this.auth.refused(token)) return response;
    await response.body?.cancel();
    retry.headers.set('authorization', `Bearer ${await this.auth.token()}`);
    return this.fetchImpl(retry);
  }

  /**
   * Runs one entity/action (`list`, `get`, `create`, `update`, `api_search`, `search`, `context_store_search`…);
   * `T` is the type of `result` (`ContextStoreSearchPage<R>` for `context_store_search`).
   */
  async execute<T = unknown>(
    connectorId: string,
    request: ExecuteRequest,
    options: CallOptions = {},
  ): Promise<ExecuteResult<T>> {
    const reply = await unwrap(
      this.api.POST(EXECUTE, { params: { path: { id: connectorId } }, body: request, ...options }),
    );
    return reply as ExecuteResult<T>;
  }

  /**
   * Every page of a list (or search), following `connector_metadata.end_cursor` into `params.cursor` until
   * `has_next_page` is false. Pages are fetched as the loop asks for them.
   */
  async *pages<T = Record<string, unknown>>(
    connectorId: string,
    request: ExecuteRequest,
    options: CallOptions = {},
  ): AsyncGenerator<ExecuteResult<T[]>, void, undefined> {
    let params: Record<string, unknown> = { ...(request.params ?? {}) };
    for (;;) {
      const page = await this.execute<T[]>(connectorId, { ...request, params }, options);
      if (!Array.isArray(page.result)) {
        throw new TypeError(
          request.action === 'context_store_search'
            ? 'context_store_search answers a page object ({data, meta}): page with action search, the same query answering arrays, or call execute()'
            : `${request.entity}.${request.action} answered one record, not a page: use execute()`,
        );
      }
      yield page;
      const { has_next_page, end_cursor } = page.connector_metadata;
      if (!has_next_page || !end_cursor) return;
      params = { ...params, cursor: end_cursor };
    }
  }

  /** The records of every page, one by one. */
  async *records<T = Record<string, unknown>>(
    connectorId: string,
    request: ExecuteRequest,
    options: CallOptions = {},
  ): AsyncGenerator<T, void, undefined> {
    for await (const page of this.pages<T>(connectorId, request, options)) yield* page.result;
  }

  /** Downloads a file (action `download`), streamed: nothing is buffered. */
  download(connectorId: string, request: DownloadRequest, options: CallOptions = {}): Promise<Download> {
    return download(this.api, connectorId, request, options);
  }

  /**
   * One page of a Context Store search: `query` is a searchQuery() builder (its limit and fields too) or the
   * DSL's `{filter, sort}`; `options` add or override `limit`, `fields` and the page `cursor`.
   */
  search<T = Record<string, unknown>>(
    connectorId: string,
    entity: string,
    query: { toParams(): SearchParams } | SearchSpec,
    options: Omit<SearchParams, 'query'> & CallOptions = {},
  ): Promise<ExecuteResult<T[]>> {
    const { signal, ...paging } = options;
    const base: SearchParams = isBuilder(query) ? query.toParams() : { query };
    const params = { ...base, ...paging };
    return this.execute<T[]>(connectorId, { entity, action: 'search', params: { ...params } }, { signal });
  }

  /** A token valid (20 minutes by default) for one workspace only, created if missing. */
  async scopedToken(workspaceName: string): Promise<ScopedTokenReply> {
    return unwrap(
      this.api.POST('/api/v1/account/applications/scoped-token', { body: { workspace_name: workspaceName } }),
    );
  }

  /**
   * A client limited to one workspace: it works with scoped tokens minted by this client, renewed before they
   * expire, so it can be handed to code that must not reach other workspaces.
   */
  scoped(workspaceName: string): Ces {
    return new Ces({
      baseUrl: this.baseUrl,
      fetch: this.fetchImpl,
      now: this.now,
      token: async () => (await this.scopedToken(workspaceName)).token,
    });
  }
}

function isBuilder(query: unknown): query is { toParams(): SearchParams } {
  return typeof (query as { toParams?: unknown }).toParams === 'function';
}
