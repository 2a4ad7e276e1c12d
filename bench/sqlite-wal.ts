// The SQLite WAL under back-to-back request-path writes: a real server (`ces serve`, SQLite in a fresh data
// directory) answers N sequential workspace creates (a scoped token for a new workspace name each time), while
// /healthz is asked alongside, one request after another. Recorded: the WAL file's size over the run (sampled
// every 5 ms from this process, and after every 250th write), its largest and last size, the database file's
// size, and the latency of the writes and of /healthz (an event-loop stall of the server shows in both).
// With --base <checkout> the same load runs first against that checkout's build (e.g. a `git worktree` of the
// commit before a change, built with `node scripts/build.mjs`), then against this one's, in rounds, so both
// figures come from one run on one machine.
//
// Usage: npm run bench:sqlite-wal [-- --writes 3000 --base /tmp/ces-base --rounds 1 --out sqlite-wal.json]

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { request } from 'undici';
import { latencyStats, ROOT, startCes, stop, stopAll, walSampler, writeResults } from './lib.ts';

const { values } = parseArgs({
  options: {
    writes: { type: 'string', default: '3000' },
    base: { type: 'string' },
    rounds: { type: 'string', default: '1' },
    out: { type: 'string', default: 'sqlite-wal.json' },
  },
});
const WRITES = Number(values.writes);
const ROUNDS = Number(values.rounds);
const mib = (bytes: number) => +(bytes / 1024 / 1024).toFixed(2);
const load1 = () => +(os.loadavg()[0] ?? 0).toFixed(2);

async function createWorkspace(base: string, token: string, name: string) {
  const res = await request(`${base}/api/v1/account/applications/scoped-token`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ workspace_name: name }),
  });
  const body = await res.body.text();
  if (res.statusCode !== 200) throw new Error(`scoped-token: HTTP ${res.statusCode} ${body}`);
}

async function run(root: string) {
  const ces = await startCes(
    {},
    { CES_MAX_WORKSPACES_PER_ORGANIZATION: String(WRITES * 2) },
    undefined,
    root,
  );
  const dbFile = path.join(ces.dataDir, 'ces.db');
  try {
    const loadAtStart = load1();
    const wal = walSampler(dbFile);
    const writeMs: number[] = [];
    const healthzMs: number[] = [];
    const timeline: Array<{ writes: number; wal_mib: number }> = [];
    let writing = true;
    const healthz = (async () => {
      while (writing) {
        const t = performance.now();
        const res = await request(`${ces.base}/healthz`);
        await res.body.dump();
        if (res.statusCode !== 200) throw new Error(`healthz: HTTP ${res.statusCode}`);
        healthzMs.push(performance.now() - t);
      }
    })();
    const t0 = performance.now();
    try {
      for (let i = 0; i < WRITES; i++) {
        const t = performance.now();
        await createWorkspace(ces.base, ces.token, `wal-bench-${i}`);
        writeMs.push(performance.now() - t);
        if ((i + 1) % 250 === 0) {
          const size = fs.statSync(`${dbFile}-wal`, { throwIfNoEntry: false })?.size ?? 0;
          timeline.push({ writes: i + 1, wal_mib: mib(size) });
        }
      }
    } finally {
      writing = false;
      await healthz;
    }
    const seconds = (performance.now() - t0) / 1000;
    const during = wal.stop();
    // A second and a half later: the checkpoint a quiet second after the last write has run.
    await new Promise((r) => setTimeout(r, 1500));
    const after = walSampler(dbFile).stop();
    return {
      writes: WRITES,
      seconds: +seconds.toFixed(2),
      writes_per_s: Math.round(WRITES / seconds),
      wal: { ...during, after_quiet_mib: after.final_mib },
      db_mib: mib(fs.statSync(dbFile).size),
      write_ms: latencyStats(writeMs),
      healthz_ms: latencyStats(healthzMs),
      timeline,
      load_avg_1m: { start: loadAtStart, end: load1() },
    };
  } finally {
    await stop(ces.proc);
    fs.rmSync(ces.dataDir, { recursive: true, force: true });
  }
}

const builds: Array<[string, string]> = values.base
  ? [
      ['base', path.resolve(values.base)],
      ['this', ROOT],
    ]
  : [['this', ROOT]];
const results: Record<string, unknown> = {
  date: new Date().toISOString(),
  node: process.version,
  cpus: os.cpus().length,
  writes: WRITES,
  builds: Object.fromEntries(builds),
  rounds: [] as unknown[],
};
try {
  for (let round = 0; round < ROUNDS; round++) {
    const figures: Record<string, unknown> = {};
    for (const [name, root] of builds) {
      console.error(`round ${round + 1}: ${name} (${root})…`);
      figures[name] = await run(root);
      const f = figures[name] as Awaited<ReturnType<typeof run>>;
      console.error(
        `  WAL max ${f.wal.max_mib} MiB, last ${f.wal.final_mib}, after a quiet second ${f.wal.after_quiet_mib}; db ${f.db_mib} MiB;`,
        `writes p50/p99/max ${f.write_ms.p50}/${f.write_ms.p99}/${f.write_ms.max} ms;`,
        `healthz p50/p99/max ${f.healthz_ms.p50}/${f.healthz_ms.p99}/${f.healthz_ms.max} ms`,
      );
    }
    (results.rounds as unknown[]).push(figures);
  }
} finally {
  await stopAll();
}
writeResults(values.out, results);
