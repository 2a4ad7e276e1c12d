import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { DefinitionRegistry } from '../../../src/connectors/registry.ts';
import { applyAuth, buildRequest, resolveBaseUrl } from '../../../src/connectors/runtime/request.ts';
import { DomainError } from '../../../src/errors.ts';
import { acme } from './helpers.ts';

const github = DefinitionRegistry.default().bySlug('github')!;
const issuesList = github.entities.find((e) => e.name === 'issues')!.actions.list!;

function validationError(fn: () => unknown, pattern: RegExp) {
  assert.throws(
    fn,
    (err: unknown) =>
      err instanceof DomainError && err.code === 'VALIDATION_ERROR' && pattern.test(err.message),
  );
}

describe('resolveBaseUrl', () => {
  it('uses the variable default, or the config value keeping a base path (GitHub Enterprise)', () => {
    assert.deepEqual(resolveBaseUrl(github, {}, {}), {
      href: 'https://api.github.com',
      origin: 'https://api.github.com',
      guarded: true,
    });
    const ghe = resolveBaseUrl(github, { api_url: 'https://ghe.example.com/api/v3/' }, {});
    assert.equal(ghe.href, 'https://ghe.example.com/api/v3');
    const built = buildRequest(ghe, issuesList.request, issuesList.params!, { owner: 'o', repo: 'r' });
    assert.equal(built.url.href, 'https://ghe.example.com/api/v3/repos/o/r/issues');
  });

  it('prefers the operator override, which is the only unguarded source', () => {
    const base = resolveBaseUrl(
      github,
      { api_url: 'https://ghe.example.com/api/v3' },
      { github: 'http://127.0.0.1:9999' },
    );
    assert.deepEqual(base, {
      href: 'http://127.0.0.1:9999',
      origin: 'http://127.0.0.1:9999',
      guarded: false,
    });
  });

  it('rejects config values that are not plain http(s) URLs or break a variable pattern', () => {
    for (const bad of [
      'ftp://ghe.example.com',
      'https://user:pw@ghe.example.com',
      'https://ghe.example.com/?x=1',
      'not a url',
    ]) {
      validationError(
        () => resolveBaseUrl(github, { api_url: bad }, {}),
        /plain http\(s\) URL|not a valid URL/,
      );
    }
    const def = acme();
    assert.equal(resolveBaseUrl(def, { subdomain: 'demo' }, {}).href, 'https://demo.acme.example/api');
    validationError(
      () => resolveBaseUrl(def, { subdomain: 'evil.com#' }, {}),
      /replication_config\.subdomain must match/,
    );
    validationError(() => resolveBaseUrl(def, {}, {}), /replication_config\.subdomain is required/);
  });
});

