// ces-test: own-database
// Scale-out on PostgreSQL, with real processes started as the README does: two API processes and one worker
// on one database. Requests go to both API processes (a token from one works on the other: they share the
// signing key through the database); the worker is killed with SIGKILL mid-backfill and a new worker takes
// over; the index then holds exactly the upstream set through either API process. An application revoked by
// the CLI is refused by both API processes at once.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { GITHUB_FAKE_DEFAULT_TOKEN, startGithubFake } from '../connectors/github/fake/index.ts';
import { createTestDatabase } from '../helpers/postgres.ts';
import { call, indexedIssueNumbers, type Server, startServer, stop } from '../helpers/server-process.ts';
import { waitFor } from '../helpers/wait.ts';

const LONG = 60_000;
const ISSUES = 1500; // + the dataset's own 25: 16 pages of 100
const ROOT = path.resolve(import.meta.dirname, '../..');

test('two API processes and a worker on one PostgreSQL: kill -9 of the worker loses and duplicates nothing', async () => {
  const db = await createTestDatabase();
  const fake = await startGithubFake({ responseDelayMs: 40 });
  fake.seedIssues('ces-demo', 'widgets', ISSUES);
  const dirs: string[] = [];
  const servers: Server[] = [];
  const env = (role: string) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), `ces-pg-${role}-`));
    dirs.push(dir);
    return {
      CES_DATA_DIR: dir,
      CES_DATABASE_URL: db.url,
      CES_MASTER_KEY: masterKey,
      CES_ROLE: role,
      CES_UPSTREAM_OVERRIDES: JSON.stringify({ github: fake.url }),
      CES_SYNC_POLL_MS: '50',
      CES_SYNC_LEASE_SECONDS: '5',
    };
  };
  const masterKey = randomBytes(32).toString('base64');
  const start = async (role: string) => {
    const e = env(role);
    const s = await startServer(e);
    servers.push(s);
    return { server: s, dir: e.CES_DATA_DIR };
  };
  try {
    const api1 = await start('api');
    const api2 = await start('api');
    let worker = (await start('worker')).server;
    // The first process created the organization and its application; the others found them.
    const bootFile = path.join(api1.dir, 'bootstrap-credentials.json');
    const boot = JSON.parse(fs.readFileSync(bootFile, 'utf8'));
    for (const d of dirs.slice(1))
      assert.equal(fs.existsSync(path.join(d, 'bootstrap-credentials.json')), false);
    const a = api1.server.url;
    const b = api2.server.url;
    const token = (
      await call(a, 'POST', '/api/v1/account/applications/token', undefined, {
        client_id: boot.client_id,
        client_secret: boot.client_secret,
      })
    ).json.access_token as string;

    // The worker serves no API.
    const notApi = await call(worker.url, 'GET', '/api/v1/integrations/connectors', token);
    assert.equal(notApi.status, 404);
    assert.equal((await call(worker.url, 'GET', '/healthz')).status, 200);

    const created = await call(a, 'POST', '/api/v1/integrations/connectors', token, {
      workspace_name: 'default',
      connector_type: 'github',
      credentials: { personal_access_token: GITHUB_FAKE_DEFAULT_TOKEN },
      replication_config: { repositories: ['ces-demo/widgets'] },
    });
    assert.equal(created.status, 200, JSON.stringify(created.json));
    const id = created.json.id as string;
    // Seen through the other process at once.
    const viaB = await call(b, 'GET', `/api/v1/integrations/connectors/${id}`, token);
    assert.equal(viaB.status, 200, JSON.stringify(viaB.json));

    let turn = 0;
    const either = () => (turn++ % 2 === 0 ? a : b);
    const issuesState = async () => {
      const res = await call(either(), 'GET', `/api/v1/integrations/connectors/${id}/inspect`, token);
      return (res.json.context_store.entities as Array<{ entity: string; status: string }>).find(
        (e) => e.entity === 'issues',
      );
    };
    const issuePages = () =>
      fake.requests.filter((r) => /^\/(repos|repositories)\/[^?]*\/issues\?/.test(r.path));
    await waitFor('a few pages', async () => (issuePages().length >= 5 ? true : undefined), LONG);
    worker.proc.kill('SIGKILL');
    await new Promise((r) => worker.proc.once('exit', r));
    const fetchedBefore = issuePages().length;
    assert.ok(fetchedBefore < 16, `the backfill must still be running when killed (${fetchedBefore} pages)`);
    assert.notEqual((await issuesState())?.status, 'Ready');

    // The orchestrator starts a replacement; it takes the dead worker's lease over and carries on.
    worker = (await start('worker')).server;
    await waitFor(
      'Ready',
      async () => {
        const state = await issuesState();
        return state?.status === 'Ready' ? state : undefined;
      },
      LONG,
    );
    const resumed = issuePages()[fetchedBefore];
    assert.ok(resumed, 'the new worker read issues');
    const page = Number(new URL(resumed.path, 'http://x').searchParams.get('page') ?? '1');
    assert.ok(page > 1, `resumed from the checkpoint, not from page 1 (first request: ${resumed.path})`);

    // Every issue exactly once, paging through the index on both API processes in turn.
    const numbers = await indexedIssueNumbers(either, token, id, 400);
    const expected = ISSUES + 25;
    assert.equal(numbers.length, expected, 'no record lost, none duplicated');
    assert.deepEqual(
      numbers,
      Array.from({ length: expected }, (_, i) => i + 1),
    );
    // A search answers the same records through either process.
    const byNumber = async (base: string) =>
      call(base, 'POST', `/api/v1/integrations/connectors/${id}/execute`, token, {
        entity: 'issues',
        action: 'search',
        params: { query: { filter: { eq: { number: 1234 } } }, fields: ['number', 'title'] },
      });
    const [fa, fb] = [await byNumber(a), await byNumber(b)];
    assert.deepEqual(fa.json.result, fb.json.result);
    assert.equal(fa.json.result.length, 1);

    // Revoked through the CLI on the same database: both API processes refuse the token at once.
    const revoke = spawnSync(
      process.execPath,
      [path.join(ROOT, 'bin/ces.js'), 'apps', 'revoke', '--org', boot.organization_id, boot.client_id],
      { cwd: ROOT, env: { ...process.env, ...env('all') }, encoding: 'utf8' },
    );
    assert.equal(revoke.status, 0, revoke.stderr);
    for (const base of [a, b]) {
      const res = await call(base, 'GET', '/api/v1/integrations/connectors', token);
      assert.equal(res.status, 401, JSON.stringify(res.json));
    }
  } finally {
    for (const s of servers) if (s.proc.exitCode === null && s.proc.signalCode === null) await stop(s);
    await fake.close();
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
    await db.drop();
  }
});
