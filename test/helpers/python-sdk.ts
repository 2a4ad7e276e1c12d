// The hosted service's Python SDK (airbyte-agent-sdk) as ces's tests replay it, on a real socket (inject() would
// add headers of its own): the bytes its AirbyteCloudClient sends, and its reading of the answers.
//
// Requests: httpx's AsyncClient posts `json=` bodies, with the client's default headers (Accept, Accept-Encoding,
// Connection, User-Agent), then the SDK's own (X-ADP-Agent-SDK, Authorization, X-Organization-Id when an
// organization is configured), then the body's Content-Length and Content-Type; httpx puts Host first. Since
// httpx 0.28 (what the SDK's `httpx>=0.24` resolves to) a JSON body is json.dumps(ensure_ascii=False,
// separators=(",", ":")): for the strings, integers, lists and objects these tests send, JSON.stringify's bytes.
//
// Answers: a status >= 400 raises; otherwise `result` becomes the executor's `data` and `connector_metadata` its
// `meta`. The typed `context_store_search` reads `result.get("data")` and `result.get("meta")` (a list has no
// `.get`: an AttributeError) into a pydantic model whose `took_ms` is `int | None` (a fraction fails validation).
import { exchange } from './raw-http.ts';

export const HTTPX_VERSION = '0.28.1';

/** json.dumps(value) with its default separators (httpx < 0.28's bodies), for the plain values the SDK sends. */
export function pythonDefaultJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(pythonDefaultJson).join(', ')}]`;
  if (value !== null && typeof value === 'object')
    return `{${Object.entries(value)
      .map(([k, v]) => `${JSON.stringify(k)}: ${pythonDefaultJson(v)}`)
      .join(', ')}}`;
  return JSON.stringify(value);
}

/**
 * The bytes the SDK's httpx client sends for `post(path, json=body)`: compact JSON (httpx >= 0.28) or, with
 * `spaced`, json.dumps' default form (the older httpx the SDK also allows).
 */
export function pythonSdkRequest(
  port: number,
  path: string,
  json: unknown,
  options: { bearer?: string | undefined; organizationId?: string | undefined; spaced?: boolean } = {},
): Buffer {
  const body = Buffer.from(options.spaced ? pythonDefaultJson(json) : JSON.stringify(json), 'utf8');
  const head = [
    `POST ${path} HTTP/1.1`,
    `Host: 127.0.0.1:${port}`,
    'Accept: */*',
    'Accept-Encoding: gzip, deflate',
    'Connection: keep-alive',
    `User-Agent: python-httpx/${options.spaced ? '0.27.2' : HTTPX_VERSION}`,
    'X-ADP-Agent-SDK: airbyte-agent-sdk',
    ...(options.bearer ? [`Authorization: Bearer ${options.bearer}`] : []),
    ...(options.organizationId ? [`X-Organization-Id: ${options.organizationId}`] : []),
    `Content-Length: ${body.length}`,
    'Content-Type: application/json',
    '',
    '',
  ].join('\r\n');
  return Buffer.concat([Buffer.from(head, 'latin1'), body]);
}

/** What the SDK raises on a status >= 400 (its message names the status and the body's message). */
export class SdkHttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: string,
  ) {
    super(`HTTP ${status} error: ${body}`);
  }
}

export interface SdkSearchMeta {
  has_more: boolean;
  cursor: string | null;
  took_ms: number | null;
}

export interface SdkSearchResult {
  data: Array<Record<string, unknown>>;
  meta: SdkSearchMeta;
}

/** The SDK's hosted client of one application, talking to ces on 127.0.0.1:`port`. */
export function pythonSdk(
  port: number,
  app: { clientId: string; clientSecret: string; organizationId?: string },
) {
  let token: string | undefined;

  const post = async (path: string, json: unknown, bearer?: string): Promise<unknown> => {
    const answer = await exchange(
      port,
      pythonSdkRequest(port, path, json, { bearer, organizationId: app.organizationId }),
    );
    const text = answer.body.toString('utf8');
    if (answer.status >= 400) throw new SdkHttpError(answer.status, text);
    return JSON.parse(text) as unknown;
  };

  /** get_bearer_token: one token request, then the cached token. */
  const bearer = async () => {
    token ??= (
      (await post('/api/v1/account/applications/token', {
        client_id: app.clientId,
        client_secret: app.clientSecret,
      })) as { access_token: string }
    ).access_token;
    return token;
  };

  /** HostedExecutor.execute with a connector id: `{data: result, meta: connector_metadata}`. */
  const execute = async (
    connectorId: string,
    entity: string,
    action: string,
    params: Record<string, unknown> | null,
  ) => {
    const response = (await post(
      `/api/v1/integrations/connectors/${connectorId}/execute`,
      { entity, action, params },
      await bearer(),
    )) as { result: unknown; connector_metadata?: unknown };
    return { data: response.result, meta: response.connector_metadata };
  };

  /** The typed `<entity>.context_store_search(query, limit, cursor, fields)` and its parsing of the answer. */
  const contextStoreSearch = async (
    connectorId: string,
    entity: string,
    args: { query: unknown; limit?: number; cursor?: string | null; fields?: string[][] },
  ): Promise<SdkSearchResult> => {
    // Built in the SDK's order, each optional member only when given.
    const params: Record<string, unknown> = { query: args.query };
    if (args.limit !== undefined) params.limit = args.limit;
    if (args.cursor !== undefined && args.cursor !== null) params.cursor = args.cursor;
    if (args.fields !== undefined) params.fields = args.fields;
    // The action has no envelope in the SDK's map: the connector hands on `result` as it is.
    const { data: result } = await execute(connectorId, entity, 'context_store_search', params);
    if (result === null || typeof result !== 'object' || Array.isArray(result)) {
      throw new TypeError(
        `AttributeError: '${Array.isArray(result) ? 'list' : typeof result}' object has no attribute 'get'`,
      );
    }
    const { data, meta } = result as { data?: unknown; meta?: unknown };
    const m = meta !== null && typeof meta === 'object' ? (meta as Record<string, unknown>) : undefined;
    const tookMs = m?.took_ms ?? null;
    if (tookMs !== null && !Number.isInteger(tookMs)) {
      throw new TypeError(
        `ValidationError: meta.took_ms: Input should be a valid integer, got ${String(tookMs)}`,
      );
    }
    return {
      data: (Array.isArray(data) ? data : []).filter(
        (row): row is Record<string, unknown> =>
          row !== null && typeof row === 'object' && !Array.isArray(row),
      ),
      meta: {
        has_more: m ? m.has_more === true : false,
        cursor: typeof m?.cursor === 'string' ? m.cursor : null,
        took_ms: tookMs as number | null,
      },
    };
  };

  return { execute, contextStoreSearch };
}
