// Issue-2 figures, all measured in one run so the ratios compare like with like:
//   1. start-up to ready on an empty data dir (ces vs a bare node:http server process)
//   2. token endpoint requests/s (vs /healthz of the same server)
//   3. execute `issues list` through ces against the GitHub fake vs a bare passthrough proxy to the same fake
// Usage: npm run bench [-- --duration 10 --connections 20]
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';

const ROOT = path.resolve(import.meta.dirname, '..');
const { values } = parseArgs({
  options: { duration: { type: 'string', default: '10' }, connections: { type: 'string', default: '20' } },
});
const DURATION = Number(values.duration);
const CONNECTIONS = Number(values.connections);
const children: ChildProcess[] = [];

function launch(args: string[], env: Record<string, string> = {}, match = /"url":"([^"]+)"/) {
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
      const m = match.exec(out);
      if (m?.[1]) resolve({ proc, url: m[1], ms: Number(process.hrtime.bigint() - started) / 1e6 });
    });
    proc.once('exit', (code) => reject(new Error(`${args.join(' ')} exited ${code}: ${out}`)));
  });
}

async function waitReady(url: string, started: bigint): Promise<number> {
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

function stop(proc: ChildProcess) {
  return new Promise<void>((resolve) => {
    if (proc.exitCode !== null) return resolve();
    proc.once('exit', () => resolve());
    proc.kill('SIGTERM');
  });
}

async function load(opts: autocannon.Options) {
  const r = await autocannon({ duration: DURATION, connections: CONNECTIONS, ...opts });
  return {
    rps: Math.round(r.requests.average),
    mean_ms: +r.latency.average.toFixed(3),
    p50: r.latency.p50,
    p99: r.latency.p99,
    non2xx: r.non2xx,
    errors: r.errors,
  };
}

async function startupFigure() {
  const runs: number[] = [];
  const baseline: number[] = [];
  for (let i = 0; i < 3; i++) {
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
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  return {
    ces_ms: Math.round(median(runs)),
    bare_node_ms: Math.round(median(baseline)),
    runs_ms: runs.map(Math.round),
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
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ces-bench-'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const cesStarted = process.hrtime.bigint();
  children.push(
    spawn(process.execPath, ['bin/ces.js', 'serve'], {
      cwd: ROOT,
      env: {
        ...process.env,
        CES_DATA_DIR: dataDir,
        CES_PORT: String(port),
        CES_LOG_LEVEL: 'warn',
        CES_UPSTREAM_OVERRIDES: JSON.stringify({ github: fake.url }),
      },
      stdio: 'ignore',
    }),
  );
  await waitReady(base, cesStarted);
  const boot = JSON.parse(fs.readFileSync(path.join(dataDir, 'bootstrap-credentials.json'), 'utf8'));

  const tokenBody = JSON.stringify({ client_id: boot.client_id, client_secret: boot.client_secret });
  const token = (
    (await (
      await fetch(`${base}/api/v1/account/applications/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: tokenBody,
      })
    ).json()) as { access_token: string }
  ).access_token;
  const created = (await (
    await fetch(`${base}/api/v1/integrations/connectors`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({
        workspace_name: 'default',
        connector_type: 'github',
        credentials: { personal_access_token: 'ghp_test_token_0001' },
        replication_config: { repositories: ['bench/big'] },
      }),
    })
  ).json()) as { id: string };

  const healthz = await load({ url: `${base}/healthz` });
  const tokens = await load({
    url: `${base}/api/v1/account/applications/token`,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: tokenBody,
  });
  results.token_endpoint = {
    ...tokens,
    healthz_rps_same_server: healthz.rps,
    ratio_to_healthz: +(tokens.rps / healthz.rps).toFixed(3),
  };
  console.log('token endpoint', results.token_endpoint);

  const perPage = 30;
  const executeBody = JSON.stringify({
    entity: 'issues',
    action: 'list',
    params: { owner: 'bench', repo: 'big', per_page: perPage },
  });
  // Under load (CPU shared by the fake, the server under test and the load generator on this 2-core machine)
  // and with one connection, where the difference in p50 is the latency ces adds to a request.
  for (const connections of [CONNECTIONS, 1]) {
    const direct = await load({
      connections,
      url: `${proxy.url}/repos/bench/big/issues?per_page=${perPage}`,
      headers: { authorization: 'Bearer ghp_test_token_0001', accept: 'application/vnd.github+json' },
    });
    const through = await load({
      connections,
      url: `${base}/api/v1/integrations/connectors/${created.id}/execute`,
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: executeBody,
    });
    const figure = {
      per_page: perPage,
      connections,
      passthrough: direct,
      ces: through,
      throughput_ratio: +(through.rps / direct.rps).toFixed(3),
      added_p50_ms: +(through.p50 - direct.p50).toFixed(2),
      added_mean_ms: +(through.mean_ms - direct.mean_ms).toFixed(3),
    };
    results[`execute_issues_list_c${connections}`] = figure;
    console.log('execute issues list', figure);
  }

  fs.writeFileSync(path.join(ROOT, 'bench/results/issue-2.json'), `${JSON.stringify(results, null, 2)}\n`);
  await Promise.all(children.map(stop));
  fs.rmSync(dataDir, { recursive: true, force: true });
}

/** A port that was free a moment ago; good enough on a quiet loopback. */
function freePort(): Promise<number> {
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

main().catch(async (err) => {
  console.error(err);
  await Promise.all(children.map(stop));
  process.exit(1);
});
