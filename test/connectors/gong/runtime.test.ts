// The Gong definition driven through the runtime against the Gong fake (test/connectors/gong/fake), which follows
// Gong's API reference: Basic access-key auth, `records.cursor` paging in the query (GET) or body (POST).
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { DefinitionRegistry } from '../../../src/connectors/registry.ts';
import { systemClock } from '../../../src/connectors/runtime/clock.ts';
import type { ConnectorRuntime, ExecuteOutput } from '../../../src/connectors/runtime/executor.ts';
import { parseRecords } from '../../../src/connectors/runtime/payload.ts';
import { resolveBaseUrl } from '../../../src/connectors/runtime/request.ts';
import { cursorBytes, cursorPlaintext, flipBit } from '../../helpers/cursors.ts';
import { domainError } from '../../helpers/domain-error.ts';
import { FakeClock } from '../../helpers/fake-clock.ts';
import { CURSOR_KEY, closeChecked, runtimeFor } from '../../helpers/fake-runtime.ts';
import { Dataset } from './fake/dataset.ts';
import {
  GONG_FAKE_ACCESS_KEY,
  GONG_FAKE_ACCESS_KEY_SECRET,
  type GongFake,
  type GongFakeOptions,
  startGongFake,
} from './fake/index.ts';

const gong = DefinitionRegistry.default().bySlug('gong')!;
const KEYS = {
  option: 'Access Key',
  values: { access_key: GONG_FAKE_ACCESS_KEY, access_key_secret: GONG_FAKE_ACCESS_KEY_SECRET },
};
const BASIC = `Basic ${Buffer.from(`${GONG_FAKE_ACCESS_KEY}:${GONG_FAKE_ACCESS_KEY_SECRET}`).toString('base64')}`;

let fake: GongFake;
let rt: ConnectorRuntime;
let clock: FakeClock;

/** A fake clock by default, so the definition's 3 requests/s limit and retry waits cost no real time. */
async function start(opts: GongFakeOptions = {}, realTime = false) {
  fake = await startGongFake(opts);
  clock = new FakeClock();
  rt = runtimeFor('gong', fake.url, { clock: realTime ? systemClock : clock });
}

async function restart(opts: GongFakeOptions, realTime = false) {
  await rt.close();
  await fake.close();
  await start(opts, realTime);
}

beforeEach(() => start());

afterEach(() => closeChecked(rt, fake));

function exec(entity: string, action: string, params: Record<string, unknown>, credentials = KEYS) {
  return rt.execute({
    connectorId: 'gong-1',
    definition: gong,
    credentials,
    config: {},
    entity,
    action,
    params,
  });
}

async function all(entity: string, params: Record<string, unknown>) {
  const pages: ExecuteOutput[] = [await exec(entity, 'list', params)];
  while (pages.at(-1)!.connector_metadata.has_next_page) {
    assert.ok(pages.length < 50, 'paging never ends');
    pages.push(await exec(entity, 'list', { cursor: pages.at(-1)!.connector_metadata.end_cursor }));
  }
  return { pages, records: pages.flatMap((p) => parseRecords(p.payload) as Array<Record<string, unknown>>) };
}

const bodyOf = (i: number) => JSON.parse(fake.requests[i]!.body) as Record<string, unknown>;
const cursorParam = (i: number) => new URL(fake.requests[i]!.path, 'http://x').searchParams.get('cursor');

