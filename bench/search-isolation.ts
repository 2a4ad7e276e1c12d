// One tenant's heavy searches must not stall everyone. Figures from one run:
//   setup      tenant A's GitHub connector holds `--records` issues (default 1,000,000; bench/fake-bulk-github.ts's
//              synthetic issues written straight into its index, as the writer stores batches, while ces is
//              stopped), tenant B (another organization) a small connector of its own (the GitHub fake's 25);
//   heavy      the most expensive search SEARCH_LIMITS allows, run once on the database file in this process
//              without a time budget: what the limits let one query cost at this size;
//   baseline   a probe alternating GET /healthz and tenant B's `eq` search (one request in flight, 10 ms apart)
//              for `--seconds`, nothing else running: client-side p50/p99 of each;
//   load       the same probe while `--clients` (default 4) clients of tenant A run the heavy search in a loop,
//              with ces's default search settings (2 reader threads, 2 s budget): the probe's p50/p99 and their
//              ratio to the baseline, what tenant A's searches got (status codes, latency), and ces's CPU by
//              thread; each client sends its next search as soon as it has an answer, a refusal included;
//   polite     the same again, the clients waiting out each refusal's Retry-After as a client honouring it would
//              (a refusal answered at once otherwise has the client ask again at once, on ces's event loop);
//   cheap burst `--burst-clients` (default 50) clients of tenant B at once, each running `--burst-each` (default
//              10) `fuzzy` searches over B's small index one after another, nothing else running: the status
//              codes of all of them (cheap searches should wait their turn, never be refused) and their latency.
// The goals: /healthz p99 and tenant B's eq search p99 at most 20 ms under load; no cheap search refused.
//
// Usage: npm run bench:search-isolation [-- --records 1000000 --seconds 30 --clients 4 --burst-clients 50
//        --burst-each 10 --keep --out search-isolation.json]   (--keep leaves ces's data directory in place)

import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import { request } from 'undici';
import { parseDefinition } from '../src/connectors/load.ts';
import {
  columnValue,
  type EntityLayout,
  entityLayout,
  quoteIdent,
  recordKey,
} from '../src/context-store/layout.ts';
import { compileSearch, SEARCH_LIMITS } from '../src/context-store/query.ts';
import { ftsFillSql, indexRowInsertSql, registerSearchFunctions } from '../src/store/sqlite/context-index.ts';
import { sqliteSearchDialect } from '../src/store/sqlite/search-dialect.ts';
import { bulkIssue, Renderer, VOCAB } from './fake-bulk-github.ts';
import {
  cpuSeconds,
  createGithubConnector,
  freePort,
  launch,
  postJson,
  ROOT,
  stop,
  stopAll,
  threadCpuSeconds,
  threadCpuSince,
  waitReady,
  writeResults,
} from './lib.ts';

const { values } = parseArgs({
  options: {
    records: { type: 'string', default: '1000000' },
    seconds: { type: 'string', default: '30' },
    clients: { type: 'string', default: '4' },
    'burst-clients': { type: 'string', default: '50' },
    'burst-each': { type: 'string', default: '10' },
    keep: { type: 'boolean', default: false },
    out: { type: 'string', default: 'search-isolation.json' },
  },
});
const N = Number(values.records);
const SECONDS = Number(values.seconds);
const CLIENTS = Number(values.clients);
const BURST_CLIENTS = Number(values['burst-clients']);
const BURST_EACH = Number(values['burst-each']);
const PROBE_GAP_MS = 10;
const GOALS = { healthz_p99_ms: 20, other_tenant_eq_p99_ms: 20 };
const BATCH = 10_000;

const round = (x: number, digits = 2) => +x.toFixed(digits);
const load1 = () => round(os.loadavg()[0] ?? 0);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function stats(samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = (q: number) =>
    sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? 0;
  const mean = samples.reduce((a, b) => a + b, 0) / Math.max(1, samples.length);
  return {
    n: samples.length,
    p50: round(rank(0.5), 3),
    p99: round(rank(0.99), 3),
    max: round(sorted.at(-1) ?? 0, 3),
    mean: round(mean, 3),
  };
}

// ---- the heaviest search the limits allow: every counted limit used up, in an `or` none of whose branches holds
// for a synthetic issue, so that every row of the connector goes through all of them, and nothing is found

