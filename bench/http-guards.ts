// What the HTTP-layer guards cost and what they stop, each as a ratio to a baseline measured in the same run:
//   1. JSON bodies: the depth/surrogate scan in front of Fastify's own parser, vs that parser alone (µs per body)
//   2. the token endpoint under a guessing attack from one address, failure limits at their defaults vs off: how
//      many guesses get an answer (401) rather than a 429, and a valid client's exchanges at the same address
//   3. the per-organization request rate limit on an authenticated route: on (never reached) vs off
// Usage: npm run bench:http-guards [-- --duration 10 --connections 20]
import fs from 'node:fs';
import os from 'node:os';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import Fastify from 'fastify';
import { MAX_JSON_DEPTH } from '../src/core/json-depth.ts';
import { jsonTextProblem } from '../src/http/json-body.ts';
import { type LoadResult, load, startCes, stop, stopAll, writeResults } from './lib.ts';

const { values } = parseArgs({
  options: { duration: { type: 'string', default: '10' }, connections: { type: 'string', default: '20' } },
});
const DURATION = Number(values.duration);
const CONNECTIONS = Number(values.connections);
const TOKEN_URL = '/api/v1/account/applications/token';

function bodies(): Record<string, string> {
  const execute = {
    entity: 'issues',
    action: 'list',
    params: { owner: 'octo', repo: 'widgets', per_page: 30 },
  };
  const plain = (i: number) => ({
    id: i,
    title: `issue number ${i} with a plain title`,
    body: 'lorem ipsum dolor sit amet '.repeat(4),
  });
  const escaped = (i: number) => ({
    id: i,
    title: `issue ${i} "quoted" \\ text`,
    labels: ['a', 'b'],
    n: { d: i },
  });
  const sized = (record: (i: number) => unknown, bytes: number) => {
    const items = [];
    for (let i = 0; JSON.stringify(items).length < bytes; i++) items.push(record(i));
    return JSON.stringify({ entity: 'tickets', action: 'create', params: { ticket: { items } } });
  };
  return {
    execute_150B: JSON.stringify(execute),
    plain_100kB: sized(plain, 100_000),
    plain_1MiB: sized(plain, 1_048_576),
    escape_heavy_1MiB: sized(escaped, 1_048_576),
  };
}

/** Median µs per call of `fn` over several timed batches. */
function timeIt(fn: () => void, minMs = 300): number {
  const samples: number[] = [];
  for (let batch = 0; batch < 7; batch++) {
    let n = 0;
    const t0 = process.hrtime.bigint();
    let elapsed = 0;
    while (elapsed < minMs / 7) {
      fn();
      n++;
      elapsed = Number(process.hrtime.bigint() - t0) / 1e6;
    }
    samples.push((elapsed * 1000) / n);
  }
  return samples.sort((a, b) => a - b)[3]!;
}

function parseFigures() {
  const parse = Fastify().getDefaultJsonParser('error', 'error');
  const run = (text: string) =>
    parse({} as never, text, (err) => {
      if (err) throw err;
    });
  const out: Record<string, unknown> = {};
  for (const [name, text] of Object.entries(bodies())) {
    run(text);
    const alone = timeIt(() => run(text));
    const guarded = timeIt(() => {
      if (jsonTextProblem(text, MAX_JSON_DEPTH)) throw new Error('unexpected problem');
      run(text);
    });
    out[name] = {
      bytes: text.length,
      fastify_parser_us: +alone.toFixed(2),
      with_scan_us: +guarded.toFixed(2),
      ratio: +(guarded / alone).toFixed(3),
    };
  }
  return out;
}

/** autocannon with the count of each status, for the attacker (every answer is an error by design). */
async function loadByStatus(opts: autocannon.Options) {
  const r = await autocannon(opts);
  const byStatus: Record<string, number> = {};
  for (const [status, { count }] of Object.entries(r.statusCodeStats ?? {})) byStatus[status] = count ?? 0;
  return {
    rps: Math.round(r.requests.average),
    total: r.requests.total,
    by_status: byStatus,
    errors: r.errors,
  };
}

