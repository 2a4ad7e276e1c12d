// A provider that answers at most N records per query (HubSpot's search stops at 10,000): with `query_cap`, the
// sync starts a new query from the largest value seen before a page would pass the cap, and still reads every
// record once into the index — here against a local search endpoint that refuses to page past 6 records.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { parseDefinition } from '../../src/connectors/load.ts';
import { DefinitionRegistry } from '../../src/connectors/registry.ts';
import { entityState } from '../helpers/context-store.ts';
import { testDefinitionYaml } from '../helpers/definition-yaml.ts';
import { type Harness, startHarness } from '../helpers/harness.ts';
import { waitFor } from '../helpers/wait.ts';
import { json, type SeenRequest, startServer } from '../unit/connectors/helpers.ts';

const CAP = 6;
const PAGE = 2;
/** 15 records, two of them sharing each modification time, oldest first. */
const RECORDS = Array.from({ length: 15 }, (_, i) => ({
  id: `r${i + 1}`,
  modified: new Date(Date.UTC(2024, 0, 1 + Math.floor(i / 2))).toISOString(),
}));

const YAML = testDefinitionYaml(
  '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d',
  'cappy',
  `  - name: things
    description: Things, through a capped search.
    primary_key: [id]
    actions:
      api_search:
        description: Things modified at or after since, oldest first.
        params:
          since: { type: string, description: Modified at or after. }
        request:
          method: POST
          path: /search
          idempotent: true
          body: { filter: { modified_gte: "{since}" }, sort: modified }
        record_selector: [results]
        pagination: { type: body_cursor, cursor_path: [next], param: offset, in: body }
        page_size_param: false
    context_store:
      action: api_search
      query_cap: ${CAP}
      incremental: { param: since, field: modified }
      fields:
        - { name: id, type: string }
        - { name: modified, type: timestamp }
`,
);

/** A harness syncing one Cappy connector (the definition `yaml`) against `upstream`, its worker started. */
async function syncing(yaml: string, upstream: string, env: Record<string, string> = {}) {
  const registry = new DefinitionRegistry([parseDefinition(yaml, 'cappy.yaml')]);
  const h = await startHarness(
    { CES_UPSTREAM_OVERRIDES: JSON.stringify({ cappy: upstream }), CES_SYNC_POLL_MS: '20', ...env },
    { registry },
  );
  const token = await h.token();
  const res = await h.inject({
    method: 'POST',
    url: '/api/v1/integrations/connectors',
    token,
    body: { workspace_name: 'default', connector_type: 'cappy', credentials: { key: 'k' } },
  });
  assert.equal(res.status, 200, res.body);
  await h.deps.worker.start();
  return { h, token, id: res.json.id as string };
}

describe('context store: a capped query starts again from the largest value seen', () => {
  let h: Harness;
  let server: Awaited<ReturnType<typeof startServer>>;
  let token: string;
  let id: string;
  const searches = (): Array<{ since?: string; offset: number }> =>
    server.seen
      .filter((r: SeenRequest) => r.url === '/search')
      .map((r) => {
        const body = JSON.parse(r.body) as { filter?: { modified_gte?: string }; offset?: string };
        return {
          ...(body.filter?.modified_gte ? { since: body.filter.modified_gte } : {}),
          offset: Number(body.offset ?? 0),
        };
      });

  before(async () => {
    server = await startServer((req, res) => {
      if (req.url === '/me') return json(res, 200, { id: 'me' });
      const body = JSON.parse(req.body) as { filter?: { modified_gte?: string }; offset?: string };
      const since = body.filter?.modified_gte;
      const offset = Number(body.offset ?? 0);
      // Like HubSpot: paging past the cap of one query is refused.
      if (offset + PAGE > CAP) return json(res, 400, { message: 'cannot page past the result cap' });
      const matching = RECORDS.filter((r) => since === undefined || r.modified >= since);
      const results = matching.slice(offset, offset + PAGE);
      json(res, 200, {
        results,
        ...(offset + PAGE < matching.length ? { next: String(offset + PAGE) } : {}),
      });
    });
    ({ h, token, id } = await syncing(YAML, server.url));
  });

  after(async () => {
    await h?.close();
    await server?.close();
  });

  test('every record is indexed once, through queries that each stay under the cap', async () => {
    const state = await waitFor('things Ready', async () => {
      const s = await entityState(h, token, id, 'things');
      return s?.status === 'Ready' ? s : undefined;
    });
    assert.equal(state?.entity_count, RECORDS.length);
    const sent = searches();
    assert.ok(
      sent.every((s) => s.offset + PAGE <= CAP),
      JSON.stringify(sent),
    );
    // More than one query: each new one is bounded by the newest record the last one read.
    const bounds = [...new Set(sent.map((s) => s.since ?? 'none'))];
    assert.ok(bounds.length >= 3, JSON.stringify(sent));
    assert.equal(bounds[0], 'none');
    assert.ok(
      bounds.slice(1).every((b, i, all) => i === 0 || b > (all[i - 1] as string)),
      JSON.stringify(bounds),
    );
  });
});