function heaviestQuery() {
  const L = SEARCH_LIMITS;
  const likes = L.like - L.any;
  const wordsEach = Math.floor(L.words / L.fullText);
  const common = VOCAB.slice(0, L.fullText * wordsEach);
  const used = likes + 2 * L.any + 1 + L.fullText;
  // The remaining conditions: cheap comparisons, none true, under an even number of `not`s down to the depth limit.
  let never: unknown = {
    or: Array.from({ length: L.conditions - used }, (_, i) => ({ eq: { comments: 1000 + i } })),
  };
  for (let k = 0; k < L.depth - 4 - ((L.depth - 4) % 2); k++) never = { not: never };
  return {
    filter: {
      or: [
        ...Array.from({ length: likes }, (_, i) => ({ like: { body: `%zq${i}%qz%` } })),
        ...Array.from({ length: L.any }, (_, i) => ({ any: { labels: { like: { name: `%zq${i}%` } } } })),
        { in: { 'user.login': Array.from({ length: L.inValues }, (_, i) => `nobody-${i}`) } },
        {
          and: [
            // Under `not`, each full-text condition's whole list of matches is built (common words: most rows).
            ...Array.from({ length: L.fullText }, (_, i) => ({
              not: { keyword: { body: common.slice(i * wordsEach, (i + 1) * wordsEach).join(' ') } },
            })),
            never,
          ],
        },
      ],
    },
    sort: [{ comments: 'desc' }, { created_at: 'asc' }, { title: 'asc' }, { number: 'desc' }].slice(
      0,
      L.sortKeys,
    ),
  };
}

// ---- ces processes on one data directory

const servers: ChildProcess[] = [];

