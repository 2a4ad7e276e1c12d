// A backfill interrupted by `kill -9` resumes from its checkpoint in the next process, and the index then
// holds exactly the upstream set: every issue once, none lost, none twice.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { GITHUB_FAKE_DEFAULT_TOKEN, startGithubFake } from '../connectors/github/fake/index.ts';
import { call, indexedIssueNumbers, type Server, startServer, stop } from '../helpers/server-process.ts';
import { waitFor } from '../helpers/wait.ts';

/** The processes start and sync under whatever else the machine runs: wait generously. */
const LONG = 45_000;
const ISSUES = 1500; // + the dataset's own 25: 16 pages of 100

test('kill -9 mid-backfill: the next process resumes from the checkpoint and the index equals upstream', async () => {
  // Each answer takes 40 ms more, so the backfill lasts seconds: long enough to kill it in the middle.
  const fake = await startGithubFake({ responseDelayMs: 40 });
  fake.seedIssues('ces-demo', 'widgets', ISSUES);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ces-crash-'));
  const env = {
    CES_DATA_DIR: dataDir,
    CES_UPSTREAM_OVERRIDES: JSON.stringify({ github: fake.url }),
    CES_SYNC_POLL_MS: '50',
  };
  let server: Server | undefined = await startServer(env);
  try {
    const boot = JSON.parse(fs.readFileSync(path.join(dataDir, 'bootstrap-credentials.json'), 'utf8'));
    const tokenOf = async (s: Server) =>
      (
        await call(s.url, 'POST', '/api/v1/account/applications/token', undefined, {
          client_id: boot.client_id,
          client_secret: boot.client_secret,
        })
      ).json.access_token as string;
    let token = await tokenOf(server);
    const created = await call(server.url, 'POST', '/api/v1/integrations/connectors', token, {
      workspace_name: 'default',
      connector_type: 'github',
      credentials: { personal_access_token: GITHUB_FAKE_DEFAULT_TOKEN },
      replication_config: { repositories: ['ces-demo/widgets'] },
    });
    assert.equal(created.status, 200, JSON.stringify(created.json));
    const id = created.json.id as string;
    const issuesState = async (s: Server, t: string) => {
      const res = await call(s.url, 'GET', `/api/v1/integrations/connectors/${id}/inspect`, t);
      return (res.json.context_store.entities as Array<{ entity: string; status: string }>).find(
        (e) => e.entity === 'issues',
      );
    };

    // Searchable (first page stored) but far from done: kill it without any chance to clean up.
    const first = server;
    await waitFor(
      'the first page',
      async () => {
        const state = await issuesState(first, token);
        return state?.status === 'Preview' ? state : undefined;
      },
      LONG,
    );
    // Page 1 is /repos/ces-demo/widgets/issues; GitHub's Link header sends the next ones to /repositories/<id>/issues.
    const issuePages = () =>
      fake.requests.filter((r) => /^\/(repos|repositories)\/[^?]*\/issues\?/.test(r.path));
    await waitFor('a few more pages', async () => (issuePages().length >= 5 ? true : undefined), LONG);
    first.proc.kill('SIGKILL');
    await new Promise((r) => first.proc.once('exit', r));
    const fetchedBefore = issuePages().length;
    assert.ok(fetchedBefore < 16, `the backfill must still be running when killed (${fetchedBefore} pages)`);

    server = await startServer(env);
    const second = server;
    token = await tokenOf(second);
    // The new process frees the dead one's lease at once (same host, pid gone) and carries on.
    await waitFor(
      'Ready',
      async () => {
        const state = await issuesState(second, token);
        return state?.status === 'Ready' ? state : undefined;
      },
      LONG,
    );
    const resumed = issuePages()[fetchedBefore];
    assert.ok(resumed, 'the second process read issues');
    const page = Number(new URL(resumed.path, 'http://x').searchParams.get('page') ?? '1');
    assert.ok(page > 1, `resumed from a checkpoint, not from page 1 (first request: ${resumed.path})`);

    // Every issue exactly once: page through the whole index.
    const numbers = await indexedIssueNumbers(() => second.url, token, id);
    const expected = ISSUES + 25;
    assert.equal(numbers.length, expected, 'no record lost, none duplicated');
    assert.equal(new Set(numbers).size, expected);
    assert.deepEqual(
      numbers,
      Array.from({ length: expected }, (_, i) => i + 1),
    );
    const inspected = await issuesState(second, token);
    assert.equal((inspected as unknown as { entity_count: number }).entity_count, expected);
  } finally {
    if (server && server.proc.exitCode === null) await stop(server);
    await fake.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});
