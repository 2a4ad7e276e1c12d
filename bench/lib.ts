// Helpers shared by the benchmark scripts: child processes, ports, readiness, load runs.
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import autocannon from 'autocannon';
import pg from 'pg';
import { request } from 'undici';
import { GITHUB_FAKE_DEFAULT_TOKEN } from '../test/connectors/github/fake/index.ts';

export const ROOT = path.resolve(import.meta.dirname, '..');
const children: ChildProcess[] = [];

/** Starts a node script that prints `{"url": …}` as its first stdout line; resolves with that URL. */
export function launch(args: string[], env: Record<string, string> = {}) {
  const started = process.hrtime.bigint();
  const proc = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(proc);
  let out = '';
  return new Promise<{ proc: ChildProcess; url: string; ms: number }>((resolve, reject) => {
    proc.stdout?.on('data', (d) => {
      out += String(d);
      const m = /"url":"([^"]+)"/.exec(out);
      if (m?.[1]) resolve({ proc, url: m[1], ms: Number(process.hrtime.bigint() - started) / 1e6 });
    });
    proc.once('exit', (code) => reject(new Error(`${args.join(' ')} exited ${code}: ${out}`)));
  });
}

/** A port that was free a moment ago; good enough on a quiet loopback. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

export async function waitReady(url: string, started: bigint): Promise<number> {
  for (;;) {
    try {
      const res = await fetch(`${url}/readyz`);
      if (res.ok) return Number(process.hrtime.bigint() - started) / 1e6;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 5));
  }
}

/**
 * Starts `ces serve` on a fresh data dir; returns its base URL, an application token and a cleanup.
 * `env` adds (or overrides) environment variables of the server, e.g. CES_SYNC_POLL_MS.
 */
export async function startCes(
  overrides: Record<string, string>,
  env: Record<string, string> = {},
  /** Another process on the same database made the first application already: sign in with it. */
  boot?: { client_id: string; client_secret: string },
  /** The checkout whose build runs (another worktree's, to compare with this one's in one run). */
  root = ROOT,
) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ces-bench-'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const started = process.hrtime.bigint();
  // BENCH_CES_NODE_ARGS (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof") profiles the ces process under load.
  const nodeArgs = (process.env.BENCH_CES_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const proc = spawn(process.execPath, [...nodeArgs, 'bin/ces.js', 'serve'], {
    cwd: root,
    env: {
      ...process.env,
      CES_DATA_DIR: dataDir,
      CES_PORT: String(port),
      CES_LOG_LEVEL: 'warn',
      CES_UPSTREAM_OVERRIDES: JSON.stringify(overrides),
      // The figures measure ces itself: one organization's load would otherwise meet its request rate limit
      // (execute ran at ~1,000 requests/s, the default limit). A bench that measures the limit sets it.
      CES_MAX_REQUESTS_PER_SECOND: '0',
      ...env,
    },
    // Its warnings and a crash's last words go to the bench's stderr; BENCH_CES_STDOUT=1 passes its stdout on
    // too (e.g. with BENCH_CES_NODE_ARGS=--trace-gc).
    stdio: ['ignore', process.env.BENCH_CES_STDOUT ? 'inherit' : 'ignore', 'inherit'],
  });
  children.push(proc);
  await waitReady(base, started);
  boot ??= JSON.parse(fs.readFileSync(path.join(dataDir, 'bootstrap-credentials.json'), 'utf8')) as {
    client_id: string;
    client_secret: string;
  };
  const token = (await postJson(base, '/api/v1/account/applications/token', {
    client_id: boot.client_id,
    client_secret: boot.client_secret,
  })) as { access_token: string };
  return { base, proc, boot, token: token.access_token, dataDir };
}

