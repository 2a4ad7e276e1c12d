// The MCP server, driven by the official SDK's own client: over Streamable HTTP (/mcp on a real server
// process) and over stdio (`ces mcp` as a subprocess on the same database), list → describe → execute (batched)
// → search → download on the GitHub fake; auth failures and a scoped token outside its workspace.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  GITHUB_FAKE_DEFAULT_TOKEN,
  type GithubFake,
  startGithubFake,
} from '../connectors/github/fake/index.ts';
import { testStoreEnv } from '../helpers/postgres.ts';
import { call, type Server, startServer, stop } from '../helpers/server-process.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');

interface ToolResult {
  isError?: boolean;
  content: Array<{ type: string; text?: string; uri?: string }>;
}
const json = (r: unknown) => JSON.parse((r as ToolResult).content[0]?.text ?? 'null');

describe('MCP server', () => {
  let fake: GithubFake;
  let server: Server;
  let dataDir: string;
  let env: Record<string, string>;
  let boot: { client_id: string; client_secret: string };
  let token: string;
  let connectorId: string;

  before(async () => {
    fake = await startGithubFake({ tokens: [GITHUB_FAKE_DEFAULT_TOKEN] });
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ces-mcp-'));
    env = {
      CES_DATA_DIR: dataDir,
      CES_UPSTREAM_OVERRIDES: JSON.stringify({ github: fake.url }),
      CES_SYNC_POLL_MS: '50',
    };
    server = await startServer(env);
    boot = JSON.parse(fs.readFileSync(path.join(dataDir, 'bootstrap-credentials.json'), 'utf8'));
    const tok = await call(server.url, 'POST', '/api/v1/account/applications/token', undefined, {
      client_id: boot.client_id,
      client_secret: boot.client_secret,
    });
    assert.equal(tok.status, 200, JSON.stringify(tok.json));
    token = tok.json.access_token;
    const made = await call(server.url, 'POST', '/api/v1/integrations/connectors', token, {
      workspace_name: 'default',
      connector_type: 'github',
      name: 'widgets',
      credentials: { personal_access_token: GITHUB_FAKE_DEFAULT_TOKEN },
      replication_config: { repositories: ['ces-demo/widgets'] },
    });
    assert.equal(made.status, 200, JSON.stringify(made.json));
    connectorId = made.json.id;
  });
  after(async () => {
    await stop(server);
    await fake.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  async function httpClient(bearer: string): Promise<Client> {
    const client = new Client({ name: 'ces-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${bearer}` } },
      }),
    );
    return client;
  }

  /** The agent's session: the same steps over either transport. */
  async function session(client: Client) {
    const tools = await client.listTools();
    assert.deepEqual(tools.tools.map((t) => t.name).sort(), [
      'connect',
      'describe_connector',
      'download',
      'execute',
      'inspect',
      'list_connector_types',
      'list_connectors',
      'search',
    ]);
    const execute = tools.tools.find((t) => t.name === 'execute');
    assert.equal(execute?.inputSchema.type, 'object');

    // The skills are resources: the GitHub one is there, as markdown naming its entities.
    const resources = await client.listResources();
    const skillUri = resources.resources.find(
      (r) => r.name.startsWith('connector-source:') && /GitHub/.test(r.title ?? ''),
    )?.uri;
    assert.ok(skillUri, JSON.stringify(resources.resources.map((r) => r.name)));
    const skill = await client.readResource({ uri: skillUri });
    assert.match(String((skill.contents[0] as { text?: string }).text), /issues/);
    await assert.rejects(client.readResource({ uri: 'ces-skill:nope' }), /not found/i);

    const listed = json(await client.callTool({ name: 'list_connectors', arguments: {} }));
    assert.ok(listed.some((c: { connector_id: string }) => c.connector_id === connectorId));

    const described = json(
      await client.callTool({ name: 'describe_connector', arguments: { connector_id: connectorId } }),
    );
    const issues = described.entities.find((e: { entity: string }) => e.entity === 'issues');
    assert.ok(issues.actions.some((a: { action: string }) => a.action === 'list'));
    assert.ok(issues.searchable.fields.some((f: { name: string }) => f.name === 'title'));

    // A batch, run concurrently: two reads, one bad item, one over its size cap.
    const batch = json(
      await client.callTool({
        name: 'execute',
        arguments: {
          max_chars_per_item: 12000,
          items: [
            {
              connector_id: connectorId,
              entity: 'issues',
              action: 'list',
              params: { owner: 'ces-demo', repo: 'widgets', per_page: 5 },
              select_fields: ['number', 'title'],
            },
            {
              connector_id: connectorId,
              entity: 'issues',
              action: 'get',
              params: { owner: 'ces-demo', repo: 'widgets', number: 1 },
              select_fields: ['number', 'title', 'state'],
            },
            {
              connector_id: connectorId,
              entity: 'issues',
              action: 'list',
              params: { owner: 'ces-demo', repo: 'widgets' },
            },
            {
              connector_id: connectorId,
              entity: 'issues',
              action: 'list',
              params: { owner: 'ces-demo', repo: 'widgets', per_page: 50 },
              exclude_fields: [],
            },
          ],
        },
      }),
    );
    const [list, get, bad, big] = batch.results;
    assert.equal(list.status, 'success', JSON.stringify(list));
    assert.deepEqual(Object.keys(list.result[0]).sort(), ['number', 'title']);
    assert.equal(list.connector_metadata.has_next_page, true);
    assert.equal(get.result.number, 1);
    assert.equal(bad.status, 'error');
    assert.equal(bad.error.code, 'VALIDATION_ERROR');
    assert.match(bad.error.message, /select_fields or exclude_fields/);
    assert.ok(big.truncated, 'a long answer is cut and says so');
    assert.ok(
      big.result.length > 0 && big.result.length < big.truncated.records_on_page,
      JSON.stringify(big.truncated),
    );
    assert.ok(JSON.stringify(big).length <= 12000, `the item is ${JSON.stringify(big).length} characters`);

    // Errors are tool errors with ces's code.
    const missing = (await client.callTool({
      name: 'inspect',
      arguments: { connector_id: '00000000-0000-4000-8000-000000000000' },
    })) as ToolResult;
    assert.equal(missing.isError, true);
    assert.equal(json(missing).error.code, 'CONNECTOR_NOT_FOUND');
    const invalid = (await client.callTool({
      name: 'search',
      arguments: { connector_id: 'x' },
    })) as ToolResult;
    assert.equal(invalid.isError, true);
    assert.equal(json(invalid).error.code, 'VALIDATION_ERROR');

    // Search the Context Store once the worker has indexed the issues.
    let found: { result: Array<{ number: number }> } | undefined;
    for (let i = 0; i < 200 && !found; i++) {
      const res = (await client.callTool({
        name: 'search',
        arguments: {
          connector_id: connectorId,
          entity: 'issues',
          query: { filter: { eq: { number: 1 } } },
          select_fields: ['number', 'title'],
        },
      })) as ToolResult;
      if (!res.isError) found = json(res);
      else if (json(res).error.code !== 'CONTEXT_STORE_NOT_READY') assert.fail(JSON.stringify(json(res)));
      else await new Promise((r) => setTimeout(r, 100));
    }
    assert.deepEqual(
      found?.result.map((r) => r.number),
      [1],
    );

    // A download is a resource link; following it streams the file over HTTP.
    const download = (await client.callTool({
      name: 'download',
      arguments: {
        connector_id: connectorId,
        entity: 'repositories',
        params: { owner: 'ces-demo', repo: 'widgets' },
      },
    })) as ToolResult;
    assert.ok(!download.isError, JSON.stringify(download));
    const link = download.content.find((c) => c.type === 'resource_link');
    assert.ok(link?.uri?.startsWith(`${server.url}/api/v1/downloads?link=`), link?.uri);
    const file = await fetch(link?.uri as string);
    assert.equal(file.status, 200);
    assert.ok((await file.arrayBuffer()).byteLength > 0);
  }

  test('over Streamable HTTP with an application token: list → describe → execute (batched) → search → download', async () => {
    const client = await httpClient(token);
    try {
      await session(client);
    } finally {
      await client.close();
    }
  });

  test('over stdio (`ces mcp` with client credentials from env), on the same database', async () => {
    const childEnv: Record<string, string> = {
      ...(process.env as Record<string, string>),
      ...env,
      ...testStoreEnv(env),
      CES_PUBLIC_URL: server.url,
      CES_SYNC_ENABLED: 'false',
      CES_MCP_CLIENT_ID: boot.client_id,
      CES_MCP_CLIENT_SECRET: boot.client_secret,
    };
    const client = new Client({ name: 'ces-test', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [path.join(ROOT, 'bin/ces.js'), 'mcp'],
        env: childEnv,
        cwd: ROOT,
        stderr: 'pipe',
      }),
    );
    try {
      await session(client);
    } finally {
      await client.close();
    }
  });

  test('auth: no token or a bad one is a 401 in the one error body; a scoped token sees its workspace only', async () => {
    for (const headers of [{}, { authorization: 'Bearer nope' }] as Array<Record<string, string>>) {
      const res = await fetch(`${server.url}/mcp`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...headers,
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
      assert.equal(res.status, 401);
      assert.equal(((await res.json()) as { code: string }).code, 'UNAUTHENTICATED');
    }
    await assert.rejects(httpClient('not-a-token'));

    const scoped = await call(server.url, 'POST', '/api/v1/account/applications/scoped-token', token, {
      workspace_name: 'elsewhere',
    });
    const client = await httpClient(scoped.json.token);
    try {
      assert.deepEqual(json(await client.callTool({ name: 'list_connectors', arguments: {} })), []);
      const outside = (await client.callTool({
        name: 'execute',
        arguments: {
          items: [
            {
              connector_id: connectorId,
              entity: 'issues',
              action: 'get',
              params: { owner: 'ces-demo', repo: 'widgets', number: 1 },
              select_fields: ['number'],
            },
          ],
        },
      })) as ToolResult;
      assert.equal(json(outside).results[0].error.code, 'WORKSPACE_SCOPE_VIOLATION');
      const link = (await client.callTool({
        name: 'connect',
        arguments: { connector_type: 'github' },
      })) as ToolResult;
      const answer = json(link);
      assert.equal(answer.workspace_name, 'elsewhere');
      assert.equal(answer.enabled, false, 'no source template enables GitHub for end users here');
      assert.ok(
        answer.credential_options.some((o: { fields: string[] }) =>
          o.fields.includes('personal_access_token'),
        ),
      );
    } finally {
      await client.close();
    }
  });

  test('stdio refuses to start without valid client credentials', async () => {
    const client = new Client({ name: 'ces-test', version: '1.0.0' });
    await assert.rejects(
      client.connect(
        new StdioClientTransport({
          command: process.execPath,
          args: [path.join(ROOT, 'bin/ces.js'), 'mcp'],
          env: {
            ...(process.env as Record<string, string>),
            ...env,
            ...testStoreEnv(env),
            CES_SYNC_ENABLED: 'false',
            CES_MCP_CLIENT_ID: boot.client_id,
            CES_MCP_CLIENT_SECRET: 'wrong',
          },
          cwd: ROOT,
          stderr: 'pipe',
        }),
      ),
    );
  });
});
