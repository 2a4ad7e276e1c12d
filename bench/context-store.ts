// Context Store figures, in one run against bench/fake-bulk-github.ts (N synthetic issues of bench/big):
//   backfill   records/s from creating the connector until its `issues` entity is Ready (inspect polled every
//              250 ms; also when it first became searchable), beside how fast this process alone pages through the
//              same fake (one request in flight, JSON parsed and discarded): ces's ratio to that is the figure;
//              and (SQLite) the WAL file's largest and last size during it, sampled every 5 ms;
//   write floor (SQLite) the rows ces wrote, read back and inserted into a new file with the same index table, in
//              the transactions ces's writer makes (and again a page, 100 rows, per transaction), only the writes
//              timed: what SQLite alone spends storing them;
//   search     client-side p50/p99/mean and server-side took_ms of sequential `search` requests per query kind
//              (eq, range + sort, fuzzy, keyword, eq 5 pages deep), beside /healthz (the HTTP floor; and with every
//              core kept busy by spinning processes, the control for /healthz during the backfill), the same
//              queries as hand-written SQL on the database file (the storage floor) and the SQL ces compiles for
//              them run on that file (what the database costs ces, without HTTP);
//   size       bytes of ces.db per record after a WAL checkpoint (PostgreSQL: of the index table with its
//              indexes and TOAST), beside the raw JSON bytes per record.
// Beside the backfill's CPU per record: the same by thread (main, the Context Store's writer and decoder, V8's and
// libuv's helpers; /proc), and the main thread's garbage collections during it, from ces's own /metrics (so ces
// runs here with CES_METRICS=true): where the CPU goes, and what pauses the thread every request runs on.
// Each store of --stores runs the same backfill and searches in turn, in one run: SQLite (a data directory of
// its own) and PostgreSQL (a database created for the run and dropped after it, on BENCH_POSTGRES_URL, default
// postgres://postgres@127.0.0.1:5432/postgres). The storage floors are SQLite's only.
//
// Usage: npm run bench:context-store [-- --records 1000000 --queries 300 --stores sqlite,postgres --keep --out context-store.json]
// (--keep leaves ces's data directory in place; --out names the file under bench/results.)

import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import pg from 'pg';
import { type Dispatcher, request } from 'undici';
import { parseDefinition } from '../src/connectors/load.ts';
import { BASE_COLUMNS, type EntityLayout, entityLayout, quoteIdent } from '../src/context-store/layout.ts';
import { compileSearch } from '../src/context-store/query.ts';
import { BATCH_BYTES, BATCH_RECORDS } from '../src/core/sync/batch-writer.ts';
import { openSqliteFile } from '../src/store/sqlite/connection.ts';
import {
  ftsFillSql,
  indexRowColumns,
  indexRowInsertSql,
  indexTableDdl,
  registerSearchFunctions,
} from '../src/store/sqlite/context-index.ts';
import { CHUNK_ROWS } from '../src/store/sqlite/context-writes.ts';
import { sqliteSearchDialect } from '../src/store/sqlite/search-dialect.ts';
import { GITHUB_FAKE_DEFAULT_TOKEN } from '../test/connectors/github/fake/index.ts';
import { metricValue, parseMetrics, type Scrape } from '../test/helpers/prometheus.ts';
import { bulkIssue, CREATED_RANGE, Rng, USERS, VOCAB } from './fake-bulk-github.ts';
import {
  benchDatabase,
  cpuSeconds,
  createGithubConnector,
  inspect,
  latencyStats,
  launch,
  ROOT,
  startCes,
  stop,
  stopAll,
  threadCpuSeconds,
  threadCpuSince,
  walSampler,
  writeResults,
} from './lib.ts';

const { values } = parseArgs({
  options: {
    records: { type: 'string', default: '1000000' },
    queries: { type: 'string', default: '300' },
    'timeout-s': { type: 'string' },
    keep: { type: 'boolean', default: false },
    stores: { type: 'string', default: 'sqlite,postgres' },
    out: { type: 'string', default: 'context-store.json' },
  },
});
const N = Number(values.records);
const QUERIES = Number(values.queries);
const WARMUP = 20;
const LIMIT = 10;
const DEEP_PAGES = 5;
const TIMEOUT_S = Number(values['timeout-s'] ?? Math.max(600, N / 200));
const GOALS = { backfill_rps: 50_000, eq_p99_ms: 10, range_sort_p99_ms: 20, fuzzy_p99_ms: 50 };
const TABLE = 'cs_github__issues';
const DAY = 86_400_000;

/** Peak resident memory of a process so far, in MiB. */
function peakRssMib(pid: number): number {
  const m = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Math.round(Number(m?.[1] ?? 0) / 1024);
}

/** The 1-minute load average: this machine is shared, and a figure taken under load says so. */
const load1 = () => round(os.loadavg()[0] ?? 0);