describe('buildRequest', () => {
  const base = resolveBaseUrl(github, {}, {});

  it('encodes each path param as exactly one segment', () => {
    const built = buildRequest(base, issuesList.request, issuesList.params!, {
      owner: 'a/b c',
      repo: '../../x?y#z',
    });
    assert.equal(built.url.pathname, '/repos/a%2Fb%20c/..%2F..%2Fx%3Fy%23z/issues');
    assert.equal(built.url.search, '');
  });

  it('puts query params in declared order and leaves provider defaults to the provider', () => {
    const built = buildRequest(base, issuesList.request, issuesList.params!, {
      per_page: 5,
      owner: 'o',
      repo: 'r',
      labels: 'bug,ui',
      state: 'all',
    });
    assert.equal(built.url.search, '?state=all&labels=bug%2Cui&per_page=5');
  });

  it('serialises arrays per style and sends body params as JSON', () => {
    const def = acme();
    const things = def.entities[0]!;
    const b = resolveBaseUrl(def, { subdomain: 'demo' }, {});
    const list = buildRequest(b, things.actions.list!.request, things.actions.list!.params!, {
      folder: 'f',
      tags: ['a', 'b'],
    });
    assert.equal(list.url.search, '?tags=a&tags=b');
    const create = buildRequest(b, things.actions.create!.request, things.actions.create!.params!, {
      folder: 'f',
      title: 'T',
    });
    assert.deepEqual(create.body, { title: 'T' });
    assert.equal(create.url.pathname, '/api/folders/f/things');
  });

  it('builds the URL its path and query would make when set one after the other', () => {
    const unit = fc.constantFrom('a', '0', '%', '?', '#', '&', '=', '+', ' ', '/', 'é', '[', '.');
    const value = fc.string({ unit, minLength: 1 });
    fc.assert(
      fc.property(
        value,
        value,
        value,
        fc.constantFrom(undefined, 'x', 'a?b#c'),
        (owner, repo, labels, state) => {
          const params = { owner, repo, labels, ...(state === undefined ? {} : { state }) };
          const built = buildRequest(base, issuesList.request, issuesList.params!, params);
          const expected = new URL(
            `${base.href}/repos/${encodeURIComponent(owner)}/${encodeURIComponent(repo)}/issues`,
          );
          const query = new URLSearchParams(expected.search);
          if (state !== undefined) query.append('state', state);
          query.append('labels', labels);
          expected.search = query.toString();
          assert.equal(built.url.href, expected.href);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('keeps a query the path template has of its own, the params appended after it', () => {
    const built = buildRequest(
      base,
      { method: 'GET', path: '/search/issues?sort=updated' } as never,
      {
        q: { type: 'string' },
      } as never,
      { q: 'is:open a&b' },
    );
    assert.equal(built.url.href, 'https://api.github.com/search/issues?sort=updated&q=is%3Aopen+a%26b');
  });

  it('keeps each checked base URL once: the same text gives the same (frozen) answer', () => {
    const a = resolveBaseUrl(github, { api_url: 'https://ghe.example.com/api/v3/' }, {});
    const b = resolveBaseUrl(github, { api_url: 'https://ghe.example.com/api/v3/' }, {});
    assert.equal(a, b);
    assert.ok(Object.isFrozen(a));
    // A bad one is refused every time, not remembered as good.
    for (let i = 0; i < 2; i++)
      validationError(() => resolveBaseUrl(github, { api_url: 'ftp://ghe.example.com' }, {}), /plain http/);
  });
});

describe('applyAuth', () => {
  it('places each kind of credential where the option says', () => {
    const def = acme();
    const url = new URL('https://demo.acme.example/api/x');
    const headers: Record<string, string> = {};
    assert.deepEqual(applyAuth(def, { option: 'API Key', values: { api_key: 'k1' } }, url, headers), ['key']);
    assert.equal(url.searchParams.get('key'), 'k1');
    applyAuth(def, { option: 'Basic', values: { email: 'a@b.c', api_token: 't' } }, url, headers);
    assert.equal(headers.authorization, `Basic ${Buffer.from('a@b.c/token:t').toString('base64')}`);
    applyAuth(def, { option: 'Header', values: { token: 'abc' } }, url, headers);
    assert.equal(headers['x-acme-token'], 'token abc');
    applyAuth(
      github,
      { option: 'PAT Credentials', values: { personal_access_token: 'ghp_1' } },
      url,
      headers,
    );
    assert.equal(headers.authorization, 'Bearer ghp_1');
  });

  it('refuses header injection and unknown options without echoing the value', () => {
    const url = new URL('https://x.example/');
    assert.throws(
      () =>
        applyAuth(
          github,
          { option: 'PAT Credentials', values: { personal_access_token: 'ghp_1\r\nX-Evil: 1' } },
          url,
          {},
        ),
      (err: unknown) =>
        err instanceof DomainError && err.code === 'INVALID_CREDENTIALS' && !err.message.includes('ghp_1'),
    );
    assert.throws(
      () => applyAuth(github, { option: 'SSH', values: {} }, url, {}),
      (err: unknown) => err instanceof DomainError && err.code === 'INVALID_CREDENTIALS',
    );
  });

  it('places frozen credentials once per definition; credentials that may change are placed every time', () => {
    const def = acme();
    const frozen = Object.freeze({ option: 'API Key', values: Object.freeze({ api_key: 'k1' }) });
    for (let i = 0; i < 2; i++) {
      const url = new URL('https://demo.acme.example/api/x?key=old&a=1');
      assert.deepEqual(applyAuth(def, frozen, url, {}), ['key']);
      assert.equal(url.search, '?key=k1&a=1');
    }
    // The same object under another definition is placed by that definition's option.
    assert.throws(
      () => applyAuth(github, frozen, new URL('https://x.example/'), {}),
      (err: unknown) => err instanceof DomainError && err.code === 'INVALID_CREDENTIALS',
    );
    const open = { option: 'Header', values: { token: 'abc' } };
    const headers: Record<string, string> = {};
    applyAuth(def, open, new URL('https://demo.acme.example/'), headers);
    open.values.token = 'def';
    applyAuth(def, open, new URL('https://demo.acme.example/'), headers);
    assert.equal(headers['x-acme-token'], 'token def');
  });
});
