// Issue-3 figure: execute `list` on each connector through ces against its fake, beside a bare Node passthrough
// proxy (bench/passthrough.ts) to the same fake, in one run. For every pair it records throughput, p50/p99, and the
// CPU time the middle process (ces or the proxy) spent per request, read from /proc. A third process, the floor of
// ces's stack (bench/stack-floor.ts: a fastify route relaying one undici request, nothing else), is measured the
// same way, so the CPU ratio splits into what the stack costs over the bare proxy and what ces adds over the stack.
//
// Two upstream scenarios (--latencies, default "0,50"):
//   0 ms  the fake answers at once: the load generator, the fake and the middle process all compete for this
//         machine's cores, so the throughput ratio is the ratio of whole-system CPU per request;
//   50 ms the fake answers 50 ms later, like a provider across the internet: the ratio shows what a client sees.
// Gong's definition declares Gong's documented limit of 3 requests/s, which ces enforces per connector; its pair is
// run at that rate, one request at a time, so its figure is latency and CPU per request, not peak throughput.
//
// Loads start once the connector's first Context Store sync has settled (`waitSynced`): that backfill runs in ces's
// process, and its work is not the work of an execute.
//
// ces stores its data in SQLite, or with --store postgres in a database of the run's own on this machine's server.
//
// Each of the three is loaded for --duration seconds in all, in --rounds turns taken in rotation (see interleaved).
//
// --node-http-floor adds a fourth: the same floor reading the answer with Node's own HTTP client instead of undici
// (FLOOR_CLIENT=node-http in bench/stack-floor.ts), to tell how much of the stack's cost is the upstream client.
//
// --base <checkout> adds the ces of another checkout (e.g. a `git worktree` of the commit before a change, built
// with `npm run build`) against the same fake, taking turns with this one's: its CPU per request beside this one's,
// and their ratio, from one run (separate runs on this shared machine differed by 2x between two runs of one build).
//
// Usage: npm run bench:connectors [-- --duration 10 --rounds 5 --connections 20 --latencies 0,50 --store sqlite
//        --connectors github,zendesk-support --node-http-floor --base ../ces-base --out connectors.json]
//        (--connectors: only these; default all)
import fs from 'node:fs';
import os from 'node:os';
import { parseArgs } from 'node:util';
import { GITHUB_FAKE_DEFAULT_TOKEN } from '../test/connectors/github/fake/index.ts';
import { GONG_FAKE_ACCESS_KEY, GONG_FAKE_ACCESS_KEY_SECRET } from '../test/connectors/gong/fake/index.ts';
import {
  ZENDESK_FAKE_API_TOKEN,
  ZENDESK_FAKE_EMAIL,
  ZENDESK_FAKE_SUBDOMAIN,
} from '../test/connectors/zendesk-support/fake/index.ts';
import {
  benchDatabase,
  cpuSeconds,
  launch,
  load,
  pacedLoad,
  postJson,
  startCes,
  stopAll,
  waitSynced,
  writeResults,
} from './lib.ts';

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '10' },
    rounds: { type: 'string', default: '5' },
    connections: { type: 'string', default: '20' },
    latencies: { type: 'string', default: '0,50' },
    connectors: { type: 'string', default: '' },
    store: { type: 'string', default: 'sqlite' },
    out: { type: 'string', default: 'connectors.json' },
    'node-http-floor': { type: 'boolean', default: false },
    base: { type: 'string' },
  },
});
const duration = Number(values.duration);
const rounds = Math.max(1, Number(values.rounds));
const connections = Number(values.connections);
const latencies = values.latencies.split(',').map(Number);
if (values.store !== 'sqlite' && values.store !== 'postgres')
  throw new Error('--store is sqlite or postgres');
const store = values.store;

interface Case {
  slug: string;
  fakeScript: string;
  credentials: Record<string, string>;
  replication_config?: Record<string, unknown>;
  execute: { entity: string; action: string; params: Record<string, unknown> };
  /** The request ces sends upstream for that execute, sent straight through the passthrough proxy. */
  directPath: string;
  directHeaders: Record<string, string>;
  /** Requests per second for both sides when the definition declares a proactive limit. */
  rate?: number;
}

