// The kit's own behaviour, on real definitions: the token endpoint takes what the definition declares and
// refuses the rest, the router prefers literal segments, the rate limit stays off unless a test enables it, and
// startFake's public routes, streamed answers, socket faults (hang, reset after some bytes), the token path's
// other methods and a provider's own budget.
import assert from 'node:assert/strict';
import { get, type IncomingHttpHeaders } from 'node:http';
import { Readable } from 'node:stream';
import { describe, it } from 'node:test';
import { loadDefinition, tokenFacts } from './definition.ts';
import { rateLimit } from './errors.ts';
import { startFake } from './index.ts';
import { Router } from './router.ts';
import { oauthError, type Refusal, TokenEndpoint, type TokenRequest } from './token.ts';

let n = 0;
const endpoint = (slug: string, extra: Partial<ConstructorParameters<typeof TokenEndpoint>[0]> = {}) => {
  const refusals: Refusal[] = [];
  const token = new TokenEndpoint({
    definition: loadDefinition(slug),
    clientId: 'id',
    clientSecret: 'secret',
    expiresIn: 60,
    mint: { access: () => `a${++n}`, refresh: () => `r${++n}` },
    answer: (issued) => ({ access_token: issued.access_token, refresh_token: issued.refresh_token }),
    refuse: (refusal) => {
      refusals.push(refusal);
      return oauthError(refusal);
    },
    ...extra,
  });
  return { token, refusals };
};
const basic = `Basic ${Buffer.from('id:secret').toString('base64')}`;
const post = (path: string, body: string, headers: Record<string, string>): TokenRequest => ({
  method: 'POST',
  path,
  headers,
  body,
});
const form = 'application/x-www-form-urlencoded';

describe('kit token endpoint', () => {
  it('reads path, grants, client auth and body format from the definition', () => {
    const linear = tokenFacts(loadDefinition('linear'));
    assert.equal(linear?.path, '/oauth/token');
    assert.deepEqual([...(linear?.grants ?? [])].sort(), [
      'authorization_code',
      'client_credentials',
      'refresh_token',
    ]);
    assert.deepEqual([...(linear?.clientAuth ?? [])], ['body']);
    const notion = tokenFacts(loadDefinition('notion'));
    assert.deepEqual(
      [notion?.path, [...(notion?.clientAuth ?? [])], [...(notion?.bodyFormats ?? [])]],
      ['/v1/oauth/token', ['basic'], ['json']],
    );
    assert.equal(tokenFacts(loadDefinition('zendesk-support'))?.path, '/oauth/tokens');
  });

  it('rotates refresh tokens, refuses a used one, and expires access tokens', () => {
    const { token, refusals } = endpoint('gong');
    const grant = token.grant();
    const params = (refresh: string) => `grant_type=refresh_token&refresh_token=${refresh}`;
    const ok = token.token(
      post(token.path, params(grant.refresh_token), { authorization: basic, 'content-type': form }),
    );
    assert.equal(ok.status, 200);
    const next = (ok.body as { refresh_token: string }).refresh_token;
    assert.notEqual(next, grant.refresh_token);
    const reused = token.token(
      post(token.path, params(grant.refresh_token), { authorization: basic, 'content-type': form }),
    );
    assert.equal(reused.status, 400);
    assert.deepEqual(refusals.at(-1), { error: 'invalid_grant', reason: 'refresh_token' });
    const access = (ok.body as { access_token: string }).access_token;
    assert.equal(token.accepts(access), true);
    token.expireAccessTokens();
    assert.equal(token.check(access)?.state, 'expired');
    assert.deepEqual(token.issued.slice(0, 2), [grant.access_token, grant.refresh_token]);
  });

  it('takes only the client authentication and body format the definition declares', () => {
    const gong = endpoint('gong'); // basic, form
    const inBody = gong.token.token(
      post(gong.token.path, 'grant_type=refresh_token&refresh_token=x&client_id=id&client_secret=secret', {
        'content-type': form,
      }),
    );
    assert.equal(inBody.status, 400);
    assert.deepEqual(gong.refusals.at(-1), { error: 'invalid_request', reason: 'client_method' });
    const json = gong.token.token(
      post(gong.token.path, JSON.stringify({ grant_type: 'refresh_token' }), {
        authorization: basic,
        'content-type': 'application/json',
      }),
    );
    assert.equal(json.status, 400);
    assert.deepEqual(gong.refusals.at(-1), { error: 'invalid_request', reason: 'body_format' });

    const linear = endpoint('linear'); // body, form; client_credentials
    const app = linear.token.token(
      post(linear.token.path, 'grant_type=client_credentials&client_id=id&client_secret=secret', {
        'content-type': form,
      }),
    );
    assert.equal(app.status, 200);
    assert.equal(linear.token.log.at(-1)?.grant, 'client_credentials');
    const wrong = linear.token.token(
      post(linear.token.path, 'grant_type=client_credentials&client_id=id&client_secret=nope', {
        'content-type': form,
      }),
    );
    assert.equal(wrong.status, 401);
    assert.deepEqual(linear.refusals.at(-1), { error: 'invalid_client', reason: 'secret' });
  });

  it('narrows grants on request and binds codes to their redirect URI', () => {
    const gong = endpoint('gong', { grants: ['refresh_token'] });
    const code = gong.token.authorize();
    gong.token.token(
      post(gong.token.path, `grant_type=authorization_code&code=${code}`, {
        authorization: basic,
        'content-type': form,
      }),
    );
    assert.deepEqual(gong.refusals.at(-1), { error: 'unsupported_grant_type', grant: 'authorization_code' });

    const hubspot = endpoint('hubspot', { redirectUri: 'https://ces.example/cb' });
    const bound = hubspot.token.authorize();
    const exchange = (redirect: string) =>
      hubspot.token.token(
        post(
          hubspot.token.path,
          new URLSearchParams({
            grant_type: 'authorization_code',
            code: bound,
            redirect_uri: redirect,
            client_id: 'id',
            client_secret: 'secret',
          }).toString(),
          { 'content-type': form },
        ),
      );
    assert.equal(exchange('https://elsewhere.example/cb').status, 400);
    assert.deepEqual(hubspot.refusals.at(-1), { error: 'invalid_grant', reason: 'redirect_uri' });
    assert.equal(exchange('https://ces.example/cb').status, 200);
    assert.equal(exchange('https://ces.example/cb').status, 400, 'a code is single-use');
  });
});