/** `ces serve` on an existing data directory (lib.ts's startCes always starts on a fresh one). */
async function serve(dataDir: string, env: Record<string, string>) {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const started = process.hrtime.bigint();
  const proc = spawn(process.execPath, ['bin/ces.js', 'serve'], {
    cwd: ROOT,
    env: { ...process.env, CES_DATA_DIR: dataDir, CES_PORT: String(port), CES_LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  servers.push(proc);
  await waitReady(base, started);
  return { base, proc };
}

function cli(dataDir: string, env: Record<string, string>, ...args: string[]) {
  const out = execFileSync(process.execPath, ['bin/ces.js', ...args], {
    cwd: ROOT,
    env: { ...process.env, CES_DATA_DIR: dataDir, CES_LOG_LEVEL: 'warn', ...env },
  });
  return JSON.parse(String(out)) as Record<string, string>;
}

async function tokenOf(base: string, clientId: string, clientSecret: string) {
  const res = (await postJson(base, '/api/v1/account/applications/token', {
    client_id: clientId,
    client_secret: clientSecret,
  })) as { access_token: string };
  return res.access_token;
}

async function waitSearchable(base: string, token: string, id: string) {
  for (let i = 0; ; i++) {
    const res = await request(`${base}/api/v1/integrations/connectors/${id}/inspect`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const body = (await res.body.json()) as { context_store?: { status: string } };
    if (body.context_store?.status === 'Ready') return;
    if (i > 1200) throw new Error(`connector ${id} not Ready: ${JSON.stringify(body)}`);
    await sleep(50);
  }
}

// ---- filling tenant A's index straight into the database file (ces stopped)

function issuesLayout(): EntityLayout {
  const def = parseDefinition(
    fs.readFileSync(path.join(ROOT, 'src/connectors/definitions/github.yaml'), 'utf8'),
    'github.yaml',
  );
  const layout = entityLayout(def, def.entities.find((e) => e.name === 'issues')!);
  if (!layout) throw new Error('github.yaml has no Context Store layout for issues');
  return layout;
}

function fill(dbFile: string, layout: EntityLayout, connectorId: string) {
  const db = new Database(dbFile);
  // Nothing else has the file open; a crash mid-fill just means running the bench again.
  db.pragma('synchronous = OFF');
  db.pragma('cache_size = -262144');
  const t0 = performance.now();
  try {
    const { connector_key: key, generation } = db
      .prepare(
        `SELECT k.connector_key, s.generation FROM cs_connectors k JOIN cs_syncs s
         ON s.connector_id = k.connector_id AND s.entity = 'issues' WHERE k.connector_id = ?`,
      )
      .get(connectorId) as { connector_key: number; generation: number };
    const fields = [...layout.fields.values()];
    const table = quoteIdent(layout.table);
    const insert = db.prepare(indexRowInsertSql(layout));
    const ftsFill = db.prepare(ftsFillSql(layout)!);
    const last = db.prepare(`SELECT COALESCE(MAX(rid), 0) AS m FROM ${table}`);
    const renderer = new Renderer('https://api.github.com');
    const syncedAt = new Date().toISOString();
    for (let from = 0; from < N; from += BATCH) {
      db.transaction(() => {
        const before = (last.get() as { m: number }).m;
        for (let i = from; i < Math.min(N, from + BATCH); i++) {
          // Ids apart from the GitHub fake's own issues (800,000,001 onwards), which the connector also holds.
          const json = renderer.issueJson({ ...bulkIssue(i, N), id: 900_000_001 + i });
          const record = JSON.parse(json) as unknown;
          insert.run(
            key,
            recordKey(layout, record),
            json,
            generation,
            syncedAt,
            ...fields.map((f) => columnValue(f, record)),
          );
        }
        ftsFill.run(before);
      })();
      if ((from / BATCH) % 20 === 19) console.error(`  filled ${from + BATCH} of ${N}`);
    }
    db.prepare(
      "UPDATE cs_syncs SET entity_count = entity_count + ? WHERE connector_id = ? AND entity = 'issues'",
    ).run(N, connectorId);
    // Offline, nobody waits for the lock: the whole table in one statement.
    db.exec(`ANALYZE ${table}`);
    db.pragma('wal_checkpoint(TRUNCATE)');
    const seconds = (performance.now() - t0) / 1000;
    return { connectorKey: key, seconds: round(seconds, 1), records_per_s: Math.round(N / seconds) };
  } finally {
    db.close();
  }
}

/** The heavy search's own cost on the file, no budget: one run in this process. */
function heavyCost(
  dbFile: string,
  layout: EntityLayout,
  connectorKey: number,
  query: ReturnType<typeof heaviestQuery>,
) {
  const db = new Database(dbFile, { readonly: true });
  try {
    registerSearchFunctions(db);
    const compiled = compileSearch(
      layout,
      connectorKey,
      { ...query, limit: 11, offset: 0 },
      sqliteSearchDialect,
    );
    const t0 = performance.now();
    const rows = db.prepare(compiled.sql).all(...compiled.params);
    return { ms: round(performance.now() - t0, 1), rows: rows.length, sql_bytes: compiled.sql.length };
  } finally {
    db.close();
  }
}

// ---- load

async function timed(url: string, init: Parameters<typeof request>[1]) {
  const t0 = performance.now();
  const res = await request(url, init);
  const text = await res.body.text();
  return { ms: performance.now() - t0, status: res.statusCode, text, headers: res.headers };
}

function searchInit(token: string, query: unknown, limit = 10) {
  return {
    method: 'POST' as const,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ entity: 'issues', action: 'search', params: { query, limit } }),
  };
}

/** Alternates /healthz and tenant B's eq search, one at a time, until `until` (performance.now()). */
async function probe(base: string, b: { token: string; id: string }, until: number) {
  const healthz: number[] = [];
  const eq: number[] = [];
  const took: number[] = [];
  let errors = 0;
  for (let i = 0; performance.now() < until; i++) {
    const h = await timed(`${base}/healthz`, {});
    if (h.status === 200) healthz.push(h.ms);
    else errors++;
    await sleep(PROBE_GAP_MS);
    const s = await timed(
      `${base}/api/v1/integrations/connectors/${b.id}/execute`,
      searchInit(b.token, { filter: { eq: { state: i % 2 ? 'open' : 'closed' } } }),
    );
    if (s.status === 200) {
      eq.push(s.ms);
      took.push(
        (JSON.parse(s.text) as { connector_metadata: { took_ms: number } }).connector_metadata.took_ms,
      );
    } else {
      errors++;
      if (errors < 5) console.error(`probe: HTTP ${s.status} ${s.text.slice(0, 300)}`);
    }
    await sleep(PROBE_GAP_MS);
  }
  return {
    healthz_ms: stats(healthz),
    other_tenant_eq_ms: stats(eq),
    other_tenant_eq_took_ms: stats(took),
    errors,
  };
}

/**
 * `CLIENTS` loops of tenant A's heavy search until `stopped()`: each sends its next search as soon as it has an
 * answer, or (`polite`) after the Retry-After of a refusal, as a client honouring it would.
 */
async function flood(
  base: string,
  a: { token: string; id: string },
  query: unknown,
  stopped: () => boolean,
  polite: boolean,
) {
  const byCode: Record<string, number> = {};
  const ms: Record<string, number[]> = {};
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      while (!stopped()) {
        const r = await timed(
          `${base}/api/v1/integrations/connectors/${a.id}/execute`,
          searchInit(a.token, query),
        );
        const code =
          r.status === 200 ? '200' : `${r.status} ${(JSON.parse(r.text) as { code: string }).code}`;
        byCode[code] = (byCode[code] ?? 0) + 1;
        const samples = ms[code] ?? [];
        samples.push(r.ms);
        ms[code] = samples;
        const retryAfter = Number(r.headers['retry-after']);
        if (polite && retryAfter > 0) {
          const until = performance.now() + retryAfter * 1000;
          while (!stopped() && performance.now() < until)
            await sleep(Math.min(100, until - performance.now()));
        }
      }
    }),
  );
  return { by_code: byCode, ms: Object.fromEntries(Object.entries(ms).map(([k, v]) => [k, stats(v)])) };
}

