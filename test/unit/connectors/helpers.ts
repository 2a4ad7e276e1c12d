import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { stringify } from 'yaml';
import { parseDefinition } from '../../../src/connectors/load.ts';
import { ConnectorRuntime, type RuntimeOptions } from '../../../src/connectors/runtime/executor.ts';
import type { ConnectorDefinition } from '../../../src/connectors/schema.ts';

export interface SeenRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export type Handler = (req: SeenRequest, res: ServerResponse, raw: IncomingMessage) => void;

/** A real node:http server on 127.0.0.1:0 that records what it was sent. */
export async function startServer(handler: Handler) {
  const seen: SeenRequest[] = [];
  const server = createServer((raw, res) => {
    const chunks: Buffer[] = [];
    raw.on('data', (c: Buffer) => chunks.push(c));
    raw.on('end', () => {
      const req = {
        method: raw.method ?? 'GET',
        url: raw.url ?? '/',
        headers: raw.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      seen.push(req);
      handler(req, res, raw);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

export function json(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
) {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
  res.end(JSON.stringify(body));
}

export const CURSOR_KEY = new Uint8Array(32).fill(7);

export function runtime(overrides: Record<string, string>, extra: Partial<RuntimeOptions> = {}) {
  return new ConnectorRuntime({
    cursorKey: CURSOR_KEY,
    upstreamOverrides: overrides,
    // Long enough that a loaded machine (test files run side by side) never turns an answer into a timeout;
    // a test about timeouts sets its own.
    timeoutMs: 30_000,
    ...extra,
  });
}

/**
 * A fictional provider exercising every paging style and auth placement, so the runtime is tested on
 * declarations rather than on GitHub's particular choices.
 */
export const ACME_YAML = `
id: 0b6d7f7e-1111-4c1a-9d8e-2f0c5a1b2c3d
slug: acme
name: Acme
icon_url: https://acme.example/icon.svg
support_level: community
documentation_url: https://acme.example/docs
base_url: "https://{subdomain}.acme.example/api"
base_url_variables:
  subdomain: { description: Account subdomain., pattern: "^[a-z0-9-]+$" }
headers: { X-Acme-Version: "3" }
credential_options:
  - title: API Key
    description: Key in the query string.
    fields:
      api_key: { type: string, title: API key, description: The key., secret: true }
    required: [api_key]
    auth: { type: query, name: key, value: "{api_key}" }
  - title: Basic
    description: Email and token.
    fields:
      email: { type: string, title: Email, description: Login email. }
      api_token: { type: string, title: API token, description: Token., secret: true }
    required: [email, api_token]
    auth: { type: basic, username: "{email}/token", password: "{api_token}" }
  - title: Header
    description: Custom header.
    fields:
      token: { type: string, title: Token, description: Token., secret: true }
    required: [token]
    auth: { type: header, name: X-Acme-Token, value: "token {token}" }
check: { method: GET, path: /me }
replication_config:
  type: object
  required: [subdomain]
  properties:
    subdomain: { type: string }
errors:
  expose_body_keys: [message, code]
  rules:
    - when: { status: [200], body: { path: [ok], equals: false } }
      error: error
  retry_after_headers: [{ name: x-reset-ms, format: unix_ms }]
entities:
  - name: things
    description: Things.
    primary_key: [id]
    actions:
      list:
        description: Link-header paging.
        params:
          folder: { type: string, required: true, description: Folder. }
          size: { type: integer, minimum: 1, maximum: 50, description: Page size. }
          tags: { type: array, items: { type: string }, style: repeat, description: Tags. }
        request: { method: GET, path: "/folders/{folder}/things" }
        record_selector: [things]
        pagination: { type: link_header }
        page_size_param: size
        meta: { total: [total] }
      get:
        description: One thing.
        params:
          folder: { type: string, required: true, description: Folder. }
          id: { type: integer, required: true, description: Id. }
        request: { method: GET, path: "/folders/{folder}/things/{id}" }
      create:
        description: New thing.
        params:
          folder: { type: string, required: true, description: Folder. }
          title: { type: string, required: true, in: body, description: Title. }
        request: { method: POST, path: "/folders/{folder}/things" }
  - name: pages
    description: Page-number paging.
    primary_key: [id]
    actions:
      list:
        description: Pages.
        params:
          per_page: { type: integer, description: Size. }
        request: { method: GET, path: /pages }
        pagination: { type: page_number, param: page, size_param: per_page, page_size: 2 }
  - name: offsets
    description: Offset paging.
    primary_key: [id]
    actions:
      list:
        description: Offsets.
        page_size_param: false
        request: { method: GET, path: /offsets }
        pagination: { type: offset, offset_param: offset, limit_param: limit, page_size: 2 }
  - name: cursors
    description: Body-cursor paging.
    primary_key: [id]
    actions:
      list:
        description: Cursors.
        page_size_param: false
        request: { method: GET, path: /cursors }
        record_selector: [data]
        pagination: { type: body_cursor, cursor_path: [meta, next], param: after, has_more_path: [meta, has_more] }
  - name: links
    description: Next-URL-in-body paging.
    primary_key: [id]
    actions:
      list:
        description: Links.
        page_size_param: false
        request: { method: GET, path: /links }
        record_selector: [items]
        pagination: { type: next_url, path: [next_page] }
`;

export function acme(): ConnectorDefinition {
  return parseDefinition(ACME_YAML, 'acme.yaml');
}

export const ACME_KEY = { option: 'API Key', values: { api_key: 'sekret-key-123' } };
export const ACME_CONFIG = { subdomain: 'demo' };

/** The error lines loading `doc` (a parsed definition document) as `fileName` fails with; [] when it loads. */
export function loadErrors(doc: unknown, fileName: string): string[] {
  try {
    parseDefinition(stringify(doc), fileName);
    return [];
  } catch (err) {
    return (err as Error).message.split('\n');
  }
}
