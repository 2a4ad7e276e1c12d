// Token renewal against a small local HTTP server that plays ces's token endpoint and two authenticated
// routes, with a fake clock: waiting out a real token lifetime (CES_TOKEN_TTL_SECONDS) would take minutes.
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, beforeEach, describe, test } from 'node:test';
import { AuthenticationError, Ces, isCesError } from '../src/index.ts';

interface Seen {
  method: string;
  url: string;
  authorization: string | undefined;
  organization: string | undefined;
  body: string;
}

const seen: Seen[] = [];
/** Tokens the routes accept; the token endpoint adds each one it issues. */
const valid = new Set<string>();
let issued = 0;
let expiresIn = 900;
let refuseClient = false;
/** Every token is refused on the routes (as after the application was revoked). */
let refuseTokens = false;
let base = '';
const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
  let body = '';
  for await (const chunk of req) body += chunk;
  const auth = req.headers.authorization;
  const org = req.headers['x-organization-id'];
  seen.push({
    method: req.method ?? '',
    url: req.url ?? '',
    authorization: auth,
    organization: typeof org === 'string' ? org : undefined,
    body,
  });
  const send = (status: number, json: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json', 'x-request-id': `req_${seen.length}` });
    res.end(JSON.stringify(json));
  };
  if (req.url === '/api/v1/account/applications/token') {
    const { client_id, client_secret } = JSON.parse(body);
    if (refuseClient || client_id !== 'app' || client_secret !== 's3cret') {
      return send(401, {
        message: 'Invalid client credentials',
        code: 'INVALID_CLIENT_CREDENTIALS',
        request_id: 'req_token',
        errors: [],
      });
    }
    const token = `t${++issued}`;
    valid.add(token);
    return send(200, {
      access_token: token,
      token_type: 'bearer',
      expires_in: expiresIn,
      organization_id: 'o',
    });
  }
  if (refuseTokens || !auth || !valid.has(auth.replace(/^Bearer /, ''))) {
    return send(401, { message: 'Invalid token', code: 'UNAUTHENTICATED', request_id: 'req_x', errors: [] });
  }
  if (req.url?.startsWith('/api/v1/workspaces')) return send(200, { data: [], next: null });
  if (req.url?.endsWith('/execute')) {
    return send(200, {
      status: 'success',
      result: JSON.parse(body),
      connector_metadata: { has_next_page: false, end_cursor: null },
      execution_metadata: { connector_instance_id: 'c', execution_time_ms: 1 },
    });
  }
  send(404, { message: 'no', code: 'ROUTE_NOT_FOUND', request_id: 'req_404', errors: [] });
});

