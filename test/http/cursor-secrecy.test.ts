// end_cursor through the HTTP API, for execute's paged actions and for Context Store search: the cursor's bytes
// reveal neither the upstream request nor the connector, any damage is INVALID_CURSOR before any work, each
// cursor is sealed afresh, and a cursor works only on the connector that returned it (in this organization or
// another).
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { signValue } from '../../src/security/signed.ts';
import {
  claimGithubIssues,
  type GithubFake,
  type Harness,
  startWithGithub,
} from '../connectors/github/harness.ts';
import { cursorBytes, cursorPlaintext, flipBit } from '../helpers/cursors.ts';

describe('end_cursor secrecy', () => {
  let h: Harness;
  let fake: GithubFake;
  let close: () => Promise<unknown>;
  let token: string;
  let other: { token: string };
  /** Connectors with indexed issues: two of this organization, one of another. */
  let a: string;
  let b: string;
  let foreign: string;

  const exec = (id: string, body: unknown, t = token) =>
    h.inject({ method: 'POST', url: `/api/v1/integrations/connectors/${id}/execute`, token: t, body });
  const LIST = { owner: 'octokit-fixture-org', repo: 'paginate-issues', per_page: 3 };
  const list = (id: string, params: Record<string, unknown> = LIST, t = token) =>
    exec(id, { entity: 'issues', action: 'list', params }, t);
  const QUERY = { filter: { eq: { state: 'open' } }, sort: [{ number: 'asc' }] };
  const search = (id: string, params: Record<string, unknown>, t = token) =>
    exec(id, { entity: 'issues', action: 'search', params: { query: QUERY, limit: 2, ...params } }, t);
  const numbers = (res: { json: { result: Array<{ number: number }> } }) =>
    res.json.result.map((r) => r.number);

  before(async () => {
    ({ h, fake, close } = await startWithGithub(undefined, { CES_SYNC_ENABLED: 'false' }));
    token = await h.token();
    other = await h.otherOrg();
    const indexed = async (t: string, name: string) => {
      const { job, layout, store, now, commit } = await claimGithubIssues(h, t, { name });
      const records = [1, 2, 3, 4, 5].map((n) => ({
        id: `I_node${n}`,
        database_id: n,
        number: n,
        title: `issue ${n}`,
        state: 'open',
      }));
      await commit([store.encode(job.connector_id, layout, records, 1, now)]);
      return job.connector_id;
    };
    a = await indexed(token, 'first');
    b = await indexed(token, 'second');
    foreign = await indexed(other.token, 'elsewhere');
  });
  after(() => close());

  test('an execute cursor hides the upstream host, path, query and the connector, and still replays', async () => {
    const first = await list(a);
    assert.equal(first.status, 200, first.body);
    const cursor: string = first.json.connector_metadata.end_cursor;
    const plaintext = cursorPlaintext(h.deps.secrets.cursorKey, cursor);
    const { host, pathname, searchParams } = new URL(JSON.parse(plaintext)[3]);
    assert.equal(host, new URL(fake.url).host);
    assert.deepEqual([searchParams.get('per_page'), searchParams.get('page')], ['3', '2']);
    for (const secret of [host, pathname, 'per_page=3', 'page=2', a]) {
      assert.ok(plaintext.includes(secret), `the sealed request holds ${secret}`);
      assert.ok(!cursorBytes(cursor).includes(secret), `the cursor hides ${secret}`);
      assert.ok(!cursor.includes(secret), `the cursor's text hides ${secret}`);
    }
    const second = await list(a, { ...LIST, cursor });
    assert.equal(second.status, 200, second.body);
    assert.equal(second.json.result.length, 3);
  });

  test('two cursors of one page differ, and both continue it', async () => {
    const [one, two] = [await list(a), await list(a)];
    const cursors = [one.json.connector_metadata.end_cursor, two.json.connector_metadata.end_cursor];
    assert.notEqual(cursors[0], cursors[1]);
    const [p1, p2] = [
      await list(a, { ...LIST, cursor: cursors[0] }),
      await list(a, { ...LIST, cursor: cursors[1] }),
    ];
    assert.equal(p1.status, 200, p1.body);
    assert.deepEqual(p1.json.result, p2.json.result);
  });

  test('an execute cursor with any bit flipped is INVALID_CURSOR before any upstream request', async () => {
    const cursor: string = (await list(a)).json.connector_metadata.end_cursor;
    const seen = fake.requests.length;
    for (let bit = 0; bit < Buffer.from(cursor, 'base64url').length * 8; bit++) {
      const res = await list(a, { ...LIST, cursor: flipBit(cursor, bit) });
      assert.equal(res.status, 422, `bit ${bit}: ${res.body}`);
      assert.equal(res.json.code, 'INVALID_CURSOR');
      assert.match(res.json.message, /not a cursor issued by this service/);
    }
    assert.equal(fake.requests.length, seen, 'no request reached the provider');
  });

  test("another connector's execute cursor is refused, in this organization and in another", async () => {
    const cursor = (await list(a)).json.connector_metadata.end_cursor;
    const seen = fake.requests.length;
    for (const [id, t] of [
      [b, token],
      [foreign, other.token],
    ] as const) {
      const res = await list(id, { ...LIST, cursor }, t);
      assert.equal(res.status, 422, res.body);
      assert.equal(res.json.code, 'INVALID_CURSOR');
      assert.match(res.json.message, /issued for a different connector/);
      assert.equal(res.json.errors[0].field, 'params.cursor');
    }
    assert.equal(fake.requests.length, seen);
  });

  test('a search cursor hides the connector, the entity and the offset; two of one page differ and both work', async () => {
    const [one, two] = [await search(a, {}), await search(a, {})];
    assert.equal(one.status, 200, one.body);
    assert.deepEqual(numbers(one), [1, 2]);
    const cursors: string[] = [
      one.json.connector_metadata.end_cursor,
      two.json.connector_metadata.end_cursor,
    ];
    assert.notEqual(cursors[0], cursors[1]);
    // What the signed-only cursor of this page showed to anyone holding it.
    const digest = createHash('sha256')
      .update(JSON.stringify([QUERY.filter, QUERY.sort, null]))
      .digest('base64url')
      .slice(0, 22);
    const signed = signValue(h.deps.secrets.cursorKey, 'context-store-search.v1', {
      c: a,
      e: 'issues',
      q: digest,
      o: 2,
    });
    for (const secret of [a, '"issues"', '"o":2', digest]) {
      assert.ok(
        cursorBytes(signed.split('.')[0] as string).includes(secret),
        `a signed cursor shows ${secret}`,
      );
      for (const cursor of cursors)
        assert.ok(!cursorBytes(cursor).includes(secret), `the cursor hides ${secret}`);
    }
    for (const cursor of cursors) {
      const next = await search(a, { cursor });
      assert.equal(next.status, 200, next.body);
      assert.deepEqual(numbers(next), [3, 4]);
    }
    // Cursors issued before they were sealed are refused: a search starts again from its first page.
    const old = await search(a, { cursor: signed });
    assert.equal(old.status, 422, old.body);
    assert.equal(old.json.code, 'INVALID_CURSOR');
  });

  test('a search cursor with any bit flipped, of another connector or query, or an execute cursor is INVALID_CURSOR', async () => {
    const cursor: string = (await search(a, {})).json.connector_metadata.end_cursor;
    const refused = async (res: Awaited<ReturnType<typeof search>>, what: string) => {
      assert.equal(res.status, 422, `${what}: ${res.body}`);
      assert.equal(res.json.code, 'INVALID_CURSOR');
      assert.match(res.json.message, /not issued for this connector, entity and query/);
    };
    for (let bit = 0; bit < Buffer.from(cursor, 'base64url').length * 8; bit++) {
      await refused(await search(a, { cursor: flipBit(cursor, bit) }), `bit ${bit}`);
    }
    await refused(await search(b, { cursor }), 'another connector');
    await refused(await search(foreign, { cursor }, other.token), "another organization's connector");
    await refused(
      await search(a, { cursor, query: { ...QUERY, sort: [{ number: 'desc' }] } }),
      'another query',
    );
    // Sealed for another purpose: an execute cursor of the same connector opens no search.
    await refused(await search(a, { cursor: (await list(a)).json.connector_metadata.end_cursor }), 'execute');
    await refused(await search(a, { cursor: `${cursor}A` }), 'extended');
    await refused(await search(a, { cursor: 'A'.repeat(4096) }), 'oversized');
  });
});
