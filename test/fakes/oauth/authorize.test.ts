// The fake authorization server's authorization-code flow (RFC 6749 section 4.1, RFC 7636), over real HTTP.
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { type OAuthFake, type OAuthFakeOptions, startOAuthFake } from './index.ts';

/** Registered with its own query, which every answer must keep (RFC 6749 section 3.1.2). */
const REDIRECT = 'https://app.example/oauth/callback?tenant=a';

function pkce(method: 'S256' | 'plain' = 'S256') {
  const verifier = randomBytes(48).toString('base64url');
  const challenge = method === 'S256' ? createHash('sha256').update(verifier).digest('base64url') : verifier;
  return { verifier, challenge, method };
}

function unescapeHtml(s: string): string {
  return s.replace(/&(amp|lt|gt|quot|#39);/g, (_, e: string) =>
    e === 'amp' ? '&' : e === 'lt' ? '<' : e === 'gt' ? '>' : e === 'quot' ? '"' : "'",
  );
}

/** The consent form's hidden inputs, as a browser would submit them. */
function hiddenInputs(html: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) {
    out[m[1] as string] = unescapeHtml(m[2] as string);
  }
  return out;
}

function client(fake: OAuthFake) {
  const basic = Buffer.from(`${fake.clientId}:${fake.clientSecret}`).toString('base64');

  const authorizeQuery = (params: Record<string, string>) =>
    fetch(`${fake.authorizeUrl}?${new URLSearchParams(params)}`, { redirect: 'manual' });

  const postForm = (url: string, form: Record<string, string>, headers: Record<string, string> = {}) =>
    fetch(url, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      body: new URLSearchParams(form),
    });

  /** GET the consent page and submit its form with `decision`: the redirect's Location, parsed. */
  const consent = async (params: Record<string, string>, decision: 'approve' | 'deny') => {
    const page = await authorizeQuery(params);
    assert.equal(page.status, 200, await page.clone().text());
    const form = hiddenInputs(await page.text());
    const res = await postForm(fake.authorizeUrl, { ...form, decision });
    assert.equal(res.status, 302);
    return new URL(res.headers.get('location') ?? '');
  };

  const exchange = async (form: Record<string, string>) => {
    const res = await postForm(
      fake.tokenUrl,
      { grant_type: 'authorization_code', redirect_uri: REDIRECT, ...form },
      { authorization: `Basic ${basic}` },
    );
    return { status: res.status, headers: res.headers, json: (await res.json()) as Record<string, unknown> };
  };

  const refresh = async (refreshToken: string) => {
    const res = await postForm(fake.tokenUrl, {
      grant_type: 'refresh_token',
      refresh_token: refreshToken,
      client_id: fake.clientId,
      client_secret: fake.clientSecret,
    });
    return { status: res.status, json: (await res.json()) as Record<string, unknown> };
  };

  const me = (accessToken: string) =>
    fetch(`${fake.apiUrl}/me`, { headers: { authorization: `Bearer ${accessToken}` } });

  /** A code for a fresh S256 authorization. */
  const approvedCode = async (extra: Record<string, string> = {}) => {
    const p = pkce();
    const location = await consent(
      {
        response_type: 'code',
        client_id: fake.clientId,
        redirect_uri: REDIRECT,
        scope: 'read items:write',
        state: 'st-1',
        code_challenge: p.challenge,
        code_challenge_method: p.method,
        ...extra,
      },
      'approve',
    );
    return { code: location.searchParams.get('code') ?? '', verifier: p.verifier };
  };

  return { authorizeQuery, postForm, consent, exchange, refresh, me, approvedCode };
}

async function withFake(opts: OAuthFakeOptions, body: (fake: OAuthFake) => Promise<void>) {
  const fake = await startOAuthFake({ redirectUris: [REDIRECT], ...opts });
  try {
    await body(fake);
    assert.deepEqual(fake.unhandled, []);
  } finally {
    await fake.close();
  }
}