describe('context store: a list read newest first is refreshed down to what is already stored', () => {
  let h: Harness;
  let server: Awaited<ReturnType<typeof startServer>>;
  let token: string;
  let id: string;
  /** 12 records, one a day, newest first; record r13 appears later. */
  const rows = Array.from({ length: 12 }, (_, i) => ({
    id: `r${i + 1}`,
    edited: new Date(Date.UTC(2024, 0, 1 + i)).toISOString(),
  }));
  const pagesAsked = () =>
    server.seen.filter((r: SeenRequest) => r.url.startsWith('/things')).map((r) => r.url);

  before(async () => {
    server = await startServer((req, res) => {
      if (req.url === '/me') return json(res, 200, { id: 'me' });
      const offset = Number(new URL(req.url, 'http://x').searchParams.get('offset') ?? 0);
      const newestFirst = [...rows].sort((a, b) => b.edited.localeCompare(a.edited));
      const results = newestFirst.slice(offset, offset + PAGE);
      json(res, 200, { results, ...(offset + PAGE < rows.length ? { next: String(offset + PAGE) } : {}) });
    });
    const yaml = testDefinitionYaml(
      '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d',
      'cappy',
      `  - name: things
    description: Things, newest edit first.
    primary_key: [id]
    actions:
      list:
        description: Things, newest edit first.
        request: { method: GET, path: /things }
        record_selector: [results]
        pagination: { type: body_cursor, cursor_path: [next], param: offset }
        page_size_param: false
    context_store:
      incremental: { field: edited, order: descending }
      fields:
        - { name: id, type: string }
        - { name: edited, type: timestamp }
`,
    );
    ({ h, token, id } = await syncing(yaml, server.url, {
      CES_SYNC_INTERVAL_SECONDS: '1',
      CES_SYNC_FULL_INTERVAL_SECONDS: '3600',
    }));
  });

  after(async () => {
    await h?.close();
    await server?.close();
  });

  test('the backfill reads every page; a refresh stops at the first page older than the newest stored', async () => {
    await waitFor('things Ready', async () => {
      const s = await entityState(h, token, id, 'things');
      return s?.status === 'Ready' && s.entity_count === 12 ? s : undefined;
    });
    assert.equal(pagesAsked().length, 6, 'the backfill reads all 6 pages');
    const mark = pagesAsked().length;
    rows.push({ id: 'r13', edited: new Date(Date.UTC(2024, 0, 20)).toISOString() });
    await waitFor('r13 indexed', async () => {
      const s = await entityState(h, token, id, 'things');
      return s?.entity_count === 13 ? s : undefined;
    });
    // The refresh that found r13 read its first page (r13, r12: r12 is the newest stored, not older) and the
    // second (r11 is older): two pages, not six.
    const refresh = pagesAsked().slice(mark);
    assert.ok(refresh.length >= 2, JSON.stringify(refresh));
    assert.deepEqual(refresh.slice(0, 2), ['/things', '/things?offset=2']);
    assert.ok(!refresh.includes('/things?offset=4'), JSON.stringify(refresh));
  });
});
