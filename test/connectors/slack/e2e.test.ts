// Slack end to end through the HTTP API against the Slack fake (test/connectors/slack/fake/): the three credential
// options with auth.test as the check, Slack's HTTP 200 {ok: false} refusals mapped by errors.rules, cursor
// paging, a message written and read back, a file streamed from the file host with the token, 429 +
// Retry-After, token rotation at oauth.v2.access (whose failures are HTTP 200 too), and the Context Store
// indexing channels, users, channel messages and a thread. CES_UPSTREAM_OVERRIDES points the slug at the fake,
// which also serves the token endpoint (/api/oauth.v2.access) and the file host (/files-pri/...).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DefinitionRegistry } from '../../../src/connectors/registry.ts';
import {
  type ConnectorApi,
  closeAll,
  connectorApi,
  createConnector,
  INCREMENTAL_SYNC_ENV,
  startWithFake,
} from '../../helpers/connector-api.ts';
import type { Harness, InjectResult } from '../../helpers/harness.ts';
import { hostedConnector } from '../../helpers/hosted-catalog.ts';
import { waitFor } from '../../helpers/wait.ts';
import { assertError } from '../../http/assertions.ts';
import { channel, engineeringTopLevel } from './cases.ts';
import {
  BOT_USER_ID,
  type RecordedRequest,
  SLACK_FAKE_BOT_TOKEN,
  SLACK_FAKE_CLIENT_ID,
  SLACK_FAKE_CLIENT_SECRET,
  SLACK_FAKE_READONLY_BOT_TOKEN,
  SLACK_FAKE_REVOKED_TOKEN,
  SLACK_FAKE_USER_TOKEN,
  SLACK_TOKEN_PATH,
  type SlackFake,
  startSlackFake,
} from './fake/index.ts';

const SLACK_ID = 'c2281cee-86f9-4a86-bb48-d23286b4c7bd';

const method = (r: RecordedRequest) => new URL(r.path, 'http://x').pathname;
const query = (r: RecordedRequest) => new URL(r.path, 'http://x').searchParams;
const bearer = (r: RecordedRequest) => String(r.headers.authorization ?? '').replace(/^Bearer /, '');

/** A write Slack answered without a warning (missing_charset would be one). */
function assertNoWarning(res: InjectResult) {
  assert.equal(res.status, 200, res.body);
  assert.equal(res.json.result.warning, undefined, res.body);
  assert.equal(res.json.result.response_metadata?.warnings, undefined, res.body);
}

/** Every JSON body went with `charset=utf-8`, so none drew Slack's missing_charset warning. */
function assertJsonBodiesWithCharset(fake: SlackFake) {
  const json = fake.requests.filter((r) =>
    /^application\/json/.test(String(r.headers['content-type'] ?? '')),
  );
  assert.ok(json.length > 0);
  for (const r of json) assert.equal(r.headers['content-type'], 'application/json; charset=utf-8', r.path);
}

const BLOCKS = [
  { type: 'header', text: { type: 'plain_text', text: 'Build 42' } },
  { type: 'section', text: { type: 'mrkdwn', text: '*Build 42* passed in 3m 12s' } },
];
const ATTACHMENTS = [{ color: '#36a64f', fallback: 'Build 42 passed', text: 'All 1,204 tests passed' }];

/** POST a Slack connector with these credentials (and other members of the body). */
const createSlack = (
  h: Harness,
  token: string,
  credentials: Record<string, unknown>,
  extra: Record<string, unknown> = {},
) => createConnector(h, token, { definition_id: SLACK_ID, name: 'slack e2e', credentials, ...extra });

/** No token anywhere in a URL: ces puts Slack tokens in the Authorization header only. */
function assertNoTokenInUrls(fake: SlackFake) {
  for (const r of fake.requests) {
    assert.doesNotMatch(r.path, /xox[a-z]?[-.]/, r.path);
    assert.ok(!query(r).has('token'), r.path);
  }
}

