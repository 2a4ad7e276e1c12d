// Issue-3 download figures, measured in one run: a large repository archive (default 1 GiB) downloaded
//   (a) straight from the GitHub fake, following its redirect, and
//   (b) through a bare Node passthrough proxy (bench/passthrough.ts) to the same archive URL: the best any Node
//       process in the middle can do on this machine, and
//   (c) through ces's execute `download` action against the same fake,
// each read to the end by this process. Reports throughput of all three, ces's ratio to (a) and to (b), and the
// growth of the ces server's resident memory (sampled from /proc every 20 ms) over its idle baseline.
// Usage: npm run bench:download [-- --bytes 1073741824 --runs 2]
import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { request } from 'undici';
import { launch, postJson, startCes, stopAll, writeResults } from './lib.ts';

const { values } = parseArgs({
  options: { bytes: { type: 'string', default: String(1 << 30) }, runs: { type: 'string', default: '3' } },
});
const BYTES = Number(values.bytes);
const RUNS = Number(values.runs);
const TOKEN = 'ghp_test_token_0001';

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
  const fakeUrl = (
    await launch(['--import', 'tsx', 'bench/fake-github.ts'], {
      BENCH_ISSUES: '10',
      BENCH_ARCHIVE_BYTES: String(BYTES),
    })
  ).url;
  const proxyUrl = (
    await launch(['--import', 'tsx', 'bench/passthrough.ts'], { UPSTREAM: new URL(fakeUrl).origin })
  ).url;
  const ces = await startCes({ github: fakeUrl });
  const base = ces.base;
  const token = ces.token;
  const connector = (await postJson(
    base,
    '/api/v1/integrations/connectors',
    {
      workspace_name: 'default',
      connector_type: 'github',
      credentials: { personal_access_token: TOKEN },
      replication_config: { repositories: ['ces-demo/widgets'] },
    },
    token,
  )) as { id: string };

  const idleRss = rssBytes(ces.proc.pid!);
  let peakRss = idleRss;
  const sampler = setInterval(() => {
    peakRss = Math.max(peakRss, rssBytes(ces.proc.pid!));
  }, 20);

  // The proxy does not follow redirects, so it is handed the codeload URL the fake redirects to.
  const redirect = await request(`${fakeUrl}/repos/ces-demo/widgets/tarball/main`, {
    headers: { authorization: `Bearer ${TOKEN}` },
  });
  await redirect.body.dump();
  const codeload = new URL(String(redirect.headers.location));

  const direct = [];
  const proxied = [];
  const through = [];
  for (let i = 0; i < RUNS; i++) {
    proxied.push(await drain(`${proxyUrl}${codeload.pathname}${codeload.search}`, {}, false));
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
    through_passthrough_proxy: proxied,
    through_ces: through,
    throughput_ratio_best: +(best(through) / best(direct)).toFixed(3),
    throughput_ratio_median: +(median(through) / median(direct)).toFixed(3),
    passthrough_ratio_median: +(median(proxied) / median(direct)).toFixed(3),
    ces_to_passthrough_median: +(median(through) / median(proxied)).toFixed(3),
    ces_idle_rss_mib: +(idleRss / 1048576).toFixed(1),
    ces_peak_rss_growth_mib: +((peakRss - idleRss) / 1048576).toFixed(1),
  };
  console.log(results);
  writeResults('download.json', results);
  await stopAll();
  fs.rmSync(ces.dataDir, { recursive: true, force: true });
}

main().catch(async (err) => {
  console.error(err);
  await stopAll();
  process.exit(1);
});
