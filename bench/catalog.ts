// Issue-11 figures, for any connector with a suite fake (test/connectors/<slug>/suite.ts), in one run:
//   list      execute `list` of one entity through ces against the fake, beside a bare passthrough proxy
//             (bench/passthrough.ts) sending the very request ces sends (captured on a first run through the
//             proxy): throughput, p50/p99 and the middle process's CPU per request. A connector whose definition
//             declares a proactive rate limit of at most 10 requests/s is paced at it on both sides.
//   backfill  for every entity the definition indexes, records/s from creating the connector until the entity
//             is Ready, beside a client paging the same list through ces's execute one page at a time (what the
//             upstream and the runtime cost without indexing). The suite fakes hold tens to hundreds of records,
//             so these rates are dominated by per-page round trips; bench:context-store measures 1,000,000.
//
// Usage: npm run bench:catalog [-- --slugs slack,jira --duration 10 --connections 20]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { request } from 'undici';
import { DefinitionRegistry } from '../src/connectors/registry.ts';
import type { ConnectorDefinition, EntityDefinition } from '../src/connectors/schema.ts';
import {
  cpuSeconds,
  inspect,
  launch,
  load,
  pacedLoad,
  postJson,
  startCes,
  stop,
  stopAll,
  writeResults,
} from './lib.ts';

const { values } = parseArgs({
  options: {
    slugs: { type: 'string', default: 'slack,jira,linear,hubspot,stripe,notion' },
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '20' },
  },
});
const duration = Number(values.duration);
const connections = Number(values.connections);
const registry = DefinitionRegistry.default();

interface SuiteFake {
  url: string;
  env: Record<string, string>;
  connector: Record<string, unknown>;
  happy: Record<string, Record<string, unknown>>;
}

interface Captured {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string;
}

type Ces = Awaited<ReturnType<typeof startCes>>;

async function startFake(slug: string) {
  const out = path.join(os.tmpdir(), `ces-bench-fake-${slug}-${process.pid}.json`);
  const launched = await launch(['--import', 'tsx', 'bench/fake-suite.ts', slug], { BENCH_OUT: out });
  const fake = JSON.parse(fs.readFileSync(out, 'utf8')) as SuiteFake;
  fs.rmSync(out);
  return { proc: launched.proc, ...fake };
}

/** A ces server pointed at `upstream` for this slug, with the suite's other settings (egress allowances). */
function cesFor(slug: string, fake: SuiteFake, upstream: string, env: Record<string, string> = {}) {
  const { CES_UPSTREAM_OVERRIDES: _overrides, ...rest } = fake.env;
  return startCes({ [slug]: upstream }, { ...rest, ...env });
}

async function createConnector(ces: Ces, fake: SuiteFake): Promise<string> {
  const made = (await postJson(
    ces.base,
    '/api/v1/integrations/connectors',
    { workspace_name: 'default', ...fake.connector },
    ces.token,
  )) as { id: string };
  return made.id;
}

const execute = (ces: Ces, id: string, body: unknown) =>
  postJson(ces.base, `/api/v1/integrations/connectors/${id}/execute`, body, ces.token) as Promise<{
    result: unknown[];
    connector_metadata: { has_next_page: boolean; end_cursor: string | null };
  }>;

/** The entity the list figure uses: the first indexed one whose list needs no partition params. */
function listEntity(def: ConnectorDefinition, happy: SuiteFake['happy']): EntityDefinition {
  const candidates = def.entities.filter((e) => e.actions.list && happy[`${e.name}.list`]);
  const plain = candidates.find((e) => e.context_store && !e.context_store.partitions) ?? candidates[0];
  if (!plain) throw new Error(`${def.slug} has no list with a suite case`);
  return plain;
}