describe('Slack through the HTTP API: tokens, paging, writes, files, errors', () => {
  let h: Harness;
  let fake: SlackFake;
  let token: string;
  let bot: ConnectorApi;

  before(async () => {
    fake = await startSlackFake();
    ({ h, token } = await startWithFake('slack', fake.url, { CES_SYNC_ENABLED: 'false' }));
  });
  after(() => closeAll(h, fake));

  test('the definition declares every entity, action and param of the hosted catalog', () => {
    const hosted = hostedConnector('slack');
    const def = DefinitionRegistry.default().bySlug('slack');
    assert.equal(def?.id, hosted.definition_id);
    for (const [entity, actions] of Object.entries(hosted.entities)) {
      const declared = def?.entities.find((e) => e.name === entity);
      assert.ok(declared, `entity ${entity}`);
      for (const [action, { params }] of Object.entries(actions)) {
        const spec = declared.actions[action as keyof typeof declared.actions];
        assert.ok(spec, `${entity}.${action}`);
        const accepted = new Set(['cursor']);
        for (const [name, p] of Object.entries(spec.params ?? {}))
          for (const n of [name, ...(p.aliases ?? [])]) accepted.add(n);
        for (const p of params) assert.ok(accepted.has(p), `${entity}.${action} accepts ${p}`);
      }
    }
    assert.deepEqual(
      def?.entities.filter((e) => e.context_store).map((e) => e.name),
      hosted.context_store_entities,
    );
  });

  test('a Bot Token connector is checked with auth.test, the token sent as Bearer', async () => {
    const before = fake.requests.length;
    const res = await createSlack(h, token, { bot_token: SLACK_FAKE_BOT_TOKEN });
    assert.equal(res.status, 200, res.body);
    bot = connectorApi(h, token, res.json.id);
    assert.equal(res.json.connector_type, 'slack');
    assert.equal(res.json.credential_option, 'Bot Token');
    assert.equal(res.json.credentials_status, 'valid');
    const sent = fake.requests.slice(before);
    assert.deepEqual(
      sent.map((r) => `${r.method} ${method(r)}`),
      ['GET /api/auth.test'],
    );
    assert.equal(sent[0]?.headers.authorization, `Bearer ${SLACK_FAKE_BOT_TOKEN}`);
    // (The credential form's help text, in source_template, says what a bot token looks like: "xoxb-...".)
    assert.ok(!res.body.includes(SLACK_FAKE_BOT_TOKEN), 'the token is never echoed');
  });

  test('a wrong or revoked token is refused with INVALID_CREDENTIALS (Slack says so inside HTTP 200)', async () => {
    for (const bad of ['xoxb-0000000000-0000000000-NotAToken', SLACK_FAKE_REVOKED_TOKEN]) {
      const before = fake.requests.length;
      const res = await createSlack(h, token, { bot_token: bad });
      assertError(res, 422, 'INVALID_CREDENTIALS');
      assert.equal(fake.requests.length, before + 1, 'auth.test reached the fake');
      assert.doesNotMatch(res.body, /xoxb-/);
    }
  });

  test('a User Token connector reads a public channel the bot is not in', async () => {
    const created = await createSlack(h, token, { user_token: SLACK_FAKE_USER_TOKEN });
    assert.equal(created.status, 200, created.body);
    assert.equal(created.json.credential_option, 'User Token');
    const partners = channel(fake.data, 'partners').id;
    const asUser = await connectorApi(h, token, created.json.id).exec('channel_messages', 'list', {
      channel: partners,
    });
    assert.equal(asUser.status, 200, asUser.body);
    assert.equal(asUser.json.result.length, 2);
    assert.equal(bearer(fake.requests.at(-1) as RecordedRequest), SLACK_FAKE_USER_TOKEN);
    // The bot is refused: not_in_channel (HTTP 200) is UPSTREAM_FORBIDDEN, Slack's code passed on.
    const asBot = await bot.exec('channel_messages', 'list', { channel: partners });
    assertError(asBot, 424, 'UPSTREAM_FORBIDDEN');
    assert.deepEqual(asBot.json.upstream, { status: 200, body: { error: 'not_in_channel' } });
  });

  test('channels are listed page by page through Slack cursors until next_cursor is empty', async () => {
    const pages = await bot.pages('channels', 'list', { limit: 10, types: 'public_channel,private_channel' });
    const names: string[] = pages.flatMap((p) => p.result.map((c: { name: string }) => c.name));
    assert.equal(pages.length, 3);
    assert.equal(names.length, 27, 'every channel but #legal, which the bot is not in');
    assert.equal(new Set(names).size, 27);
    const lists = fake.requests.filter((r) => method(r) === '/api/conversations.list').slice(-3);
    assert.equal(lists[0]?.headers.authorization, `Bearer ${SLACK_FAKE_BOT_TOKEN}`);
    assert.equal(query(lists[0] as RecordedRequest).get('cursor'), null);
    // The next pages repeat the request with Slack's cursor (and the other params).
    for (const r of lists.slice(1)) {
      assert.ok(query(r).get('cursor'));
      assert.equal(query(r).get('limit'), '10');
      assert.equal(query(r).get('types'), 'public_channel,private_channel');
    }
  });

  test('a thread is read across pages, parent first', async () => {
    const eng = channel(fake.data, 'engineering').id;
    const parent = engineeringTopLevel(fake.data)[11]?.ts as string;
    const pages = await bot.pages('threads', 'list', { channel: eng, ts: parent, limit: 10 });
    const ts: string[] = pages.flatMap((p) => p.result.map((m: { ts: string }) => m.ts));
    assert.equal(ts.length, 26);
    assert.equal(ts[0], parent);
  });

  test('get a channel and a user: the records are Slack objects', async () => {
    const eng = channel(fake.data, 'engineering');
    const ch = await bot.exec('channels', 'get', { channel: eng.id });
    assert.equal(ch.status, 200, ch.body);
    assert.equal(ch.json.result.id, eng.id);
    assert.equal(ch.json.result.name, 'engineering');
    const user = await bot.exec('users', 'get', { user: fake.data.owner.id });
    assert.equal(user.status, 200, user.body);
    assert.equal(user.json.result.id, fake.data.owner.id);
    assert.match(user.json.result.profile.email, /@ces-fake\.example\.com$/);
    const missing = await bot.exec('channels', 'get', { channel: 'C0NOWHERE1' });
    assertError(missing, 404, 'UPSTREAM_NOT_FOUND');
    assert.equal(missing.json.upstream.body.error, 'channel_not_found');
  });

  test('a message is posted as JSON, read back from the history, edited and deleted', async () => {
    const eng = channel(fake.data, 'engineering').id;
    const posted = await bot.exec('messages', 'create', { channel: eng, text: 'deploy at 5pm' });
    assert.equal(posted.status, 200, posted.body);
    const { ts } = posted.json.result;
    assert.equal(posted.json.result.channel, eng);
    assert.equal(posted.json.result.message.text, 'deploy at 5pm');
    // The hosted catalog's record is the message itself: its members are on the answer too.
    const { message } = posted.json.result;
    assert.equal(typeof message.bot_id, 'string');
    assert.deepEqual(
      ['text', 'user', 'type', 'bot_id', 'app_id', 'team', 'bot_profile'].map((k) => posted.json.result[k]),
      [
        'deploy at 5pm',
        BOT_USER_ID,
        'message',
        message.bot_id,
        message.app_id,
        message.team,
        message.bot_profile,
      ],
    );
    const sent = fake.requests.at(-1) as RecordedRequest;
    assert.equal(`${sent.method} ${sent.path}`, 'POST /api/chat.postMessage');
    // With the charset, as Slack wants a JSON body: no missing_charset warning in the answer.
    assert.equal(sent.headers['content-type'], 'application/json; charset=utf-8');
    assert.deepEqual(JSON.parse(sent.body), { channel: eng, text: 'deploy at 5pm' });
    assertNoWarning(posted);

    const newest = await bot.exec('channel_messages', 'list', { channel: eng, limit: 1 });
    assert.equal(newest.status, 200, newest.body);
    assert.equal(newest.json.result[0].ts, ts);
    assert.equal(newest.json.result[0].text, 'deploy at 5pm');
    assert.equal(newest.json.result[0].user, BOT_USER_ID);

    const edited = await bot.exec('messages', 'update', { channel: eng, ts, text: 'deploy at 6pm' });
    assert.equal(edited.status, 200, edited.body);
    assertNoWarning(edited);
    assert.equal(edited.json.result.message.text, 'deploy at 6pm');
    assert.deepEqual(
      ['text', 'user', 'type'].map((k) => edited.json.result[k]),
      ['deploy at 6pm', BOT_USER_ID, 'message'],
    );
    const reread = await bot.exec('channel_messages', 'list', { channel: eng, limit: 1 });
    assert.equal(reread.json.result[0].text, 'deploy at 6pm');
    assert.equal(reread.json.result[0].edited.user, BOT_USER_ID);

    const deleted = await bot.exec('messages', 'delete', { channel: eng, ts });
    assert.equal(deleted.status, 200, deleted.body);
    assertNoWarning(deleted);
    const again = await bot.exec('messages', 'delete', { channel: eng, ts });
    assertError(again, 404, 'UPSTREAM_NOT_FOUND');
    assert.equal(again.json.upstream.body.error, 'message_not_found');
  });

  test('blocks and attachments go as JSON arrays of objects in the body and read back as Slack stored them', async () => {
    const eng = channel(fake.data, 'engineering').id;
    const posted = await bot.exec('messages', 'create', {
      channel: eng,
      text: 'Build 42 passed',
      blocks: BLOCKS,
      attachments: ATTACHMENTS,
    });
    assert.equal(posted.status, 200, posted.body);
    assertNoWarning(posted);
    const sent = fake.requests.at(-1) as RecordedRequest;
    assert.equal(sent.headers['content-type'], 'application/json; charset=utf-8');
    assert.deepEqual(JSON.parse(sent.body), {
      channel: eng,
      text: 'Build 42 passed',
      blocks: BLOCKS,
      attachments: ATTACHMENTS,
    });
    assert.deepEqual(posted.json.result.message.blocks, BLOCKS);
    const { ts } = posted.json.result;
    const newest = await bot.exec('channel_messages', 'list', { channel: eng, limit: 1 });
    assert.equal(newest.json.result[0].ts, ts);
    assert.deepEqual(newest.json.result[0].blocks, BLOCKS);
    // Slack numbers the attachments it stores.
    assert.deepEqual(
      newest.json.result[0].attachments,
      ATTACHMENTS.map((a, i) => ({ ...a, id: i + 1 })),
    );

    // chat.update and chat.postEphemeral take the same arrays.
    const blocks = [{ type: 'section', text: { type: 'mrkdwn', text: '*Build 42* failed after all' } }];
    const edited = await bot.exec('messages', 'update', {
      channel: eng,
      ts,
      text: 'Build 42 failed',
      blocks,
    });
    assert.equal(edited.status, 200, edited.body);
    assertNoWarning(edited);
    assert.deepEqual(JSON.parse((fake.requests.at(-1) as RecordedRequest).body).blocks, blocks);
    assert.deepEqual(edited.json.result.message.blocks, blocks);
    const member = channel(fake.data, 'engineering').members.find((u) => u !== BOT_USER_ID) as string;
    const ephemeral = await bot.exec('ephemeral_messages', 'create', {
      channel: eng,
      user: member,
      blocks,
    });
    assert.equal(ephemeral.status, 200, ephemeral.body);
    assertNoWarning(ephemeral);
    assert.deepEqual(JSON.parse((fake.requests.at(-1) as RecordedRequest).body).blocks, blocks);

    // The old JSON-encoded string, or an array of anything but objects, is refused before Slack is asked.
    const before = fake.requests.length;
    for (const bad of [JSON.stringify(BLOCKS), ['section'], BLOCKS[0]]) {
      const res = await bot.exec('messages', 'create', { channel: eng, blocks: bad });
      assertError(res, 422, 'INVALID_PARAMS');
      assert.match(res.json.message, /blocks/);
    }
    assert.equal(fake.requests.length, before);
    assert.equal((await bot.exec('messages', 'delete', { channel: eng, ts })).status, 200);
  });

  test('missing_scope is UPSTREAM_FORBIDDEN with the scopes Slack names', async () => {
    const ro = await createSlack(h, token, { bot_token: SLACK_FAKE_READONLY_BOT_TOKEN });
    assert.equal(ro.status, 200, ro.body);
    const eng = channel(fake.data, 'engineering').id;
    const res = await connectorApi(h, token, ro.json.id).exec('messages', 'create', {
      channel: eng,
      text: 'hi',
    });
    assertError(res, 424, 'UPSTREAM_FORBIDDEN');
    assert.equal(res.json.upstream.body.error, 'missing_scope');
    assert.match(res.json.upstream.body.needed, /chat:write/);
    assert.match(res.json.message, /missing_scope/);
  });

  test('a file is streamed from the file host with the token; the bytes are the file', async () => {
    const file = fake.data.files[3];
    assert.ok(file);
    const listed = await bot.exec('files', 'list', { count: 5 });
    assert.equal(listed.status, 200, listed.body);
    assert.equal(listed.json.result.length, 5);
    assert.equal(listed.json.connector_metadata.has_next_page, true);
    const before = fake.fileRequests().length;
    const res = await bot.exec('files', 'download', { file: file.id });
    assert.equal(res.status, 200, res.body);
    assert.deepEqual(res.raw, file.bytes);
    assert.equal(res.headers['content-type'], file.mimetype);
    const fetched = fake.fileRequests().slice(before);
    assert.equal(fetched.length, 1);
    assert.match(fetched[0]?.path ?? '', new RegExp(`/download/${file.name}$`));
    assert.equal(fetched[0]?.headers.authorization, `Bearer ${SLACK_FAKE_BOT_TOKEN}`);
  });

  test('HTTP 429 with Retry-After: waited out and retried; a long one is passed on with retry_after', async () => {
    const before = fake.requests.length;
    fake.failNext({ status: 429, match: '/api/users.info', headers: { 'Retry-After': '1' } });
    const started = Date.now();
    const res = await bot.exec('users', 'get', { user: fake.data.owner.id });
    assert.equal(res.status, 200, res.body);
    assert.ok(Date.now() - started >= 900, 'ces waited for Retry-After');
    assert.equal(fake.requests.length - before, 2);

    fake.failNext({ status: 429, match: '/api/users.info', headers: { 'Retry-After': '120' } });
    const limited = await bot.exec('users', 'get', { user: fake.data.owner.id });
    assertError(limited, 429, 'UPSTREAM_RATE_LIMITED');
    assert.equal(limited.json.retry_after, 120);
    assert.equal(limited.json.upstream.body.error, 'ratelimited');
  });

  test('no request carried a token in its URL; every JSON body had its charset; nothing went unhandled', () => {
    assertNoTokenInUrls(fake);
    assertJsonBodiesWithCharset(fake);
    assert.deepEqual(fake.unhandled, []);
  });
});

