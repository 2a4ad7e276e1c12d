// Download links (the MCP download tool's resource links): GET /api/v1/downloads?link=… streams the file for
// the link's caller and connector, and refuses a forged, expired or revoked one, and a call that can't work.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createDownloadLink } from '../../src/core/connectors/download-link.ts';
import { authenticate } from '../../src/core/tokens/authenticate.ts';
import {
  createGithubConnector,
  type GithubFake,
  type Harness,
  startWithGithub,
} from '../connectors/github/harness.ts';
import { assertError } from './assertions.ts';

describe('download links', () => {
  let h: Harness;
  let fake: GithubFake;
  let close: () => Promise<unknown>;
  let token: string;
  let connectorId: string;
  let offsetMs = 0;

  before(async () => {
    ({ h, fake, close } = await startWithGithub(undefined, { CES_SYNC_ENABLED: 'false' }));
    h.deps.now = () => new Date(Date.now() + offsetMs);
    token = await h.token();
    const made = await createGithubConnector(h, token);
    assert.equal(made.status, 200, made.body);
    connectorId = made.json.id;
  });
  after(() => close());

  const link = async (
    bearer = token,
    params: Record<string, unknown> = { owner: 'ces-demo', repo: 'widgets' },
  ) => {
    const ctx = await authenticate(h.deps, `Bearer ${bearer}`);
    return createDownloadLink(h.deps, ctx, connectorId, { entity: 'repositories', params });
  };

  test('a link streams the file, with no token, until it expires', async () => {
    const { path, expires_at } = await link();
    assert.ok(Date.parse(expires_at) > Date.now());
    const res = await h.inject({ method: 'GET', url: path });
    assert.equal(res.status, 200, res.body);
    assert.ok(res.raw.length > 0);
    assert.equal(res.headers['cache-control'], 'no-store');
    // The link is a credential: the request log keeps its route, not its value.
    assert.ok(h.logs().includes('/api/v1/downloads?link=[redacted]'));
    assert.ok(!h.logs().includes(path.slice(path.indexOf('=') + 1)), 'the link reached the logs');
    assert.ok(fake.requests.some((r) => r.path.includes('/tarball') || r.path.includes('/zipball')));
    offsetMs = 6 * 60_000;
    try {
      assertError(await h.inject({ method: 'GET', url: path }), 401, 'UNAUTHENTICATED');
    } finally {
      offsetMs = 0;
    }
  });

  test('a forged or altered link is refused', async () => {
    const { path } = await link();
    const value = path.slice(path.indexOf('=') + 1);
    const altered = `${value.slice(0, 10)}${value[10] === 'A' ? 'B' : 'A'}${value.slice(11)}`;
    for (const bad of [altered, 'x.y', 'nope']) {
      assertError(
        await h.inject({ method: 'GET', url: `/api/v1/downloads?link=${bad}` }),
        401,
        'UNAUTHENTICATED',
      );
    }
    assertError(await h.inject({ method: 'GET', url: '/api/v1/downloads' }), 422, 'VALIDATION_ERROR');
  });

  test('a link for a call that cannot work is not made; a revoked application’s link stops working', async () => {
    await assert.rejects(
      link(token, { owner: 'ces-demo', repo: '..' }),
      (err: Error & { code?: string }) => err.code === 'INVALID_PARAMS',
    );
    const other = await h.otherOrg();
    const ctx = await authenticate(h.deps, `Bearer ${other.token}`);
    await assert.rejects(
      createDownloadLink(h.deps, ctx, connectorId, {
        entity: 'repositories',
        params: { owner: 'a', repo: 'b' },
      }),
      (err: Error & { code?: string }) => err.code === 'CONNECTOR_NOT_FOUND',
    );
    const { path } = await link();
    const app = await h.deps.store.applications.findByClientIdForLogin(h.boot.client_id);
    await h.deps.store.applications.revoke(h.boot.organization_id, app!.id, new Date().toISOString());
    assertError(await h.inject({ method: 'GET', url: path }), 401, 'UNAUTHENTICATED');
  });
});