/** `BURST_CLIENTS` clients of tenant B at once, each running `BURST_EACH` cheap fuzzy searches in turn. */
async function cheapBurst(base: string, b: { token: string; id: string }) {
  const inspected = await request(`${base}/api/v1/integrations/connectors/${b.id}/inspect`, {
    headers: { authorization: `Bearer ${b.token}` },
  });
  const { context_store } = (await inspected.body.json()) as {
    context_store: { entities: Array<{ entity: string; entity_count: number }> };
  };
  const records = context_store.entities.find((e) => e.entity === 'issues')?.entity_count;
  const byCode: Record<string, number> = {};
  const ok: number[] = [];
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: BURST_CLIENTS }, async () => {
      for (let i = 0; i < BURST_EACH; i++) {
        const r = await timed(
          `${base}/api/v1/integrations/connectors/${b.id}/execute`,
          searchInit(b.token, { filter: { fuzzy: { title: 'widget jams' } } }),
        );
        const code =
          r.status === 200 ? '200' : `${r.status} ${(JSON.parse(r.text) as { code: string }).code}`;
        byCode[code] = (byCode[code] ?? 0) + 1;
        if (r.status === 200) ok.push(r.ms);
      }
    }),
  );
  return {
    clients: BURST_CLIENTS,
    searches_each: BURST_EACH,
    records_searched: records,
    seconds: round((performance.now() - t0) / 1000),
    by_code: byCode,
    ok_ms: stats(ok),
  };
}

// ---- the run