describe('Slack OAuth2.0 with token rotation (oauth.v2.access)', () => {
  let h: Harness;
  let fake: SlackFake;
  let token: string;
  let api: ConnectorApi;
  const oauth = (refresh_token: string, client_secret = SLACK_FAKE_CLIENT_SECRET) => ({
    refresh_token,
    client_id: SLACK_FAKE_CLIENT_ID,
    client_secret,
  });
  const usersPage = () => api.exec('users', 'list', { limit: 5 });

  before(async () => {
    fake = await startSlackFake();
    ({ h, token } = await startWithFake('slack', fake.url, { CES_SYNC_ENABLED: 'false' }));
  });
  after(() => closeAll(h, fake));

  test('create with only a refresh token: ces rotates it at the token endpoint, then checks with the new token', async () => {
    const grant = fake.oauth.grant();
    const before = fake.requests.length;
    const res = await createSlack(h, token, oauth(grant.refresh_token));
    assert.equal(res.status, 200, res.body);
    api = connectorApi(h, token, res.json.id);
    assert.equal(res.json.credential_option, 'OAuth2.0');
    const sent = fake.requests.slice(before);
    assert.deepEqual(
      sent.map((r) => `${r.method} ${method(r)}`),
      [`POST ${SLACK_TOKEN_PATH}`, 'GET /api/auth.test'],
    );
    const [tokenReq, check] = sent as [RecordedRequest, RecordedRequest];
    assert.equal(tokenReq.path, SLACK_TOKEN_PATH, 'nothing in the token URL');
    assert.match(String(tokenReq.headers['content-type']), /^application\/x-www-form-urlencoded/);
    assert.deepEqual(Object.fromEntries(new URLSearchParams(tokenReq.body)), {
      grant_type: 'refresh_token',
      refresh_token: grant.refresh_token,
      client_id: SLACK_FAKE_CLIENT_ID,
      client_secret: SLACK_FAKE_CLIENT_SECRET,
    });
    const [access] = fake.oauth.issued.slice(-2);
    assert.match(access as string, /^xoxe\.xoxb-/);
    assert.equal(bearer(check), access);
  });

  test('an expired access token (token_expired in HTTP 200): one refresh with the rotated token, one retry', async () => {
    const rotated = fake.oauth.issued.at(-1) as string;
    fake.oauth.expireAccessTokens();
    const before = fake.requests.length;
    const res = await usersPage();
    assert.equal(res.status, 200, res.body);
    assert.equal(res.json.result.length, 5);
    const sent = fake.requests.slice(before);
    assert.deepEqual(
      sent.map((r) => method(r)),
      ['/api/users.list', SLACK_TOKEN_PATH, '/api/users.list'],
    );
    assert.equal(new URLSearchParams(sent[1]?.body).get('refresh_token'), rotated);
    assert.equal(bearer(sent[2] as RecordedRequest), fake.oauth.issued.at(-2));
    // Fresh again: the next execute goes straight to Slack.
    const quiet = fake.tokenRequests().length;
    assert.equal((await usersPage()).status, 200);
    assert.equal(fake.tokenRequests().length, quiet);
  });

  test('a wrong client secret (bad_client_secret in HTTP 200) is INVALID_CREDENTIALS at create', async () => {
    const res = await createSlack(h, token, oauth(fake.oauth.grant().refresh_token, 'not-the-secret'));
    assertError(res, 422, 'INVALID_CREDENTIALS');
    assert.match(res.json.message, /bad_client_secret/);
    assert.doesNotMatch(res.body, /not-the-secret/);
  });

  test('a revoked refresh token (invalid_refresh_token) marks the connector needs_reauth; Slack is not called again', async () => {
    fake.oauth.revokeRefreshTokens();
    fake.oauth.expireAccessTokens();
    const refused = await usersPage();
    assertError(refused, 424, 'CONNECTOR_REAUTH_REQUIRED');
    assert.match(refused.json.message, /invalid_refresh_token/);
    const record = await api.record();
    assert.equal(record.json.credentials_status, 'needs_reauth');
    const quiet = fake.requests.length;
    assertError(await usersPage(), 424, 'CONNECTOR_REAUTH_REQUIRED');
    assert.equal(fake.requests.length, quiet);
  });

  test('no token or client secret in any URL, and nothing unhandled', () => {
    assertNoTokenInUrls(fake);
    for (const r of fake.requests) assert.ok(!r.path.includes(SLACK_FAKE_CLIENT_SECRET));
    assert.deepEqual(fake.unhandled, []);
  });
});

