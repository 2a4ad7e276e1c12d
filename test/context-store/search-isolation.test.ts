// Context Store searches run on reader threads, within a time budget, taking turns across organizations: a
// search past its budget is stopped inside SQLite (its read transaction is over by the time the 503 arrives)
// and the reader serves the next search; one organization's flood of heavy searches neither delays /healthz
// nor keeps another organization's searches waiting behind it, and is refused as its own doing (429), while 50
// clients of cheap searches all wait their turn; a query nested thousands of levels deep is a 422. Heavy searches are made heavy with data (records added straight to the index), never with timing.
// ces-test: sqlite-only — the reader threads and the per-row budget guard are the SQLite adapter's
// (PostgreSQL's statement timeout and search slots are tested in test/contract/postgres-search.test.ts).
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import Database from 'better-sqlite3';
import { columnValue, definitionLayouts, quoteIdent, recordKey } from '../../src/context-store/layout.ts';
import { searchContextStore } from '../../src/core/connectors/context-store.ts';
import { DomainError } from '../../src/errors.ts';
import { ftsFillSql, indexRowInsertSql } from '../../src/store/sqlite/context-index.ts';
import {
  createGithubConnector,
  GITHUB_DEFINITION_ID,
  type Harness,
  startWithGithub,
} from '../connectors/github/harness.ts';
import { entityState } from '../helpers/context-store.ts';
import { waitFor } from '../helpers/wait.ts';

const BULK = 20_000;
/**
 * Four `any` and six `like` conditions no added record matches, over 30-label arrays and 4 KB bodies full of
 * near misses: every row of the connector is read, at ~90 µs each (1.9 s for the added records).
 */
const HEAVY = {
  or: [
    ...Array.from({ length: 4 }, (_, i) => ({ any: { labels: { like: { name: `%zz${i}%` } } } })),
    ...Array.from({ length: 6 }, (_, i) => ({ like: { body: `%zzq${i}%` } })),
  ],
};
const CHEAP = { eq: { number: 1 } };

interface Org {
  token: string;
  connectorId: string;
}

/** A harness with two organizations, each with a GitHub connector whose issues are searchable. */
/** `bulk` large issues are added to the first organization's index. */
async function start(env: Record<string, string>, bulk = BULK) {
  const { h, close } = await startWithGithub(undefined, env);
  const a = await connectorOf(h, await h.token());
  const other = await h.otherOrg();
  const b = await connectorOf(h, other.token);
  await h.deps.worker.start();
  for (const org of [a, b]) {
    await waitFor('issues searchable', async () =>
      (await entityState(h, org.token, org.connectorId, 'issues'))?.ready_for_search === true
        ? true
        : undefined,
    );
  }
  await h.deps.worker.stop();
  if (bulk > 0) addIssues(h, a.connectorId, bulk);
  return { h, a, b, close };
}

async function connectorOf(h: Harness, token: string): Promise<Org> {
  const res = await createGithubConnector(h, token);
  assert.equal(res.status, 200, res.body);
  return { token, connectorId: res.json.id };
}

const dbFile = (h: Harness) => path.join(h.dataDir, 'ces.db');

/** Adds `n` large issues to the connector's index, as the writer stores a batch. */
function addIssues(h: Harness, connectorId: string, n: number) {
  const def = h.deps.registry.byId(GITHUB_DEFINITION_ID)!;
  const layout = definitionLayouts(def).find((l) => l.entity === 'issues')!;
  const fields = [...layout.fields.values()];
  const db = new Database(dbFile(h));
  db.pragma('busy_timeout = 5000');
  try {
    const key = db
      .prepare('SELECT connector_key FROM cs_connectors WHERE connector_id = ?')
      .pluck()
      .get(connectorId);
    const table = quoteIdent(layout.table);
    const insert = db.prepare(indexRowInsertSql(layout));
    const body = 'zzq '.repeat(1000);
    const labels = Array.from({ length: 30 }, (_, i) => ({ name: `label ${i}`, color: 'ededed' }));
    db.transaction(() => {
      const before = db.prepare(`SELECT COALESCE(MAX(rid), 0) FROM ${table}`).pluck().get();
      for (let i = 0; i < n; i++) {
        const record = {
          id: `I_bulk${i}`,
          database_id: 9_000_000 + i,
          number: 100_000 + i,
          title: `Bulk issue ${i}`,
          body,
          labels,
        };
        const row = [key, recordKey(layout, record), JSON.stringify(record), 1, '2024-01-01T00:00:00.000Z'];
        insert.run(...row, ...fields.map((f) => columnValue(f, record)));
      }
      db.prepare(ftsFillSql(layout)!).run(before);
    })();
  } finally {
    db.close();
  }
}