async function main() {
  const results: Record<string, unknown> = {
    date: new Date().toISOString(),
    node: process.version,
    cpus: os.cpus().length,
    records: N,
    seconds_per_phase: SECONDS,
    clients: CLIENTS,
    goals: GOALS,
    search_limits: SEARCH_LIMITS,
    load_avg_1m_at_start: load1(),
  };
  const fake = await launch(['--import', 'tsx', 'bench/fake-github.ts'], { BENCH_ISSUES: '10' });
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ces-bench-'));
  const dbFile = path.join(dataDir, 'ces.db');
  const env = {
    CES_UPSTREAM_OVERRIDES: JSON.stringify({ github: fake.url }),
    CES_TOKEN_TTL_SECONDS: '86400',
    CES_SYNC_POLL_MS: '50',
  };
  try {
    // Setup: both tenants' connectors, synced from the small fake.
    let ces = await serve(dataDir, env);
    const boot = JSON.parse(fs.readFileSync(path.join(dataDir, 'bootstrap-credentials.json'), 'utf8'));
    const orgB = cli(dataDir, env, 'orgs', 'create', '--name', 'tenant-b');
    const appB = cli(dataDir, env, 'apps', 'create', '--name', 'tenant-b', '--org', orgB.organization_id!);
    const a = { token: await tokenOf(ces.base, boot.client_id, boot.client_secret), id: '' };
    const b = { token: await tokenOf(ces.base, appB.client_id!, appB.client_secret!), id: '' };
    a.id = (await createGithubConnector({ base: ces.base, token: a.token }, ['ces-demo/widgets'])).id;
    b.id = (await createGithubConnector({ base: ces.base, token: b.token }, ['ces-demo/widgets'])).id;
    await waitSearchable(ces.base, a.token, a.id);
    await waitSearchable(ces.base, b.token, b.id);
    await stop(ces.proc);

    console.error(`filling tenant A's index with ${N} issues…`);
    const layout = issuesLayout();
    const filled = fill(dbFile, layout, a.id);
    results.fill = { seconds: filled.seconds, records_per_s: filled.records_per_s };
    const query = heaviestQuery();
    results.heavy_query = query;
    console.error('running the heavy search once without a budget…');
    results.heavy_without_budget = heavyCost(dbFile, layout, filled.connectorKey, query);
    console.error('heavy search alone:', results.heavy_without_budget);

    // The measured server: default search settings; no syncs (they would compete for the CPU and reconcile).
    ces = await serve(dataDir, { ...env, CES_SYNC_ENABLED: 'false' });
    a.token = await tokenOf(ces.base, boot.client_id, boot.client_secret);
    b.token = await tokenOf(ces.base, appB.client_id!, appB.client_secret!);
    // Warm-up: both reader threads started (a search of each tenant at once), pages of both indexes touched.
    const cheapA = async () => {
      for (let i = 0; i < 50; i++) {
        await timed(
          `${ces.base}/api/v1/integrations/connectors/${a.id}/execute`,
          searchInit(a.token, { filter: { eq: { number: i + 1 } } }),
        );
      }
    };
    await Promise.all([probe(ces.base, b, performance.now() + 2000), cheapA()]);

    console.error(`baseline: ${SECONDS} s of probes alone…`);
    const cpu0 = cpuSeconds(ces.proc.pid!);
    results.baseline = {
      ...(await probe(ces.base, b, performance.now() + SECONDS * 1000)),
      load_avg_1m_after: load1(),
    };
    const cpu1 = cpuSeconds(ces.proc.pid!);
    console.error('baseline', results.baseline);

    /** The probe beside `CLIENTS` clients of tenant A looping on the heavy search, and where the CPU went. */
    const loadPhase = async (polite: boolean) => {
      console.error(
        `load: ${SECONDS} s of probes beside ${CLIENTS} clients of tenant A running the heavy search` +
          `${polite ? ', honouring Retry-After' : ''}…`,
      );
      const cpuBefore = cpuSeconds(ces.proc.pid!);
      const threads = threadCpuSeconds(ces.proc.pid!);
      const client = process.cpuUsage();
      let done = false;
      const heavy = flood(ces.base, a, query, () => done, polite);
      await sleep(1000);
      const underLoad = await probe(ces.base, b, performance.now() + SECONDS * 1000);
      done = true;
      const cpuAfter = cpuSeconds(ces.proc.pid!);
      const clientCpu = process.cpuUsage(client);
      const cpu = {
        ces: round(cpuAfter - cpuBefore),
        // ces's event loop is `main`; this process's clients compete with it for the same cores.
        ces_by_thread: Object.fromEntries(
          Object.entries(threadCpuSince(ces.proc.pid!, threads)).map(([k, v]) => [k, round(v)]),
        ),
        bench_clients: round((clientCpu.user + clientCpu.system) / 1e6),
      };
      return { ...underLoad, load_avg_1m_after: load1(), tenant_a: await heavy, cpu_s: cpu };
    };
    const underLoad = await loadPhase(false);
    results.load = underLoad;
    const polite = await loadPhase(true);
    results.load_polite = polite;
    results.ces_cpu_s = {
      baseline: round(cpu1 - cpu0),
      load: underLoad.cpu_s.ces,
      load_polite: polite.cpu_s.ces,
    };
    const base = results.baseline as Awaited<ReturnType<typeof probe>>;
    results.ratio_to_baseline = {
      healthz_p99: round(underLoad.healthz_ms.p99 / base.healthz_ms.p99),
      other_tenant_eq_p99: round(underLoad.other_tenant_eq_ms.p99 / base.other_tenant_eq_ms.p99),
      polite_healthz_p99: round(polite.healthz_ms.p99 / base.healthz_ms.p99),
      polite_other_tenant_eq_p99: round(polite.other_tenant_eq_ms.p99 / base.other_tenant_eq_ms.p99),
    };
    console.error(
      `cheap burst: ${BURST_CLIENTS} clients of tenant B at once, ${BURST_EACH} fuzzy searches each…`,
    );
    const burst = await cheapBurst(ces.base, b);
    results.cheap_burst = burst;
    results.meets_goals = {
      healthz: underLoad.healthz_ms.p99 <= GOALS.healthz_p99_ms,
      other_tenant_eq: underLoad.other_tenant_eq_ms.p99 <= GOALS.other_tenant_eq_p99_ms,
      polite_healthz: polite.healthz_ms.p99 <= GOALS.healthz_p99_ms,
      polite_other_tenant_eq: polite.other_tenant_eq_ms.p99 <= GOALS.other_tenant_eq_p99_ms,
      cheap_burst_none_refused: burst.by_code['200'] === BURST_CLIENTS * BURST_EACH,
    };
    await stop(ces.proc);
  } finally {
    await Promise.all(servers.map(stop));
    await stopAll();
    if (values.keep) console.error(`kept ${dataDir}`);
    else fs.rmSync(dataDir, { recursive: true, force: true });
  }
  writeResults(values.out, results);
  summary(results);
}