describe('kit router and rate limit', () => {
  it('matches a literal segment before a parameter, whatever the order or spelling', () => {
    const router = new Router([
      {
        method: 'GET',
        path: '/v2/calls/{id}',
        operation: 'getCall',
        handle: (req) => ({ status: 200, body: req.params }),
      },
      {
        method: 'GET',
        path: '/v2/calls/extensive',
        operation: 'listCallsExtensive',
        handle: () => ({ status: 200, body: 'x' }),
      },
    ]);
    assert.equal(router.match('GET', '/v2/calls/extensive')?.route.operation, 'listCallsExtensive');
    assert.deepEqual(router.match('GET', '/v2/calls/a%2Fb')?.params, { id: 'a/b' });
    assert.equal(
      router.match('GET', '/v2/calls/ext%65nsive')?.route.operation,
      'listCallsExtensive',
      'an encoded unreserved character is the same path (RFC 3986 6.2.2.2)',
    );
    assert.equal(
      router.match('GET', '/v2/c%61lls%2Fextensive'),
      undefined,
      'an encoded / is not a separator',
    );
    assert.equal(router.match('POST', '/v2/calls/1'), undefined);
    assert.equal(router.knowsPath('/v2/calls/1'), true);
  });

  it('matches several segments with {name+} and a segment of a pattern with {name:pattern}', () => {
    const route = (path: string, operation: string) => ({
      method: 'GET',
      path,
      operation,
      handle: () => ({ status: 200, body: {} }),
    });
    const router = new Router([
      route('/refs/{ref+}', 'getRef'),
      route('/refs/{name}', 'getNamedRef'),
      route('/issues/{number:\\d+}', 'getIssue'),
    ]);
    assert.deepEqual(router.match('GET', '/refs/heads/release/1.x')?.params, { ref: 'heads/release/1.x' });
    assert.deepEqual(router.match('GET', '/refs/heads%2Fmain')?.route.operation, 'getNamedRef');
    assert.deepEqual(router.match('GET', '/refs/heads%2Fmain')?.params, { name: 'heads/main' });
    assert.equal(router.match('GET', '/refs/'), undefined);
    assert.deepEqual(router.match('GET', '/issues/42')?.params, { number: '42' });
    assert.equal(router.match('GET', '/issues/comments'), undefined);
    assert.equal(router.match('GET', '/refs/bad%E0%A4%A'), undefined, 'no 500 for a bad escape');
  });

  it('never refuses unless enabled', () => {
    const off = rateLimit({ enabled: false, perSecond: 1 });
    const none = rateLimit(undefined);
    const on = rateLimit({ enabled: true, perSecond: 1 });
    // One instant, after every bucket was made: no refill between the takes.
    const t = Date.now();
    for (let i = 0; i < 5; i++) assert.equal(off.take(t) ?? none.take(t), undefined);
    assert.equal(on.take(t), undefined);
    assert.equal(on.take(t), 1);
  });
});