const round = (x: number, digits = 2) => +x.toFixed(digits);
const seconds = (from: number) => (performance.now() - from) / 1000;

// ---- backfill baseline: this process alone reads every page, as the worker does, one request in flight

async function pageThrough(fakeUrl: string, fakePid: number) {
  let url: string | null =
    `${fakeUrl}/repos/bench/big/issues?state=all&sort=updated&direction=asc&per_page=100`;
  let records = 0;
  let bytes = 0;
  let pages = 0;
  const cpu0 = cpuSeconds(fakePid);
  const own0 = process.cpuUsage();
  const t0 = performance.now();
  while (url) {
    const res: Dispatcher.ResponseData = await request(url, {
      headers: { authorization: `Bearer ${GITHUB_FAKE_DEFAULT_TOKEN}` },
    });
    const text = await res.body.text();
    if (res.statusCode !== 200) throw new Error(`baseline: HTTP ${res.statusCode} for ${url}: ${text}`);
    const page = JSON.parse(text) as unknown[];
    records += page.length;
    bytes += Buffer.byteLength(text);
    pages++;
    const link = String(res.headers.link ?? '');
    url = /<([^>]+)>;\s*rel="next"/.exec(link)?.[1] ?? null;
  }
  const s = seconds(t0);
  const own = process.cpuUsage(own0);
  if (records !== N) throw new Error(`baseline read ${records} records, expected ${N}`);
  return {
    seconds: round(s),
    records_per_s: Math.round(records / s),
    pages,
    json_bytes_per_record: Math.round(bytes / records),
    fake_cpu_s: round(cpuSeconds(fakePid) - cpu0),
    client_cpu_s: round((own.user + own.system) / 1e6),
    load_avg_1m_after: load1(),
  };
}

// ---- backfill through ces

async function healthzOnce(base: string) {
  const res = await request(`${base}/healthz`);
  await res.body.dump();
  if (res.statusCode !== 200) throw new Error(`healthz: HTTP ${res.statusCode}`);
}

async function rename(base: string, token: string, id: string, name: string) {
  const res = await request(`${base}/api/v1/integrations/connectors/${id}`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name }),
  });
  const body = await res.body.text();
  if (res.statusCode !== 200) throw new Error(`rename: HTTP ${res.statusCode} ${body}`);
}

/** ces's /metrics now (the bench runs it with CES_METRICS=true). */
async function scrape(base: string): Promise<Scrape> {
  const res = await fetch(`${base}/metrics`);
  if (!res.ok) throw new Error(`/metrics: HTTP ${res.status}`);
  return parseMetrics(await res.text());
}

const GC = 'ces_nodejs_gc_duration_seconds';
const GC_KINDS = ['major', 'incremental', 'minor'] as const;

/**
 * The main thread's garbage collections between two scrapes, by kind: how many, their pauses in all, and how
 * many paused it for 10 ms or more (Node reports a major collection's final pause; `incremental` is its marking
 * done on the main thread beforehand, in steps).
 */
function gcBetween(before: Scrape, after: Scrape) {
  const change = (name: string, labels: Record<string, string>) =>
    metricValue(after, name, labels) - metricValue(before, name, labels);
  return Object.fromEntries(
    GC_KINDS.map((kind) => {
      const count = change(`${GC}_count`, { kind });
      return [
        kind,
        {
          count,
          total_ms: round(change(`${GC}_sum`, { kind }) * 1000, 1),
          over_10ms: count - change(`${GC}_bucket`, { kind, le: '0.01' }),
        },
      ];
    }),
  ) as Record<(typeof GC_KINDS)[number], { count: number; total_ms: number; over_10ms: number }>;
}