function summary(r: Record<string, unknown>) {
  type Probe = Awaited<ReturnType<typeof probe>>;
  const base = r.baseline as Probe;
  const load = r.load as Probe & { tenant_a: { by_code: Record<string, number> } };
  const ratio = r.ratio_to_baseline as { healthz_p99: number; other_tenant_eq_p99: number };
  const heavy = r.heavy_without_budget as { ms: number };
  const verdict = (ok: boolean) => (ok ? 'meets goal' : 'MISSES goal');
  console.log(
    `\nSearch isolation, ${N} issues in tenant A's index (load average at start ${r.load_avg_1m_at_start}); ` +
      `the heaviest search the limits allow takes ${heavy.ms} ms alone without a budget`,
  );
  console.log(
    `/healthz:        baseline p50 ${base.healthz_ms.p50} p99 ${base.healthz_ms.p99} ms; under load p50 ${load.healthz_ms.p50} ` +
      `p99 ${load.healthz_ms.p99} ms (×${ratio.healthz_p99}); goal p99 ≤ ${GOALS.healthz_p99_ms} ms: ` +
      verdict(load.healthz_ms.p99 <= GOALS.healthz_p99_ms),
  );
  console.log(
    `tenant B's eq:   baseline p50 ${base.other_tenant_eq_ms.p50} p99 ${base.other_tenant_eq_ms.p99} ms; under load p50 ` +
      `${load.other_tenant_eq_ms.p50} p99 ${load.other_tenant_eq_ms.p99} ms (×${ratio.other_tenant_eq_p99}); goal p99 ≤ ` +
      `${GOALS.other_tenant_eq_p99_ms} ms: ${verdict(load.other_tenant_eq_ms.p99 <= GOALS.other_tenant_eq_p99_ms)}`,
  );
  console.log(`tenant A's heavy searches: ${JSON.stringify(load.tenant_a.by_code)}`);
  const polite = r.load_polite as Probe & { tenant_a: { by_code: Record<string, number> } };
  const ratios = r.ratio_to_baseline as { polite_healthz_p99: number; polite_other_tenant_eq_p99: number };
  console.log(
    `honouring Retry-After: /healthz p99 ${polite.healthz_ms.p99} ms (×${ratios.polite_healthz_p99}), tenant B's eq ` +
      `p99 ${polite.other_tenant_eq_ms.p99} ms (×${ratios.polite_other_tenant_eq_p99}); tenant A's heavy searches: ` +
      JSON.stringify(polite.tenant_a.by_code),
  );
  const burst = r.cheap_burst as Awaited<ReturnType<typeof cheapBurst>>;
  console.log(
    `cheap burst:     ${burst.clients} clients × ${burst.searches_each} fuzzy searches over ${burst.records_searched} ` +
      `records: ${JSON.stringify(burst.by_code)}; 200s p50 ${burst.ok_ms.p50} p99 ${burst.ok_ms.p99} ms`,
  );
}

main().catch(async (err) => {
  console.error(err);
  await Promise.all(servers.map(stop));
  await stopAll();
  process.exit(1);
});