describe('kit startFake', () => {
  it('records what it does not serve, answers faults first, and refuses unknown paths before credentials with routeFirst', async () => {
    const fake = await startFake<{ who: string }>({
      definition: loadDefinition('gong'),
      routeFirst: true,
      routes: [
        {
          method: 'GET',
          path: '/v2/things/{id}',
          operation: 'getThing',
          handle: (req, ctx) =>
            req.params.id === 'unknown-field'
              ? { status: 400, body: { error: 'not implemented here' }, unhandled: true }
              : { status: 200, body: { id: req.params.id, who: ctx.who } },
        },
      ],
      authenticate: (r) =>
        r.headers.authorization === 'Bearer ok' ? { who: 'ok' } : { refuse: { status: 401, body: {} } },
      errors: {
        body: (status) => ({ status }),
        methodNotAllowed: () => ({ status: 405, body: { error: 'method' } }),
      },
    });
    try {
      const get = async (path: string, init: RequestInit = {}) => {
        const res = await fetch(`${fake.origin}${path}`, init);
        return [res.status, await res.json()];
      };
      const auth = { headers: { authorization: 'Bearer ok' } };
      assert.deepEqual(await get('/v2/things/7', auth), [200, { id: '7', who: 'ok' }]);
      assert.deepEqual(await get('/v2/things/7'), [401, {}]);
      assert.deepEqual(await get('/v2/elsewhere'), [404, { status: 404 }], 'no credentials asked first');
      assert.deepEqual(await get('/v2/things/7', { method: 'DELETE' }), [405, { error: 'method' }]);
      assert.deepEqual(await get('/v2/things/unknown-field', auth), [400, { error: 'not implemented here' }]);
      fake.failNext({ status: 503, match: '/v2/things' });
      assert.deepEqual(await get('/v2/things/7', auth), [503, { status: 503 }]);
      assert.deepEqual(
        fake.unhandled.map((r) => `${r.method} ${r.path}`),
        ['GET /v2/elsewhere', 'DELETE /v2/things/7', 'GET /v2/things/unknown-field'],
      );
      assert.equal(fake.requests.length, 6);
    } finally {
      await fake.close();
    }
  });
});

describe('kit startFake: the token path and a provider budget', () => {
  it("answers the token path's other methods as unserved, and puts the budget's headers on what follows it", async () => {
    const { token } = endpoint('gong');
    let left = 3;
    const fake = await startFake<{ who: string }>({
      definition: loadDefinition('gong'),
      token,
      routes: [
        {
          method: 'GET',
          path: '/v2/things',
          operation: 'listThings',
          handle: (req) => {
            const own: Record<string, string> = req.query.has('own') ? { 'x-left': 'own' } : {};
            return { status: 200, headers: own, body: { things: [] } };
          },
        },
      ],
      authenticate: (r) =>
        r.headers.authorization === 'Bearer ok' ? { who: 'ok' } : { refuse: { status: 401, body: {} } },
      budget: (_r, ctx) =>
        left === 0
          ? { refuse: { status: 429, headers: { 'x-left': '0' }, body: { spent: ctx.who } } }
          : { headers: { 'x-left': String(--left) } },
      errors: {
        body: (status) => ({ status }),
        methodNotAllowed: (r) => ({ status: 405, body: { method: r.method } }),
      },
    });
    try {
      const call = async (path: string, init: RequestInit = {}) => {
        const res = await fetch(`${fake.origin}${path}`, init);
        return [res.status, res.headers.get('x-left'), await res.json()];
      };
      const auth = { headers: { authorization: 'Bearer ok' } };
      assert.deepEqual(
        await call(token.path),
        [405, null, { method: 'GET' }],
        'before credentials or budget',
      );
      assert.deepEqual(await call('/v2/things', auth), [200, '2', { things: [] }]);
      assert.deepEqual(
        await call('/v2/things?own', auth),
        [200, 'own', { things: [] }],
        "the route's own wins",
      );
      assert.deepEqual(await call('/v2/things', { ...auth, method: 'DELETE' }), [
        405,
        '0',
        { method: 'DELETE' },
      ]);
      assert.deepEqual(await call('/v2/elsewhere', auth), [429, '0', { spent: 'ok' }]);
      assert.deepEqual(await call('/v2/things'), [401, null, {}], 'no budget spent without credentials');
      assert.deepEqual(
        fake.unhandled.map((r) => `${r.method} ${r.path}`),
        [`GET ${token.path}`, 'DELETE /v2/things'],
      );
      assert.deepEqual(
        fake.tokenRequests().map((r) => r.method),
        ['GET'],
      );
    } finally {
      await fake.close();
    }
  });
});

