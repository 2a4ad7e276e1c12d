// What `record_fields` costs on a large list: GitHub's `issues.list` (100 records a page, --pages pages) walked to
// its end through ces's execute, once with GitHub's definition (its issues write `id` and `database_id`, so each
// record is parsed, rewritten and serialised again) and once with the same definition less its record_fields (the
// untouched fast path: the provider's bytes are written on unparsed), in the same run, in rotation. The fake
// (bench/fake-bulk-github.ts) runs in a process of its own; ces runs in this one (the harness of the tests, an
// in-process app), so the CPU time read here is ces's work per page plus the in-process client's, equal on both.
//
// Usage: npm run bench:record-fields [-- --pages 50 --rounds 5 --out record-fields.json]
import { parseArgs } from 'node:util';
import { DefinitionRegistry } from '../src/connectors/registry.ts';
import type { ConnectorDefinition } from '../src/connectors/schema.ts';
import { GITHUB_FAKE_DEFAULT_TOKEN } from '../test/connectors/github/fake/index.ts';
import { startHarness } from '../test/helpers/harness.ts';
import { launch, stopAll, writeResults } from './lib.ts';

const { values } = parseArgs({
  options: {
    pages: { type: 'string', default: '50' },
    rounds: { type: 'string', default: '5' },
    out: { type: 'string', default: 'record-fields.json' },
  },
});
const pages = Number(values.pages);
const rounds = Math.max(1, Number(values.rounds));

/** GitHub's definition with another id and slug, and none of its record_fields: lists keep the fast path. */
function withoutRecordFields(def: ConnectorDefinition): ConnectorDefinition {
  const plain = structuredClone(def) as ConnectorDefinition & { entities: Array<Record<string, unknown>> };
  for (const entity of plain.entities) {
    delete entity.record_fields;
    for (const action of Object.values(entity.actions as Record<string, Record<string, unknown>>))
      delete action.record_fields;
  }
  return {
    ...plain,
    id: '0e5c9a4e-7d3b-4f6a-9b1c-2d8e7f6a5b4c',
    slug: 'github-plain',
    name: 'GitHub (plain)',
  };
}

const github = DefinitionRegistry.default().bySlug('github');
if (github === undefined) throw new Error('no github definition');
const plain = withoutRecordFields(github);

const fake = await launch(['--import', 'tsx', 'bench/fake-bulk-github.ts'], {
  BENCH_RECORDS: String(pages * 100),
});
const h = await startHarness(
  {
    CES_UPSTREAM_OVERRIDES: JSON.stringify({ github: fake.url, 'github-plain': fake.url }),
    CES_RATE_LIMIT_OVERRIDES: JSON.stringify({ github: null, 'github-plain': null }),
    CES_SYNC_ENABLED: 'false',
  },
  { registry: new DefinitionRegistry([github, plain]) },
);

try {
  const token = await h.token();
  const connector = async (type: string) => {
    const res = await h.inject({
      method: 'POST',
      url: '/api/v1/integrations/connectors',
      token,
      body: {
        workspace_name: 'default',
        connector_type: type,
        name: type,
        credentials: { personal_access_token: GITHUB_FAKE_DEFAULT_TOKEN },
        replication_config: { repositories: ['bench/big'] },
      },
    });
    if (res.status !== 200) throw new Error(res.body);
    return res.json.id as string;
  };
  const ids = { record_fields: await connector('github'), fast_path: await connector('github-plain') };

  /** Walks the whole list once: wall and CPU milliseconds, pages, records and reply bytes. */
  const walk = async (id: string) => {
    const wall = performance.now();
    const cpu = process.cpuUsage();
    let params: Record<string, unknown> = {
      owner: 'bench',
      repo: 'big',
      state: 'all',
      sort: 'updated',
      per_page: 100,
    };
    let n = 0;
    let records = 0;
    let bytes = 0;
    for (;;) {
      const res = await h.inject({
        method: 'POST',
        url: `/api/v1/integrations/connectors/${id}/execute`,
        token,
        body: { entity: 'issues', action: 'list', params },
      });
      if (res.status !== 200) throw new Error(res.body);
      n += 1;
      bytes += res.raw.length;
      records += res.json.result.length;
      const meta = res.json.connector_metadata;
      if (!meta.has_next_page) break;
      params = { cursor: meta.end_cursor };
    }
    const used = process.cpuUsage(cpu);
    return {
      wall_ms: performance.now() - wall,
      cpu_ms: (used.user + used.system) / 1000,
      pages: n,
      records,
      bytes,
    };
  };

  // One walk each to warm up (JIT, connections), not counted.
  await walk(ids.record_fields);
  await walk(ids.fast_path);
  const samples: Record<keyof typeof ids, Array<Awaited<ReturnType<typeof walk>>>> = {
    record_fields: [],
    fast_path: [],
  };
  for (let r = 0; r < rounds; r++) {
    // Alternate which goes first, so neither always runs on a warmer machine.
    const order: Array<keyof typeof ids> =
      r % 2 === 0 ? ['record_fields', 'fast_path'] : ['fast_path', 'record_fields'];
    for (const variant of order) samples[variant].push(await walk(ids[variant]));
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
  const summary = Object.fromEntries(
    Object.entries(samples).map(([variant, runs]) => {
      const first = runs[0] as Awaited<ReturnType<typeof walk>>;
      return [
        variant,
        {
          pages: first.pages,
          records: first.records,
          reply_bytes: first.bytes,
          wall_ms_per_page: median(runs.map((s) => s.wall_ms)) / first.pages,
          cpu_ms_per_page: median(runs.map((s) => s.cpu_ms)) / first.pages,
        },
      ];
    }),
  ) as unknown as Record<keyof typeof ids, { wall_ms_per_page: number; cpu_ms_per_page: number }>;
  const results = {
    pages,
    rounds,
    ...summary,
    ratio: {
      wall: summary.record_fields.wall_ms_per_page / summary.fast_path.wall_ms_per_page,
      cpu: summary.record_fields.cpu_ms_per_page / summary.fast_path.cpu_ms_per_page,
    },
  };
  console.log(JSON.stringify(results, null, 2));
  writeResults(values.out, results);
} finally {
  await h.close();
  await stopAll();
}