const basic = (user: string, password: string) =>
  `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
const CASES: Case[] = [
  {
    slug: 'github',
    fakeScript: 'bench/fake-github.ts',
    credentials: { personal_access_token: GITHUB_FAKE_DEFAULT_TOKEN },
    replication_config: { repositories: ['bench/big'] },
    execute: { entity: 'issues', action: 'list', params: { owner: 'bench', repo: 'big', per_page: 30 } },
    directPath: '/repos/bench/big/issues?per_page=30',
    directHeaders: { authorization: `Bearer ${GITHUB_FAKE_DEFAULT_TOKEN}` },
  },
  {
    slug: 'zendesk-support',
    fakeScript: 'bench/fake-zendesk.ts',
    credentials: {
      email: ZENDESK_FAKE_EMAIL,
      api_token: ZENDESK_FAKE_API_TOKEN,
      subdomain: ZENDESK_FAKE_SUBDOMAIN,
    },
    execute: { entity: 'tickets', action: 'list', params: { page_size: 30 } },
    directPath: '/api/v2/tickets?page%5Bsize%5D=30',
    directHeaders: { authorization: basic(`${ZENDESK_FAKE_EMAIL}/token`, ZENDESK_FAKE_API_TOKEN) },
  },
  {
    slug: 'gong',
    fakeScript: 'bench/fake-gong.ts',
    credentials: { access_key: GONG_FAKE_ACCESS_KEY, access_key_secret: GONG_FAKE_ACCESS_KEY_SECRET },
    execute: { entity: 'users', action: 'list', params: {} },
    directPath: '/v2/users',
    directHeaders: { authorization: basic(GONG_FAKE_ACCESS_KEY, GONG_FAKE_ACCESS_KEY_SECRET) },
    rate: 3,
  },
];

/** One load run of `seconds` (paced when `rate` is set), plus the CPU the middle process spent per request. */
async function measure(pid: number, opts: Parameters<typeof load>[0], seconds: number, rate?: number) {
  const before = cpuSeconds(pid);
  const result = rate ? await pacedLoad(rate, seconds, opts) : await load({ ...opts, duration: seconds });
  const used = cpuSeconds(pid) - before;
  const requests = result.total ?? Math.round(result.rps * seconds);
  return { ...result, cpu_us_per_request: requests > 0 ? Math.round((used / requests) * 1e6) : null };
}

type Round = Awaited<ReturnType<typeof measure>>;

const median = (xs: number[]) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
};

/**
 * The targets measured in `rounds` rounds of duration/rounds seconds each, taking turns (the order rotates each
 * round), rather than one after the other: this machine's speed drifts by more than the differences measured
 * (one target measured in a slow minute moved a ratio by 30–50%), and a drift now reaches every target alike.
 * Per target: requests and errors summed, latency and CPU per request the median of its rounds (after one
 * uncounted round each).
 */
async function interleaved(targets: { pid: number; opts: Parameters<typeof load>[0] }[], rate?: number) {
  const seconds = duration / rounds;
  // One round each first, not counted: a process's first seconds under load run cold code (its first round took
  // 1.5–3x the CPU per request of its last ones).
  for (const t of targets) await measure(t.pid, t.opts, seconds, rate);
  const runs: Round[][] = targets.map(() => []);
  for (let r = 0; r < rounds; r++) {
    for (let k = 0; k < targets.length; k++) {
      const i = (k + r) % targets.length;
      const t = targets[i] as (typeof targets)[number];
      (runs[i] as Round[]).push(await measure(t.pid, t.opts, seconds, rate));
    }
  }
  return runs.map((rs) => {
    const total = rs.reduce((a, x) => a + (x.total ?? 0), 0);
    const cpu = rs.map((x) => x.cpu_us_per_request).filter((x): x is number => x !== null);
    return {
      rps: Math.round(total / duration),
      total,
      mean_ms: +(rs.reduce((a, x) => a + x.mean_ms * (x.total ?? 0), 0) / Math.max(1, total)).toFixed(3),
      p50: median(rs.map((x) => x.p50)),
      p99: median(rs.map((x) => x.p99)),
      non2xx: rs.reduce((a, x) => a + x.non2xx, 0),
      errors: rs.reduce((a, x) => a + x.errors, 0),
      cpu_us_per_request: cpu.length > 0 ? median(cpu) : null,
      cpu_us_per_request_rounds: rs.map((x) => x.cpu_us_per_request),
    };
  });
}

type Measured = Awaited<ReturnType<typeof interleaved>>[number];

/** CPU per request as ratios: ces and the stack floor to the bare proxy, and ces to the floor. */
function cpuRatios(direct: Measured, floor: Measured, ces: Measured) {
  const ratio = (a: number | null, b: number | null) => (a && b ? +(a / b).toFixed(2) : null);
  return {
    cpu_ratio_ces_to_passthrough: ratio(ces.cpu_us_per_request, direct.cpu_us_per_request),
    cpu_ratio_floor_to_passthrough: ratio(floor.cpu_us_per_request, direct.cpu_us_per_request),
    cpu_ratio_ces_to_floor: ratio(ces.cpu_us_per_request, floor.cpu_us_per_request),
  };
}

async function runCase(c: Case, latencyMs: number) {
  const fake = await launch(['--import', 'tsx', c.fakeScript], {
    BENCH_UPSTREAM_LATENCY_MS: String(latencyMs),
  });
  const origin = new URL(fake.url).origin;
  const proxy = await launch(['--import', 'tsx', 'bench/passthrough.ts'], { UPSTREAM: origin });
  const floorEnv = {
    UPSTREAM: `${origin}${c.directPath}`,
    UPSTREAM_HEADERS: JSON.stringify(c.directHeaders),
  };
  const floor = await launch(['--import', 'tsx', 'bench/stack-floor.ts'], floorEnv);
  const httpFloor = values['node-http-floor']
    ? await launch(['--import', 'tsx', 'bench/stack-floor.ts'], { ...floorEnv, FLOOR_CLIENT: 'node-http' })
    : undefined;
  const floorTarget = (url: string) => ({
    url: `${url}/execute`,
    method: 'POST' as const,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(c.execute),
    connections,
  });
  const database = store === 'postgres' ? await benchDatabase('ces_bench_connectors') : undefined;
  const ces = await startCes({ [c.slug]: fake.url }, database ? { CES_DATABASE_URL: database.url } : {});
  const baseDatabase =
    values.base && store === 'postgres' ? await benchDatabase('ces_bench_connectors_base') : undefined;
  const cesBase = values.base
    ? await startCes(
        { [c.slug]: fake.url },
        baseDatabase ? { CES_DATABASE_URL: baseDatabase.url } : {},
        undefined,
        values.base,
      )
    : undefined;
  try {
    const create = async (server: typeof ces) =>
      (await postJson(
        server.base,
        '/api/v1/integrations/connectors',
        {
          workspace_name: 'default',
          connector_type: c.slug,
          credentials: c.credentials,
          ...(c.replication_config ? { replication_config: c.replication_config } : {}),
        },
        server.token,
      )) as { id: string };
    const connector = await create(ces);
    const firstSyncMs = await waitSynced(ces, connector.id);
    const baseConnector = cesBase ? await create(cesBase) : undefined;
    if (cesBase && baseConnector) await waitSynced(cesBase, baseConnector.id);
    const cesTarget = (server: typeof ces, id: string) => ({
      pid: server.proc.pid!,
      opts: {
        url: `${server.base}/api/v1/integrations/connectors/${id}/execute`,
        method: 'POST' as const,
        headers: { 'content-type': 'application/json', authorization: `Bearer ${server.token}` },
        body: JSON.stringify(c.execute),
        connections,
      },
    });
    const probe = (await postJson(
      ces.base,
      `/api/v1/integrations/connectors/${connector.id}/execute`,
      c.execute,
      ces.token,
    )) as { result: unknown[] };
    const measured = await interleaved(
      [
        {
          pid: proxy.proc.pid!,
          opts: { url: `${proxy.url}${c.directPath}`, headers: c.directHeaders, connections },
        },
        { pid: floor.proc.pid!, opts: floorTarget(floor.url) },
        cesTarget(ces, connector.id),
        ...(httpFloor ? [{ pid: httpFloor.proc.pid!, opts: floorTarget(httpFloor.url) }] : []),
        ...(cesBase && baseConnector ? [cesTarget(cesBase, baseConnector.id)] : []),
      ],
      c.rate,
    );
    const [direct, stack, through] = measured as [Measured, Measured, Measured];
    const httpStack = httpFloor ? measured[3] : undefined;
    const base = cesBase ? measured.at(-1) : undefined;
    return {
      records_per_page: probe.result.length,
      first_sync_ms_before_measuring: firstSyncMs,
      ...(c.rate ? { paced_at_rps: c.rate } : { connections }),
      passthrough: direct,
      stack_floor: stack,
      ces: through,
      throughput_ratio: +(through.rps / direct.rps).toFixed(3),
      ...cpuRatios(direct, stack, through),
      ...(httpStack
        ? {
            stack_floor_node_http: httpStack,
            cpu_ratio_node_http_floor_to_passthrough:
              httpStack.cpu_us_per_request && direct.cpu_us_per_request
                ? +(httpStack.cpu_us_per_request / direct.cpu_us_per_request).toFixed(2)
                : null,
          }
        : {}),
      ...(cesBase && base
        ? {
            ces_base: base,
            cpu_ratio_ces_to_base:
              through.cpu_us_per_request && base.cpu_us_per_request
                ? +(through.cpu_us_per_request / base.cpu_us_per_request).toFixed(3)
                : null,
          }
        : {}),
      added_p50_ms: +(through.p50 - direct.p50).toFixed(1),
      added_mean_ms: +(through.mean_ms - direct.mean_ms).toFixed(3),
    };
  } finally {
    await stopAll();
    await database?.drop();
    await baseDatabase?.drop();
    fs.rmSync(ces.dataDir, { recursive: true, force: true });
    if (cesBase) fs.rmSync(cesBase.dataDir, { recursive: true, force: true });
  }
}

async function main() {
  const results: Record<string, unknown> = {
    date: new Date().toISOString(),
    node: process.version,
    cpus: os.cpus().length,
    duration_s: duration,
    rounds,
    store,
  };
  for (const latencyMs of latencies) {
    const scenario: Record<string, unknown> = {};
    const only = values.connectors ? values.connectors.split(',') : undefined;
    for (const c of CASES.filter((x) => !only || only.includes(x.slug))) {
      scenario[c.slug] = await runCase(c, latencyMs);
      console.log(`upstream +${latencyMs} ms`, c.slug, scenario[c.slug]);
    }
    results[`upstream_latency_${latencyMs}ms`] = scenario;
  }
  writeResults(values.out, results);
}

main().catch(async (err) => {
  console.error(err);
  await stopAll();
  process.exit(1);
});
