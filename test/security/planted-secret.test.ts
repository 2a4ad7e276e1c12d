import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import { createGithubConnector, startWithGithub } from '../connectors/github/harness.ts';
import type { InjectResult } from '../helpers/harness.ts';

test('a planted credential never reaches the database file, the logs or any response', async () => {
  const planted = `ghp_PLANTED${randomBytes(12).toString('hex')}`;
  const rotatedPlant = `ghp_ROTATED${randomBytes(12).toString('hex')}`;
  const { h, fake, close } = await startWithGithub([planted, rotatedPlant]);
  const responses: InjectResult[] = [];
  const record = (r: InjectResult) => {
    responses.push(r);
    return r;
  };
  try {
    const token = await h.token();
    const created = record(await createGithubConnector(h, token, {}, planted));
    assert.equal(created.status, 200, created.body);
    const id = created.json.id;
    const url = `/api/v1/integrations/connectors/${id}`;

    // Every path that touches the credential: create, read, list, execute (ok and failing), rotate, errors.
    record(await h.inject({ method: 'GET', url, token }));
    record(
      await h.inject({ method: 'GET', url: '/api/v1/integrations/connectors?workspace_name=default', token }),
    );
    const ok = record(
      await h.inject({
        method: 'POST',
        url: `${url}/execute`,
        token,
        body: {
          entity: 'issues',
          action: 'list',
          params: { owner: 'ces-demo', repo: 'widgets', per_page: 5 },
        },
      }),
    );
    assert.equal(ok.status, 200, ok.body);
    // The provider echoing the credential back in an error body must not leak it either.
    fake.failNext({ status: 401, body: { message: `Bad credentials ${planted}`, token: planted } });
    const failed = record(
      await h.inject({
        method: 'POST',
        url: `${url}/execute`,
        token,
        body: { entity: 'users', action: 'get', params: { username: 'octocat' } },
      }),
    );
    assert.equal(failed.status, 424, failed.body);
    // `times: 3` outlasts the retries of a GET, so the 500 itself reaches the client.
    fake.failNext({ status: 500, body: `stack trace mentioning ${planted}`, times: 3 });
    record(
      await h.inject({
        method: 'POST',
        url: `${url}/execute`,
        token,
        body: { entity: 'users', action: 'get', params: { username: 'octocat' } },
      }),
    );
    record(
      await h.inject({
        method: 'POST',
        url: '/api/v1/integrations/connectors',
        token,
        body: {
          workspace_name: 'default',
          connector_type: 'github',
          credentials: { personal_access_token: planted, extra: planted },
          replication_config: { repositories: ['a/b'] },
        },
      }),
    );
    record(
      await h.inject({
        method: 'PUT',
        url,
        token,
        body: { credentials: { personal_access_token: rotatedPlant } },
      }),
    );
    record(
      await h.inject({
        method: 'PUT',
        url,
        token,
        body: { credentials: { personal_access_token: `${planted}x` } },
      }),
    );
    record(await h.inject({ method: 'GET', url: '/api/v1/openapi.json' }));

    // The credential was really used upstream, so its absence below is meaningful.
    assert.ok(fake.requests.some((r) => r.headers.authorization?.includes(planted)));

    for (const r of responses) {
      const text = r.body + JSON.stringify(r.headers);
      assert.ok(!text.includes(planted), `response leaked the credential: ${r.body.slice(0, 200)}`);
      assert.ok(!text.includes(rotatedPlant), 'response leaked the rotated credential');
    }
    const logs = h.logs();
    assert.ok(logs.length > 0, 'the service logged something');
    assert.ok(!logs.includes(planted), 'logs leaked the credential');
    assert.ok(!logs.includes(rotatedPlant), 'logs leaked the rotated credential');

    await h.deps.store.ping();
    const content = await h.storedBytes();
    assert.equal(content.indexOf(planted), -1, 'the store holds the credential in clear');
    assert.equal(content.indexOf(rotatedPlant), -1, 'the store holds the rotated credential in clear');
    const bytes = content.length;
    assert.ok(bytes > 0);
    // And the stored ciphertext really decrypts to it: the check above looked at the right rows.
    const stored = await h.deps.store.connectors.getCredentials(h.boot.organization_id, id);
    assert.ok(stored);
    assert.ok(
      h.deps.vault.decrypt(stored, `connector:${h.boot.organization_id}:${id}`).includes(rotatedPlant),
    );
  } finally {
    await close();
  }
});