async function backfill(ces: Awaited<ReturnType<typeof startCes>>, fakePid: number) {
  const metrics0 = await scrape(ces.base);
  const threads0 = threadCpuSeconds(ces.proc.pid!);
  const cesCpu0 = cpuSeconds(ces.proc.pid!);
  const fakeCpu0 = cpuSeconds(fakePid);
  // SQLite's WAL, which the writer thread keeps short by checkpointing (a missing file reads as 0: PostgreSQL).
  const wal = walSampler(path.join(ces.dataDir, 'ces.db'));
  const t0 = performance.now();
  // Issues only: the fake serves no other entity of the definition, whose syncs would keep the connector short of
  // Preview (search answers CONTEXT_STORE_NOT_READY until every entity has its first page or has failed).
  const connector = await createGithubConnector(ces, ['bench/big'], ['issues']);
  const createdS = seconds(t0);
  let previewS: number | null = null;
  const timeline: Array<{ t_s: number; entity_count: number; status: string }> = [];
  let lastCount = -1;
  let lastChange = performance.now();
  let lastLog = 0;
  // The API while the backfill runs: a read that touches no database, the inspect read, and a write (a
  // rename, which does not restart the sync) that must take the write lock beside the sync's writer.
  const api = { healthz_ms: [] as number[], inspect_ms: [] as number[], rename_ms: [] as number[] };
  let renames = 0;
  for (;;) {
    let at = performance.now();
    await healthzOnce(ces.base);
    api.healthz_ms.push(performance.now() - at);
    at = performance.now();
    const cs = await inspect(ces, connector.id);
    api.inspect_ms.push(performance.now() - at);
    if (cs.status !== 'Ready' && api.inspect_ms.length % 4 === 0) {
      at = performance.now();
      await rename(ces.base, ces.token, connector.id, `bench-${++renames}`);
      api.rename_ms.push(performance.now() - at);
    }
    const issues = cs.entities.find((e) => e.entity === 'issues');
    const t = seconds(t0);
    if (!issues) throw new Error(`inspect lists no issues entity: ${JSON.stringify(cs)}`);
    if (issues.ready_for_search && previewS === null) previewS = t;
    if (issues.status === 'Failed') throw new Error(`issues sync failed: ${JSON.stringify(issues)}`);
    if (issues.entity_count !== lastCount) {
      lastCount = issues.entity_count;
      lastChange = performance.now();
      timeline.push({ t_s: round(t, 1), entity_count: issues.entity_count, status: issues.status });
    }
    if (issues.status === 'Ready') {
      const s = t;
      const cesCpu = cpuSeconds(ces.proc.pid!) - cesCpu0;
      const byThread = threadCpuSince(ces.proc.pid!, threads0);
      const gc = gcBetween(metrics0, await scrape(ces.base));
      const result = {
        connector_id: connector.id,
        create_request_s: round(createdS, 3),
        first_searchable_s: previewS === null ? null : round(previewS, 2),
        ready_s: round(s, 2),
        entity_count: issues.entity_count,
        records_per_s: Math.round(N / s),
        ces_cpu_s: round(cesCpu),
        // CPU per record does not depend on what else the machine runs meanwhile, unlike records/s.
        ces_cpu_us_per_record: Math.round((cesCpu / N) * 1e6),
        ces_cpu_us_per_record_by_thread: Object.fromEntries(
          Object.entries(byThread)
            .sort((a, b) => b[1] - a[1])
            .map(([name, cpu]) => [name, round((cpu / N) * 1e6, 1)]),
        ),
        main_thread: { gc },
        fake_cpu_s: round(cpuSeconds(fakePid) - fakeCpu0),
        ces_peak_rss_mib: peakRssMib(ces.proc.pid!),
        load_avg_1m_after: load1(),
        connector_status: cs.status,
        wal: wal.stop(),
        api_during_backfill: {
          healthz_ms: latencyStats(api.healthz_ms),
          inspect_ms: latencyStats(api.inspect_ms),
          rename_ms: latencyStats(api.rename_ms),
          rename_max_ms: round(Math.max(0, ...api.rename_ms), 3),
        },
        timeline,
      };
      if (issues.entity_count !== N) {
        throw new Error(`issues is Ready with entity_count ${issues.entity_count}, expected ${N}`);
      }
      return result;
    }
    if (t > TIMEOUT_S) throw new Error(`issues not Ready after ${TIMEOUT_S} s: ${JSON.stringify(cs)}`);
    if (performance.now() - lastChange > 180_000) {
      throw new Error(`issues stuck at ${lastCount} records for 180 s: ${JSON.stringify(cs)}`);
    }
    if (t - lastLog >= 10) {
      lastLog = t;
      console.error(`  backfill ${t.toFixed(0)} s: ${issues.status}, ${issues.entity_count} records`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
}

// ---- search

type Issue = { number: number; title: string; created_at: string; user: { login: string } };
interface SearchReply {
  result: Issue[];
  connector_metadata: { has_next_page: boolean; end_cursor: string | null; took_ms: number };
}

/** One query of a kind: the `query` of the search, and a check that a returned issue matches it. */
interface Query {
  query: { filter: unknown; sort?: unknown };
  matches(issue: Issue): boolean;
  /** the same query's parameters for the hand-written SQL */
  sqlArgs: unknown[];
}

const wordsOf = (s: string) => s.toLowerCase().match(/[a-z0-9]+/g) ?? [];
function inOrder(title: string, words: string[]) {
  let i = 0;
  for (const w of wordsOf(title)) if (w === words[i] && ++i === words.length) return true;
  return false;
}

const KINDS: Record<string, (rng: Rng) => Query> = {
  eq: (rng) => {
    const login = USERS[rng.int(USERS.length)]!;
    return {
      query: { filter: { eq: { 'user.login': login } } },
      matches: (i) => i.user.login === login,
      sqlArgs: [login],
    };
  },
  range_sort: (rng) => {
    const from =
      CREATED_RANGE.from + Math.floor(rng.next() * (CREATED_RANGE.to - CREATED_RANGE.from - 30 * DAY));
    const to = from + 30 * DAY;
    const iso = (ms: number) => new Date(ms).toISOString();
    return {
      query: {
        filter: { and: [{ gte: { created_at: iso(from) } }, { lt: { created_at: iso(to) } }] },
        sort: [{ created_at: 'desc' }],
      },
      matches: (i) => Date.parse(i.created_at) >= from && Date.parse(i.created_at) < to,
      sqlArgs: [from, to],
    };
  },
  fuzzy: (rng) => {
    // Two words, in order, of some issue's title: always at least one match, selective or not by chance.
    const title = wordsOf(bulkIssue(rng.int(N), N).title);
    const a = rng.int(title.length - 1);
    const b = a + 1 + rng.int(title.length - a - 1);
    const words = [title[a]!, title[b]!];
    return {
      query: { filter: { fuzzy: { title: words.join(' ') } } },
      matches: (i) => inOrder(i.title, words),
      sqlArgs: words,
    };
  },
  keyword: (rng) => {
    const words = [VOCAB[rng.int(VOCAB.length)]!, VOCAB[rng.int(VOCAB.length)]!];
    return {
      query: { filter: { keyword: { title: words.join(' ') } } },
      matches: (i) => wordsOf(i.title).some((w) => words.includes(w)),
      sqlArgs: words,
    };
  },
};

async function execute(base: string, token: string, id: string, query: unknown, cursor?: string) {
  const t0 = performance.now();
  const res = await request(`${base}/api/v1/integrations/connectors/${id}/execute`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({
      entity: 'issues',
      action: 'search',
      params: { query, limit: LIMIT, ...(cursor ? { cursor } : {}) },
    }),
  });
  const text = await res.body.text();
  const ms = performance.now() - t0;
  if (res.statusCode !== 200) throw new Error(`search: HTTP ${res.statusCode} ${text}`);
  return { ms, reply: JSON.parse(text) as SearchReply };
}

async function searchKind(base: string, token: string, id: string, kind: string, deep: boolean) {
  const make = KINDS[kind]!;
  const rng = new Rng(kind.length * 7919 + (deep ? 1 : 0));
  const client: number[] = [];
  const took: number[] = [];
  let hits = 0;
  let wrong = 0;
  const slowest: Array<{ filter: unknown; client_ms: number; took_ms: number }> = [];
  for (let q = 0; q < WARMUP + QUERIES; q++) {
    const query = make(rng);
    let out = await execute(base, token, id, query.query);
    for (let p = 0; deep && p < DEEP_PAGES && out.reply.connector_metadata.end_cursor; p++) {
      out = await execute(base, token, id, query.query, out.reply.connector_metadata.end_cursor);
    }
    if (q < WARMUP) continue;
    client.push(out.ms);
    took.push(out.reply.connector_metadata.took_ms);
    hits += out.reply.result.length;
    slowest.push({
      filter: query.query.filter,
      client_ms: round(out.ms, 3),
      took_ms: out.reply.connector_metadata.took_ms,
    });
    slowest.sort((a, b) => b.took_ms - a.took_ms).splice(3);
    wrong += out.reply.result.filter((i) => !query.matches(i)).length;
    if (kind === 'range_sort') {
      const dates = out.reply.result.map((i) => Date.parse(i.created_at));
      if (dates.some((d, k) => k > 0 && d > dates[k - 1]!)) wrong++;
    }
  }
  return {
    client_ms: latencyStats(client),
    took_ms: latencyStats(took),
    mean_results: round(hits / QUERIES, 1),
    wrong_results: wrong,
    slowest_by_took_ms: slowest,
  };
}

async function healthz(base: string) {
  const samples: number[] = [];
  for (let q = 0; q < WARMUP + QUERIES; q++) {
    const t0 = performance.now();
    const res = await request(`${base}/healthz`);
    await res.body.text();
    if (q >= WARMUP) samples.push(performance.now() - t0);
  }
  return latencyStats(samples);
}

/**
 * /healthz of ces at rest while as many processes as the machine has cores spin: what a request waits for a core
 * when the cores are busy and nothing of ces's own runs. The control for /healthz during the backfill, when the
 * fake, this client and ces's three busy threads share the cores. Spaced 50 ms apart, as a probe would be.
 */
async function healthzCoresBusy(base: string) {
  const burners = os.cpus().map(() => spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }));
  try {
    await new Promise((r) => setTimeout(r, 500));
    const samples: number[] = [];
    for (let q = 0; q < 200; q++) {
      const at = performance.now();
      await healthzOnce(base);
      samples.push(performance.now() - at);
      await new Promise((r) => setTimeout(r, 50));
    }
    return { burners: burners.length, ...latencyStats(samples) };
  } finally {
    for (const b of burners) b.kill('SIGKILL');
  }
}

