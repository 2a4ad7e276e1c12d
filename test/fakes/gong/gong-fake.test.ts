// The Gong fake itself, spoken to with plain fetch: what it answers is what the connector tests rely on.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { GONG_FAKE_ACCESS_KEY, GONG_FAKE_ACCESS_KEY_SECRET, type GongFake, startGongFake } from './index.ts';

// biome-ignore lint/suspicious/noExplicitAny: test convenience for reading JSON bodies
type Json = Record<string, any>;

const BASIC = `Basic ${Buffer.from(`${GONG_FAKE_ACCESS_KEY}:${GONG_FAKE_ACCESS_KEY_SECRET}`).toString('base64')}`;

describe('Gong fake', () => {
  let fake: GongFake;

  before(async () => {
    fake = await startGongFake({ pageSize: 10, oauthTokens: ['oauth-token-1'] });
  });
  after(() => fake.close());

  const call = async (method: string, path: string, body?: unknown, authorization: string | null = BASIC) => {
    const headers: Record<string, string> = {};
    if (authorization !== null) headers.authorization = authorization;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(`${fake.url}${path}`, {
      method,
      headers,
      ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
    });
    return { status: res.status, headers: res.headers, json: (await res.json()) as Json };
  };

  it('answers 401 {requestId, errors} without, or with wrong, credentials; accepts Basic keys and OAuth tokens', async () => {
    for (const auth of [
      null,
      'Basic Zm9vOmJhcg==',
      'Bearer nope',
      `Basic ${Buffer.from(`${GONG_FAKE_ACCESS_KEY}:`).toString('base64')}`,
    ]) {
      const res = await call('GET', '/workspaces', undefined, auth);
      assert.equal(res.status, 401, String(auth));
      assert.deepEqual(res.json.errors, ['Access denied']);
      assert.match(res.json.requestId, /^[0-9a-z]{10,20}$/);
    }
    assert.equal((await call('GET', '/workspaces')).status, 200);
    assert.equal((await call('GET', '/workspaces', undefined, 'Bearer oauth-token-1')).status, 200);
  });

  it('pages users with records.cursor present only while more remain, and refuses a cursor for other inputs', async () => {
    const first = await call('GET', '/users');
    assert.deepEqual(
      { ...first.json.records, cursor: typeof first.json.records.cursor },
      { totalRecords: 230, currentPageSize: 10, currentPageNumber: 0, cursor: 'string' },
    );
    const second = await call('GET', `/users?cursor=${encodeURIComponent(first.json.records.cursor)}`);
    assert.equal(second.json.records.currentPageNumber, 1);
    assert.equal(second.json.users[0].id, '234599484848010');
    const other = await call(
      'GET',
      `/users?includeAvatars=true&cursor=${encodeURIComponent(first.json.records.cursor)}`,
    );
    assert.equal(other.status, 400);
    assert.match(other.json.errors[0], /^Malformed request/);
    let cursor: string | undefined = first.json.records.cursor;
    let pages = 1;
    while (cursor !== undefined) {
      const page = await call('GET', `/users?cursor=${encodeURIComponent(cursor)}`);
      cursor = page.json.records.cursor;
      pages++;
    }
    assert.equal(pages, 23);
  });

  it('POST searches need a filter, keep the body between pages, and 404 when nothing matches', async () => {
    assert.equal((await call('POST', '/calls/extensive', {})).status, 400);
    assert.equal((await call('POST', '/calls/transcript', '{"filter":')).status, 400);
    const filter = { callIds: fake.data.calls.slice(0, 12).map((c) => c.id) };
    const first = await call('POST', '/calls/transcript', { filter });
    assert.equal(first.json.callTranscripts.length, 10);
    const next = await call('POST', '/calls/transcript', { filter, cursor: first.json.records.cursor });
    assert.equal(next.json.callTranscripts.length, 2);
    assert.equal(next.json.records.cursor, undefined);
    const changed = await call('POST', '/calls/transcript', {
      filter: {},
      cursor: first.json.records.cursor,
    });
    assert.equal(changed.status, 400);
    const none = await call('POST', '/calls/extensive', { filter: { fromDateTime: '2031-01-01T00:00:00Z' } });
    assert.deepEqual([none.status, none.json.errors], [404, ['No calls found for the specified period']]);
  });

  it('extensive calls carry only what contentSelector asks for', async () => {
    const filter = { callIds: [fake.data.calls[0]!.id] };
    const bare = await call('POST', '/calls/extensive', { filter });
    assert.deepEqual(Object.keys(bare.json.calls[0]), ['metaData']);
    const full = await call('POST', '/calls/extensive', {
      filter,
      contentSelector: {
        context: 'Extended',
        exposedFields: { parties: true, content: { brief: true }, media: true },
      },
    });
    assert.deepEqual(Object.keys(full.json.calls[0]), ['metaData', 'context', 'parties', 'content', 'media']);
  });

  it('GET /calls requires both dates; unknown routes are 404 and recorded as unhandled', async () => {
    const res = await call('GET', '/calls?fromDateTime=2024-01-01T00:00:00Z');
    assert.equal(res.status, 400);
    assert.equal((await call('GET', '/calls?fromDateTime=2024-01-01&toDateTime=2024-01-02')).status, 400);
    const before = fake.unhandled.length;
    assert.equal((await call('GET', '/calls/extensive')).status, 404);
    assert.equal((await call('GET', '/settings/scorecards')).status, 404);
    assert.deepEqual(
      fake.unhandled.slice(before).map((r) => r.path),
      ['/v2/settings/scorecards'],
    );
    fake.unhandled.length = before;
  });

  it('failNext and the leaky-bucket limit answer 429 with Retry-After', async () => {
    fake.failNext({ status: 429, headers: { 'Retry-After': '9' }, match: '/v2/users' });
    assert.equal((await call('GET', '/workspaces')).status, 200);
    const limited = await call('GET', '/users');
    assert.deepEqual([limited.status, limited.headers.get('retry-after')], [429, '9']);
    assert.equal((await call('GET', '/users')).status, 200);

    const strict = await startGongFake({ rateLimitPerSecond: 3 });
    try {
      const statuses = [];
      for (let i = 0; i < 4; i++) {
        const res = await fetch(`${strict.url}/workspaces`, { headers: { authorization: BASIC } });
        statuses.push([res.status, res.headers.get('retry-after')]);
        await res.arrayBuffer();
      }
      assert.deepEqual(statuses, [
        [200, null],
        [200, null],
        [200, null],
        [429, '1'],
      ]);
    } finally {
      await strict.close();
    }
  });
});
