// Memory of the ces server process under large upstream answers, measured in one run:
//   bench/fake-large-github.ts answers "List repository issues" with one JSON page of about 30 MB (GitHub's issue
//   shape); this process sends `--requests` (default 100) concurrent executes of `issues list` through ces, spread
//   over 4 connectors so that the per-connector concurrency limit (32 for GitHub) lets every one of them reach
//   the upstream at once, and reads every reply to its end (discarding it).
// Two runs of the same load, each on a fresh server:
//   default    ces with its default settings (the buffer budget, CES_UPSTREAM_BUFFER_BYTES, in force);
//   baseline   the budget effectively off (CES_UPSTREAM_BUFFER_BYTES at its maximum, 16 GiB).
// For each: ces's resident memory when idle before the load (VmRSS), its peak during the load (VmHWM, and the
// largest VmRSS sampled every 10 ms), how many executes succeeded and how many got which error code, and the
// total time. The figure is default/baseline of the peak (and of the growth over idle); the goal is a peak of
// at most 300 MiB with the default settings. The Context Store worker is off, so only the executes use memory.
//
// Usage: npm run bench:upstream-memory [-- --requests 100 --bytes 30000000 --chunked --budget BYTES]
// (--budget runs the first case with that CES_UPSTREAM_BUFFER_BYTES instead of the default, to try other sizes.)
import fs from 'node:fs';
import os from 'node:os';
import { parseArgs } from 'node:util';
import { Agent, request } from 'undici';
import { createGithubConnector, launch, startCes, stop, stopAll, writeResults } from './lib.ts';

const { values } = parseArgs({
  options: {
    requests: { type: 'string', default: '100' },
    bytes: { type: 'string', default: '30000000' },
    chunked: { type: 'boolean', default: false },
    budget: { type: 'string' },
  },
});
const REQUESTS = Number(values.requests);
const CONNECTORS = 4;
const GOAL_PEAK_MIB = 300;
/** CES_UPSTREAM_BUFFER_BYTES's maximum: no answer ever waits for room. */
const BUDGET_OFF = String(16 * 1024 ** 3);

const mib = (kb: number) => Math.round(kb / 1024);
const round = (x: number, digits = 2) => +x.toFixed(digits);

function status(pid: number): { rssKb: number; hwmKb: number } {
  const text = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const field = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(text)?.[1] ?? 0);
  return { rssKb: field('VmRSS'), hwmKb: field('VmHWM') };
}

interface Outcome {
  status: number;
  code: string;
  bytes: number;
  ms: number;
  retryAfter?: string;
}

async function executeOnce(
  dispatcher: Agent,
  base: string,
  token: string,
  connectorId: string,
): Promise<Outcome> {
  const t0 = performance.now();
  const res = await request(`${base}/api/v1/integrations/connectors/${connectorId}/execute`, {
    method: 'POST',
    dispatcher,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      entity: 'issues',
      action: 'list',
      params: { owner: 'bench', repo: 'big', per_page: 100 },
    }),
  });
  let bytes = 0;
  let head = '';
  for await (const chunk of res.body) {
    bytes += (chunk as Buffer).length;
    // Only an error body is read for its code; a success is counted and dropped, never held here.
    if (res.statusCode !== 200 && head.length < 4096) head += String(chunk);
  }
  let code = 'success';
  if (res.statusCode !== 200) {
    try {
      code = (JSON.parse(head) as { code?: string }).code ?? `HTTP ${res.statusCode}`;
    } catch {
      code = `HTTP ${res.statusCode}`;
    }
  }
  const retryAfter = res.headers['retry-after'];
  return {
    status: res.statusCode,
    code,
    bytes,
    ms: performance.now() - t0,
    ...(typeof retryAfter === 'string' ? { retryAfter } : {}),
  };
}