function search(h: Harness, org: Org, filter: unknown) {
  return h.inject({
    method: 'POST',
    url: `/api/v1/integrations/connectors/${org.connectorId}/execute`,
    token: org.token,
    body: { entity: 'issues', action: 'search', params: { query: { filter }, limit: 5 } },
  });
}

type Reply = Awaited<ReturnType<typeof search>>;

/** The same search over a real connection to the listening server. */
async function post(base: string, org: Org, filter: unknown): Promise<Reply> {
  const res = await fetch(`${base}/api/v1/integrations/connectors/${org.connectorId}/execute`, {
    method: 'POST',
    headers: { authorization: `Bearer ${org.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ entity: 'issues', action: 'search', params: { query: { filter }, limit: 5 } }),
  });
  const raw = Buffer.from(await res.arrayBuffer());
  const body = raw.toString();
  return { status: res.status, headers: Object.fromEntries(res.headers), body, raw, json: JSON.parse(body) };
}

function assertErrorBody(res: Reply, status: number, code: string) {
  assert.equal(res.status, status, res.body);
  assert.equal(res.json.code, code);
  assert.equal(typeof res.json.message, 'string');
  assert.equal(typeof res.json.request_id, 'string');
  assert.ok(Array.isArray(res.json.errors));
}

/** Runs the requests at once; resolves with their replies and the order in which they completed. */
async function race(requests: Record<string, () => Promise<Reply>>) {
  const order: string[] = [];
  const replies: Record<string, Reply> = {};
  await Promise.all(
    Object.entries(requests).map(async ([name, send]) => {
      replies[name] = await send();
      order.push(name);
    }),
  );
  return { order, replies };
}

/**
 * Whether some connection holds a read transaction that began before now: a write, then a checkpoint that can
 * only empty the WAL when no reader still needs an older snapshot (no busy wait: it answers at once).
 */
function readerHoldsSnapshot(file: string): boolean {
  const db = new Database(file, { timeout: 0 });
  try {
    db.exec('CREATE TABLE IF NOT EXISTS test_probe (at INTEGER)');
    db.prepare('INSERT INTO test_probe VALUES (?)').run(Date.now());
    const [result] = db.pragma('wal_checkpoint(TRUNCATE)') as Array<{ busy: number }>;
    return result?.busy === 1;
  } finally {
    db.close();
  }
}

describe('searches on one reader thread', () => {
  let h: Harness;
  let a: Org;
  let b: Org;
  let base: string;
  let close: () => Promise<unknown>;
  before(async () => {
    // A budget far below a HEAVY search's run, and long enough that on a slow or paused machine b's search still
    // arrives while one of a's runs (at 100 ms, a CI run under load once saw a's second search go first).
    ({ h, a, b, close } = await start({ CES_SEARCH_THREADS: '1', CES_SEARCH_TIMEOUT_MS: '400' }));
    base = await h.app.listen({ host: '127.0.0.1', port: 0 });
  });
  after(async () => {
    await close();
  });

  test('a search past its budget is stopped inside SQLite and answers 503 SEARCH_TIMEOUT; the reader serves the next at once', async () => {
    // Started: the reader thread runs SQLite while this thread is free to look at the database meanwhile.
    const first = await search(h, a, CHEAP);
    assert.equal(first.status, 200, first.body);
    assert.equal(readerHoldsSnapshot(dbFile(h)), false, 'nothing reads while no search runs');

    let settled = false;
    const heavy = search(h, a, HEAVY).finally(() => {
      settled = true;
    });
    let sawReader = false;
    while (!settled && !sawReader) {
      sawReader = readerHoldsSnapshot(dbFile(h));
      await new Promise((r) => setTimeout(r, 2));
    }
    assert.ok(sawReader, 'the probe sees the running search hold its snapshot');

    const res = await heavy;
    assertErrorBody(res, 503, 'SEARCH_TIMEOUT');
    assert.match(res.json.message, /time budget of 400 ms/);
    assert.match(res.json.message, /Narrow the filter/);
    assert.equal(res.json.errors[0].field, 'params.query.filter');
    assert.equal(res.headers['retry-after'], undefined, 'the same query would time out again');
    // When the answer arrives, the statement has ended: it did not go on reading after the 503.
    assert.equal(readerHoldsSnapshot(dbFile(h)), false, 'the stopped search still holds its snapshot');

    const next = await search(h, a, CHEAP);
    assert.equal(next.status, 200, next.body);
    assert.equal(next.json.result[0].number, 1);
  });

  test("another organization's search runs before the flooding organization's waiting one", async () => {
    const { order, replies } = await race({
      a1: () => search(h, a, HEAVY),
      a2: () => search(h, a, HEAVY),
      // Sent once one of a's runs (the other waits, or is about to): served as soon as a1 has had its turn, before a2.
      b1: async () => {
        await waitFor("a's search running", async () => (readerHoldsSnapshot(dbFile(h)) ? true : undefined));
        return search(h, b, CHEAP);
      },
    });
    assert.equal(replies.b1?.status, 200, replies.b1?.body);
    assertErrorBody(replies.a1!, 503, 'SEARCH_TIMEOUT');
    assertErrorBody(replies.a2!, 503, 'SEARCH_TIMEOUT');
    // One of a's runs first (whichever reached the reader first), then b's, then a's other one.
    assert.deepEqual(
      order.map((name) => name.slice(0, 1)),
      ['a', 'b', 'a'],
    );
  });

  test("a flood of one organization's costly searches hears 429 SEARCH_QUEUE_FULL, never 503, from the listening server", async () => {
    // Its cost learnt: a HEAVY search runs its whole budget.
    assertErrorBody(await search(h, a, HEAVY), 503, 'SEARCH_TIMEOUT');
    // One runs, the next two are expected to start within two budgets (800 ms) and wait; the others would wait
    // longer behind the organization's own searches: refused as the organization's doing, without a place in line
    // (answered once their line would have let them in).
    const replies = await Promise.all(Array.from({ length: 36 }, () => post(base, a, HEAVY)));
    const codes = replies.map((r) => `${r.status} ${r.json.code}`);
    assert.deepEqual(
      codes.filter((c) => c !== '503 SEARCH_TIMEOUT' && c !== '429 SEARCH_QUEUE_FULL'),
      [],
      codes.join(', '),
    );
    const ran = codes.filter((c) => c === '503 SEARCH_TIMEOUT').length;
    assert.ok(ran >= 1, codes.join(', '));
    const refused = replies.filter((r) => r.status === 429);
    assert.ok(refused.length >= 20, codes.join(', '));
    for (const r of refused) {
      assertErrorBody(r, 429, 'SEARCH_QUEUE_FULL');
      assert.ok(Number(r.headers['retry-after']) >= 1, r.body);
      assert.equal(r.json.retry_after, Number(r.headers['retry-after']));
      assert.equal(r.json.errors[0].error_code, 'search_queue_full');
    }
    assert.ok(
      refused.some((r) => /would keep this one waiting about \d+ ms/.test(r.json.message)),
      'refused when it arrived, not after waiting in line',
    );
    // And the reader is free again, for either organization.
    assert.equal((await post(base, b, CHEAP)).status, 200);
    assert.equal((await post(base, a, CHEAP)).status, 200);
  });

  test('a filter or sort nested thousands of levels deep is a 422, at the HTTP API and in the search verb', async () => {
    let filter: unknown = CHEAP;
    for (let i = 0; i < 5_000; i++) filter = { not: filter };
    // Written by hand: JSON.stringify itself overflows at this depth.
    const deep = `${'{"not":'.repeat(5_000)}${JSON.stringify(CHEAP)}${'}'.repeat(5_000)}`;
    const res = await h.inject({
      method: 'POST',
      url: `/api/v1/integrations/connectors/${a.connectorId}/execute`,
      token: a.token,
      body: `{"entity":"issues","action":"search","params":{"query":{"filter":${deep}}}}`,
    });
    assert.equal(res.status, 422, res.body);
    assert.equal(typeof res.json.code, 'string');
    assert.equal(typeof res.json.request_id, 'string');
    assert.ok(Array.isArray(res.json.errors));

    // The verb itself, whatever the HTTP layer checks before it.
    const { connector } = (await h.deps.store.connectors.getWithCredentials(
      h.boot.organization_id,
      a.connectorId,
    ))!;
    const def = h.deps.registry.byId(GITHUB_DEFINITION_ID)!;
    const ctx = {
      organizationId: h.boot.organization_id,
      applicationId: 'test',
      kind: 'application' as const,
    };
    let sort: unknown = 'asc';
    for (let i = 0; i < 5_000; i++) sort = { number: sort };
    for (const query of [{ filter }, { sort: [sort] }]) {
      await assert.rejects(
        searchContextStore(h.deps, ctx, connector, def, {
          entity: 'issues',
          action: 'search',
          params: { query },
        }),
        (err: unknown) => err instanceof DomainError && err.code === 'INVALID_QUERY',
      );
    }
  });
});

describe('searches on two reader threads', () => {
  let h: Harness;
  let a: Org;
  let b: Org;
  let close: () => Promise<unknown>;
  before(async () => {
    ({ h, a, b, close } = await start({ CES_SEARCH_THREADS: '2', CES_SEARCH_TIMEOUT_MS: '400' }));
  });
  after(async () => {
    await close();
  });

  test("one organization's flood holds one reader at most: /healthz and the other organization's searches are answered meanwhile", async () => {
    // Both readers started (one search of each organization at once).
    const warm = await Promise.all([search(h, a, CHEAP), search(h, b, CHEAP)]);
    for (const r of warm) assert.equal(r.status, 200, r.body);

    const requests: Record<string, () => Promise<Reply>> = {};
    for (let i = 0; i < 4; i++) requests[`a${i}`] = () => search(h, a, HEAVY);
    const meanwhile = async () => {
      const replies: Reply[] = [];
      for (let i = 0; i < 5; i++) {
        replies.push(await h.inject({ method: 'GET', url: '/healthz' }));
        replies.push(await search(h, b, { eq: { number: 1 + i } }));
      }
      return replies;
    };
    let others: Reply[] = [];
    const { order, replies } = await race({
      ...requests,
      others: async () => {
        others = await meanwhile();
        return others[others.length - 1]!;
      },
    });
    for (const r of others) assert.equal(r.status, 200, r.body);
    const codes = Object.entries(replies).map(([name, r]) => `${name}: ${r.json.code ?? r.status}`);
    assert.equal(order[0], 'others', `completion order: ${order.join(', ')} (${codes.join(', ')})`);
    // Ran past its budget, or waited in vain behind its own: never the process's busy signal.
    for (let i = 0; i < 4; i++) {
      const r = replies[`a${i}`]!;
      assert.ok(['SEARCH_TIMEOUT', 'SEARCH_QUEUE_FULL'].includes(r.json.code), r.body);
    }
  });
});

describe('cheap searches at the default settings', () => {
  let h: Harness;
  let b: Org;
  let base: string;
  let close: () => Promise<unknown>;
  before(async () => {
    // Two reader threads and a 2 s budget (the defaults); no large index: every search here is cheap.
    ({ h, b, close } = await start({}, 0));
    base = await h.app.listen({ host: '127.0.0.1', port: 0 });
  });
  after(async () => {
    await close();
  });

  test('50 clients of one organization running cheap fuzzy searches at once all wait their turn: 500 answers, all 200, from the listening server', async () => {
    const fuzzy = { fuzzy: { title: 'widget jams' } };
    const found = await post(base, b, fuzzy);
    assert.equal(found.status, 200, found.body);
    assert.ok(found.json.result.length >= 1, 'the fuzzy search finds issues');
    // 50 at once is past the 32 one organization could once have waiting; each waits a few milliseconds.
    const codes: Record<string, number> = {};
    await Promise.all(
      Array.from({ length: 50 }, async () => {
        for (let i = 0; i < 10; i++) {
          const r = await post(base, b, fuzzy);
          const key = r.status === 200 ? '200' : `${r.status} ${r.json.code}`;
          codes[key] = (codes[key] ?? 0) + 1;
        }
      }),
    );
    assert.deepEqual(codes, { '200': 500 });
  });
});
