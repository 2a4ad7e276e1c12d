// Issue-12 figures: ces on one PostgreSQL beside ces on SQLite, in one run, against the GitHub fake
// (bench/fake-github.ts, answering at once):
//   added latency  execute `list` (30 issues) at one connection: p50/p99 on SQLite, on PostgreSQL, and straight
//                  from the fake (the floor); the difference is what a PostgreSQL round trip adds per execute;
//   scale-out      throughput at 20 connections with one API process, and with two API processes on the same
//                  database (10 connections each, run at once): the ratio two/one;
//   shared limit   three processes on one database holding GitHub to 3 requests/s (CES_RATE_LIMIT_OVERRIDES),
//                  each driven by 2 connections for the duration: the rate of answers that reached the
//                  provider, all processes together, after the bucket's initial burst of 3.
// All processes share this machine's cores with the load generator, the fake and PostgreSQL: the scale-out
// ratio is what a second process buys on the same 2 cores, not on a second machine.
//
// Usage: npm run bench:postgres [-- --duration 10] (BENCH_POSTGRES_URL: the server, default 127.0.0.1:5432)
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { parseArgs } from 'node:util';
import { GITHUB_FAKE_DEFAULT_TOKEN } from '../test/connectors/github/fake/index.ts';
import {
  benchDatabase,
  cpuSeconds,
  type LoadResult,
  launch,
  load,
  postJson,
  startCes,
  stop,
  stopAll,
  writeResults,
} from './lib.ts';

const { values } = parseArgs({ options: { duration: { type: 'string', default: '10' } } });
const DURATION = Number(values.duration);
const LIST = { entity: 'issues', action: 'list', params: { owner: 'bench', repo: 'big', per_page: 30 } };

type Ces = Awaited<ReturnType<typeof startCes>>;

/** `n` ces processes on one store (the first bootstraps; the others sign in with its application). */
async function processes(n: number, fakeUrl: string, env: Record<string, string>) {
  const first = await startCes({ github: fakeUrl }, { CES_SYNC_ENABLED: 'false', ...env });
  const all: Ces[] = [first];
  for (let i = 1; i < n; i++) {
    all.push(await startCes({ github: fakeUrl }, { CES_SYNC_ENABLED: 'false', ...env }, first.boot));
  }
  const connector = (await postJson(
    first.base,
    '/api/v1/integrations/connectors',
    {
      workspace_name: 'default',
      connector_type: 'github',
      credentials: { personal_access_token: GITHUB_FAKE_DEFAULT_TOKEN },
      replication_config: { repositories: ['bench/big'] },
    },
    first.token,
  )) as { id: string };
  return { all, connectorId: connector.id };
}

function executeOpts(ces: Ces, connectorId: string, connections: number, duration = DURATION) {
  return {
    url: `${ces.base}/api/v1/integrations/connectors/${connectorId}/execute`,
    method: 'POST' as const,
    headers: { authorization: `Bearer ${ces.token}`, 'content-type': 'application/json' },
    body: JSON.stringify(LIST),
    connections,
    duration,
  };
}

async function measure(label: string, run: () => Promise<LoadResult>, pids: number[]) {
  const cpu0 = pids.map(cpuSeconds);
  const r = await run();
  const cpu = pids.reduce((sum, pid, i) => sum + cpuSeconds(pid) - cpu0[i]!, 0);
  const out = { ...r, ces_cpu_ms_per_request: +((cpu * 1000) / Math.max(1, r.rps * DURATION)).toFixed(3) };
  console.error(label, out);
  return out;
}