describe('OAuth fake: authorization-code flow', () => {
  let fake: OAuthFake;
  let c: ReturnType<typeof client>;
  before(async () => {
    fake = await startOAuthFake({ redirectUris: [REDIRECT] });
    c = client(fake);
  });
  after(async () => {
    assert.deepEqual(fake.unhandled, [], 'every request was one the fake expects');
    await fake.close();
  });

  test('the consent page names the app, lists the scopes and escapes every value', async () => {
    await withFake({ clientId: 'demo "app" <&>' }, async (odd) => {
      const state = `"><script>alert(1)</script>&'`;
      const res = await client(odd).authorizeQuery({
        response_type: 'code',
        client_id: odd.clientId,
        redirect_uri: REDIRECT,
        scope: 'read <img>',
        state,
      });
      assert.equal(res.status, 200);
      assert.match(res.headers.get('content-type') ?? '', /^text\/html/);
      assert.match(res.headers.get('content-security-policy') ?? '', /frame-ancestors 'none'/);
      const html = await res.text();
      assert.match(html, /<h1>Authorize demo &quot;app&quot; &lt;&amp;&gt;<\/h1>/);
      assert.match(html, /<title>Authorize demo &quot;app&quot; &lt;&amp;&gt;<\/title>/);
      assert.match(html, /<li>read<\/li>\n<li>&lt;img&gt;<\/li>/);
      assert.ok(!html.includes('<script>'), 'the state was written unescaped');
      assert.ok(!html.includes('<img>'), 'a scope was written unescaped');
      assert.match(html, /<form method="post" action="\/oauth\/authorize">/);
      assert.match(html, /<button name="decision" value="approve">Approve<\/button>/);
      assert.match(html, /<button name="decision" value="deny">Deny<\/button>/);
      assert.doesNotMatch(html, /\b(src|href)=/, 'no external assets');
      assert.deepEqual(hiddenInputs(html), {
        response_type: 'code',
        client_id: odd.clientId,
        redirect_uri: REDIRECT,
        scope: 'read <img>',
        state,
      });
    });
  });

  test('approve: code and state come back on the registered URI; the S256 exchange gives working tokens', async () => {
    const p = pkce('S256');
    const location = await c.consent(
      {
        response_type: 'code',
        client_id: fake.clientId,
        redirect_uri: REDIRECT,
        scope: 'read items:write',
        state: 'xyz/+= &',
        code_challenge: p.challenge,
        code_challenge_method: 'S256',
      },
      'approve',
    );
    assert.equal(`${location.origin}${location.pathname}`, 'https://app.example/oauth/callback');
    assert.equal(location.searchParams.get('tenant'), 'a', 'the registered query is kept');
    assert.equal(location.searchParams.get('state'), 'xyz/+= &');
    const code = location.searchParams.get('code') ?? '';
    assert.match(code, /^ac_[0-9a-f]{32}$/);
    assert.equal(location.searchParams.get('error'), null);
    assert.deepEqual(fake.lastAuthorization, {
      decision: 'approve',
      clientId: fake.clientId,
      redirectUri: REDIRECT,
      scope: 'read items:write',
      state: 'xyz/+= &',
      codeChallengeMethod: 'S256',
      code,
    });

    const res = await c.exchange({ code, code_verifier: p.verifier });
    assert.equal(res.status, 200, JSON.stringify(res.json));
    assert.equal(res.headers.get('cache-control'), 'no-store');
    assert.deepEqual(Object.keys(res.json).sort(), [
      'access_token',
      'expires_in',
      'refresh_token',
      'scope',
      'token_type',
    ]);
    assert.equal(res.json.token_type, 'Bearer');
    assert.equal(res.json.expires_in, 3600);
    assert.equal(res.json.scope, 'read items:write');
    const me = await c.me(String(res.json.access_token));
    assert.equal(me.status, 200);
    assert.deepEqual(await me.json(), { id: 1, name: 'Demo user' });
    assert.ok(fake.issued.includes(code) && fake.issued.includes(String(res.json.access_token)));

    const authz = fake.authorizeRequests();
    assert.deepEqual(
      authz.slice(-2).map((r) => r.method),
      ['GET', 'POST'],
    );
    assert.equal(new URLSearchParams(authz.at(-1)?.body).get('code_challenge'), p.challenge);
  });

  test('plain PKCE and an absent method (which means plain) both work', async () => {
    for (const method of ['plain', undefined]) {
      const p = pkce('plain');
      const location = await c.consent(
        {
          response_type: 'code',
          client_id: fake.clientId,
          redirect_uri: REDIRECT,
          code_challenge: p.challenge,
          ...(method ? { code_challenge_method: method } : {}),
        },
        'approve',
      );
      assert.equal(fake.lastAuthorization?.codeChallengeMethod, 'plain');
      assert.equal(fake.lastAuthorization?.state, undefined);
      assert.equal(location.searchParams.has('state'), false, 'no state was sent, none comes back');
      const res = await c.exchange({
        code: location.searchParams.get('code') ?? '',
        code_verifier: p.verifier,
      });
      assert.equal(res.status, 200, JSON.stringify(res.json));
      assert.equal(res.json.scope, 'read', 'no scope requested: the default');
    }
  });

  test('deny: access_denied with the state, and no code', async () => {
    const location = await c.consent(
      { response_type: 'code', client_id: fake.clientId, redirect_uri: REDIRECT, state: 'deny-state' },
      'deny',
    );
    assert.equal(`${location.origin}${location.pathname}`, 'https://app.example/oauth/callback');
    assert.equal(location.searchParams.get('error'), 'access_denied');
    assert.ok(location.searchParams.get('error_description'));
    assert.equal(location.searchParams.get('state'), 'deny-state');
    assert.equal(location.searchParams.get('code'), null);
    assert.equal(fake.lastAuthorization?.decision, 'deny');
    assert.equal(fake.lastAuthorization?.codeChallengeMethod, undefined);
  });

  test('a wrong, missing or surplus verifier, or another redirect_uri, is invalid_grant', async () => {
    const cases: Array<[string, (v: string) => Record<string, string>]> = [
      ['wrong verifier', () => ({ code_verifier: pkce().verifier })],
      ['missing verifier', () => ({})],
      ['malformed verifier', (v) => ({ code_verifier: `${v}!` })],
      [
        'other redirect_uri',
        (v) => ({ code_verifier: v, redirect_uri: 'https://app.example/oauth/callback' }),
      ],
      ['no redirect_uri', (v) => ({ code_verifier: v, redirect_uri: '' })],
    ];
    for (const [name, form] of cases) {
      const { code, verifier } = await c.approvedCode();
      const res = await c.exchange({ code, ...form(verifier) });
      assert.equal(res.status, 400, name);
      assert.equal(res.json.error, 'invalid_grant', name);
      const retry = await c.exchange({ code, code_verifier: verifier });
      assert.equal(retry.json.error, 'invalid_grant', `${name}: the failed attempt consumed the code`);
    }
    // PKCE downgrade: a verifier for a code that was issued without a challenge.
    const location = await c.consent(
      { response_type: 'code', client_id: fake.clientId, redirect_uri: REDIRECT },
      'approve',
    );
    const res = await c.exchange({
      code: location.searchParams.get('code') ?? '',
      code_verifier: pkce().verifier,
    });
    assert.deepEqual([res.status, res.json.error], [400, 'invalid_grant']);
    const unknown = await c.exchange({ code: 'ac_nope', code_verifier: pkce().verifier });
    assert.deepEqual([unknown.status, unknown.json.error], [400, 'invalid_grant']);
  });

  test('a code used twice is invalid_grant and revokes every token issued from it', async () => {
    const { code, verifier } = await c.approvedCode();
    const first = await c.exchange({ code, code_verifier: verifier });
    assert.equal(first.status, 200);
    const refreshed = await c.refresh(String(first.json.refresh_token));
    assert.equal(refreshed.status, 200);
    assert.equal((await c.me(String(refreshed.json.access_token))).status, 200, 'proves the token worked');
    const other = await c.approvedCode();
    const unrelated = await c.exchange({ code: other.code, code_verifier: other.verifier });

    const again = await c.exchange({ code, code_verifier: verifier });
    assert.deepEqual([again.status, again.json.error], [400, 'invalid_grant']);
    const denied = await c.me(String(refreshed.json.access_token));
    assert.equal(denied.status, 401);
    assert.match(denied.headers.get('www-authenticate') ?? '', /error="invalid_token"/);
    assert.equal((await c.refresh(String(refreshed.json.refresh_token))).json.error, 'invalid_grant');
    assert.equal((await c.me(String(unrelated.json.access_token))).status, 200, 'other codes are untouched');
  });

  test('tokens from the code flow refresh with the existing grant, keeping their scope', async () => {
    const { code, verifier } = await c.approvedCode();
    const tokens = await c.exchange({ code, code_verifier: verifier });
    const res = await c.refresh(String(tokens.json.refresh_token));
    assert.equal(res.status, 200, JSON.stringify(res.json));
    assert.equal(res.json.scope, 'read items:write');
    assert.notEqual(res.json.access_token, tokens.json.access_token);
    assert.equal((await c.me(String(res.json.access_token))).status, 200);
    assert.equal(
      (await c.me(String(tokens.json.access_token))).status,
      401,
      'the old access token is revoked',
    );
    assert.equal((await c.refresh(String(tokens.json.refresh_token))).json.error, 'invalid_grant');
  });

  test('an unknown client or an unregistered redirect_uri gets a 400 page and is never redirected to', async () => {
    const base = { response_type: 'code', client_id: fake.clientId, redirect_uri: REDIRECT, state: 's' };
    const bad: Array<Record<string, string>> = [
      { ...base, redirect_uri: 'https://evil.example/cb' },
      { ...base, redirect_uri: 'https://app.example/oauth/callback' },
      { ...base, redirect_uri: `${REDIRECT}&x=1` },
      { ...base, redirect_uri: '' },
      { ...base, client_id: 'someone-else' },
      { ...base, client_id: '' },
    ];
    for (const params of bad) {
      const get = await c.authorizeQuery(params);
      assert.equal(get.status, 400, JSON.stringify(params));
      assert.equal(get.headers.get('location'), null);
      assert.match(get.headers.get('content-type') ?? '', /^text\/html/);
      assert.match(await get.text(), /<h1>Authorization error<\/h1>/);
      const post = await c.postForm(fake.authorizeUrl, { ...params, decision: 'approve' });
      assert.equal(post.status, 400, `POST ${JSON.stringify(params)}`);
      assert.equal(post.headers.get('location'), null);
      await post.body?.cancel();
    }
    // Registered later, on the live fake: now accepted.
    fake.redirectUris.push('https://app.example/second');
    const ok = await c.authorizeQuery({ ...base, redirect_uri: 'https://app.example/second' });
    assert.equal(ok.status, 200);
    await ok.body?.cancel();
  });

  test('other request errors go back to the client with error and state', async () => {
    const base = { response_type: 'code', client_id: fake.clientId, redirect_uri: REDIRECT, state: 'e1' };
    const cases: Array<[Record<string, string>, string]> = [
      [{ ...base, response_type: 'token' }, 'unsupported_response_type'],
      [{ ...base, response_type: '' }, 'invalid_request'],
      [{ ...base, code_challenge: pkce().challenge, code_challenge_method: 'S512' }, 'invalid_request'],
      [{ ...base, code_challenge: 'short', code_challenge_method: 'S256' }, 'invalid_request'],
      [{ ...base, code_challenge_method: 'S256' }, 'invalid_request'],
      [{ ...base, scope: 'read "quoted"' }, 'invalid_scope'],
    ];
    for (const [params, error] of cases) {
      const res = await c.authorizeQuery(params);
      assert.equal(res.status, 302, JSON.stringify(params));
      const location = new URL(res.headers.get('location') ?? '');
      assert.equal(location.searchParams.get('error'), error, JSON.stringify(params));
      assert.equal(location.searchParams.get('state'), 'e1');
      assert.equal(location.searchParams.get('tenant'), 'a');
    }
    const repeated = await fetch(`${fake.authorizeUrl}?${new URLSearchParams(base)}&scope=a&scope=b`, {
      redirect: 'manual',
    });
    assert.equal(
      new URL(repeated.headers.get('location') ?? '').searchParams.get('error'),
      'invalid_request',
    );
    const noDecision = await c.postForm(fake.authorizeUrl, base);
    assert.equal(
      new URL(noDecision.headers.get('location') ?? '').searchParams.get('error'),
      'invalid_request',
    );
  });
});