describe('kit startFake: public routes, streams and socket faults', () => {
  const start = () =>
    startFake<{ who: string }>({
      definition: loadDefinition('gong'),
      publicRoutes: [
        {
          method: 'GET',
          path: '/download/{file+}',
          operation: 'download',
          handle: (req) =>
            req.params.file === 'big.bin'
              ? {
                  status: 200,
                  headers: { 'content-type': 'application/octet-stream', 'content-length': '3000' },
                  body: Readable.from([Buffer.alloc(1000, 1), Buffer.alloc(2000, 2)]),
                }
              : undefined,
        },
      ],
      routes: [
        {
          method: 'GET',
          path: '/v2/things',
          operation: 'listThings',
          handle: (_req, ctx) => ({ status: 200, body: { things: [1, 2, 3], who: ctx.who } }),
        },
      ],
      authenticate: (r) =>
        r.headers.authorization === 'Bearer ok' ? { who: 'ok' } : { refuse: { status: 401, body: {} } },
      errors: { body: (status) => ({ status }) },
    });
  const auth = { headers: { authorization: 'Bearer ok' } };

  it('answers a public route without credentials, streams its body, and records an unserved one', async () => {
    const fake = await start();
    try {
      const big = await fetch(`${fake.origin}/download/big.bin`, {
        headers: { authorization: 'Bearer bad' },
      });
      assert.equal(big.status, 200);
      assert.equal(big.headers.get('content-length'), '3000');
      const bytes = Buffer.from(await big.arrayBuffer());
      assert.deepEqual([bytes.length, bytes[0], bytes[2999]], [3000, 1, 2]);
      assert.equal(fake.requests[0]?.response?.body.length, 3000, 'a streamed answer is recorded');
      assert.equal((await fetch(`${fake.origin}/download/a/missing.bin`)).status, 404);
      const post = await fetch(`${fake.origin}/download/big.bin`, { method: 'POST' });
      assert.equal(post.status, 404, 'a public path is not asked for credentials, whatever the method');
      assert.equal((await fetch(`${fake.origin}/v2/things`)).status, 401);
      assert.deepEqual(
        fake.unhandled.map((r) => `${r.method} ${r.path}`),
        ['GET /download/a/missing.bin', 'POST /download/big.bin'],
      );
    } finally {
      await fake.close();
    }
  });

  it('hangs a request until the client gives up, and close() still returns', async () => {
    const fake = await start();
    try {
      fake.failNext({ hang: true, match: '/v2/things' });
      const hung = await fetch(`${fake.origin}/v2/things`, {
        ...auth,
        signal: AbortSignal.timeout(200),
      }).catch((error: unknown) => error);
      assert.ok(hung instanceof Error && hung.name === 'TimeoutError', String(hung));
      assert.equal((await fetch(`${fake.origin}/v2/things`, auth)).status, 200, 'only one request hangs');
      fake.failNext({ hang: true });
      const pending = fetch(`${fake.origin}/v2/things`, auth).then(
        () => 'answered',
        () => 'connection closed',
      );
      while (fake.requests.length < 3) await new Promise((resolve) => setImmediate(resolve));
      await fake.close();
      assert.equal(await pending, 'connection closed');
    } finally {
      await fake.close();
    }
  });

  it('cuts the connection after some bytes of the real answer, a stream or a given status', async () => {
    const fake = await start();
    try {
      fake.failNext({ resetAfterBytes: 5, match: '/v2/things' });
      const json = await rawGet(`${fake.origin}/v2/things`, auth.headers);
      assert.deepEqual([json.status, json.bytes.toString(), json.complete], [200, '{"thi', false]);
      fake.failNext({ resetAfterBytes: 1500, match: '/download/' });
      const stream = await rawGet(`${fake.origin}/download/big.bin`);
      assert.deepEqual(
        [stream.status, stream.headers['content-length'], stream.bytes.length],
        [200, '3000', 1500],
      );
      assert.equal(stream.complete, false);
      fake.failNext({ resetAfterBytes: 0, status: 502, body: 'Bad Gateway' });
      const given = await rawGet(`${fake.origin}/v2/things`, auth.headers);
      assert.deepEqual([given.status, given.bytes.length, given.complete], [502, 0, false]);
      assert.equal((await fetch(`${fake.origin}/v2/things`, auth)).status, 200);
    } finally {
      await fake.close();
    }
  });
});

/** A GET that reports what arrived before the connection ended, complete or not. */
function rawGet(
  url: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: IncomingHttpHeaders; bytes: Buffer; complete: boolean }> {
  return new Promise((resolve, reject) => {
    const req = get(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', () => {});
      res.on('close', () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          bytes: Buffer.concat(chunks),
          complete: res.complete,
        }),
      );
    });
    req.on('error', reject);
  });
}
