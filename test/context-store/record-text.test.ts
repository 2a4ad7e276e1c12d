// The sync keeps each record's JSON as the provider wrote it (payload.ts recordTexts) instead of serialising
// the parsed record again: the store writes the text it is given, and serialises only records without one.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DomainError } from '../../src/errors.ts';
import { claimGithubIssues, type Harness, startWithGithub } from '../connectors/github/harness.ts';

describe("the provider's record text", () => {
  let h: Harness;
  let close: () => Promise<unknown>;

  before(async () => {
    ({ h, close } = await startWithGithub(undefined, { CES_SYNC_ENABLED: 'false' }));
  });
  after(() => close());

  /**
   * The store's decoder of pages given as bytes (SQLite's); undefined on PostgreSQL, which is given parsed records
   * (its writes do not share the request path's thread).
   */
  const bytesEncoder = () => {
    const store = h.deps.store.contextStore;
    if (!store.encodeBytes) assert.equal(h.database, 'postgres');
    return store.encodeBytes?.bind(store);
  };

  test('is stored as given, and a record without one is serialised', async () => {
    const { job, layout, store, now, commit } = await claimGithubIssues(h);
    // As a provider may write them: a key order, number forms and escapes JSON.stringify would not keep.
    const texts = [
      '{"number":7,"database_id":41,"title":"caf\\u00e9","score":1.50}',
      '{"database_id":42,"number":8,"title":"b"}',
    ];
    const records = texts.map((t) => JSON.parse(t));
    records.push({ database_id: 43, number: 9, title: 'c' });
    const encoded = store.encode(job.connector_id, layout, records, 1, now, [...texts]);
    const held = await commit([encoded]);
    assert.equal(held.held, true);
    const rows = await h.query(`SELECT data FROM "${layout.table}"`);
    const stored = rows.map((r) => (typeof r.data === 'string' ? r.data : JSON.stringify(r.data))).sort();
    if (h.database === 'sqlite') {
      assert.deepEqual(stored, [...texts, '{"database_id":43,"number":9,"title":"c"}'].sort());
    } else {
      // PostgreSQL keeps the data as JSONB: the same values, in its own layout.
      assert.deepEqual(
        stored.map((s) => JSON.parse(s)).sort((a, b) => a.database_id - b.database_id),
        records,
      );
    }
    const title = await h.query(`SELECT f3_title FROM "${layout.table}" ORDER BY f1_database_id`);
    assert.equal(title[0]?.f3_title, 'café');
  });
  test('a page given as bytes is decoded where it is written: highs reported, a malformed one refused', async () => {
    const encodeBytes = bytesEncoder();
    if (!encodeBytes) return;
    const { job, layout, now, commit } = await claimGithubIssues(h);
    const page = (text: string) =>
      encodeBytes(job.connector_id, layout, [Buffer.from(text)], 1, now, {
        field: 'updated_at',
        key: 'a/b',
      });
    const commitText = (text: string) =>
      commit([page(text)], { cursor: null, highs: { 'a/b': '2024-05-01T00:00:00.000Z' } });
    const texts = [
      '{"database_id":51,"number":1,"title":"x","updated_at":"2024-06-01T10:00:00Z"}',
      '{"database_id":52,"number":2,"title":"y","updated_at":"2024-05-20T00:00:00Z"}',
    ];
    const done = await commitText(`[${texts.join(',')}]`);
    assert.deepEqual(done, { held: true, records: 2, highs: { 'a/b': '2024-06-01T10:00:00.000Z' } });
    const [sync] = await h.query(
      `SELECT checkpoint FROM cs_syncs WHERE connector_id = '${job.connector_id}' AND entity = 'issues'`,
    );
    assert.equal(JSON.parse(String(sync?.checkpoint)).highs['a/b'], '2024-06-01T10:00:00.000Z');
    const key = (
      await h.query(`SELECT connector_key FROM cs_connectors WHERE connector_id = '${job.connector_id}'`)
    )[0]?.connector_key;
    const rows = await h.query(
      `SELECT data FROM "${layout.table}" WHERE connector_key = ${Number(key)} ORDER BY f1_database_id`,
    );
    assert.deepEqual(
      rows.map((r) => r.data),
      texts,
    );
    await assert.rejects(commitText('[{"database_id":53,"number":3,}]'), (err: unknown) => {
      assert.ok(err instanceof DomainError);
      assert.equal(err.code, 'UPSTREAM_BAD_RESPONSE');
      assert.match(err.message, /list of issues that is not valid JSON/);
      return true;
    });
    const after = await h.query(
      `SELECT COUNT(*) AS n FROM "${layout.table}" WHERE connector_key = ${Number(key)}`,
    );
    assert.equal(Number(after[0]?.n), 2);
  });

  test('a page given in pieces, cut anywhere (inside a character too), is stored as the whole list', async () => {
    const encodeBytes = bytesEncoder();
    if (!encodeBytes) return;
    const { job, layout, now, commit } = await claimGithubIssues(h);
    const texts = [
      '{"database_id":61,"number":1,"title":"café ☃ 😀"}',
      '{"database_id":62,"number":2,"title":"naïve"}',
    ];
    const whole = Buffer.from(`[${texts.join(',')}]`);
    // Cut inside the two-byte é, inside the four-byte emoji, and the middle piece a small view of a large
    // buffer (as a cut response's chunk can be).
    const e = whole.indexOf('é') + 1;
    const face = whole.indexOf('😀') + 2;
    const large = Buffer.alloc(64 * 1024);
    whole.copy(large, 1000, e, face);
    const pieces = [whole.subarray(0, e), large.subarray(1000, 1000 + face - e), whole.subarray(face)];
    const encoded = encodeBytes(job.connector_id, layout, pieces, 1, now);
    assert.equal(encoded.bytes, whole.length);
    const done = await commit([encoded]);
    assert.equal(done.records, 2);
    const rows = await h.query(
      `SELECT data, f3_title FROM "${layout.table}" WHERE f1_database_id IN (61, 62) ORDER BY f1_database_id`,
    );
    assert.deepEqual(
      rows.map((r) => r.data),
      texts,
    );
    assert.deepEqual(
      rows.map((r) => r.f3_title),
      ['café ☃ 😀', 'naïve'],
    );
  });

  test("a piece that is its buffer's alone is moved to the decoder thread; a shared buffer is left whole", async () => {
    const encodeBytes = bytesEncoder();
    if (!encodeBytes) return;
    const { job, layout, now, commit } = await claimGithubIssues(h);
    const texts = [
      '{"database_id":81,"number":1,"title":"moved"}',
      '{"database_id":82,"number":2,"title":"copied"}',
    ];
    const whole = `[${texts.join(',')}]`;
    const cut = whole.indexOf(',{"database_id":82');
    // The first piece as a socket read hands it over: the whole of an ArrayBuffer of its own.
    const own = Buffer.from(new ArrayBuffer(cut));
    own.write(whole.slice(0, cut));
    // The second a view of a larger buffer that another view shares.
    const shared = Buffer.alloc(1024, 'a');
    const view = shared.subarray(100, 100 + shared.write(whole.slice(cut), 100));
    const neighbour = shared.subarray(0, 100);
    const encoded = encodeBytes(job.connector_id, layout, [own, view], 1, now);
    assert.equal(encoded.bytes, whole.length);
    // The harness's store is a database file: its decoder is a thread, and the page's memory went there.
    assert.equal(own.byteLength, 0, 'the piece of its own was moved, not copied');
    assert.equal(view.toString(), whole.slice(cut), 'the view of a shared buffer is still whole');
    assert.equal(neighbour.toString(), 'a'.repeat(100), 'and so is the rest of that buffer');
    assert.equal((await commit([encoded])).records, 2);
    const rows = await h.query(
      `SELECT data FROM "${layout.table}" WHERE f1_database_id IN (81, 82) ORDER BY f1_database_id`,
    );
    assert.deepEqual(
      rows.map((r) => r.data),
      texts,
    );
  });

  test('pages given as bytes and as records in one batch are written in their order', async () => {
    const encodeBytes = bytesEncoder();
    if (!encodeBytes) return;
    const { job, layout, now, commit } = await claimGithubIssues(h);
    // On a database file the decoded rows go from the decoder thread to the writer's without crossing this one;
    // records at hand join them in the batch's order, so the last page's version of a record is the one kept.
    const asBytes = (records: object[]) =>
      encodeBytes(job.connector_id, layout, [Buffer.from(JSON.stringify(records))], 1, now);
    const asRecords = (records: object[]) =>
      h.deps.store.contextStore.encode(job.connector_id, layout, records, 1, now);
    const pages = [
      asRecords([{ database_id: 71, number: 1, title: 'first' }]),
      asBytes([
        { database_id: 71, number: 1, title: 'second' },
        { database_id: 72, number: 2, title: 'first' },
      ]),
      asRecords([{ database_id: 72, number: 2, title: 'second' }]),
      asBytes([{ database_id: 73, number: 3, title: 'first' }]),
      asBytes([{ database_id: 73, number: 3, title: 'second' }]),
      asRecords([{ database_id: 74, number: 4, title: 'only' }]),
    ];
    const done = await commit(pages);
    assert.deepEqual(done, { held: true, records: 4, highs: {} });
    const key = (
      await h.query(`SELECT connector_key FROM cs_connectors WHERE connector_id = '${job.connector_id}'`)
    )[0]?.connector_key;
    const rows = await h.query(
      `SELECT f1_database_id, f3_title FROM "${layout.table}" WHERE connector_key = ${Number(key)} ORDER BY f1_database_id`,
    );
    assert.deepEqual(
      rows.map((r) => [Number(r.f1_database_id), r.f3_title]),
      [
        [71, 'second'],
        [72, 'second'],
        [73, 'second'],
        [74, 'only'],
      ],
    );
  });
});