test('requirePkce: an authorization request without a code_challenge is invalid_request', async () => {
  await withFake({ requirePkce: true }, async (fake) => {
    const c = client(fake);
    const res = await c.authorizeQuery({
      response_type: 'code',
      client_id: fake.clientId,
      redirect_uri: REDIRECT,
      state: 'p1',
    });
    assert.equal(res.status, 302);
    const location = new URL(res.headers.get('location') ?? '');
    assert.equal(location.searchParams.get('error'), 'invalid_request');
    assert.equal(location.searchParams.get('state'), 'p1');
    const { code, verifier } = await c.approvedCode();
    assert.equal((await c.exchange({ code, code_verifier: verifier })).status, 200);
  });
});

test('an expired code is invalid_grant', async () => {
  await withFake({ codeTtlMs: 5 }, async (fake) => {
    const c = client(fake);
    const { code, verifier } = await c.approvedCode();
    await new Promise((resolve) => setTimeout(resolve, 30));
    const res = await c.exchange({ code, code_verifier: verifier });
    assert.deepEqual([res.status, res.json.error], [400, 'invalid_grant']);
    assert.match(String(res.json.error_description), /expired/);
    // The same flow with the default lifetime succeeds, so the failure above is the expiry.
    fake.codeTtlMs = 60_000;
    const fresh = await c.approvedCode();
    assert.equal((await c.exchange({ code: fresh.code, code_verifier: fresh.verifier })).status, 200);
  });
});
