// The Slack fake itself, spoken to with plain fetch: what it answers is what the connector tests rely on.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  SLACK_FAKE_BOT_TOKEN,
  SLACK_FAKE_CLIENT_ID,
  SLACK_FAKE_CLIENT_SECRET,
  SLACK_FAKE_READONLY_BOT_TOKEN,
  SLACK_FAKE_REVOKED_TOKEN,
  SLACK_FAKE_USER_TOKEN,
  type SlackFake,
  startSlackFake,
} from './index.ts';

// biome-ignore lint/suspicious/noExplicitAny: test convenience for reading JSON bodies
type Json = Record<string, any>;

const NOW = Date.UTC(2024, 0, 15, 12, 0, 0);

describe('Slack fake', () => {
  let fake: SlackFake;
  let engineering: string;

  before(async () => {
    fake = await startSlackFake({ now: () => NOW });
    engineering = fake.data.channelByName('engineering')?.id as string;
  });
  after(() => fake.close());

  const get = async (
    method: string,
    params: Record<string, string> = {},
    token: string | null = SLACK_FAKE_BOT_TOKEN,
  ) => {
    const headers: Record<string, string> = {};
    if (token !== null) headers.authorization = `Bearer ${token}`;
    const res = await fetch(`${fake.url}/${method}?${new URLSearchParams(params)}`, { headers });
    return { status: res.status, headers: res.headers, json: (await res.json()) as Json };
  };
  const postJson = async (method: string, body: unknown, token = SLACK_FAKE_BOT_TOKEN) => {
    const res = await fetch(`${fake.url}/${method}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json; charset=utf-8' },
      body: JSON.stringify(body),
    });
    return { status: res.status, json: (await res.json()) as Json };
  };
  const postForm = async (
    method: string,
    form: Record<string, string>,
    contentType = 'application/x-www-form-urlencoded',
  ) => {
    const res = await fetch(`${fake.url}/${method}`, {
      method: 'POST',
      headers: { 'content-type': contentType },
      body: new URLSearchParams(form).toString(),
    });
    return { status: res.status, json: (await res.json()) as Json };
  };

  it('refuses missing, unknown and revoked tokens with HTTP 200 {ok:false}; auth.test names the bot', async () => {
    assert.deepEqual((await get('auth.test', {}, null)).json, { ok: false, error: 'not_authed' });
    assert.deepEqual((await get('auth.test', {}, 'xoxb-nope')).json, { ok: false, error: 'invalid_auth' });
    assert.deepEqual((await get('auth.test', {}, SLACK_FAKE_REVOKED_TOKEN)).json, {
      ok: false,
      error: 'token_revoked',
    });
    const me = await get('auth.test');
    assert.equal(me.status, 200);
    assert.equal(me.json.ok, true);
    assert.equal(me.json.user_id, 'U07BOT00001');
    assert.equal(me.json.bot_id, 'B07CESBOT01');
    assert.equal(me.headers.get('content-type'), 'application/json; charset=utf-8');
    const viaForm = await postForm('auth.test', { token: SLACK_FAKE_USER_TOKEN });
    assert.equal(viaForm.json.user_id, fake.data.owner.id);
  });

  it('follows conversations.list across all pages, private channels only where the caller is a member', async () => {
    const seen: Json[] = [];
    let cursor = '';
    let pages = 0;
    do {
      const page = await get('conversations.list', {
        types: 'public_channel,private_channel',
        limit: '7',
        cursor,
      });
      assert.equal(page.json.ok, true);
      seen.push(...page.json.channels);
      cursor = page.json.response_metadata.next_cursor;
      pages++;
    } while (cursor !== '');
    assert.equal(pages, 4);
    assert.equal(seen.length, 27); // 28 channels, #legal (private) hidden from the bot
    assert.ok(!seen.some((c) => c.name === 'legal'));
    assert.ok(seen.some((c) => c.is_private && c.name === 'security'));
    const publicOnly = await get('conversations.list', { exclude_archived: 'true', limit: '100' });
    assert.ok(publicOnly.json.channels.every((c: Json) => !c.is_private && !c.is_archived));
    assert.deepEqual((await get('conversations.list', { cursor: 'bm9wZQ==' })).json, {
      ok: false,
      error: 'invalid_cursor',
    });
  });

  it('pages users.list with the default page size and gets one user', async () => {
    const ids: string[] = [];
    let cursor = '';
    do {
      const page = await get('users.list', cursor === '' ? {} : { cursor });
      assert.ok(page.json.members.length <= 10);
      ids.push(...page.json.members.map((m: Json) => m.id));
      cursor = page.json.response_metadata.next_cursor;
    } while (cursor !== '');
    assert.equal(ids.length, 34);
    assert.equal(new Set(ids).size, 34);
    const one = await get('users.info', { user: ids[0] as string });
    assert.equal(one.json.user.id, ids[0]);
    assert.equal(typeof one.json.user.profile.real_name, 'string');
    assert.deepEqual((await get('users.info', { user: 'U999' })).json, {
      ok: false,
      error: 'user_not_found',
    });
  });

  it('pages conversations.history newest first within an oldest/latest window, and replies of a thread', async () => {
    const all = await get('conversations.history', { channel: engineering, limit: '999' });
    assert.equal(all.json.messages.length, 48);
    assert.equal(all.json.has_more, false);
    assert.equal(all.json.response_metadata.next_cursor, '');
    const window = {
      channel: engineering,
      oldest: '1700036000.001100',
      latest: '1700050400.001500',
      limit: '2',
    };
    const first = await get('conversations.history', window);
    assert.deepEqual(
      first.json.messages.map((m: Json) => m.ts),
      ['1700046800.001400', '1700043200.001300'],
    );
    assert.equal(first.json.has_more, true);
    const rest = await get('conversations.history', {
      ...window,
      cursor: first.json.response_metadata.next_cursor,
    });
    assert.deepEqual(
      rest.json.messages.map((m: Json) => m.ts),
      ['1700039600.001200'],
    );
    const inclusive = await get('conversations.history', { ...window, inclusive: 'true', limit: '10' });
    assert.equal(inclusive.json.messages.length, 5);
    const parent = all.json.messages.find((m: Json) => m.reply_count === 25);
    const replies: Json[] = [];
    let cursor = '';
    do {
      const page = await get('conversations.replies', {
        channel: engineering,
        ts: parent.ts,
        limit: '10',
        cursor,
      });
      replies.push(...page.json.messages);
      cursor = page.json.response_metadata.next_cursor;
      assert.equal(page.json.has_more, cursor !== '');
    } while (cursor !== '');
    assert.equal(replies.length, 26);
    assert.equal(replies[0]?.ts, parent.ts);
    assert.ok(replies.slice(1).every((r) => r.thread_ts === parent.ts && r.parent_user_id === parent.user));
  });

  it('answers Slack error bodies: channel_not_found, not_in_channel, invalid_arguments, missing_scope', async () => {
    const legal = fake.data.channelByName('legal')?.id as string;
    const partners = fake.data.channelByName('partners')?.id as string;
    assert.deepEqual((await get('conversations.info', { channel: legal })).json, {
      ok: false,
      error: 'channel_not_found',
    });
    assert.deepEqual((await get('conversations.history', { channel: partners })).json, {
      ok: false,
      error: 'not_in_channel',
    });
    assert.deepEqual((await get('conversations.replies', { channel: engineering })).json, {
      ok: false,
      error: 'invalid_arguments',
      response_metadata: { messages: ['[ERROR] missing required field: ts'] },
    });
    const denied = await postJson(
      'chat.postMessage',
      { channel: engineering, text: 'hi' },
      SLACK_FAKE_READONLY_BOT_TOKEN,
    );
    assert.equal(denied.json.error, 'missing_scope');
    assert.match(denied.json.needed, /chat:write/);
    assert.match(denied.json.provided, /channels:read/);
  });

  it('posts a message (JSON body) that a later history read shows; updates, reacts, pins and deletes it', async () => {
    const posted = await postJson('chat.postMessage', { channel: '#engineering', text: 'hello from ces' });
    assert.equal(posted.json.ok, true);
    assert.equal(posted.json.channel, engineering);
    assert.equal(posted.json.message.bot_id, 'B07CESBOT01');
    const ts = posted.json.ts as string;
    const latest = await get('conversations.history', { channel: engineering, limit: '1' });
    assert.equal(latest.json.messages[0].ts, ts);
    assert.equal(latest.json.messages[0].text, 'hello from ces');
    const updated = await postJson('chat.update', { channel: engineering, ts, text: 'edited' });
    assert.equal(updated.json.text, 'edited');
    assert.equal(
      (await postJson('reactions.add', { channel: engineering, timestamp: ts, name: 'tada' })).json.ok,
      true,
    );
    assert.equal(
      (await postJson('reactions.add', { channel: engineering, timestamp: ts, name: 'tada' })).json.error,
      'already_reacted',
    );
    assert.equal((await postJson('pins.add', { channel: engineering, timestamp: ts })).json.ok, true);
    const after = await get('conversations.history', { channel: engineering, limit: '1' });
    assert.equal(after.json.messages[0].text, 'edited');
    assert.deepEqual(after.json.messages[0].reactions, [{ name: 'tada', users: ['U07BOT00001'], count: 1 }]);
    assert.equal(after.json.pin_count, 2);
    const reply = await postJson('chat.postMessage', {
      channel: engineering,
      text: 'in thread',
      thread_ts: ts,
    });
    assert.equal(reply.json.message.thread_ts, ts);
    const thread = await get('conversations.replies', { channel: engineering, ts });
    assert.equal(thread.json.messages.length, 2);
    assert.equal((await postJson('chat.delete', { channel: engineering, ts: reply.json.ts })).json.ok, true);
    assert.deepEqual((await postJson('chat.delete', { channel: engineering, ts: reply.json.ts })).json, {
      ok: false,
      error: 'message_not_found',
    });
  });

  it('creates, renames, sets topic of, invites to and archives a channel', async () => {
    const created = await postJson('conversations.create', { name: 'ces-test', is_private: false });
    const id = created.json.channel.id as string;
    assert.equal(created.json.channel.is_member, true);
    assert.equal((await postJson('conversations.create', { name: 'ces-test' })).json.error, 'name_taken');
    assert.equal(
      (await postJson('conversations.create', { name: 'Bad Name' })).json.error,
      'invalid_name_specials',
    );
    const renamed = await postJson('conversations.rename', { channel: id, name: 'ces-renamed' });
    assert.deepEqual(renamed.json.channel.previous_names, ['ces-test']);
    const topic = await postJson('conversations.setTopic', { channel: id, topic: 'Testing' });
    assert.equal(topic.json.channel.topic.value, 'Testing');
    const user = fake.data.activePeople()[3]?.id as string;
    const invited = await postJson('conversations.invite', { channel: id, users: user });
    assert.equal(invited.json.channel.num_members, 2);
    assert.equal(
      (await postJson('conversations.invite', { channel: id, users: user })).json.error,
      'already_in_channel',
    );
    assert.equal((await postJson('conversations.kick', { channel: id, user })).json.ok, true);
    assert.equal((await postJson('conversations.archive', { channel: id })).json.ok, true);
    const info = await get('conversations.info', { channel: id });
    assert.equal(info.json.channel.name, 'ces-renamed');
    assert.equal(info.json.channel.is_archived, true);
    assert.equal((await postJson('chat.postMessage', { channel: id, text: 'x' })).json.error, 'is_archived');
  });

  it('schedules a message, posts an ephemeral one and adds a bookmark', async () => {
    const postAt = NOW / 1000 + 3600;
    const scheduled = await postJson('chat.scheduleMessage', {
      channel: engineering,
      text: 'later',
      post_at: postAt,
    });
    assert.match(scheduled.json.scheduled_message_id, /^Q[A-Z0-9]{8,}$/);
    assert.equal(scheduled.json.post_at, postAt);
    assert.equal(
      (await postJson('chat.scheduleMessage', { channel: engineering, text: 'x', post_at: 1 })).json.error,
      'time_in_past',
    );
    const member = fake.data.channelById(engineering)?.members[0] as string;
    const eph = await postJson('chat.postEphemeral', { channel: engineering, user: member, text: 'psst' });
    assert.match(eph.json.message_ts, /^\d{10}\.\d{6}$/);
    const bookmark = await postJson('bookmarks.add', {
      channel_id: engineering,
      title: 'Runbook',
      type: 'link',
      link: 'https://example.com/runbook',
    });
    assert.equal(bookmark.json.bookmark.title, 'Runbook');
    assert.match(bookmark.json.bookmark.id, /^Bk/);
  });

  it('warns about a JSON body without charset; refuses bad JSON', async () => {
    const res = await fetch(`${fake.url}/chat.postMessage`, {
      method: 'POST',
      headers: { authorization: `Bearer ${SLACK_FAKE_BOT_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ channel: engineering, text: 'no charset' }),
    });
    const json = (await res.json()) as Json;
    assert.equal(json.ok, true);
    assert.equal(json.warning, 'missing_charset');
    assert.deepEqual(json.response_metadata.warnings, ['missing_charset']);
    const bad = await fetch(`${fake.url}/chat.postMessage`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${SLACK_FAKE_BOT_TOKEN}`,
        'content-type': 'application/json; charset=utf-8',
      },
      body: '{nope',
    });
    assert.deepEqual(await bad.json(), { ok: false, error: 'invalid_json' });
  });

  it('lists files by page/count with ts_from/ts_to and serves their bytes with the Bearer token only', async () => {
    const first = await get('files.list', { count: '5' });
    assert.deepEqual(first.json.paging, { count: 5, total: 14, page: 1, pages: 3 });
    const third = await get('files.list', { count: '5', page: '3' });
    assert.equal(third.json.files.length, 4);
    const windowed = await get('files.list', { ts_from: '1700100000', ts_to: '1700114400' });
    assert.equal(windowed.json.files.length, 3);
    const info = await get('files.info', { file: 'F0700000001' });
    const url = info.json.file.url_private_download as string;
    assert.ok(url.startsWith(`${fake.origin}/files-pri/T07CESFAKE1-F0700000001/download/`));
    const bytes = await fetch(url, { headers: { authorization: `Bearer ${SLACK_FAKE_BOT_TOKEN}` } });
    assert.equal(bytes.status, 200);
    assert.equal(bytes.headers.get('content-type'), 'text/plain');
    assert.equal((await bytes.arrayBuffer()).byteLength, info.json.file.size);
    const anonymous = await fetch(url, { redirect: 'manual' });
    assert.equal(anonymous.status, 302);
    assert.match(anonymous.headers.get('location') ?? '', /^\/\?redir=/);
    assert.deepEqual((await get('files.info', { file: 'F999999999' })).json, {
      ok: false,
      error: 'file_not_found',
    });
  });

  it('answers 429 + Retry-After past the rate limit, and failNext faults with Slack bodies', async () => {
    const limited = await startSlackFake({ rateLimitPerSecond: 2 });
    try {
      const call = () =>
        fetch(`${limited.url}/auth.test`, { headers: { authorization: `Bearer ${SLACK_FAKE_BOT_TOKEN}` } });
      await call();
      await call();
      const res = await call();
      assert.equal(res.status, 429);
      assert.equal(res.headers.get('retry-after'), '1');
      assert.deepEqual(await res.json(), { ok: false, error: 'ratelimited' });
    } finally {
      await limited.close();
    }
    fake.failNext({ status: 503, match: '/api/users.list' });
    const failed = await get('users.list');
    assert.equal(failed.status, 503);
    assert.deepEqual(failed.json, { ok: false, error: 'internal_error' });
    assert.equal((await get('users.list')).status, 200);
  });

  it('answers unknown methods with 404 unknown_method and records them as unhandled', async () => {
    const before = fake.unhandled.length;
    const res = await get('conversations.nope');
    assert.equal(res.status, 404);
    assert.deepEqual(res.json, { ok: false, error: 'unknown_method', req_method: 'conversations.nope' });
    assert.equal(fake.unhandled.length, before + 1);
    fake.unhandled.splice(before);
  });

  it('rotates tokens at oauth.v2.access: expiring xoxe.xoxb access tokens, single-use refresh tokens', async () => {
    const rotating = await startSlackFake({ oauth: { expiresIn: 1 } });
    try {
      const { refresh_token } = rotating.oauth.grant();
      const exchange = async (refresh: string, secret = SLACK_FAKE_CLIENT_SECRET) => {
        const res = await fetch(`${rotating.url}/oauth.v2.access`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({
            client_id: SLACK_FAKE_CLIENT_ID,
            client_secret: secret,
            grant_type: 'refresh_token',
            refresh_token: refresh,
          }).toString(),
        });
        return (await res.json()) as Json;
      };
      assert.deepEqual(await exchange(refresh_token, 'wrong'), { ok: false, error: 'bad_client_secret' });
      const issued = await exchange(refresh_token);
      assert.equal(issued.ok, true);
      assert.equal(issued.token_type, 'bot');
      assert.equal(issued.expires_in, 1);
      assert.match(issued.access_token, /^xoxe\.xoxb-/);
      assert.match(issued.refresh_token, /^xoxe-1-/);
      assert.deepEqual(await exchange(refresh_token), { ok: false, error: 'invalid_refresh_token' });
      const auth = { authorization: `Bearer ${issued.access_token}` };
      assert.equal(
        ((await (await fetch(`${rotating.url}/auth.test`, { headers: auth })).json()) as Json).ok,
        true,
      );
      rotating.oauth.expireAccessTokens();
      assert.deepEqual(await (await fetch(`${rotating.url}/auth.test`, { headers: auth })).json(), {
        ok: false,
        error: 'token_expired',
      });
      assert.equal((await exchange(issued.refresh_token)).ok, true);
      assert.equal(rotating.oauth.issued.length, 6);
      assert.equal(rotating.unhandled.length, 0);
    } finally {
      await rotating.close();
    }
  });

  it('leaves nothing unhandled', () => {
    assert.deepEqual(fake.unhandled, []);
  });
});
