// Request rates that nothing gets around, on a real listening server: end users (widget tokens) have buckets of
// their own and never slow the organization's backend; one POST /mcp does no more than as many requests may
// (each JSON-RPC request and each execute item counts); following a download link counts against its
// organization. The clock is the test's own, so each bucket holds exactly what the test gave it.
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { createDownloadLink } from '../../src/core/connectors/download-link.ts';
import { authenticate } from '../../src/core/tokens/authenticate.ts';
import {
  GITHUB_FAKE_DEFAULT_TOKEN,
  type GithubFake,
  startGithubFake,
} from '../connectors/github/fake/index.ts';
import { createGithubConnector } from '../connectors/github/harness.ts';
import { type Harness, startHarness } from '../helpers/harness.ts';

/** A clock the test moves by hand. */
function manualClock() {
  let ms = Date.parse('2030-01-01T00:00:00Z');
  return {
    now: () => new Date(ms),
    advance: (seconds: number) => {
      ms += seconds * 1000;
    },
  };
}

interface Answer {
  status: number;
  headers: Headers;
  // biome-ignore lint/suspicious/noExplicitAny: test convenience
  json: any;
  bytes: number;
}

async function listen(h: Harness): Promise<string> {
  await h.app.listen({ host: '127.0.0.1', port: 0 });
  return `http://127.0.0.1:${(h.app.server.address() as AddressInfo).port}`;
}