async function main() {
  const results: Record<string, unknown> = {
    date: new Date().toISOString(),
    node: process.version,
    cpus: os.cpus().length,
    duration_s: DURATION,
    load_avg_1m_at_start: +(os.loadavg()[0] ?? 0).toFixed(2),
  };
  const fake = await launch(['--import', 'tsx', 'bench/fake-github.ts']);
  const masterKey = randomBytes(32).toString('base64');
  const db = await benchDatabase('ces_bench_scale');
  try {
    const direct = await load({
      url: `${fake.url}/repos/bench/big/issues?per_page=30`,
      headers: { authorization: `Bearer ${GITHUB_FAKE_DEFAULT_TOKEN}` },
      connections: 1,
      duration: DURATION,
    });
    console.error('fake directly, 1 connection', direct);

    // SQLite, one process.
    const lite = await processes(1, fake.url, {});
    const sqlite1 = await measure(
      'sqlite 1 connection',
      () => load(executeOpts(lite.all[0]!, lite.connectorId, 1)),
      [lite.all[0]!.proc.pid!],
    );
    const sqlite20 = await measure(
      'sqlite 20 connections',
      () => load(executeOpts(lite.all[0]!, lite.connectorId, 20)),
      [lite.all[0]!.proc.pid!],
    );
    await stop(lite.all[0]!.proc);

    // PostgreSQL: two API processes on one database.
    const env = { CES_DATABASE_URL: db.url, CES_MASTER_KEY: masterKey };
    const two = await processes(2, fake.url, env);
    const [p1, p2] = two.all as [Ces, Ces];
    const pg1 = await measure('postgres 1 connection', () => load(executeOpts(p1, two.connectorId, 1)), [
      p1.proc.pid!,
    ]);
    const pg20 = await measure(
      'postgres 1 process, 20 connections',
      () => load(executeOpts(p1, two.connectorId, 20)),
      [p1.proc.pid!],
    );
    const pgTwo = await measure('postgres 2 processes, 10 connections each', async () => {
      const [a, b] = await Promise.all([
        load(executeOpts(p1, two.connectorId, 10)),
        load(executeOpts(p2, two.connectorId, 10)),
      ]);
      return {
        rps: a.rps + b.rps,
        mean_ms: +((a.mean_ms + b.mean_ms) / 2).toFixed(3),
        p50: Math.max(a.p50, b.p50),
        p99: Math.max(a.p99, b.p99),
        non2xx: a.non2xx + b.non2xx,
        errors: a.errors + b.errors,
      };
    }, [p1.proc.pid!, p2.proc.pid!]);
    await Promise.all(two.all.map((c) => stop(c.proc)));

    // A shared limit: three processes, GitHub held to 3 requests/s.
    const limited = await processes(3, fake.url, {
      ...env,
      CES_DATABASE_SCHEMA: 'limited',
      CES_RATE_LIMIT_OVERRIDES: JSON.stringify({ github: { requests: 3, per_seconds: 1 } }),
      CES_UPSTREAM_QUEUE_WAIT_MS: '60000',
    });
    const started = Date.now();
    const runs = await Promise.all(limited.all.map((c) => load(executeOpts(c, limited.connectorId, 2))));
    const elapsedS = (Date.now() - started) / 1000;
    const answered = runs.reduce((n, r) => n + (r.total ?? 0) - r.non2xx, 0);
    const shared = {
      processes: 3,
      limit_per_s: 3,
      answered_2xx: answered,
      refused_non2xx: runs.reduce((n, r) => n + r.non2xx, 0),
      elapsed_s: +elapsedS.toFixed(2),
      // The bucket starts full (3 tokens): past those, the rate is what the limit lets through.
      rate_after_burst_per_s: +((answered - 3) / elapsedS).toFixed(3),
    };
    console.error('shared limit', shared);
    await Promise.all(limited.all.map((c) => stop(c.proc)));

    results.direct_fake_1_connection = direct;
    results.sqlite = { one_connection: sqlite1, twenty_connections: sqlite20 };
    results.postgres = {
      one_connection: pg1,
      one_process_20_connections: pg20,
      two_processes_10_connections_each: pgTwo,
    };
    results.figures = {
      added_p50_ms_postgres_vs_sqlite: +(pg1.p50 - sqlite1.p50).toFixed(3),
      added_mean_ms_postgres_vs_sqlite: +(pg1.mean_ms - sqlite1.mean_ms).toFixed(3),
      throughput_postgres_over_sqlite_1_process: +(pg20.rps / sqlite20.rps).toFixed(3),
      throughput_two_over_one_process: +(pgTwo.rps / pg20.rps).toFixed(3),
      shared_limit_rate_per_s: shared.rate_after_burst_per_s,
    };
    results.shared_limit = shared;
    console.log(JSON.stringify(results.figures, null, 2));
  } finally {
    await stopAll();
    await db.drop();
  }
  writeResults('postgres-scale.json', results);
}

main().catch(async (err) => {
  console.error(err);
  await stopAll();
  process.exit(1);
});