// ---- the same queries on the database file: hand-written SQL, and the SQL ces compiles

/** The Context Store layout of github.yaml's `issues`: the index table the backfill fills. */
function issuesLayout(): EntityLayout {
  const def = parseDefinition(
    fs.readFileSync(path.join(ROOT, 'src/connectors/definitions/github.yaml'), 'utf8'),
    'github.yaml',
  );
  const entity = def.entities.find((e) => e.name === 'issues');
  const layout = entity && entityLayout(def, entity);
  if (!layout) throw new Error('github.yaml has no Context Store layout for issues');
  return layout;
}

/**
 * The write floor (SQLite only): what SQLite alone spends to store the rows the backfill wrote. Into a new file
 * opened with ces's settings and holding the same index table (its B-tree indexes and full-text table), the rows
 * of ces's index are inserted again as they were read out of its file (column values, no JSON parsed, nothing
 * computed), in the transactions ces's writer makes: a batch of the sync (BATCH_RECORDS records, or BATCH_BYTES
 * of their JSON) per transaction, CHUNK_ROWS at a time with their full-text entries made after each chunk; the WAL
 * checkpointed once a second as ces's writer does. Only the writes are timed. Run a second time with a page
 * (100 rows) per transaction, which is what ces wrote before it batched pages and what a backfill with a
 * request-path write waiting at every chunk comes to. CPU of this process per record, and records/s on one core:
 * ces's CPU per record above this (and above the baseline client's paging) is its own work; ces's single writer
 * can store no faster than this.
 */