export async function postJson(base: string, url: string, body: unknown, token?: string): Promise<unknown> {
  const res = await fetch(`${base}${url}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  const json = await res.json();
  if (!res.ok) throw new Error(`${url}: HTTP ${res.status} ${JSON.stringify(json)}`);
  return json;
}

export interface LoadResult {
  rps: number;
  /** requests answered in all */
  total?: number;
  mean_ms: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
}

export async function load(opts: autocannon.Options): Promise<LoadResult> {
  const r = await autocannon(opts);
  return {
    rps: Math.round(r.requests.average),
    total: r.requests.total,
    mean_ms: +r.latency.average.toFixed(3),
    p50: r.latency.p50,
    p99: r.latency.p99,
    non2xx: r.non2xx,
    errors: r.errors,
  };
}

/**
 * One request every 1/rate s for the run's duration, each timed on its own (autocannon's overallRate mode
 * reported means below the fake's own delay, so paced runs don't use it).
 */
export async function pacedLoad(
  rate: number,
  durationS: number,
  opts: Parameters<typeof load>[0],
): Promise<LoadResult> {
  const started = performance.now();
  const count = Math.max(3, Math.round(rate * durationS));
  return timedLoop(opts, (i) => {
    if (i >= count) return false;
    const due = started + (i * 1000) / rate;
    return new Promise((r) => setTimeout(() => r(true), Math.max(0, due - performance.now())));
  });
}

/**
 * Requests one after another on one keep-alive connection for the run's duration, each timed to the
 * microsecond: autocannon records latency in whole milliseconds (a mean of 0.14 ms is the share of requests
 * that took 1 ms or more), too coarse for the latency one connection adds.
 */
export async function sequentialLoad(
  durationS: number,
  opts: Parameters<typeof load>[0],
): Promise<LoadResult> {
  const ends = performance.now() + durationS * 1000;
  return timedLoop(opts, () => performance.now() < ends);
}

/** Sends `opts`'s request while `next(i)` says so, timing each exchange; latencies in ms. */
async function timedLoop(
  opts: Parameters<typeof load>[0],
  next: (i: number) => boolean | Promise<boolean>,
): Promise<LoadResult> {
  const latencies: number[] = [];
  let non2xx = 0;
  let errors = 0;
  const started = performance.now();
  for (let i = 0; await next(i); i++) {
    const t0 = performance.now();
    try {
      const res = await request(String(opts.url), {
        method: (opts.method ?? 'GET') as 'GET' | 'POST',
        headers: opts.headers ?? {},
        ...(opts.body ? { body: String(opts.body) } : {}),
      });
      await res.body.arrayBuffer();
      if (res.statusCode >= 300) non2xx++;
    } catch {
      errors++;
    }
    latencies.push(performance.now() - t0);
  }
  const sorted = [...latencies].sort((a, b) => a - b);
  const at = (q: number) => +sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!.toFixed(3);
  return {
    rps: +(latencies.length / ((performance.now() - started) / 1000)).toFixed(2),
    total: latencies.length,
    mean_ms: +(latencies.reduce((a, b) => a + b, 0) / latencies.length).toFixed(3),
    p50: at(0.5),
    p99: at(0.99),
    non2xx,
    errors,
  };
}

export function stop(proc: ChildProcess) {
  return new Promise<void>((resolve) => {
    if (proc.exitCode !== null) return resolve();
    proc.once('exit', () => resolve());
    proc.kill('SIGTERM');
  });
}

export async function stopAll() {
  await Promise.all(children.map(stop));
}

const TICKS_PER_SECOND = 100; // USER_HZ on Linux

/** User + system CPU seconds a process has used so far (from /proc); with `tid`, one of its threads'. */
export function cpuSeconds(pid: number, tid?: number): number {
  const stat = fs.readFileSync(
    tid === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${tid}/stat`,
    'utf8',
  );
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
}