describe('Slack in the Context Store', () => {
  let h: Harness;
  let fake: SlackFake;
  let token: string;
  let api: ConnectorApi;

  before(async () => {
    fake = await startSlackFake();
    ({ h, token } = await startWithFake('slack', fake.url, {
      CES_SYNC_POLL_MS: '20',
      CES_SYNC_INTERVAL_SECONDS: '3600',
    }));
  });
  after(() => closeAll(h, fake));

  test('channels, users, two channels’ messages and a thread reach Ready and are searchable', async () => {
    const eng = channel(fake.data, 'engineering').id;
    const general = channel(fake.data, 'general').id;
    const parent = engineeringTopLevel(fake.data)[11]?.ts as string;
    const res = await createSlack(
      h,
      token,
      { bot_token: SLACK_FAKE_BOT_TOKEN },
      { replication_config: { channels: [eng, general], threads: [`${eng}/${parent}`] } },
    );
    assert.equal(res.status, 200, res.body);
    api = connectorApi(h, token, res.json.id);
    await h.deps.worker.start();

    assert.equal((await api.waitReady('channels'))?.entity_count, 27);
    assert.equal((await api.waitReady('users'))?.entity_count, 34);
    assert.equal((await api.waitReady('channel_messages'))?.entity_count, 48 + 12);
    assert.equal((await api.waitReady('threads'))?.entity_count, 26);

    // One partition per configured channel, 200 messages a page.
    const history = fake.requests.filter((r) => method(r) === '/api/conversations.history').map(query);
    assert.deepEqual(history.map((q) => q.get('channel')).sort(), [eng, general].sort());
    assert.ok(history.every((q) => q.get('limit') === '200'));

    const byText = await api.search('channel_messages', {
      query: { filter: { fuzzy: { text: 'benchmark update 7' } } },
      fields: ['ts', 'text'],
    });
    assert.equal(byText.status, 200, byText.body);
    assert.deepEqual(byText.json.result.map((m: { text: string }) => m.text).sort(), [
      'benchmark update 7 in #engineering',
      'benchmark update 7 in #general',
    ]);

    const owner = fake.data.owner;
    const byEmail = await api.search('users', {
      query: { filter: { eq: { 'profile.email': `${owner.name}@ces-fake.example.com` } } },
    });
    assert.equal(byEmail.status, 200, byEmail.body);
    assert.deepEqual(
      byEmail.json.result.map((u: { id: string }) => u.id),
      [owner.id],
    );

    const archived = await api.search('channels', {
      query: { filter: { eq: { is_archived: true } }, sort: [{ name: 'asc' }] },
      fields: ['name'],
    });
    assert.equal(archived.status, 200, archived.body);
    assert.deepEqual(
      archived.json.result.map((c: { name: string }) => c.name),
      ['archive-2022', 'events', 'old-projects'],
    );

    const replies = await api.search('threads', {
      query: { filter: { eq: { parent_user_id: engineeringTopLevel(fake.data)[11]?.user } } },
    });
    assert.equal(replies.status, 200, replies.body);
    assert.equal(replies.json.result.length, 25);
    assertNoTokenInUrls(fake);
    assert.deepEqual(fake.unhandled, []);
  });

  test('Slack’s Unix times (ts strings, created, updated) are filtered and sorted with ISO 8601', async () => {
    const eng = channel(fake.data, 'engineering').id;
    const general = channel(fake.data, 'general').id;
    const since = '2023-11-16T00:00:00Z';
    const sinceSeconds = Date.parse(since) / 1000;
    const expected = [eng, general]
      .flatMap((c) => fake.data.messagesOf(c))
      .filter((m) => m.thread_ts === undefined || m.thread_ts === m.ts)
      .filter((m) => Number(m.ts) >= sinceSeconds)
      .map((m) => m.ts)
      .sort()
      .reverse();
    assert.ok(expected.length > 5 && expected.length < 48);
    const recent = await api.search('channel_messages', {
      query: { filter: { gte: { ts: since } }, sort: [{ ts: 'desc' }] },
      fields: ['ts'],
      limit: 100,
    });
    assert.equal(recent.status, 200, recent.body);
    // The records keep Slack's own ts strings.
    assert.deepEqual(
      recent.json.result.map((m: { ts: string }) => m.ts),
      expected,
    );
    const first = engineeringTopLevel(fake.data)[0] as { ts: string };
    const exact = await api.search('channel_messages', {
      query: { filter: { eq: { ts: new Date(Number(first.ts) * 1000).toISOString() } } },
    });
    assert.deepEqual(
      exact.json.result.map((m: { ts: string }) => m.ts),
      [first.ts],
    );

    const cutoff = '2023-02-01T00:00:00Z';
    const early = await api.search('channels', {
      query: { filter: { lt: { created: cutoff } }, sort: [{ created: 'asc' }] },
      fields: ['name', 'created'],
    });
    assert.equal(early.status, 200, early.body);
    const visible = fake.data.channels.filter((c) => !c.is_private || c.members.includes(BOT_USER_ID));
    const earlyExpected = visible.filter((c) => c.created < Date.parse(cutoff) / 1000).map((c) => c.name);
    assert.ok(earlyExpected.length > 0 && earlyExpected.length < visible.length);
    assert.deepEqual(
      early.json.result.map((c: { name: string }) => c.name),
      earlyExpected,
    );
    assert.equal(typeof early.json.result[0].created, 'number');

    const newest = [...fake.data.users].sort((a, b) => b.updated - a.updated)[0];
    const byUpdated = await api.search('users', {
      query: { sort: [{ updated: 'desc' }] },
      fields: ['id'],
      limit: 1,
    });
    assert.equal(byUpdated.status, 200, byUpdated.body);
    assert.equal(byUpdated.json.result[0].id, newest?.id);
    const notIso = await api.search('users', { query: { filter: { gte: { updated: 1_690_000_000 } } } });
    assertError(notIso, 422, 'INVALID_QUERY');
  });
});

