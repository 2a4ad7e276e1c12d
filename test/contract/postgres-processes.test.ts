// What several ces processes on one PostgreSQL share, each process played by a store of its own (its own pool
// of connections) on one schema: locks held across them, sync leases each claimed by one of them, and rate
// limits they hold together.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import type { OAuthState, Store } from '../../src/store/port.ts';
import { CHANGE_CHANNEL, WATCHED_TABLES } from '../../src/store/postgres/changes.ts';
import { openPostgresStore } from '../../src/store/postgres/index.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/postgres.ts';
import { waitFor } from '../helpers/wait.ts';
import { newConnector, newOrg, newWorkspace, T0, T1 } from './fixtures.ts';

let db: TestDatabase;
let schema: string;
let stores: Store[] = [];
/** Per store, what it reported of its listening connection (onChangeFeed). */
const feeds: Array<Array<{ listening: boolean; reason?: string | undefined }>> = [];
before(async () => {
  db = await createTestDatabase();
  schema = db.schema();
  // Opened one after the other: the first applies the migrations, the others find them applied.
  for (let i = 0; i < 3; i++) {
    const feed: (typeof feeds)[number] = [];
    feeds.push(feed);
    const onChangeFeed = (listening: boolean, reason?: string) => feed.push({ listening, reason });
    stores.push((await openPostgresStore({ url: db.url, schema, migrate: true, onChangeFeed })).store);
  }
});
after(async () => {
  await Promise.all(stores.map((s) => s.close()));
  stores = [];
  await db?.drop();
});

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs `text` on the test database outside every store: the number of rows it answered. */
async function adminQuery(text: string): Promise<number> {
  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  try {
    return (await client.query(text)).rowCount ?? 0;
  } finally {
    await client.end();
  }
}

