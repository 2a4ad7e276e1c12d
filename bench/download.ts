// Issue-3 download figures, measured in one run: a large repository archive (default 1 GiB) downloaded
//   (a) straight from the GitHub fake, following its redirect, and
//   (b) through ces's execute `download` action against the same fake,
// each read to the end by this process. Reports throughput of both, their ratio, and the growth of the ces
// server's resident memory (sampled from /proc every 20 ms) over its idle baseline.
// Usage: npm run bench:download [-- --bytes 1073741824 --runs 2]
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { request } from 'undici';

const ROOT = path.resolve(import.meta.dirname, '..');
const { values } = parseArgs({
  options: { bytes: { type: 'string', default: String(1 << 30) }, runs: { type: 'string', default: '3' } },
});
const BYTES = Number(values.bytes);
const RUNS = Number(values.runs);
const TOKEN = 'ghp_test_token_0001';
const children: ChildProcess[] = [];

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const a = srv.address();
      const port = typeof a === 'object' && a ? a.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

function rssBytes(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
}

async function drain(url: string, init: Parameters<typeof request>[1], follow = true) {
  const started = process.hrtime.bigint();
  let res = await request(url, init);
  if (follow && res.statusCode === 302 && typeof res.headers.location === 'string') {
    await res.body.dump();
    res = await request(new URL(res.headers.location, url), { headers: init?.headers });
  }
  if (res.statusCode !== 200) throw new Error(`HTTP ${res.statusCode}: ${await res.body.text()}`);
  let n = 0;
  for await (const chunk of res.body) n += (chunk as Buffer).length;
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (n !== BYTES) throw new Error(`read ${n} bytes, expected ${BYTES}`);
  return { seconds: +seconds.toFixed(3), mib_per_s: +(n / 1048576 / seconds).toFixed(1) };
}

async function main() {
  const fake = spawn(process.execPath, ['--import', 'tsx', 'bench/fake-github.ts'], {
    cwd: ROOT,
    env: { ...process.env, BENCH_ISSUES: '10', BENCH_ARCHIVE_BYTES: String(BYTES) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(fake);
  const fakeUrl = await new Promise<string>((resolve) =>
    fake.stdout?.on('data', (d) => resolve(JSON.parse(String(d)).url)),
  );

  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ces-bench-dl-'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const ces = spawn(process.execPath, ['bin/ces.js', 'serve'], {
    cwd: ROOT,
    env: {
      ...process.env,
      CES_DATA_DIR: dataDir,
      CES_PORT: String(port),
      CES_LOG_LEVEL: 'warn',
      CES_UPSTREAM_OVERRIDES: JSON.stringify({ github: fakeUrl }),
    },
    stdio: 'ignore',
  });
  children.push(ces);
  for (;;) {
    try {
      if ((await fetch(`${base}/readyz`)).ok) break;
    } catch {
      // starting
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  const boot = JSON.parse(fs.readFileSync(path.join(dataDir, 'bootstrap-credentials.json'), 'utf8'));
  const post = async (url: string, body: unknown, token?: string) =>
    (await fetch(`${base}${url}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    }).then((r) => r.json())) as Record<string, string>;
  const token = (
    await post('/api/v1/account/applications/token', {
      client_id: boot.client_id,
      client_secret: boot.client_secret,
    })
  ).access_token!;
  const connector = await post(
    '/api/v1/integrations/connectors',
    {
      workspace_name: 'default',
      connector_type: 'github',
      credentials: { personal_access_token: TOKEN },
      replication_config: { repositories: ['ces-demo/widgets'] },
    },
    token,
  );

  // Warm both paths once with a tiny read so connection set-up is not what is measured.
  const idleRss = rssBytes(ces.pid!);
  let peakRss = idleRss;
  const sampler = setInterval(() => {
    peakRss = Math.max(peakRss, rssBytes(ces.pid!));
  }, 20);

  const direct = [];
  const through = [];
  for (let i = 0; i < RUNS; i++) {
    direct.push(
      await drain(`${fakeUrl}/repos/ces-demo/widgets/tarball/main`, {
        headers: { authorization: `Bearer ${TOKEN}` },
      }),
    );
    through.push(
      await drain(
        `${base}/api/v1/integrations/connectors/${connector.id}/execute`,
        {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
          body: JSON.stringify({
            entity: 'repositories',
            action: 'download',
            params: { owner: 'ces-demo', repo: 'widgets', ref: 'main' },
          }),
        },
        false,
      ),
    );
  }
  clearInterval(sampler);
  const best = (xs: Array<{ mib_per_s: number }>) => Math.max(...xs.map((x) => x.mib_per_s));
  const median = (xs: Array<{ mib_per_s: number }>) =>
    [...xs.map((x) => x.mib_per_s)].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const results = {
    date: new Date().toISOString(),
    node: process.version,
    bytes: BYTES,
    runs: RUNS,
    direct_from_fake: direct,
    through_ces: through,
    throughput_ratio_best: +(best(through) / best(direct)).toFixed(3),
    throughput_ratio_median: +(median(through) / median(direct)).toFixed(3),
    ces_idle_rss_mib: +(idleRss / 1048576).toFixed(1),
    ces_peak_rss_growth_mib: +((peakRss - idleRss) / 1048576).toFixed(1),
  };
  console.log(results);
  fs.writeFileSync(path.join(ROOT, 'bench/results/download.json'), `${JSON.stringify(results, null, 2)}\n`);
  for (const c of children) c.kill('SIGTERM');
  fs.rmSync(dataDir, { recursive: true, force: true });
}

main().catch((err) => {
  console.error(err);
  for (const c of children) c.kill('SIGTERM');
  process.exit(1);
});