/** The request ces sends upstream for `body`, seen by a capturing proxy in front of the fake. */
async function captureUpstream(slug: string, fake: SuiteFake, body: unknown): Promise<Captured> {
  const target = new URL(fake.url);
  const proxy = await launch(['--import', 'tsx', 'bench/passthrough.ts'], {
    UPSTREAM: target.origin,
    CAPTURE: '1',
  });
  const ces = await cesFor(slug, fake, `${proxy.url}${target.pathname.replace(/\/$/, '')}`, {
    CES_SYNC_ENABLED: 'false',
  });
  try {
    const id = await createConnector(ces, fake);
    await execute(ces, id, body);
    const res = await request(`${proxy.url}/__bench/captured`);
    const all = (await res.body.json()) as Captured[];
    const last = all.at(-1);
    if (!last) throw new Error('nothing reached the capturing proxy');
    const headers = Object.fromEntries(
      Object.entries(last.headers).filter(([k]) => !['host', 'content-length', 'connection'].includes(k)),
    );
    return { ...last, headers };
  } finally {
    await stop(ces.proc);
    await stop(proxy.proc);
    fs.rmSync(ces.dataDir, { recursive: true, force: true });
  }
}

async function measure(
  pid: number,
  opts: { url: string; method: string; headers: Record<string, string>; body?: string },
  rate: number | undefined,
) {
  const before = cpuSeconds(pid);
  const t0 = performance.now();
  const result = rate
    ? await pacedLoad(rate, duration, { ...opts, method: opts.method as 'GET' })
    : await load({ ...opts, method: opts.method as 'GET', duration, connections });
  const requests = Math.round(result.rps * ((performance.now() - t0) / 1000));
  const used = cpuSeconds(pid) - before;
  return { ...result, cpu_us_per_request: requests > 0 ? Math.round((used / requests) * 1e6) : null };
}

/** Proactive limits slow enough that an unpaced run would only measure ces's own throttling. */
function pacedRate(def: ConnectorDefinition): number | undefined {
  if (!def.rate_limit) return undefined;
  const rate = def.rate_limit.requests / def.rate_limit.per_seconds;
  return rate <= 10 ? rate : undefined;
}