async function send(
  base: string,
  method: string,
  path: string,
  bearer?: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Answer> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: {
      ...headers,
      ...(bearer ? { authorization: `Bearer ${bearer}` } : {}),
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const buf = Buffer.from(await res.arrayBuffer());
  let json: unknown;
  try {
    json = JSON.parse(buf.toString('utf8'));
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, json, bytes: buf.length };
}

/** The one error body, RATE_LIMITED, with Retry-After in the header and the body. */
function assertRateLimited(res: Answer, variable: RegExp): void {
  assert.equal(res.status, 429, JSON.stringify(res.json));
  assert.equal(res.json.code, 'RATE_LIMITED');
  assert.equal(typeof res.json.request_id, 'string');
  assert.ok(Array.isArray(res.json.errors));
  assert.match(res.json.message, variable);
  const retry = Number(res.headers.get('retry-after'));
  assert.ok(retry >= 1, `Retry-After: ${res.headers.get('retry-after')}`);
  assert.equal(res.json.retry_after, retry);
}

describe('end users have request rates of their own', () => {
  const clock = manualClock();
  let h: Harness;
  let base: string;
  let token: string;

  before(async () => {
    h = await startHarness(
      {
        CES_SYNC_ENABLED: 'false',
        CES_MAX_REQUESTS_PER_SECOND: '5',
        CES_MAX_END_USER_REQUESTS_PER_SECOND: '2',
        CES_MAX_WORKSPACE_END_USER_REQUESTS_PER_SECOND: '3',
      },
      { now: clock.now },
    );
    base = await listen(h);
    token = (
      await send(base, 'POST', '/api/v1/account/applications/token', undefined, {
        client_id: h.boot.client_id,
        client_secret: h.boot.client_secret,
      })
    ).json.access_token;
  });
  after(() => h.close());

  /** Minting costs the backend one request; the clock then moves on until every bucket is full again. */
  const widgetToken = async (workspace: string) => {
    const res = await send(base, 'POST', '/api/v1/account/applications/widget-token', token, {
      workspace_name: workspace,
      allowed_origin: 'https://app.example.com',
    });
    assert.equal(res.status, 200, JSON.stringify(res.json));
    clock.advance(10);
    return res.json.token as string;
  };
  const session = (widget: string) => send(base, 'GET', '/connect/api/session', widget);
  const backend = () => send(base, 'GET', '/api/v1/workspaces', token);

  test("an end user looping at full speed never fails the backend's calls at a modest rate", async () => {
    const widget = await widgetToken('customer-loop');
    const backendStatuses: number[] = [];
    const endUser: Answer[] = [];
    // 20 rounds of half a second: each round the end user sends 25 requests at once, far past every limit, and
    // the backend one after them (2 a second; its limit is 5), so the end user has had first go at each
    // second's requests.
    for (let round = 0; round < 20; round++) {
      const theirs = await Promise.all(Array.from({ length: 25 }, () => session(widget)));
      const mine = await backend();
      backendStatuses.push(mine.status);
      endUser.push(...theirs);
      clock.advance(0.5);
    }
    assert.deepEqual(
      backendStatuses,
      backendStatuses.map(() => 200),
      `backend: ${backendStatuses.join(' ')}`,
    );
    // The widget token's bucket: a burst of 4, then 2 a second over the 9.5 s the clock moved between rounds.
    const served = endUser.filter((res) => res.status === 200);
    assert.equal(served.length, 4 + 19);
    for (const res of endUser.filter((r) => r.status !== 200))
      assertRateLimited(res, /connect page .*CES_MAX_END_USER_REQUESTS_PER_SECOND/);
  });

  test('per widget token, then per workspace, then all of the organization’s end users together', async () => {
    const a = await widgetToken('customer-a');
    const b = await widgetToken('customer-a');
    const c = await widgetToken('customer-b');
    const d = await widgetToken('customer-b');
    // One token: its burst of 4, then refused for it alone.
    for (let i = 0; i < 4; i++) assert.equal((await session(a)).status, 200, `request ${i + 1}`);
    assertRateLimited(await session(a), /connect page .*CES_MAX_END_USER_REQUESTS_PER_SECOND/);
    // The workspace's burst of 6 has 2 left for its other end user.
    for (let i = 0; i < 2; i++) assert.equal((await session(b)).status, 200);
    assertRateLimited(await session(b), /workspace .*CES_MAX_WORKSPACE_END_USER_REQUESTS_PER_SECOND/);
    // Another workspace's end users: served until the burst all of the organization's end users share (10).
    for (let i = 0; i < 4; i++) assert.equal((await session(c)).status, 200);
    assertRateLimited(await session(d), /end users of this organization .*CES_MAX_REQUESTS_PER_SECOND/);
    // The backend's own bucket was never touched: its full burst of 10 passes.
    for (let i = 0; i < 10; i++) assert.equal((await backend()).status, 200, `backend request ${i + 1}`);
    assertRateLimited(await backend(), /This organization .*CES_MAX_REQUESTS_PER_SECOND/);
  });
});

describe('one MCP request does no more than as many requests may', () => {
  const clock = manualClock();
  let fake: GithubFake;
  let h: Harness;
  let base: string;
  let token: string;
  let connectorId: string;

  before(async () => {
    fake = await startGithubFake({ tokens: [GITHUB_FAKE_DEFAULT_TOKEN] });
    h = await startHarness(
      {
        CES_SYNC_ENABLED: 'false',
        CES_MAX_REQUESTS_PER_SECOND: '5',
        CES_UPSTREAM_OVERRIDES: JSON.stringify({ github: fake.url }),
        CES_RATE_LIMIT_OVERRIDES: JSON.stringify({ github: null }),
      },
      { now: clock.now },
    );
    base = await listen(h);
    token = await h.token();
    const made = await createGithubConnector(h, token);
    assert.equal(made.status, 200, made.body);
    connectorId = made.json.id;
  });
  after(async () => {
    await h.close();
    await fake.close();
  });

  const mcp = (body: unknown) =>
    send(base, 'POST', '/mcp', token, body, { accept: 'application/json, text/event-stream' });
  const issueLists = () => fake.requests.filter((r) => r.path.startsWith('/repos/ces-demo/widgets/issues'));
  const execute = (id: number, items: number) => ({
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: {
      name: 'execute',
      arguments: {
        items: Array.from({ length: items }, (_, i) => ({
          connector_id: connectorId,
          entity: 'issues',
          action: 'list',
          params: { owner: 'ces-demo', repo: 'widgets', per_page: i + 1 },
          select_fields: ['number'],
        })),
      },
    },
  });
  const toolJson = (message: { result: { content: Array<{ text: string }> } }) =>
    JSON.parse(message.result.content[0]!.text);

  test('a batch of 50 executes of 20 items calls the provider at most as often as the bucket holds', async () => {
    clock.advance(10);
    const before = issueLists().length;
    const res = await mcp(Array.from({ length: 50 }, (_, i) => execute(i + 1, 20)));
    assert.equal(res.status, 200, JSON.stringify(res.json));
    assert.equal(res.json.length, 50);
    // The bucket holds 10 (twice the rate): the HTTP request took one, which paid for the first message and its
    // first item; the first message's other items took the other 9.
    assert.equal(issueLists().length - before, 10);
    const byId = new Map(res.json.map((m: { id: number }) => [m.id, m]));
    const first = toolJson(byId.get(1) as never).results as Array<{ status: string; error?: unknown }>;
    assert.equal(first.filter((r) => r.status === 'success').length, 10, JSON.stringify(first));
    for (const item of first.filter((r) => r.status === 'error')) {
      assert.deepEqual(
        { ...(item.error as object), message: undefined },
        { code: 'RATE_LIMITED', message: undefined, retry_after: 1 },
      );
    }
    // The other 49 messages answered the rate limit as tool errors, without calling the provider.
    for (let id = 2; id <= 50; id++) {
      const message = byId.get(id) as { result: { isError: boolean; content: Array<{ text: string }> } };
      assert.equal(message.result.isError, true);
      const { error } = toolJson(message);
      assert.equal(error.code, 'RATE_LIMITED');
      assert.equal(error.retry_after, 1);
      assert.match(error.message, /CES_MAX_REQUESTS_PER_SECOND/);
    }
  });

  test('each request of a batch counts: past the bucket, a listing answers a JSON-RPC error with RATE_LIMITED', async () => {
    clock.advance(10);
    const res = await mcp([
      ...Array.from({ length: 10 }, (_, i) => ({ jsonrpc: '2.0', id: i + 1, method: 'tools/list' })),
      { jsonrpc: '2.0', id: 11, method: 'resources/list' },
      // Protocol bookkeeping does no work and is not counted.
      { jsonrpc: '2.0', id: 12, method: 'ping' },
    ]);
    assert.equal(res.status, 200, JSON.stringify(res.json));
    const byId = new Map(res.json.map((m: { id: number }) => [m.id, m]));
    for (let id = 1; id <= 10; id++)
      assert.ok((byId.get(id) as { result?: unknown }).result, `message ${id}`);
    const refused = byId.get(11) as {
      error: { code: number; message: string; data: Record<string, unknown> };
    };
    assert.equal(refused.error.code, -32029);
    assert.equal(refused.error.data.code, 'RATE_LIMITED');
    assert.equal(refused.error.data.retry_after, 1);
    assert.deepEqual((byId.get(12) as { result: unknown }).result, {});
    // And the HTTP request after it finds the bucket empty: 429 before anything runs.
    assertRateLimited(await mcp(execute(1, 1)), /CES_MAX_REQUESTS_PER_SECOND/);
  });
});

describe('following a download link counts against its organization', () => {
  const clock = manualClock();
  let fake: GithubFake;
  let h: Harness;
  let base: string;
  let path: string;

  before(async () => {
    fake = await startGithubFake({ tokens: [GITHUB_FAKE_DEFAULT_TOKEN] });
    h = await startHarness(
      {
        CES_SYNC_ENABLED: 'false',
        CES_MAX_REQUESTS_PER_SECOND: '2',
        CES_UPSTREAM_OVERRIDES: JSON.stringify({ github: fake.url }),
        CES_RATE_LIMIT_OVERRIDES: JSON.stringify({ github: null }),
      },
      { now: clock.now },
    );
    base = await listen(h);
    const token = await h.token();
    const made = await createGithubConnector(h, token);
    assert.equal(made.status, 200, made.body);
    const ctx = await authenticate(h.deps, `Bearer ${token}`);
    ({ path } = await createDownloadLink(h.deps, ctx, made.json.id, {
      entity: 'repositories',
      params: { owner: 'ces-demo', repo: 'widgets' },
    }));
  });
  after(async () => {
    await h.close();
    await fake.close();
  });

  test('100 concurrent follows of one link at 2 requests a second: 4 are served, 96 answer 429', async () => {
    clock.advance(10);
    const archives = () => fake.requests.filter((r) => r.path.includes('/tarball')).length;
    const before = archives();
    const answers = await Promise.all(Array.from({ length: 100 }, () => send(base, 'GET', path)));
    const served = answers.filter((a) => a.status === 200);
    assert.equal(served.length, 4, answers.map((a) => a.status).join(' '));
    for (const a of served) assert.ok(a.bytes > 0);
    for (const a of answers.filter((x) => x.status !== 200))
      assertRateLimited(a, /CES_MAX_REQUESTS_PER_SECOND/);
    // Refused follows never reached the provider.
    assert.equal(archives() - before, 4);
  });
});