async function run(fakeUrl: string, env: Record<string, string>) {
  const ces = await startCes({ github: fakeUrl }, { CES_SYNC_ENABLED: 'false', ...env });
  const pid = ces.proc.pid!;
  const connectors: string[] = [];
  for (let i = 0; i < CONNECTORS; i++) connectors.push((await createGithubConnector(ces, ['bench/big'])).id);
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const idle = status(pid);

  let sampledKb = idle.rssKb;
  const sampler = setInterval(() => {
    sampledKb = Math.max(sampledKb, status(pid).rssKb);
  }, 10);
  const dispatcher = new Agent({ connections: REQUESTS, headersTimeout: 600_000, bodyTimeout: 600_000 });
  const t0 = performance.now();
  const outcomes = await Promise.all(
    Array.from({ length: REQUESTS }, (_, i) =>
      executeOnce(dispatcher, ces.base, ces.token, connectors[i % CONNECTORS]!),
    ),
  );
  const seconds = (performance.now() - t0) / 1000;
  clearInterval(sampler);
  const after = status(pid);
  await dispatcher.close();
  await stop(ces.proc);
  fs.rmSync(ces.dataDir, { recursive: true, force: true });

  const byCode: Record<string, number> = {};
  for (const o of outcomes) byCode[o.code] = (byCode[o.code] ?? 0) + 1;
  const ok = outcomes.filter((o) => o.status === 200);
  const busy = outcomes.filter((o) => o.status === 503);
  const sortedMs = ok.map((o) => o.ms).sort((a, b) => a - b);
  return {
    idle_rss_mib: mib(idle.rssKb),
    peak_rss_mib: mib(Math.max(after.hwmKb, sampledKb)),
    peak_vmhwm_mib: mib(after.hwmKb),
    peak_sampled_rss_mib: mib(sampledKb),
    growth_over_idle_mib: mib(Math.max(after.hwmKb, sampledKb) - idle.rssKb),
    succeeded: ok.length,
    answered_503: busy.length,
    by_code: byCode,
    retry_after_on_503: [...new Set(busy.map((o) => o.retryAfter ?? 'none'))],
    reply_bytes_of_a_success: ok[0]?.bytes ?? 0,
    total_s: round(seconds),
    success_ms: {
      p50: Math.round(sortedMs[Math.floor(sortedMs.length / 2)] ?? 0),
      max: Math.round(sortedMs.at(-1) ?? 0),
    },
  };
}

async function main() {
  const fake = await launch(['--import', 'tsx', 'bench/fake-large-github.ts'], {
    BENCH_BODY_BYTES: values.bytes,
    ...(values.chunked ? { BENCH_CHUNKED: '1' } : {}),
  });
  const load0 = os.loadavg()[0] ?? 0;
  const baseline = await run(fake.url, { CES_UPSTREAM_BUFFER_BYTES: BUDGET_OFF });
  const withBudget = await run(fake.url, values.budget ? { CES_UPSTREAM_BUFFER_BYTES: values.budget } : {});
  const results = {
    date: new Date().toISOString(),
    node: process.version,
    cpus: os.cpus().length,
    load_avg_1m: { before: round(load0), after: round(os.loadavg()[0] ?? 0) },
    requests: REQUESTS,
    connectors: CONNECTORS,
    upstream_body_bytes: Number(values.bytes),
    upstream_transfer: values.chunked ? 'chunked' : 'content-length',
    budget_bytes: values.budget ? Number(values.budget) : 'default',
    default: withBudget,
    baseline_budget_off: baseline,
    ratio_peak_rss: round(withBudget.peak_rss_mib / baseline.peak_rss_mib, 3),
    ratio_growth_over_idle: round(
      withBudget.growth_over_idle_mib / Math.max(1, baseline.growth_over_idle_mib),
      3,
    ),
    goal_peak_rss_mib: GOAL_PEAK_MIB,
    goal_met: withBudget.peak_rss_mib <= GOAL_PEAK_MIB,
  };
  const out = `upstream-memory${values.chunked ? '-chunked' : ''}${values.budget ? `-${values.budget}` : ''}.json`;
  writeResults(out, results);
  console.log(JSON.stringify(results, null, 2));
}

try {
  await main();
} finally {
  await stopAll();
}