async function listFigure(def: ConnectorDefinition, fake: SuiteFake) {
  const entity = listEntity(def, fake.happy);
  const body = { entity: entity.name, action: 'list', params: fake.happy[`${entity.name}.list`] ?? {} };
  const upstream = await captureUpstream(def.slug, fake, body);
  const origin = new URL(fake.url).origin;
  const proxy = await launch(['--import', 'tsx', 'bench/passthrough.ts'], { UPSTREAM: origin });
  const ces = await cesFor(def.slug, fake, fake.url, { CES_SYNC_ENABLED: 'false' });
  try {
    const id = await createConnector(ces, fake);
    const probe = await execute(ces, id, body);
    const rate = pacedRate(def);
    const direct = await measure(
      proxy.proc.pid as number,
      {
        url: `${proxy.url}${upstream.path}`,
        method: upstream.method,
        headers: upstream.headers,
        ...(upstream.body ? { body: upstream.body } : {}),
      },
      rate,
    );
    const through = await measure(
      ces.proc.pid as number,
      {
        url: `${ces.base}/api/v1/integrations/connectors/${id}/execute`,
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${ces.token}` },
        body: JSON.stringify(body),
      },
      rate,
    );
    return {
      entity: entity.name,
      upstream_request: `${upstream.method} ${upstream.path.split('?')[0]}`,
      records_per_page: probe.result.length,
      ...(rate ? { paced_at_rps: +rate.toFixed(3) } : { connections }),
      passthrough: direct,
      ces: through,
      throughput_ratio: +(through.rps / direct.rps).toFixed(3),
      added_p50_ms: +(through.p50 - direct.p50).toFixed(1),
      cpu_ratio:
        direct.cpu_us_per_request && through.cpu_us_per_request
          ? +(through.cpu_us_per_request / direct.cpu_us_per_request).toFixed(2)
          : null,
    };
  } finally {
    await stop(ces.proc);
    await stop(proxy.proc);
    fs.rmSync(ces.dataDir, { recursive: true, force: true });
  }
}

/** Pages the entity's sync action (list, or api_search) through execute, one request in flight: the baseline of a backfill. */
async function pageThrough(ces: Ces, id: string, entity: EntityDefinition, happy: SuiteFake['happy']) {
  // The sync's own params (its page size), and the suite's for what the list requires (a time window).
  const action = entity.context_store?.action ?? 'list';
  const required = Object.entries(entity.actions[action]?.params ?? {}).filter(([, p]) => p.required);
  const suite = happy[`${entity.name}.${action}`] ?? {};
  const params = {
    ...Object.fromEntries(required.filter(([name]) => name in suite).map(([name]) => [name, suite[name]])),
    ...(entity.context_store?.params ?? {}),
  };
  const t0 = performance.now();
  let records = 0;
  let out = await execute(ces, id, { entity: entity.name, action, params });
  for (;;) {
    records += out.result.length;
    if (!out.connector_metadata.has_next_page) break;
    out = await execute(ces, id, {
      entity: entity.name,
      action,
      params: { cursor: out.connector_metadata.end_cursor },
    });
  }
  const s = (performance.now() - t0) / 1000;
  return { records, seconds: +s.toFixed(3), records_per_s: Math.round(records / s) };
}

async function backfillFigure(def: ConnectorDefinition, fake: SuiteFake) {
  const indexed = def.entities.filter((e) => e.context_store);
  const ces = await cesFor(def.slug, fake, fake.url, { CES_SYNC_POLL_MS: '20' });
  try {
    const t0 = performance.now();
    const id = await createConnector(ces, fake);
    const ready = new Map<string, { seconds: number; records: number }>();
    const deadline = t0 + 300_000;
    while (ready.size < indexed.length && performance.now() < deadline) {
      for (const state of (await inspect(ces, id)).entities) {
        if (state.status === 'Failed') throw new Error(`${def.slug} ${state.entity}: ${state.last_error}`);
        if (state.status === 'Ready' && !ready.has(state.entity))
          ready.set(state.entity, { seconds: (performance.now() - t0) / 1000, records: state.entity_count });
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    const out: Record<string, unknown> = {};
    for (const entity of indexed) {
      const done = ready.get(entity.name);
      // Partitioned entities need their partition's params to be listed by a client; no baseline then.
      const baseline = entity.context_store?.partitions
        ? null
        : await pageThrough(ces, id, entity, fake.happy);
      out[entity.name] = done
        ? {
            records: done.records,
            ready_s: +done.seconds.toFixed(3),
            records_per_s: Math.round(done.records / done.seconds),
            client_paging_baseline: baseline,
            ratio_to_baseline:
              baseline && baseline.records_per_s > 0
                ? +(done.records / done.seconds / baseline.records_per_s).toFixed(2)
                : null,
          }
        : { status: 'not Ready within 300 s' };
    }
    return { all_ready_s: +((performance.now() - t0) / 1000).toFixed(2), entities: out };
  } finally {
    await stop(ces.proc);
    fs.rmSync(ces.dataDir, { recursive: true, force: true });
  }
}

async function main() {
  const results: Record<string, unknown> = {
    date: new Date().toISOString(),
    node: process.version,
    cpus: os.cpus().length,
    load_average_at_start: os.loadavg()[0],
    duration_s: duration,
  };
  for (const slug of values.slugs.split(',').filter(Boolean)) {
    const def = registry.bySlug(slug);
    if (!def) throw new Error(`no definition ${slug}`);
    const fake = await startFake(slug);
    try {
      const list = await listFigure(def, fake);
      console.log(slug, 'list', list);
      const backfill = await backfillFigure(def, fake);
      console.log(slug, 'backfill', JSON.stringify(backfill));
      results[slug] = { list, backfill };
      // Written after each connector, so a run that fails later keeps what it measured.
      writeResults('catalog.json', results);
    } finally {
      await stop(fake.proc);
    }
  }
}

main().catch(async (err) => {
  console.error(err);
  await stopAll();
  process.exit(1);
});