/** Each thread of process `pid` (Linux /proc): its name and the CPU seconds it has used, by thread id. */
export function threadCpuSeconds(pid: number): Map<number, { name: string; s: number }> {
  const out = new Map<number, { name: string; s: number }>();
  for (const tid of fs.readdirSync(`/proc/${pid}/task`)) {
    try {
      const name = fs.readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim();
      out.set(Number(tid), { name, s: cpuSeconds(pid, Number(tid)) });
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  return out;
}

/**
 * CPU seconds each kind of thread of `pid` used since `before` (threadCpuSeconds), by thread name: `main` is the
 * process's first thread (the event loop every request runs on); ces names its own (src/store/sqlite/thread-name.ts);
 * what is left is called `node`: V8's helpers (concurrent GC marking and sweeping, compilation) and libuv's pool.
 * A thread that ended meanwhile is not counted.
 */
export function threadCpuSince(
  pid: number,
  before: Map<number, { name: string; s: number }>,
): Record<string, number> {
  const by: Record<string, number> = {};
  for (const [tid, now] of threadCpuSeconds(pid)) {
    const name = tid === pid ? 'main' : now.name;
    by[name] = (by[name] ?? 0) + now.s - (before.get(tid)?.s ?? 0);
  }
  return by;
}

/** A GitHub connector on the fake; `entities` narrows what its Context Store syncs (default: every entity). */
export async function createGithubConnector(
  ces: { base: string; token: string },
  repositories: string[],
  entities?: string[],
) {
  return (await postJson(
    ces.base,
    '/api/v1/integrations/connectors',
    {
      workspace_name: 'default',
      connector_type: 'github',
      credentials: { personal_access_token: GITHUB_FAKE_DEFAULT_TOKEN },
      replication_config: { repositories },
      ...(entities ? { entities: entities.map((entity) => ({ entity })) } : {}),
    },
    ces.token,
  )) as { id: string };
}

/** An entity's Context Store sync state, as `GET …/inspect` reports it. */
export interface EntityState {
  entity: string;
  status: string;
  ready_for_search: boolean;
  entity_count: number;
  last_error: string | null;
}

/** The connector's Context Store as `GET …/inspect` reports it: its status and each entity's sync state. */
export async function inspect(ces: { base: string; token: string }, id: string) {
  const res = await request(`${ces.base}/api/v1/integrations/connectors/${id}/inspect`, {
    headers: { authorization: `Bearer ${ces.token}` },
  });
  const body = (await res.body.json()) as { context_store: { status: string; entities: EntityState[] } };
  if (res.statusCode !== 200) throw new Error(`inspect: HTTP ${res.statusCode} ${JSON.stringify(body)}`);
  return body.context_store;
}

/**
 * Waits until the connector's first Context Store sync has settled (every entity Ready or Failed) and returns
 * how long that took (ms). The sync starts when the connector is created and runs in ces's process; a figure of
 * CPU per execute measured while it ran would count the backfill's work too (on a slow machine the first sync of
 * Zendesk's 21 entities took 3 s; in one pair of runs there, ces's CPU per execute was 5.9 ms measured from the
 * connector's creation and 3.5 ms measured after its sync).
 */
export async function waitSynced(ces: { base: string; token: string }, id: string, timeoutMs = 300_000) {
  const started = performance.now();
  for (;;) {
    const { entities } = await inspect(ces, id);
    if (entities.every((e) => e.status === 'Ready' || e.status === 'Failed'))
      return Math.round(performance.now() - started);
    if (performance.now() - started > timeoutMs)
      throw new Error(`first sync not settled after ${timeoutMs} ms: ${JSON.stringify(entities)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Count, p50, p99, max and mean of latencies (ms), to the microsecond. */
export function latencyStats(samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = (q: number) =>
    sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? 0;
  const mean = samples.reduce((a, b) => a + b, 0) / Math.max(1, samples.length);
  const us = (x: number) => +x.toFixed(3);
  return {
    n: samples.length,
    p50: us(rank(0.5)),
    p99: us(rank(0.99)),
    max: us(sorted.at(-1) ?? 0),
    mean: us(mean),
  };
}

export function writeResults(name: string, results: unknown) {
  fs.writeFileSync(path.join(ROOT, 'bench/results', name), `${JSON.stringify(results, null, 2)}\n`);
}

/**
 * A database of the run's own (`<prefix>_<pid>`) on the bench's PostgreSQL server (BENCH_POSTGRES_URL, default
 * this machine's), UTF-8 with a Unicode ctype as the tests make theirs; `drop` removes it.
 */
export async function benchDatabase(prefix: string) {
  const admin = process.env.BENCH_POSTGRES_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
  const name = `${prefix}_${process.pid}`;
  const exec = async (sql: string) => {
    const client = new pg.Client({ connectionString: admin });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await exec(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await exec(`CREATE DATABASE ${name} TEMPLATE template0 ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C.UTF-8'`);
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => exec(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

/**
 * The size of a SQLite database's WAL (`<file>-wal`), looked at every `everyMs` from another process until
 * `stop()`: its largest and its last size, in MiB. A sample can miss a peak shorter than `everyMs`.
 */
export function walSampler(dbFile: string, everyMs = 5) {
  const wal = `${dbFile}-wal`;
  let max = 0;
  let last = 0;
  const look = () => {
    last = fs.statSync(wal, { throwIfNoEntry: false })?.size ?? 0;
    if (last > max) max = last;
  };
  const timer = setInterval(look, everyMs);
  timer.unref();
  const mib = (bytes: number) => +(bytes / 1024 / 1024).toFixed(2);
  return {
    stop() {
      clearInterval(timer);
      look();
      return { max_mib: mib(max), final_mib: mib(last) };
    },
  };
}