function writeFloor(dbFile: string, connectorId: string, batching: 'sync' | 'page') {
  const layout = issuesLayout();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ces-bench-floor-'));
  const db = openSqliteFile(path.join(dir, 'floor.db'));
  try {
    db.exec('CREATE TABLE cs_connectors (connector_key INTEGER PRIMARY KEY)');
    for (const ddl of indexTableDdl(layout)) db.exec(ddl);
    db.prepare('ATTACH DATABASE ? AS src').run(dbFile);
    const { connector_key: key } = db
      .prepare('SELECT connector_key FROM src.cs_connectors WHERE connector_id = ?')
      .get(connectorId) as { connector_key: number };
    db.prepare('INSERT INTO cs_connectors (connector_key) VALUES (?)').run(key);
    const table = quoteIdent(layout.table);
    const cols = indexRowColumns(layout).map(quoteIdent).join(', ');
    const rids = db
      .prepare(`SELECT rid FROM src.${table} WHERE connector_key = ? ORDER BY rid`)
      .pluck()
      .all(key) as number[];
    const read = db
      .prepare(`SELECT ${cols} FROM src.${table} WHERE rid >= ? AND rid <= ? ORDER BY rid`)
      .raw();
    const insert = db.prepare(indexRowInsertSql(layout));
    const fillSql = ftsFillSql(layout);
    const fill = fillSql ? db.prepare(fillSql) : undefined;
    const maxRid = db.prepare(`SELECT COALESCE(MAX(rid), 0) FROM main.${table}`).pluck();
    const write = db.transaction((rows: unknown[][]) => {
      for (let at = 0; at < rows.length; at += CHUNK_ROWS) {
        const before = maxRid.get() as number;
        for (const row of rows.slice(at, at + CHUNK_ROWS)) insert.run(row);
        fill?.run(before);
      }
    });
    // As ces's writer does: no checkpoint at commit, a passive one at most once a second.
    db.pragma('wal_autocheckpoint = 0');
    // Only the writes are timed: reading the rows out of ces's file is not.
    let cpuUs = 0;
    let wallMs = 0;
    let transactions = 0;
    let checkpointed = performance.now();
    const dataAt = indexRowColumns(layout).indexOf(BASE_COLUMNS.data);
    for (let i = 0; i < rids.length; i += 100) {
      let rows = read.all(rids[i], rids[Math.min(i + 99, rids.length - 1)]) as unknown[][];
      if (batching === 'sync') {
        // The worker's batch: pages until BATCH_RECORDS records or BATCH_BYTES of their JSON.
        let bytes = rows.reduce((n, row) => n + String(row[dataAt]).length, 0);
        while (i + 100 < rids.length && rows.length < BATCH_RECORDS && bytes < BATCH_BYTES) {
          i += 100;
          const more = read.all(rids[i], rids[Math.min(i + 99, rids.length - 1)]) as unknown[][];
          for (const row of more) bytes += String(row[dataAt]).length;
          rows = rows.concat(more);
        }
      }
      const cpu0 = process.cpuUsage();
      const t0 = performance.now();
      write(rows);
      transactions++;
      if (t0 - checkpointed >= 1000) {
        db.pragma('wal_checkpoint(PASSIVE)');
        checkpointed = performance.now();
      }
      wallMs += performance.now() - t0;
      const cpu = process.cpuUsage(cpu0);
      cpuUs += cpu.user + cpu.system;
    }
    const s = wallMs / 1000;
    const cpuS = cpuUs / 1e6;
    return {
      records: rids.length,
      records_per_transaction: Math.round(rids.length / transactions),
      seconds: round(s),
      records_per_s: Math.round(rids.length / s),
      cpu_s: round(cpuS),
      cpu_us_per_record: round((cpuS / rids.length) * 1e6, 1),
    };
  } finally {
    db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

function storageFloor(dbFile: string, connectorId: string) {
  const db = new Database(dbFile, { readonly: true, fileMustExist: true });
  registerSearchFunctions(db);
  const { connector_key: connectorKey } = db
    .prepare('SELECT connector_key FROM cs_connectors WHERE connector_id = ?')
    .get(connectorId) as { connector_key: number };
  const columns = (db.prepare(`PRAGMA table_info("${TABLE}")`).all() as Array<{ name: string }>).map(
    (c) => c.name,
  );
  const col = (suffix: string) => {
    const name = columns.find((c) => c.endsWith(suffix));
    if (!name) throw new Error(`no column ending in ${suffix} in ${TABLE}: ${columns.join(', ')}`);
    return `"${name}"`;
  };
  const [login, created, title] = [col('_user_login'), col('_created_at'), col('_title')];
  const titleFts = title.slice(1, -1);
  const fts = `"${TABLE}__fts"`;
  const page = LIMIT + 1;
  const hand: Record<string, (args: unknown[]) => unknown[]> = {
    eq: (a) =>
      db
        .prepare(
          `SELECT rid, data FROM "${TABLE}" WHERE connector_key = ? AND ${login} = ? ORDER BY rid LIMIT ${page}`,
        )
        .all(connectorKey, a[0]),
    range_sort: (a) =>
      db
        .prepare(
          `SELECT rid, data FROM "${TABLE}" WHERE connector_key = ? AND ${created} >= ? AND ${created} < ?
           ORDER BY ${created} DESC, rid DESC LIMIT ${page}`,
        )
        .all(connectorKey, a[0], a[1]),
    // FTS finds rows with both words; the order check (which FTS5 cannot express) is done here, as ces does in SQL.
    fuzzy: (a) => {
      const words = a as string[];
      const out: unknown[] = [];
      const stmt = db.prepare(
        `SELECT t.rid, t.data, t.${title} AS title FROM ${fts} CROSS JOIN "${TABLE}" AS t ON t.rid = ${fts}.rowid
         WHERE ${fts} MATCH ? AND t.connector_key = ? ORDER BY ${fts}.rowid`,
      );
      for (const row of stmt.iterate(`{${titleFts}} : ("${words[0]}" AND "${words[1]}")`, connectorKey)) {
        if (inOrder((row as { title: string }).title, words) && out.push(row) >= page) break;
      }
      return out;
    },
    keyword: (a) =>
      db
        .prepare(
          `SELECT t.rid, t.data FROM ${fts} CROSS JOIN "${TABLE}" AS t ON t.rid = ${fts}.rowid
           WHERE ${fts} MATCH ? AND t.connector_key = ? ORDER BY ${fts}.rowid LIMIT ${page}`,
        )
        .all(`{${titleFts}} : ("${a[0]}" OR "${a[1]}")`, connectorKey),
  };

  const layout = issuesLayout();

  const out: Record<string, unknown> = {};
  for (const kind of ['eq', 'range_sort', 'fuzzy', 'keyword']) {
    const make = KINDS[kind]!;
    const handMs: number[] = [];
    const cesMs: number[] = [];
    const rng = new Rng(kind.length * 7919);
    let plan = '';
    for (let q = 0; q < WARMUP + QUERIES; q++) {
      const query = make(rng);
      let t0 = performance.now();
      hand[kind]!(query.sqlArgs);
      const h = performance.now() - t0;
      const compiled = compileSearch(
        layout,
        connectorKey,
        { ...query.query, limit: page, offset: 0 },
        sqliteSearchDialect,
      );
      if (q === 0) {
        plan = (
          db.prepare(`EXPLAIN QUERY PLAN ${compiled.sql}`).all(...compiled.params) as Array<{
            detail: string;
          }>
        )
          .map((r) => r.detail)
          .join(' | ');
      }
      t0 = performance.now();
      db.prepare(compiled.sql).all(...compiled.params);
      const c = performance.now() - t0;
      if (q >= WARMUP) {
        handMs.push(h);
        cesMs.push(c);
      }
    }
    out[kind] = { hand_sql_ms: latencyStats(handMs), ces_sql_ms: latencyStats(cesMs), ces_plan: plan };
  }
  db.close();
  return out;
}

// ---- size

function dbSize(dbFile: string) {
  const db = new Database(dbFile);
  db.pragma('wal_checkpoint(TRUNCATE)');
  const bytes = fs.statSync(dbFile).size;
  let objects: Record<string, number> = {};
  try {
    const rows = db
      .prepare('SELECT name, SUM(pgsize) AS bytes FROM dbstat GROUP BY name ORDER BY bytes DESC')
      .all() as Array<{ name: string; bytes: number }>;
    objects = Object.fromEntries(rows.filter((r) => r.bytes >= 1 << 20).map((r) => [r.name, r.bytes]));
  } catch {
    // dbstat is an optional SQLite build option
  }
  const stored = db.prepare(`SELECT avg(length(data)) AS avg FROM "${TABLE}"`).get() as { avg: number };
  db.close();
  return {
    db_bytes: bytes,
    bytes_per_record: Math.round(bytes / N),
    stored_json_bytes_per_record: Math.round(stored.avg),
    objects_over_1mib: objects,
  };
}

// ---- the run

async function main() {
  const results: Record<string, unknown> = {
    date: new Date().toISOString(),
    node: process.version,
    cpus: os.cpus().length,
    records: N,
    queries: QUERIES,
    goals: GOALS,
    load_avg_1m_at_start: load1(),
  };
  const fake = await launch(['--import', 'tsx', 'bench/fake-bulk-github.ts'], { BENCH_RECORDS: String(N) });
  const fakePid = fake.proc.pid!;
  console.error(`fake ready (${N} issues); paging through it alone…`);
  const baseline = await pageThrough(fake.url, fakePid);
  results.baseline_paging = baseline;
  console.error('baseline', baseline);

  const stores = values.stores.split(',').map((x) => x.trim());
  const perStore: Record<string, Record<string, unknown>> = {};
  results.stores = perStore;
  try {
    for (const store of stores) {
      if (store !== 'sqlite' && store !== 'postgres') throw new Error(`unknown store ${store}`);
      console.error(`--- ${store}`);
      perStore[store] = await runStore(store, fake.url, fakePid, baseline);
    }
  } finally {
    await stopAll();
  }
  writeResults(values.out, results);
  for (const store of stores) summary(store, { ...results, ...perStore[store] });
}

async function runStore(
  store: 'sqlite' | 'postgres',
  fakeUrl: string,
  fakePid: number,
  baseline: { records_per_s: number; json_bytes_per_record: number },
): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = { load_avg_1m_at_start: load1() };
  const database = store === 'postgres' ? await benchDatabase('ces_bench_cs') : undefined;
  const ces = await startCes(
    { github: fakeUrl },
    {
      CES_SYNC_POLL_MS: '50',
      CES_TOKEN_TTL_SECONDS: '86400',
      CES_UPSTREAM_TIMEOUT_MS: '120000',
      CES_METRICS: 'true',
      ...(database ? { CES_DATABASE_URL: database.url } : {}),
    },
  );
  const dbFile = path.join(ces.dataDir, 'ces.db');
  try {
    console.error('ces ready; backfilling…');
    const bf = await backfill(ces, fakePid);
    out.backfill = { ...bf, ratio_to_baseline: round(bf.records_per_s / baseline.records_per_s, 3) };
    console.error('backfill', { ...bf, timeline: `${bf.timeline.length} samples` });

    const search: Record<string, unknown> = { limit: LIMIT, warmup: WARMUP };
    search.healthz_ms = await healthz(ces.base);
    search.healthz_ms_cores_busy = await healthzCoresBusy(ces.base);
    console.error('healthz, cores busy', search.healthz_ms_cores_busy);
    for (const kind of Object.keys(KINDS)) {
      search[kind] = await searchKind(ces.base, ces.token, bf.connector_id, kind, false);
      console.error(kind, search[kind]);
    }
    search[`eq_page_${DEEP_PAGES + 1}`] = await searchKind(ces.base, ces.token, bf.connector_id, 'eq', true);
    console.error(`eq_page_${DEEP_PAGES + 1}`, search[`eq_page_${DEEP_PAGES + 1}`]);
    if (store === 'sqlite') search.storage = storageFloor(dbFile, bf.connector_id);
    search.load_avg_1m_after = load1();
    out.search = search;

    await stop(ces.proc);
    if (store === 'sqlite') {
      const floor = writeFloor(dbFile, bf.connector_id, 'sync');
      out.write_floor = {
        ...floor,
        ces_cpu_to_floor: round(bf.ces_cpu_us_per_record / floor.cpu_us_per_record),
        page_per_transaction: writeFloor(dbFile, bf.connector_id, 'page'),
      };
      console.error('write floor', out.write_floor);
    }
    const size = database ? await postgresSize(database.url) : dbSize(dbFile);
    out.size = { ...size, raw_json_bytes_per_record: baseline.json_bytes_per_record };
  } finally {
    await stop(ces.proc).catch(() => {});
    if (values.keep) console.error(`kept ${ces.dataDir}`);
    else fs.rmSync(ces.dataDir, { recursive: true, force: true });
    if (database && !values.keep) await database.drop();
  }
  return out;
}

async function postgresSize(url: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const r = await client.query<{ bytes: string }>(`SELECT pg_total_relation_size('"${TABLE}"') AS bytes`);
    const bytes = Number(r.rows[0]?.bytes ?? 0);
    return { bytes, bytes_per_record: Math.round(bytes / N) };
  } finally {
    await client.end();
  }
}