describe('PostgreSQL, several processes', () => {
  it('exclusive: one holder of a key at a time across processes, others keys meanwhile free', async () => {
    let inside = 0;
    let most = 0;
    const order: number[] = [];
    const hold = (store: Store, n: number) =>
      store.exclusive('refresh:connector-1', async () => {
        inside++;
        most = Math.max(most, inside);
        await pause(15);
        order.push(n);
        inside--;
        return n;
      });
    const runs = stores.flatMap((store, i) => [hold(store, i * 10), hold(store, i * 10 + 1)]);
    // Another key is not held up by them.
    const other = stores[1]!.exclusive('refresh:connector-2', async () => inside);
    const results = await Promise.all(runs);
    assert.equal(most, 1);
    assert.equal(order.length, 6);
    assert.deepEqual(results.sort(), [0, 1, 10, 11, 20, 21]);
    assert.ok((await other) >= 0);
  });

  it('exclusive: the lock is freed when fn throws', async () => {
    await assert.rejects(
      stores[0]!.exclusive('k', async () => {
        throw new Error('boom');
      }),
      /boom/,
    );
    assert.equal(await stores[1]!.exclusive('k', async () => 'free'), 'free');
  });

  it('claim: of processes polling at once, each due sync goes to exactly one', async () => {
    const store = stores[0]!;
    const org = await newOrg(store);
    const ws = await newWorkspace(store, org, 'claims');
    const entities = ['a', 'b', 'c', 'd', 'e', 'f'];
    const connectors = [];
    for (let i = 0; i < 3; i++) {
      const c = await newConnector(store, org, ws.id);
      await store.contextStore.initConnector(org, c.id, entities, T0);
      connectors.push(c.id);
    }
    const claims = await Promise.all(
      Array.from({ length: 30 }, (_, i) => stores[i % 3]!.contextStore.claim(`worker-${i}`, T0, T1)),
    );
    const got = claims.filter((j) => j !== undefined).map((j) => `${j.connector_id}/${j.entity}`);
    assert.equal(got.length, 18);
    assert.equal(new Set(got).size, 18);
  });

  it('open consent states: the caps hold for all processes together', async () => {
    const org = await newOrg(stores[0]!);
    const ws = await newWorkspace(stores[0]!, org, 'consents');
    const row = (i: number): OAuthState => ({
      id: randomUUID(),
      organization_id: org,
      application_id: randomUUID(),
      workspace_id: ws.id,
      widget_token_id: i % 2 === 0 ? 'token-even' : 'token-odd',
      definition_id: 'def-hubspot',
      option_title: 'OAuth2.0',
      redirect_url: 'https://app.example.com/done',
      request: '{}',
      verifier: null,
      created_at: T0,
      expires_at: T1,
      used_at: null,
    });
    const caps = { perWorkspace: 5, perWidgetToken: 3 };
    const got = await Promise.all(
      Array.from({ length: 24 }, (_, i) => stores[i % 3]!.oauthStates.createWithinCaps(row(i), caps, T0)),
    );
    // 3 per token would be 6; the workspace's 5 stops them first, whichever token each was begun with.
    assert.equal(got.filter((g) => g.created).length, 5);
    const refused = got.filter((g) => !g.created).map((g) => (g.created ? '' : g.cap));
    assert.ok(refused.every((cap) => cap === 'workspace' || cap === 'widget_token'));
    assert.ok(refused.includes('workspace'), 'the workspace cap refused some');
  });

  it('rate buckets: a limit of 3 per minute holds for all processes together', async () => {
    const rate = { requests: 3, per_seconds: 60 };
    const now = await Promise.all(
      Array.from({ length: 12 }, (_, i) => stores[i % 3]!.rateBuckets!.reserve('connector-r', rate, 0)),
    );
    assert.equal(now.filter((r) => r.granted).length, 3);
    for (const r of now.filter((x) => !x.granted))
      assert.ok(r.waitMs > 0 && r.waitMs <= 20_001, `${r.waitMs}`);
    // Waiting is allowed: each next token is due a third of a minute after the one before.
    const queued = [];
    for (const store of stores) queued.push(await store.rateBuckets!.reserve('connector-r', rate, 120_000));
    assert.ok(queued.every((r) => r.granted));
    const waits = queued.map((r) => r.waitMs);
    assert.ok(waits[0]! > 15_000 && waits[0]! <= 20_000, `${waits}`);
    assert.ok(Math.abs(waits[1]! - waits[0]! - 20_000) < 1000, `${waits}`);
    assert.ok(Math.abs(waits[2]! - waits[1]! - 20_000) < 1000, `${waits}`);
    // Another key has its own bucket.
    assert.equal((await stores[2]!.rateBuckets!.reserve('connector-s', rate, 0)).granted, true);
  });

  it("rate buckets: a provider's usage header holds the shared bucket to the share it says is free", async () => {
    const rate = { requests: 40, per_seconds: 20 };
    // A fresh bucket (full, 40) told that 1/40 is free holds 1 token: one request now, the next 500 ms later.
    await stores[0]!.rateBuckets!.observe('connector-u', rate, 1 / 40);
    assert.equal((await stores[1]!.rateBuckets!.reserve('connector-u', rate, 0)).granted, true);
    const next = await stores[2]!.rateBuckets!.reserve('connector-u', rate, 0);
    assert.equal(next.granted, false);
    assert.ok(next.waitMs > 400 && next.waitMs <= 501, `${next.waitMs}`);
    // A share larger than what is left never fills the bucket up.
    await stores[1]!.rateBuckets!.observe('connector-u', rate, 1);
    assert.equal((await stores[0]!.rateBuckets!.reserve('connector-u', rate, 0)).granted, false);
  });

  it('concurrency slots: a limit of 2 holds for all processes together; a dead holder frees after its time', async () => {
    const tries = await Promise.all(
      Array.from({ length: 9 }, (_, i) =>
        stores[i % 3]!.concurrencySlots!.tryAcquire('connector-c', 2, 60_000),
      ),
    );
    const held = tries.filter((id): id is string => id !== null);
    assert.equal(held.length, 2);
    assert.equal(await stores[0]!.concurrencySlots!.tryAcquire('connector-c', 2, 60_000), null);
    await stores[1]!.concurrencySlots!.release(held[0]!);
    const next = await stores[2]!.concurrencySlots!.tryAcquire('connector-c', 2, 60_000);
    assert.ok(next);
    // A slot whose holder died (never released) is free once its time is over.
    const other = await stores[0]!.concurrencySlots!.tryAcquire('connector-d', 1, 1);
    assert.ok(other);
    await pause(20);
    assert.ok(await stores[1]!.concurrencySlots!.tryAcquire('connector-d', 1, 60_000));
  });

  it('changeVersion: another process’s write reaches every process by notification; its own at once', async () => {
    const [a, b] = [stores[0]!, stores[1]!];
    const org = await newOrg(a);
    const ws = await newWorkspace(a, org, 'Changes');
    const c = await newConnector(a, org, ws.id);
    const settled = await waitFor('no notification in flight', async () => {
      const v = b.changeVersion();
      await pause(100);
      return b.changeVersion() === v ? v : undefined;
    });
    assert.equal(await a.connectors.update(org, c.id, { name: 'Seen elsewhere', now: T1 }), true);
    const seen = await waitFor('the notification', async () =>
      b.changeVersion() !== settled ? true : undefined,
    );
    assert.equal(seen, true);
    assert.equal((await b.connectors.get(org, c.id))?.name, 'Seen elsewhere');
  });

  it('changeVersion: every watched table has the trigger that notifies the channel listened to', async () => {
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    try {
      const triggers = await client.query<{ table: string; action: string }>(
        `SELECT event_object_table AS table, action_statement AS action FROM information_schema.triggers
         WHERE trigger_schema = $1 AND event_manipulation = 'UPDATE' ORDER BY event_object_table`,
        [schema],
      );
      assert.deepEqual(
        triggers.rows.map((t) => t.table),
        [...WATCHED_TABLES].sort(),
      );
      for (const t of triggers.rows) assert.match(t.action, /ces_notify_change\(\)/);
      const fn = await client.query<{ src: string }>(
        "SELECT prosrc AS src FROM pg_proc WHERE proname = 'ces_notify_change'",
      );
      assert.match(fn.rows[0]?.src ?? '', new RegExp(`pg_notify\\('${CHANGE_CHANNEL}'`));
    } finally {
      await client.end();
    }
  });

  it('changeVersion: while the listening connection is lost every call is a change, until it is back', async () => {
    const b = stores[1]!;
    // Started listening without a hitch: nothing reported.
    assert.equal(feeds[1]?.length, 0);
    const terminated = await adminQuery(
      "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'ces-changes' AND datname = current_database()",
    );
    assert.ok(terminated >= 1, 'the listening connections were found');
    await waitFor('the loss to be noticed', async () => {
      const v = b.changeVersion();
      return b.changeVersion() !== v ? true : undefined;
    });
    // Back (it reconnects within seconds): the version holds still again.
    await waitFor(
      'listening again',
      async () => {
        const v = b.changeVersion();
        await pause(50);
        return b.changeVersion() === v ? true : undefined;
      },
      15_000,
    );
    // Reported once when lost, with the reason, and once when back.
    await waitFor('the return reported', async () => (feeds[1]?.length === 2 ? true : undefined));
    assert.equal(feeds[1]?.[0]?.listening, false);
    assert.match(feeds[1]?.[0]?.reason ?? '', /terminat/);
    assert.deepEqual(feeds[1]?.[1], { listening: true, reason: undefined });
  });
});
