// The Context Store's writes on a thread of their own (a file database): the request path keeps writing
// while a backfill writes, and the sync loop outlives a failing store call.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  createGithubConnector,
  type GithubFake,
  type Harness,
  startWithGithub,
} from '../connectors/github/harness.ts';
import { entityState } from '../helpers/context-store.ts';
import { waitFor } from '../helpers/wait.ts';

describe('context store writer', () => {
  let h: Harness;
  let close: () => Promise<unknown>;
  let token: string;

  before(async () => {
    let fake: GithubFake;
    ({ h, fake, close } = await startWithGithub(undefined, { CES_SYNC_POLL_MS: '20' }));
    fake.seedIssues('ces-demo', 'widgets', 3000);
    token = await h.token();
  });
  after(async () => {
    await h.deps.worker.stop();
    await close();
  });

  const issues = (id: string) => entityState(h, token, id, 'issues');

  test('a failing claim is logged and retried; connectors are created, renamed and deleted during a backfill', async () => {
    const repo = h.deps.store.contextStore;
    const claim = repo.claim.bind(repo);
    let failures = 0;
    repo.claim = async (...args) => {
      if (failures === 0) {
        failures++;
        throw new Error('database is locked');
      }
      return claim(...args);
    };
    const first = await createGithubConnector(h, token, { name: 'big' });
    assert.equal(first.status, 200, first.body);
    await h.deps.worker.start();
    await waitFor('the backfill to be searchable', async () => {
      const state = await issues(first.json.id);
      return state?.ready_for_search ? state : undefined;
    });
    // Meanwhile the request path writes (its own connection, through the write gate): none of it may fail.
    const made: string[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await createGithubConnector(h, token, { name: `side-${i}` });
      assert.equal(res.status, 200, res.body);
      made.push(res.json.id);
      const renamed = await h.inject({
        method: 'PUT',
        url: `/api/v1/integrations/connectors/${res.json.id}`,
        token,
        body: { name: `side-${i}-renamed` },
      });
      assert.equal(renamed.status, 200, renamed.body);
    }
    for (const id of made) {
      const res = await h.inject({ method: 'DELETE', url: `/api/v1/integrations/connectors/${id}`, token });
      assert.equal(res.status, 202, res.body);
    }
    const done = await waitFor(
      'the backfill to finish',
      async () => {
        const state = await issues(first.json.id);
        return state?.status === 'Ready' ? state : undefined;
      },
      45_000,
    );
    assert.equal(failures, 1);
    // The dataset's own 25 issues and the 3,000 seeded ones.
    assert.equal(done.entity_count, 3025);
  });
});
