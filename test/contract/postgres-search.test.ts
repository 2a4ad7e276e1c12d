// Context Store searches on PostgreSQL stop at their time budget (the statement timeout) with SEARCH_TIMEOUT,
// and the connection they ran on serves the next search; they wait their turn as on SQLite (search-queue.ts):
// a flood of one organization's costly searches is refused as its own doing, a crowd of cheap ones all run.
// Made heavy with data, never with timing.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import type { Store } from '../../src/store/port.ts';
import { openPostgresStore } from '../../src/store/postgres/index.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/postgres.ts';
import { definition, layout } from '../unit/context-store/fixture.ts';
import { newConnector, newOrg, newWorkspace, T0 } from './fixtures.ts';

const ROWS = 400_000;

let db: TestDatabase;
let store: Store;
let org: string;
let connectorId: string;
let schema: string;
before(async () => {
  db = await createTestDatabase();
  schema = db.schema();
  // The smallest budget the configuration allows.
  ({ store } = await openPostgresStore({
    url: db.url,
    schema,
    migrate: true,
    search: { timeoutMs: 10, threads: 2 },
  }));
  org = await newOrg(store);
  const ws = await newWorkspace(store, org, 'search');
  connectorId = (await newConnector(store, org, ws.id, { definition_id: definition.id })).id;
  await store.contextStore.ensureLayouts([layout], T0);
  await store.contextStore.initConnector(org, connectorId, ['issues'], T0);
  const title = layout.fields.get('title')!.column;
  const number = layout.fields.get('number')!.column;
  // Straight into the index table: what a long backfill would have written.
  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  try {
    await client.query(`SET search_path TO ${schema}`);
    await client.query(
      `INSERT INTO "${layout.table}" (connector_key, record_key, data, sync_generation, synced_at, "${title}", "${number}")
       SELECT k.connector_key, i::text, jsonb_build_object('id', i, 'number', i, 'title', 'routine task ' || i),
              1, 'x', 'routine task ' || i, i
       FROM generate_series(1, ${ROWS}) AS i, cs_connectors k WHERE k.connector_id = $1`,
      [connectorId],
    );
  } finally {
    await client.end();
  }
});
after(async () => {
  await store?.close();
  await db?.drop();
});

describe('PostgreSQL search budget', () => {
  it('a search past its budget answers SEARCH_TIMEOUT; the next search runs', async () => {
    await assert.rejects(
      store.contextStore.search(org, connectorId, layout, {
        filter: { like: { title: '%zzz%' } },
        limit: 10,
        offset: 0,
      }),
      (err: Error & { code?: string }) => {
        assert.equal(err.code, 'SEARCH_TIMEOUT');
        return true;
      },
    );
    const rows = await store.contextStore.search(org, connectorId, layout, {
      filter: { eq: { number: 4242 } },
      limit: 10,
      offset: 0,
    });
    assert.deepEqual(
      rows.map((r) => JSON.parse(r.data).id),
      [4242],
    );
  });

  it('another organization sees nothing of the connector', async () => {
    const other = await newOrg(store);
    const rows = await store.contextStore.search(other, connectorId, layout, { limit: 10, offset: 0 });
    assert.deepEqual(rows, []);
  });
});

describe('PostgreSQL searches waiting their turn', () => {
  const heavy = { filter: { like: { title: '%zzz%' } }, limit: 10, offset: 0 };
  const codeOf = (r: PromiseSettledResult<unknown>) =>
    r.status === 'fulfilled' ? 'ok' : String((r.reason as { code?: string }).code ?? r.reason);

  it("a flood of one organization's costly searches: some run out their budget, the others hear SEARCH_QUEUE_FULL, none SERVER_BUSY", async () => {
    // Its cost learnt: it runs its whole budget (10 ms), and a search may expect to wait two.
    await assert.rejects(
      store.contextStore.search(org, connectorId, layout, heavy),
      (err: Error & { code?: string }) => {
        assert.equal(err.code, 'SEARCH_TIMEOUT');
        return true;
      },
    );
    const settled = await Promise.allSettled(
      Array.from({ length: 20 }, () => store.contextStore.search(org, connectorId, layout, heavy)),
    );
    const codes = settled.map(codeOf);
    assert.deepEqual(
      codes.filter((c) => c !== 'SEARCH_TIMEOUT' && c !== 'SEARCH_QUEUE_FULL'),
      [],
      codes.join(', '),
    );
    assert.ok(codes.includes('SEARCH_TIMEOUT'), codes.join(', '));
    assert.ok(codes.includes('SEARCH_QUEUE_FULL'), codes.join(', '));
  });

  it('200 cheap searches of one organization at once all run', async () => {
    // The default budget, on the same database: the owner look-ups run ten at a time, the searches one at a
    // time (one of the two slots is left to other organizations), so most of them wait.
    const { store: defaults } = await openPostgresStore({
      url: db.url,
      schema,
      migrate: false,
      search: { timeoutMs: 2000, threads: 2 },
    });
    try {
      const settled = await Promise.allSettled(
        Array.from({ length: 200 }, (_, i) =>
          defaults.contextStore.search(org, connectorId, layout, {
            filter: { eq: { number: 1000 + i } },
            limit: 10,
            offset: 0,
          }),
        ),
      );
      const codes = settled.map(codeOf);
      assert.deepEqual(
        codes.filter((c) => c !== 'ok'),
        [],
      );
    } finally {
      await defaults.close();
    }
  });
});
