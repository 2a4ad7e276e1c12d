// Issue-2 figures, all measured in one run so the ratios compare like with like:
//   1. start-up to ready on an empty data dir: `bin/ces.js serve` as `npm start` runs it (the build in dist/; run
//      `npm run build` first after changing the sources), vs a bare node:http server process
//   2. token endpoint requests/s (vs /healthz of the same server)
//   3. execute `issues list` through ces against the GitHub fake vs a bare passthrough proxy to the same fake,
//      under load and with one connection (each request timed on its own: the mean and p50 differences are the
//      latency ces adds), beside the floor of ces's stack (bench/stack-floor.ts: a fastify route relaying one
//      undici request) to split what is added
// Usage: npm run bench [-- --duration 10 --connections 20]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { GITHUB_FAKE_DEFAULT_TOKEN } from '../test/connectors/github/fake/index.ts';
import {
  createGithubConnector,
  launch,
  load,
  sequentialLoad,
  startCes,
  stop,
  stopAll,
  waitReady,
  waitSynced,
  writeResults,
} from './lib.ts';

const { values } = parseArgs({
  options: { duration: { type: 'string', default: '10' }, connections: { type: 'string', default: '20' } },
});
const DURATION = Number(values.duration);
const CONNECTIONS = Number(values.connections);

async function startupFigure() {
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const runs: number[] = [];
  const baseline: number[] = [];
  for (let i = 0; i < 7; i++) {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ces-bench-start-'));
    const t0 = process.hrtime.bigint();
    const server = await launch(['bin/ces.js', 'serve'], { CES_DATA_DIR: dataDir, CES_PORT: '0' });
    runs.push(await waitReady(server.url, t0));
    await stop(server.proc);
    fs.rmSync(dataDir, { recursive: true, force: true });

    const b0 = process.hrtime.bigint();
    const bare = await launch([
      '-e',
      "const s=require('http').createServer((q,r)=>r.end('ok'));s.listen(0,'127.0.0.1',()=>console.log(JSON.stringify({url:'http://127.0.0.1:'+s.address().port})))",
    ]);
    baseline.push(await waitReady(bare.url, b0));
    await stop(bare.proc);
  }
  return {
    ces_ms: Math.round(median(runs)),
    bare_node_ms: Math.round(median(baseline)),
    ratio_to_bare_node: +(median(runs) / median(baseline)).toFixed(2),
    runs_ms: runs.map(Math.round),
    bare_runs_ms: baseline.map(Math.round),
  };
}

async function main() {
  const results: Record<string, unknown> = {
    date: new Date().toISOString(),
    node: process.version,
    cpus: os.cpus().length,
    duration_s: DURATION,
    connections: CONNECTIONS,
  };
  results.startup = await startupFigure();
  console.log('startup', results.startup);

  const fake = await launch(['--import', 'tsx', 'bench/fake-github.ts']);
  const proxy = await launch(['--import', 'tsx', 'bench/passthrough.ts'], { UPSTREAM: fake.url });
  const perPage = 30;
  const upstreamHeaders = {
    authorization: `Bearer ${GITHUB_FAKE_DEFAULT_TOKEN}`,
    accept: 'application/vnd.github+json',
  };
  const floor = await launch(['--import', 'tsx', 'bench/stack-floor.ts'], {
    UPSTREAM: `${new URL(fake.url).origin}/repos/bench/big/issues?per_page=${perPage}`,
    UPSTREAM_HEADERS: JSON.stringify(upstreamHeaders),
  });
  const ces = await startCes({ github: fake.url });
  const created = await createGithubConnector(ces, ['bench/big']);
  results.first_sync_ms_before_measuring = await waitSynced(ces, created.id);

  const healthz = await load({ url: `${ces.base}/healthz`, duration: DURATION, connections: CONNECTIONS });
  const tokens = await load({
    url: `${ces.base}/api/v1/account/applications/token`,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_id: ces.boot.client_id, client_secret: ces.boot.client_secret }),
    duration: DURATION,
    connections: CONNECTIONS,
  });
  results.token_endpoint = {
    ...tokens,
    healthz_rps_same_server: healthz.rps,
    ratio_to_healthz: +(tokens.rps / healthz.rps).toFixed(3),
  };
  console.log('token endpoint', results.token_endpoint);

  const executeBody = JSON.stringify({
    entity: 'issues',
    action: 'list',
    params: { owner: 'bench', repo: 'big', per_page: perPage },
  });
  for (const connections of [CONNECTIONS, 1]) {
    // One connection: each request timed to the microsecond (autocannon's whole milliseconds can't show it).
    const run =
      connections === 1 ? (opts: Parameters<typeof load>[0]) => sequentialLoad(DURATION, opts) : load;
    const direct = await run({
      connections,
      duration: DURATION,
      url: `${proxy.url}/repos/bench/big/issues?per_page=${perPage}`,
      headers: upstreamHeaders,
    });
    const stack = await run({
      connections,
      duration: DURATION,
      url: `${floor.url}/execute`,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: executeBody,
    });
    const through = await run({
      connections,
      duration: DURATION,
      url: `${ces.base}/api/v1/integrations/connectors/${created.id}/execute`,
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${ces.token}` },
      body: executeBody,
    });
    const figure = {
      per_page: perPage,
      connections,
      passthrough: direct,
      stack_floor: stack,
      ces: through,
      throughput_ratio: +(through.rps / direct.rps).toFixed(3),
      added_p50_ms: +(through.p50 - direct.p50).toFixed(2),
      added_mean_ms: +(through.mean_ms - direct.mean_ms).toFixed(3),
      // What the stack alone adds (bench/stack-floor.ts), and what ces adds above it.
      floor_added_p50_ms: +(stack.p50 - direct.p50).toFixed(2),
      floor_added_mean_ms: +(stack.mean_ms - direct.mean_ms).toFixed(3),
      ces_over_floor_mean_ms: +(through.mean_ms - stack.mean_ms).toFixed(3),
    };
    results[`execute_issues_list_c${connections}`] = figure;
    console.log('execute issues list', figure);
  }

  writeResults('issue-2.json', results);
  await stopAll();
  fs.rmSync(ces.dataDir, { recursive: true, force: true });
}

main().catch(async (err) => {
  console.error(err);
  await stopAll();
  process.exit(1);
});
