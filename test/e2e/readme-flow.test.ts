import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { GITHUB_FAKE_DEFAULT_TOKEN, startGithubFake } from '../connectors/github/fake/index.ts';
import { call, startServer, stop } from '../helpers/server-process.ts';

test('the README flow against the real server process, and a restart keeps everything', async () => {
  const fake = await startGithubFake();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ces-e2e-'));
  const env = { CES_DATA_DIR: dataDir, CES_UPSTREAM_OVERRIDES: JSON.stringify({ github: fake.url }) };
  let server = await startServer(env);
  try {
    // First start: bootstrap credentials are printed once and written 0600.
    const bootFile = path.join(dataDir, 'bootstrap-credentials.json');
    const boot = JSON.parse(fs.readFileSync(bootFile, 'utf8'));
    assert.equal(fs.statSync(bootFile).mode & 0o777, 0o600);
    assert.equal(fs.statSync(path.join(dataDir, 'master.key')).mode & 0o777, 0o600);
    assert.ok(server.stdout().includes(boot.client_secret), 'the secret is printed on first start');

    const health = await call(server.url, 'GET', '/healthz');
    assert.equal(health.status, 200);
    assert.equal((await call(server.url, 'GET', '/readyz')).status, 200);

    const tokenRes = await call(server.url, 'POST', '/api/v1/account/applications/token', undefined, {
      client_id: boot.client_id,
      client_secret: boot.client_secret,
    });
    assert.equal(tokenRes.status, 200);
    const token = tokenRes.json.access_token;

    const defs = await call(server.url, 'GET', '/api/v1/integrations/definitions/sources?name=git', token);
    const github = defs.json.definitions.find((d: { name: string }) => d.name === 'GitHub');
    assert.ok(github);

    const created = await call(server.url, 'POST', '/api/v1/integrations/connectors', token, {
      workspace_name: 'default',
      definition_id: github.sourceDefinitionId,
      name: 'my-github',
      credentials: { personal_access_token: GITHUB_FAKE_DEFAULT_TOKEN },
      replication_config: { repositories: ['ces-demo/widgets'] },
    });
    assert.equal(created.status, 200, JSON.stringify(created.json));
    const id = created.json.id;

    let cursor: string | null = null;
    let total = 0;
    let pages = 0;
    do {
      const res = await call(server.url, 'POST', `/api/v1/integrations/connectors/${id}/execute`, token, {
        entity: 'issues',
        action: 'list',
        params: {
          owner: 'ces-demo',
          repo: 'widgets',
          state: 'all',
          per_page: 10,
          ...(cursor ? { cursor } : {}),
        },
      });
      assert.equal(res.status, 200, JSON.stringify(res.json));
      total += res.json.result.length;
      pages++;
      cursor = res.json.connector_metadata.end_cursor;
    } while (cursor);
    assert.equal(total, 25);
    assert.equal(pages, 3);

    // Step 6: the Context Store fills in the background; then the README's search.
    for (let i = 0; ; i++) {
      const inspect = await call(server.url, 'GET', `/api/v1/integrations/connectors/${id}/inspect`, token);
      assert.equal(inspect.status, 200, JSON.stringify(inspect.json));
      if (inspect.json.context_store.status === 'Ready') break;
      assert.ok(i < 600, `the Context Store became Ready (${JSON.stringify(inspect.json.context_store)})`);
      await new Promise((r) => setTimeout(r, 50));
    }
    const found = await call(server.url, 'POST', `/api/v1/integrations/connectors/${id}/execute`, token, {
      entity: 'issues',
      action: 'search',
      params: {
        query: { filter: { eq: { state: 'open' } }, sort: [{ updated_at: 'desc' }] },
        limit: 10,
        fields: ['number', 'title', 'user.login'],
      },
    });
    assert.equal(found.status, 200, JSON.stringify(found.json));
    assert.ok(found.json.result.length > 0);
    assert.deepEqual(Object.keys(found.json.result[0]).sort(), ['number', 'title', 'user']);
    assert.ok(
      Number.isInteger(found.json.connector_metadata.took_ms),
      JSON.stringify(found.json.connector_metadata),
    );

    assert.equal(await stop(server), 0, 'graceful shutdown exits 0');
    server = await startServer(env);
    assert.ok(!server.stdout().includes(boot.client_secret), 'the secret is not printed again');
    const again = await call(server.url, 'POST', '/api/v1/account/applications/token', undefined, {
      client_id: boot.client_id,
      client_secret: boot.client_secret,
    });
    assert.equal(again.status, 200);
    const stillThere = await call(
      server.url,
      'GET',
      `/api/v1/integrations/connectors/${id}`,
      again.json.access_token,
    );
    assert.equal(stillThere.status, 200);
    assert.equal(stillThere.json.name, 'my-github');
    const exec = await call(
      server.url,
      'POST',
      `/api/v1/integrations/connectors/${id}/execute`,
      again.json.access_token,
      {
        entity: 'users',
        action: 'get',
        params: { username: 'octocat' },
      },
    );
    assert.equal(exec.status, 200, 'stored credentials still decrypt after a restart');
  } finally {
    if (server.proc.exitCode === null) await stop(server);
    await fake.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});