/**
 * A flood of wrong guesses on one client id from one address, with a valid client exchanging its secret at the
 * same address throughout (it did once before: its address trusts it). Run with the failure limits at their
 * defaults and off, so the answered guesses and the valid client's figures compare like with like.
 */
async function attack(limits: 'default' | 'off') {
  const env: Record<string, string> =
    limits === 'off' ? { CES_TOKEN_FAILURES_PER_ADDRESS: '0', CES_TOKEN_FAILURES_PER_CLIENT: '0' } : {};
  const ces = await startCes({}, env);
  try {
    const valid = JSON.stringify({ client_id: ces.boot.client_id, client_secret: ces.boot.client_secret });
    const post = { method: 'POST' as const, headers: { 'content-type': 'application/json' } };
    // Guesses on another client id than the valid client's: its own client id's failures would hold it too.
    const [flood, client] = await Promise.all([
      loadByStatus({
        url: `${ces.base}${TOKEN_URL}`,
        ...post,
        body: JSON.stringify({ client_id: 'ces_guessed_client_id', client_secret: 'a-wrong-guess' }),
        connections: CONNECTIONS,
        duration: DURATION,
      }),
      load({ url: `${ces.base}${TOKEN_URL}`, ...post, body: valid, connections: 1, duration: DURATION }),
    ]);
    return { guesses: flood, valid_client: client };
  } finally {
    await stop(ces.proc);
    fs.rmSync(ces.dataDir, { recursive: true, force: true });
  }
}

async function tokenFigures() {
  const off = await attack('off');
  const on = await attack('default');
  return {
    note: 'attacker and valid client at 127.0.0.1; limits 20 failures/min per address, 100 per client id',
    limits_off: off,
    limits_default: on,
    guesses_answered_401: {
      off: off.guesses.by_status['401'] ?? 0,
      default: on.guesses.by_status['401'] ?? 0,
    },
    valid_client_rps_ratio: ratio(on.valid_client.rps, off.valid_client.rps),
    valid_client_mean_ms_ratio: ratio(on.valid_client.mean_ms, off.valid_client.mean_ms),
  };
}

const ratio = (a: number, b: number) => (b === 0 ? null : +(a / b).toFixed(3));

async function rateLimitFigures() {
  const run = async (limit: string): Promise<LoadResult> => {
    const ces = await startCes({}, { CES_MAX_REQUESTS_PER_SECOND: limit });
    try {
      return await load({
        url: `${ces.base}/api/v1/workspaces`,
        headers: { authorization: `Bearer ${ces.token}` },
        connections: CONNECTIONS,
        duration: DURATION,
      });
    } finally {
      await stop(ces.proc);
      fs.rmSync(ces.dataDir, { recursive: true, force: true });
    }
  };
  const off = await run('0');
  const on = await run('10000000');
  return { limit_off: off, limit_on_never_reached: on, rps_ratio: ratio(on.rps, off.rps) };
}

async function main() {
  const results: Record<string, unknown> = {
    date: new Date().toISOString(),
    node: process.version,
    cpus: os.cpus().length,
    loadavg_at_start: os.loadavg().map((l) => +l.toFixed(2)),
    duration_s: DURATION,
    connections: CONNECTIONS,
  };
  results.json_body_parse = parseFigures();
  console.log('json body parse', results.json_body_parse);
  results.token_endpoint_under_attack = await tokenFigures();
  console.log('token endpoint under attack', results.token_endpoint_under_attack);
  results.organization_rate_limit = await rateLimitFigures();
  console.log('organization rate limit', results.organization_rate_limit);
  writeResults('http-guards.json', results);
  await stopAll();
}

main().catch(async (err) => {
  console.error(err);
  await stopAll();
  process.exit(1);
});