describe('Gong definition against the Gong fake', () => {
  it('sends Basic base64(access_key:access_key_secret) and JSON headers', async () => {
    await exec('workspaces', 'list', {});
    const headers = fake.requests[0]!.headers;
    assert.equal(headers.authorization, BASIC);
    assert.equal(headers.accept, 'application/json');
    assert.equal(fake.requests[0]!.path, '/v2/workspaces');
  });

  it('pages all 230 users by params.cursor, Gong cursor in the query, 100 per page', async () => {
    const { pages, records } = await all('users', {});
    assert.deepEqual(
      pages.map((p) => (parseRecords(p.payload) as unknown[]).length),
      [100, 100, 30],
    );
    assert.equal(new Set(records.map((u) => u.id)).size, 230);
    assert.deepEqual(Object.keys(records[0]!).slice(0, 6), [
      'id',
      'emailAddress',
      'created',
      'active',
      'emailAliases',
      'trustedEmailAddress',
    ]);
    assert.equal(pages[0]!.connector_metadata.total_records, 230);
    assert.deepEqual(pages.at(-1)!.connector_metadata, {
      total_records: 230,
      has_next_page: false,
      end_cursor: null,
    });
    assert.deepEqual(
      fake.requests.map((r) => [r.method, r.path.split('?')[0], r.body]),
      [0, 1, 2].map(() => ['GET', '/v2/users', '']),
    );
    assert.equal(cursorParam(0), null);
    // The cursor sent is Gong's own (a JWT-like token), not ces's end_cursor.
    assert.match(cursorParam(1)!, /^eyJhbGciOiJIUzI1NiJ9\./);
    assert.notEqual(cursorParam(1), pages[0]!.connector_metadata.end_cursor);
    assert.notEqual(cursorParam(2), cursorParam(1));
  });

  it('includeAvatars adds Gong avatars; get returns one user from {user}', async () => {
    const out = await exec('users', 'list', { includeAvatars: true });
    assert.equal(out.connector_metadata.total_records, 232);
    assert.equal(fake.requests[0]!.path, '/v2/users?includeAvatars=true');
    const user = await exec('users', 'get', { id: '234599484848007' });
    assert.equal((parseRecords(user.payload) as { id: string }).id, '234599484848007');
    assert.deepEqual(user.connector_metadata, { has_next_page: false, end_cursor: null });
  });

  it('lists calls in a date range and workspace, paging by cursor with the filters kept', async () => {
    await restart({ pageSize: 7 });
    const from = '2024-01-10T00:00:00Z';
    const to = '2024-01-20T00:00:00Z';
    const workspaceId = fake.data.workspaces[1]!.id;
    const expected = fake.data.calls
      .filter((c) => Dataset.filterDate(c) >= Date.parse(from) && Dataset.filterDate(c) < Date.parse(to))
      .filter((c) => c.workspaceId === workspaceId)
      .map((c) => c.id);
    assert.ok(expected.length > 7 * 2, 'the range spans several pages');
    const { pages, records } = await all('calls', { fromDateTime: from, toDateTime: to, workspaceId });
    assert.deepEqual(
      records.map((c) => c.id),
      expected,
    );
    assert.equal(pages.length, Math.ceil(expected.length / 7));
    for (const [i, r] of fake.requests.entries()) {
      const q = new URL(r.path, 'http://x').searchParams;
      assert.equal(q.get('fromDateTime'), from);
      assert.equal(q.get('toDateTime'), to);
      assert.equal(q.get('workspaceId'), workspaceId);
      assert.equal(q.has('cursor'), i > 0);
    }
    const call = await exec('calls', 'get', { id: expected[0] });
    assert.deepEqual(parseRecords(call.payload), records[0]);
  });

  it('refuses calls.list without both dates, or with a malformed one, before any request', async () => {
    await assert.rejects(
      exec('calls', 'list', { fromDateTime: '2024-01-01T00:00:00Z' }),
      domainError('INVALID_PARAMS', (e) => assert.match(e.message, /missing required param 'toDateTime'/)),
    );
    await assert.rejects(
      exec('calls', 'list', { fromDateTime: '2024-01-01', toDateTime: '2024-02-01T00:00:00Z' }),
      domainError('INVALID_PARAMS', (e) =>
        assert.match(e.message, /'fromDateTime' must be an ISO 8601 date-time/),
      ),
    );
    await assert.rejects(
      exec('calls', 'get', { id: '../users' }),
      domainError('INVALID_PARAMS', (e) => assert.match(e.message, /'id' must match/)),
    );
    assert.deepEqual(fake.requests, []);
  });

  it('pages calls_extensive with the cursor in the POST body and the same filter and contentSelector', async () => {
    await restart({ pageSize: 25 });
    const filter = { fromDateTime: '2024-01-05T00:00:00Z', toDateTime: '2024-01-25T00:00:00Z' };
    const contentSelector = { exposedFields: { parties: true, content: { topics: true } } };
    const { pages, records } = await all('calls_extensive', { filter, contentSelector });
    const expected = fake.data.calls.filter(
      (c) =>
        Date.parse(c.started) >= Date.parse(filter.fromDateTime) &&
        Date.parse(c.started) < Date.parse(filter.toDateTime),
    );
    assert.equal(records.length, expected.length);
    assert.equal(pages.length, Math.ceil(expected.length / 25));
    assert.ok(pages.length >= 3);
    assert.deepEqual(
      records.map((c) => (c.metaData as { id: string }).id),
      expected.map((c) => c.id),
    );
    const first = records[0] as { parties: unknown[]; content: Record<string, unknown>; media?: unknown };
    assert.equal(first.parties.length, 2);
    assert.deepEqual(Object.keys(first.content), ['topics']);
    assert.equal(first.media, undefined);
    assert.equal(pages[0]!.connector_metadata.total_records, expected.length);

    const cursors: unknown[] = [];
    for (const [i, r] of fake.requests.entries()) {
      assert.equal(r.method, 'POST');
      assert.equal(r.path, '/v2/calls/extensive', 'the cursor never goes into the query');
      assert.equal(r.headers['content-type'], 'application/json; charset=utf-8');
      assert.equal(r.headers.authorization, BASIC);
      const { cursor, ...rest } = bodyOf(i);
      assert.deepEqual(rest, { filter, contentSelector });
      cursors.push(cursor);
    }
    assert.equal(cursors[0], undefined);
    for (const c of cursors.slice(1)) assert.match(String(c), /^eyJhbGciOiJIUzI1NiJ9\./);
    assert.equal(new Set(cursors).size, cursors.length);
  });

  it('checks the filter object of calls_extensive before any request', async () => {
    for (const [params, message] of [
      [{}, /missing required param 'filter'/],
      [{ filter: { fromDateTime: 'last week' } }, /'filter.fromDateTime' must be an ISO 8601 date-time/],
      [{ filter: { callIDs: ['1'] } }, /unknown member 'callIDs'/],
      [{ filter: { callIds: '7782342274025937000' } }, /'filter.callIds' must be an array/],
    ] as const) {
      await assert.rejects(
        exec('calls_extensive', 'list', params),
        domainError('INVALID_PARAMS', (e) => assert.match(e.message, message)),
      );
    }
    assert.deepEqual(fake.requests, []);
    const one = await exec('calls_extensive', 'list', { filter: { callIds: ['7782342274025937003'] } });
    assert.deepEqual(
      (parseRecords(one.payload) as Array<{ metaData: { id: string } }>).map((c) => c.metaData.id),
      ['7782342274025937003'],
    );
    assert.equal(one.connector_metadata.has_next_page, false);
    assert.deepEqual(bodyOf(0), { filter: { callIds: ['7782342274025937003'] } });
  });

  it('pages call_transcripts by a body cursor; each record is {callId, transcript}', async () => {
    await restart({ pageSize: 2 });
    const callIds = ['7782342274025937001', '7782342274025937002', '7782342274025937040'];
    const { pages, records } = await all('call_transcripts', { filter: { callIds } });
    assert.equal(pages.length, 2);
    assert.deepEqual(
      records.map((t) => t.callId),
      callIds,
    );
    const transcript = records[0]!.transcript as Array<{
      speakerId: string;
      sentences: Array<{ start: number; end: number; text: string }>;
    }>;
    assert.ok(transcript.length > 0);
    const parties = fake.data.callById(callIds[0]!)!.parties.map((p) => p.speakerId);
    for (const m of transcript) {
      assert.ok(parties.includes(m.speakerId));
      for (const s of m.sentences) assert.ok(s.end > s.start && s.text.length > 0);
    }
    assert.deepEqual(bodyOf(0), { filter: { callIds } });
    assert.deepEqual(Object.keys(bodyOf(1)), ['filter', 'cursor']);
    assert.equal(fake.requests[1]!.path, '/v2/calls/transcript');
  });

  it('lists workspaces in one unpaged answer', async () => {
    const out = await exec('workspaces', 'list', {});
    assert.deepEqual(
      (parseRecords(out.payload) as Array<{ name: string }>).map((w) => w.name),
      ['Sales', 'Customer Success', 'Recruiting'],
    );
    assert.deepEqual(out.connector_metadata, { has_next_page: false, end_cursor: null });
    await assert.rejects(exec('workspaces', 'list', { cursor: 'x' }), domainError('INVALID_PARAMS'));
  });

  it('maps a rejected key pair to UPSTREAM_AUTH_FAILED and INVALID_CREDENTIALS at the check, without echoing it', async () => {
    const bad = {
      option: 'Access Key',
      values: { access_key: GONG_FAKE_ACCESS_KEY, access_key_secret: 'wrong-secret-4242' },
    };
    await assert.rejects(
      exec('users', 'list', {}, bad),
      domainError('UPSTREAM_AUTH_FAILED', (e) => {
        assert.match(
          e.message,
          /Gong rejected the connector's credentials \(HTTP 401\) for users\.list: Access denied/,
        );
        const upstream = e.extra?.upstream as {
          status: number;
          body: { errors: string[]; requestId: string };
        };
        assert.equal(upstream.status, 401);
        assert.deepEqual(upstream.body.errors, ['Access denied']);
        assert.match(upstream.body.requestId, /^[0-9a-z]+$/);
        assert.doesNotMatch(JSON.stringify({ m: e.message, x: e.extra }), /wrong-secret-4242/);
      }),
    );
    const before = fake.requests.length;
    await assert.rejects(rt.checkCredentials(gong, bad, {}), domainError('INVALID_CREDENTIALS'));
    await rt.checkCredentials(gong, KEYS, {});
    assert.deepEqual(
      fake.requests.slice(before).map((r) => [r.method, r.path]),
      [
        ['GET', '/v2/workspaces'],
        ['GET', '/v2/workspaces'],
      ],
    );
  });

  it('maps 404s: an unknown call id, and a date range without calls', async () => {
    await assert.rejects(
      exec('calls', 'get', { id: '999' }),
      domainError('UPSTREAM_NOT_FOUND', (e) => assert.match(e.message, /Call ID was not found/)),
    );
    // Gong's 404 "No calls found for the specified period" is an empty window (its empty_answer hook).
    const empty = await exec('calls', 'list', {
      fromDateTime: '2030-01-01T00:00:00Z',
      toDateTime: '2030-02-01T00:00:00Z',
    });
    assert.deepEqual(parseRecords(empty.payload), []);
    assert.deepEqual(empty.connector_metadata, {
      total_records: null,
      has_next_page: false,
      end_cursor: null,
    });
    assert.equal(fake.requests.at(-1)?.path.startsWith('/v2/calls?'), true);
    await assert.rejects(exec('users', 'get', { id: '1' }), domainError('UPSTREAM_NOT_FOUND'));
  });

  it('retries a 429 after its Retry-After, and maps it to UPSTREAM_RATE_LIMITED when it persists', async () => {
    fake.failNext({ status: 429, headers: { 'Retry-After': '4' } });
    const ok = await exec('workspaces', 'list', {});
    assert.equal((parseRecords(ok.payload) as unknown[]).length, 3);
    assert.deepEqual(clock.sleeps, [4000]);
    fake.failNext({ status: 429, headers: { 'Retry-After': '4' }, times: 10, match: '/v2/calls/transcript' });
    const seen = fake.requests.length;
    await assert.rejects(
      exec('call_transcripts', 'list', { filter: {} }),
      domainError('UPSTREAM_RATE_LIMITED', (e) => {
        assert.equal(e.retryAfter, 4);
        assert.match(
          e.message,
          /Gong rate limit reached during call_transcripts\.list \(HTTP 429\): API request limit exceeded/,
        );
      }),
    );
    assert.equal(fake.requests.length - seen, 3, 'the read-only POST search is retried like a GET');
  });

  it('fails at once on a Retry-After beyond what ces waits for, and falls back to 1 s without one', async () => {
    fake.failNext({
      status: 429,
      headers: { 'Retry-After': '3600' },
      body: { requestId: 'r', errors: ['Daily limit reached'] },
    });
    await assert.rejects(
      exec('workspaces', 'list', {}),
      domainError('UPSTREAM_RATE_LIMITED', (e) => {
        assert.equal(e.retryAfter, 3600);
        assert.match(e.message, /Daily limit reached/);
      }),
    );
    assert.equal(fake.requests.length, 1);
    fake.failNext({ status: 429, times: 3 });
    await assert.rejects(
      exec('workspaces', 'list', {}),
      domainError('UPSTREAM_RATE_LIMITED', (e) => assert.equal(e.retryAfter, 1)),
    );
    fake.failNext({ status: 400, body: { requestId: 'r', errors: ['Invalid workspace id'] } });
    await assert.rejects(
      exec('workspaces', 'list', {}),
      domainError('INVALID_PARAMS', (e) => assert.match(e.message, /Invalid workspace id/)),
    );
  });

  it("keeps to Gong's 3 requests per second, so a burst of 7 calls (almost) never meets a 429", async () => {
    await restart({ rateLimitPerSecond: 3 }, true);
    const results = await Promise.all([1, 2, 3, 4, 5, 6, 7].map(() => exec('workspaces', 'list', {})));
    assert.equal(results.length, 7);
    // Both buckets run at exactly 3/s, so network jitter may cost one 429 and retry; unthrottled it is four.
    assert.ok(
      fake.requests.length <= 8,
      `${fake.requests.length - 7} requests were answered 429 and repeated`,
    );
  });

  it("without ces's own limit, the fake's 429 + Retry-After is honoured and the call still succeeds", async () => {
    await restart({ rateLimitPerSecond: 3 }, true);
    const unthrottled = { ...gong, rate_limit: undefined };
    const results = await Promise.all(
      [1, 2, 3, 4].map(() =>
        rt.execute({
          connectorId: 'gong-1',
          definition: unthrottled,
          credentials: KEYS,
          config: {},
          entity: 'workspaces',
          action: 'list',
          params: {},
        }),
      ),
    );
    assert.equal(results.length, 4);
    assert.equal(fake.requests.length, 5, 'one request was answered 429 and repeated after Retry-After');
  });

  it('refuses a cursor whose body was changed, and one of another entity, before any request', async () => {
    await restart({ pageSize: 5 });
    const first = await exec('call_transcripts', 'list', { filter: { workspaceId: '623457276584334' } });
    const cursor = first.connector_metadata.end_cursor!;
    // The search body rides in the cursor sealed: there to replay, unreadable in the cursor's bytes.
    assert.match(cursorPlaintext(CURSOR_KEY, cursor), /"workspaceId":"623457276584334"/);
    assert.ok(!cursorBytes(cursor).includes('623457276584334'));
    const seen = fake.requests.length;
    await assert.rejects(
      exec('call_transcripts', 'list', { cursor: flipBit(cursor, 8 * 30 + 3) }),
      domainError('INVALID_CURSOR'),
    );
    await assert.rejects(exec('calls_extensive', 'list', { cursor }), domainError('INVALID_CURSOR'));
    assert.equal(fake.requests.length, seen);
  });

  it('builds the base URL from api_host, which must stay a Gong API host', () => {
    assert.equal(resolveBaseUrl(gong, {}, {}).href, 'https://api.gong.io/v2');
    assert.equal(
      resolveBaseUrl(gong, { api_host: 'us-55616.api.gong.io' }, {}).href,
      'https://us-55616.api.gong.io/v2',
    );
    for (const api_host of ['evil.example', 'api.gong.io.evil.example', 'x.api.gong.io/../..', '127.0.0.1']) {
      assert.throws(() => resolveBaseUrl(gong, { api_host }, {}), domainError('VALIDATION_ERROR'), api_host);
    }
  });
});
