import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  createGithubConnector,
  type GithubFake,
  type Harness,
  startWithGithub,
} from '../connectors/github/harness.ts';

describe('execute download', () => {
  let h: Harness;
  let fake: GithubFake;
  let close: () => Promise<unknown>;
  let token: string;
  let id: string;

  before(async () => {
    ({ h, fake, close } = await startWithGithub());
    token = await h.token();
    id = (await createGithubConnector(h, token)).json.id;
  });
  after(() => close());

  const download = (params: Record<string, unknown>, headers: Record<string, string> = {}) =>
    h.inject({
      method: 'POST',
      url: `/api/v1/integrations/connectors/${id}/execute`,
      token,
      headers,
      body: { entity: 'repositories', action: 'download', params },
    });

  test('answers with the archive itself, not the JSON envelope', async () => {
    const res = await download({ owner: 'ces-demo', repo: 'widgets', ref: 'main' });
    assert.equal(res.status, 200, res.body);
    assert.equal(res.headers['content-type'], 'application/x-gzip');
    assert.match(
      String(res.headers['content-disposition']),
      /^attachment; filename=ces-demo-widgets-[0-9a-f]+\.tar\.gz$/,
    );
    const direct = await fetch(`${fake.url}/repos/ces-demo/widgets/tarball/main`, {
      headers: { authorization: 'Bearer ghp_test_token_0001' },
    });
    const expected = Buffer.from(await direct.arrayBuffer());
    assert.equal(res.headers['content-length'], String(expected.length));
    assert.ok(res.raw.equals(expected), 'the bytes are the archive GitHub serves');
    assert.ok(res.headers['x-request-id']);
  });

  test('without ref the default branch is fetched', async () => {
    const mark = fake.requests.length;
    const res = await download({ owner: 'ces-demo', repo: 'widgets' });
    assert.equal(res.status, 200);
    assert.equal(fake.requests[mark]?.path, '/repos/ces-demo/widgets/tarball');
  });

  test('an unknown repository is a JSON 404, and bad params a 422 before any request', async () => {
    const missing = await download({ owner: 'ces-demo', repo: 'nope' });
    assert.equal(missing.status, 404, missing.body);
    assert.equal(missing.json.code, 'UPSTREAM_NOT_FOUND');
    const mark = fake.requests.length;
    // (a repo left out is the connector's single configured one: runtime/scoping.ts)
    const bad = await download({ owner: 'ces-demo', repo: '..' });
    assert.equal(bad.status, 422);
    assert.equal(bad.json.code, 'INVALID_PARAMS');
    const wrongAction = await h.inject({
      method: 'POST',
      url: `/api/v1/integrations/connectors/${id}/execute`,
      token,
      body: { entity: 'issues', action: 'download', params: {} },
    });
    assert.equal(wrongAction.status, 422);
    assert.equal(wrongAction.json.code, 'UNKNOWN_ACTION');
    assert.equal(fake.requests.length, mark);
  });

  test('another organization cannot download through this connector', async () => {
    const other = await h.otherOrg();
    const res = await h.inject({
      method: 'POST',
      url: `/api/v1/integrations/connectors/${id}/execute`,
      token: other.token,
      body: { entity: 'repositories', action: 'download', params: { owner: 'ces-demo', repo: 'widgets' } },
    });
    assert.equal(res.status, 404);
  });
});