describe('Slack in the Context Store: incremental refresh of channel messages by oldest', () => {
  let h: Harness;
  let fake: SlackFake;
  let token: string;
  let api: ConnectorApi;
  const history = () =>
    fake.requests.filter((r) => method(r) === '/api/conversations.history').map((r) => query(r));
  /** The `oldest` a refresh sends after storing `ts`: whole seconds, one second back (lookback_seconds: 1). */
  const boundAfter = (ts: string) => String(Math.floor((Math.round(Number(ts) * 1000) - 1000) / 1000));

  before(async () => {
    fake = await startSlackFake();
    ({ h, token } = await startWithFake('slack', fake.url, INCREMENTAL_SYNC_ENV));
  });
  after(() => closeAll(h, fake));

  test('after Ready, a new message is indexed by a refresh that asks only for messages since the newest ts', async () => {
    const eng = channel(fake.data, 'engineering').id;
    const res = await createSlack(
      h,
      token,
      { bot_token: SLACK_FAKE_BOT_TOKEN },
      { replication_config: { channels: [eng] } },
    );
    assert.equal(res.status, 200, res.body);
    api = connectorApi(h, token, res.json.id);
    await h.deps.worker.start();
    const state = await api.waitReady('channel_messages');
    assert.equal(state.entity_count, 48);
    // The backfill read the whole history, with no bound.
    const backfill = history()[0];
    assert.equal(backfill?.get('oldest'), null);
    assert.equal(backfill?.get('inclusive'), 'true');

    const newestSeeded = engineeringTopLevel(fake.data).at(-1)?.ts as string;
    const seen = history().length;
    const posted = await api.exec('messages', 'create', {
      channel: eng,
      text: 'incremental: posted after Ready',
      blocks: BLOCKS,
    });
    assert.equal(posted.status, 200, posted.body);
    const ts = posted.json.result.ts as string;
    await api.waitCount('channel_messages', 49);

    const refreshes = history().slice(seen);
    assert.ok(refreshes.length > 0);
    // Every refresh is bounded: at first by the newest seeded message, then by the new one once stored.
    for (const q of refreshes) {
      assert.equal(q.get('channel'), eng);
      assert.equal(q.get('inclusive'), 'true');
      assert.equal(q.get('limit'), '200');
      assert.ok([boundAfter(newestSeeded), boundAfter(ts)].includes(q.get('oldest') as string), q.toString());
    }
    assert.equal(refreshes[0]?.get('oldest'), boundAfter(newestSeeded));
    await waitFor(
      'a refresh bounded by the new message',
      async () => (history().some((q) => q.get('oldest') === boundAfter(ts)) ? true : undefined),
      30_000,
    );
    // Read again at the bound, the message is replaced, never doubled.
    assert.equal((await api.state('channel_messages'))?.entity_count, 49);

    const found = await api.search('channel_messages', {
      query: { filter: { fuzzy: { text: 'posted after Ready' } } },
    });
    assert.equal(found.status, 200, found.body);
    assert.deepEqual(
      found.json.result.map((m: { ts: string }) => m.ts),
      [ts],
    );
    assert.deepEqual(found.json.result[0].blocks, BLOCKS);
    assertNoTokenInUrls(fake);
    assert.deepEqual(fake.unhandled, []);
  });
});