before(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(() => server.close());
beforeEach(() => {
  seen.length = 0;
  valid.clear();
  issued = 0;
  expiresIn = 900;
  refuseClient = false;
  refuseTokens = false;
});

const exchanges = () => seen.filter((s) => s.url === '/api/v1/account/applications/token');
const calls = () => seen.filter((s) => s.url !== '/api/v1/account/applications/token');

function client(now: () => number = Date.now, organizationId?: string) {
  return new Ces({
    baseUrl: base,
    clientId: 'app',
    clientSecret: 's3cret',
    now,
    ...(organizationId ? { organizationId } : {}),
  });
}

describe('client credentials', () => {
  test('concurrent first calls share one token exchange', async () => {
    const ces = client();
    await Promise.all([ces.workspaces.list(), ces.workspaces.list(), ces.workspaces.list()]);
    assert.equal(exchanges().length, 1);
    assert.deepEqual(
      calls().map((c) => c.authorization),
      ['Bearer t1', 'Bearer t1', 'Bearer t1'],
    );
  });

  test('the token is renewed shortly before it expires, not before', async () => {
    let clock = 1_000_000;
    const ces = client(() => clock);
    await ces.workspaces.list();
    clock += 839_000; // 900 s token: renewed in its last 60 s
    await ces.workspaces.list();
    assert.equal(exchanges().length, 1, 'still fresh at 839 s');
    clock += 2_000;
    await ces.workspaces.list();
    assert.equal(exchanges().length, 2, 'renewed at 841 s');
    assert.equal(calls().at(-1)?.authorization, 'Bearer t2');
  });

  test('a short-lived token is renewed in the last tenth of its lifetime', async () => {
    expiresIn = 30;
    let clock = 0;
    const ces = client(() => clock);
    await ces.workspaces.list();
    clock = 26_000;
    await ces.workspaces.list();
    assert.equal(exchanges().length, 1);
    clock = 27_500;
    await ces.workspaces.list();
    assert.equal(exchanges().length, 2);
  });

  test('a 401 renews the token and retries the request once, body and all', async () => {
    const ces = client();
    await ces.workspaces.list();
    valid.delete('t1'); // revoked, or expired early
    const out = await ces.execute('c1', { entity: 'issues', action: 'list', params: { per_page: 5 } });
    assert.deepEqual(out.result, { entity: 'issues', action: 'list', params: { per_page: 5 } });
    const executes = calls().filter((c) => c.url.endsWith('/execute'));
    assert.deepEqual(
      executes.map((c) => [c.authorization, c.body]),
      [
        ['Bearer t1', '{"entity":"issues","action":"list","params":{"per_page":5}}'],
        ['Bearer t2', '{"entity":"issues","action":"list","params":{"per_page":5}}'],
      ],
    );
  });

  test('a second 401 is thrown, not retried again', async () => {
    const ces = client();
    await ces.workspaces.list();
    refuseTokens = true;
    await assert.rejects(ces.workspaces.list(), (err) => {
      assert.ok(err instanceof AuthenticationError);
      assert.equal(err.code, 'UNAUTHENTICATED');
      assert.equal(err.status, 401);
      return true;
    });
    assert.equal(calls().length, 3, 'the first call, then one refused attempt and its one retry');
    assert.equal(exchanges().length, 2);
  });

  test('wrong client credentials: INVALID_CLIENT_CREDENTIALS with the request id', async () => {
    refuseClient = true;
    const err = await client()
      .workspaces.list()
      .catch((e: unknown) => e);
    assert.ok(isCesError(err, 'INVALID_CLIENT_CREDENTIALS'));
    assert.equal(err.requestId, 'req_token');
    assert.ok(err instanceof AuthenticationError);
    assert.equal(calls().length, 0);
  });

  test('organizationId is sent as X-Organization-Id on the exchange', async () => {
    await client(Date.now, 'org-2').workspaces.list();
    assert.equal(exchanges()[0]?.organization, 'org-2');
  });
});

describe('a given token', () => {
  test('a fixed token is sent as it is and a 401 is not retried', async () => {
    valid.add('scoped-1');
    const ces = new Ces({ baseUrl: base, token: 'scoped-1' });
    await ces.workspaces.list();
    valid.delete('scoped-1');
    await assert.rejects(ces.workspaces.list(), AuthenticationError);
    assert.equal(exchanges().length, 0);
    assert.deepEqual(
      calls().map((c) => c.authorization),
      ['Bearer scoped-1', 'Bearer scoped-1'],
    );
  });

  test('a token function is asked again after a 401, and only then', async () => {
    let minted = 0;
    const ces = new Ces({
      baseUrl: base,
      token: async () => {
        const token = `m${++minted}`;
        valid.add(token);
        return token;
      },
    });
    await ces.workspaces.list();
    await ces.workspaces.list();
    assert.equal(minted, 1, 'a token without a known lifetime is kept');
    valid.delete('m1');
    await ces.workspaces.list();
    assert.equal(minted, 2);
    assert.equal(calls().at(-1)?.authorization, 'Bearer m2');
  });

  test('a JWT from a token function is renewed before its exp', async () => {
    let clock = 1_700_000_000_000;
    let minted = 0;
    const jwt = (exp: number) =>
      `e30.${Buffer.from(JSON.stringify({ exp })).toString('base64url')}.sig${++minted}`;
    const ces = new Ces({
      baseUrl: base,
      now: () => clock,
      token: async () => {
        const token = jwt(clock / 1000 + 1200);
        valid.add(token);
        return token;
      },
    });
    await ces.workspaces.list();
    clock += 1_100_000;
    await ces.workspaces.list();
    assert.equal(minted, 1);
    clock += 50_000; // 50 s before exp: inside the last minute
    await ces.workspaces.list();
    assert.equal(minted, 2);
  });
});
