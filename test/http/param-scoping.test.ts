// Required params defaulted from the connector's replication_config (the definition's `scoping`, the hosted
// catalog's x-airbyte-scoping): GitHub's owner/repo from a single configured repository; with several, or
// `owner/*`, the param stays required and the 422 lists what is configured; a param the client gives wins.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createGithubConnector, type GithubFake, startWithGithub } from '../connectors/github/harness.ts';
import { connectorApi } from '../helpers/connector-api.ts';
import type { Harness } from '../helpers/harness.ts';
import { assertError } from './assertions.ts';

describe('params scoped by replication_config.repositories (GitHub)', () => {
  let h: Harness;
  let fake: GithubFake;
  let close: () => Promise<unknown>;
  let token: string;

  before(async () => {
    ({ h, fake, close } = await startWithGithub());
    fake.seedIssues('ces-demo', 'gizmos', 1);
    token = await h.token();
  });
  after(() => close());

  const connector = async (repositories: string[]) => {
    const res = await createGithubConnector(h, token, { replication_config: { repositories } });
    assert.equal(res.status, 200, res.body);
    return connectorApi(h, token, res.json.id as string).exec;
  };
  /** The path of the provider request `call` made (exactly one). */
  const sentPath = async (call: () => Promise<{ status: number; body: string }>) => {
    const before = fake.requests.length;
    const res = await call();
    assert.equal(res.status, 200, res.body);
    assert.equal(fake.requests.length, before + 1);
    return new URL(fake.requests[before]?.path ?? '', 'http://x').pathname;
  };

  test('one repository: owner and repo come from it', async () => {
    const exec = await connector(['ces-demo/widgets']);
    assert.equal(await sentPath(() => exec('repositories', 'list', {})), '/users/ces-demo/repos');
    assert.equal(await sentPath(() => exec('issues', 'list', {})), '/repos/ces-demo/widgets/issues');
    // org and username are the owner's login too, as the hosted catalog scopes them.
    assert.equal(await sentPath(() => exec('org_repositories', 'list', {})), '/orgs/ces-demo/repos');
  });

  test('a param the client gives wins over the scope', async () => {
    const exec = await connector(['ces-demo/widgets']);
    assert.equal(
      await sentPath(() => exec('issues', 'list', { repo: 'gizmos' })),
      '/repos/ces-demo/gizmos/issues',
    );
    assert.equal(
      await sentPath(() => exec('repositories', 'list', { owner: 'octocat' })),
      '/users/octocat/repos',
    );
  });

  test('several repositories of one owner: owner is defaulted, repo stays required and the 422 lists them', async () => {
    const exec = await connector(['ces-demo/widgets', 'ces-demo/gizmos']);
    assert.equal(await sentPath(() => exec('repositories', 'list', {})), '/users/ces-demo/repos');
    const before = fake.requests.length;
    const res = await exec('issues', 'list', {});
    assertError(res, 422, 'INVALID_PARAMS');
    assert.match(
      res.json.message,
      /missing required param 'repo' \(replication_config\.repositories names more than one \(ces-demo\/widgets, ces-demo\/gizmos\), so give the one you mean\)/,
    );
    const detail = res.json.errors.find((e: { field: string }) => e.field === 'params.repo');
    assert.deepEqual(detail.details, {
      config: 'repositories',
      configured: ['ces-demo/widgets', 'ces-demo/gizmos'],
    });
    assert.equal(
      res.json.errors.some((e: { field: string }) => e.field === 'params.owner'),
      false,
    );
    assert.equal(fake.requests.length, before, 'nothing was sent');
    assert.equal(
      await sentPath(() => exec('issues', 'list', { repo: 'gizmos' })),
      '/repos/ces-demo/gizmos/issues',
    );
  });

  test('owner/* scopes the owner but not the repository; two owners scope neither', async () => {
    const wild = await connector(['ces-demo/*']);
    assert.equal(await sentPath(() => wild('repositories', 'list', {})), '/users/ces-demo/repos');
    const res = await wild('issues', 'list', {});
    assertError(res, 422, 'INVALID_PARAMS');
    assert.match(
      res.json.message,
      /missing required param 'repo' \(replication_config\.repositories names more than one \(ces-demo\/\*\)/,
    );
    const two = await connector(['ces-demo/widgets', 'octocat/hello']);
    const none = await two('repositories', 'list', {});
    assertError(none, 422, 'INVALID_PARAMS');
    assert.match(
      none.json.message,
      /missing required param 'owner' \(replication_config\.repositories names more than one/,
    );
  });

  test('the catalog and describe keep the param required and say what may answer it', async () => {
    const detail = await h.inject({
      method: 'GET',
      url: '/api/v1/integrations/definitions/sources/ef69ef6e-aa7f-4af1-a01d-ef775033524e',
      token,
    });
    assert.equal(detail.status, 200, detail.body);
    const issues = detail.json.entities.find((e: { name: string }) => e.name === 'issues');
    const owner = issues.actions
      .find((a: { name: string }) => a.name === 'list')
      .params.find((p: { name: string }) => p.name === 'owner');
    assert.equal(owner.required, true);
    assert.equal(owner.scoped_by, 'replication_config.repositories');
    const exec = await connector(['ces-demo/widgets']);
    const described = await exec('issues', 'describe', {});
    assert.equal(described.status, 200, described.body);
    const downer = described.json.result.entities[0].actions
      .find((a: { action: string }) => a.action === 'list')
      .params.find((p: { name: string }) => p.name === 'owner');
    assert.deepEqual(
      { required: downer.required, scoped_by: downer.scoped_by },
      { required: true, scoped_by: 'replication_config.repositories' },
    );
  });
});