type Stats = ReturnType<typeof latencyStats>;

function summary(store: string, r: Record<string, unknown>) {
  const bf = r.backfill as {
    records_per_s: number;
    ratio_to_baseline: number;
    ready_s: number;
    first_searchable_s: number;
    ces_cpu_us_per_record: number;
    ces_cpu_us_per_record_by_thread: Record<string, number>;
    main_thread: {
      gc: Record<string, { count: number; total_ms: number; over_10ms: number }>;
    };
    api_during_backfill: { healthz_ms: Stats; inspect_ms: Stats; rename_ms: Stats; rename_max_ms: number };
  };
  const base = r.baseline_paging as { records_per_s: number };
  const search = r.search as Record<string, unknown>;
  const storage = (search.storage ?? {}) as Record<string, { hand_sql_ms: Stats; ces_sql_ms: Stats }>;
  const size = r.size as { bytes_per_record: number; raw_json_bytes_per_record: number };
  const verdict = (ok: boolean) => (ok ? 'meets goal' : 'MISSES goal');
  const ms = (s: Stats) => `p50 ${s.p50} p99 ${s.p99}`;
  console.log(
    `\nContext Store on ${store}, ${N} issues, ${QUERIES} queries per kind (load average at start ${r.load_avg_1m_at_start})`,
  );
  console.log(
    `backfill: ${bf.records_per_s} records/s, ces ${bf.ces_cpu_us_per_record} µs CPU/record (Ready after ${bf.ready_s} s, ` +
      `searchable after ${bf.first_searchable_s} s); paging alone ${base.records_per_s} records/s, ratio ${bf.ratio_to_baseline}; ` +
      `goal ≥ ${GOALS.backfill_rps} records/s: ${verdict(bf.records_per_s >= GOALS.backfill_rps)}`,
  );
  const threads = Object.entries(bf.ces_cpu_us_per_record_by_thread).map(([name, us]) => `${name} ${us}`);
  console.log(`  µs CPU/record by thread: ${threads.join(', ')}`);
  const gc = bf.main_thread.gc;
  const gcLine = Object.entries(gc).map(
    ([kind, g]) => `${kind} ${g.count} (${g.total_ms} ms in all, ${g.over_10ms} of 10 ms or more)`,
  );
  console.log(`  main thread's garbage collections during it: ${gcLine.join(', ')}`);
  const floor = r.write_floor as { records_per_s: number; cpu_us_per_record: number } | undefined;
  if (floor) {
    console.log(
      `write floor (SQLite alone storing the same rows, in ces's transactions): ${floor.records_per_s} records/s ` +
        `on one core, ${floor.cpu_us_per_record} µs CPU/record`,
    );
  }
  const during = bf.api_during_backfill;
  console.log(
    `API during the backfill: healthz ${ms(during.healthz_ms)} ms, inspect ${ms(during.inspect_ms)} ms, ` +
      `rename (a write) ${ms(during.rename_ms)} ms, slowest ${during.rename_max_ms} ms`,
  );
  console.log(`healthz (HTTP floor): ${ms(search.healthz_ms as Stats)} ms`);
  console.log(
    `healthz at rest while every core spins (the control for during the backfill): ${ms(search.healthz_ms_cores_busy as Stats)} ms`,
  );
  const goals: Record<string, number> = {
    eq: GOALS.eq_p99_ms,
    range_sort: GOALS.range_sort_p99_ms,
    fuzzy: GOALS.fuzzy_p99_ms,
  };
  for (const kind of [...Object.keys(KINDS), `eq_page_${DEEP_PAGES + 1}`]) {
    const k = search[kind] as { client_ms: Stats; took_ms: Stats };
    const floor = storage[kind];
    const goal = goals[kind];
    console.log(
      `${kind.padEnd(10)} client ${ms(k.client_ms)} mean ${k.client_ms.mean} ms; took_ms ${ms(k.took_ms)}` +
        (floor ? `; hand SQL ${ms(floor.hand_sql_ms)}; ces SQL ${ms(floor.ces_sql_ms)}` : '') +
        (goal === undefined ? '' : `; goal p99 ≤ ${goal} ms: ${verdict(k.client_ms.p99 <= goal)}`),
    );
  }
  console.log(
    `size: ${size.bytes_per_record} bytes/record on disk, raw JSON ${size.raw_json_bytes_per_record} bytes/record`,
  );
}

main().catch(async (err) => {
  console.error(err);
  await stopAll();
  process.exit(1);
});
