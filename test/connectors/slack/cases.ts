// Slack cases of the definition-driven suite, over the Slack fake's seeded workspace (test/connectors/slack/fake/
// dataset.ts) as the app's bot sees it: 28 channels, the bot in all but #partners and #legal (private, so
// invisible to it); #engineering holds 48 top-level messages an hour apart, every tenth from the bot, the 12th
// a thread of 25 replies, the 7th pinned; 34 users; 14 files. Ids and timestamps are read from the dataset.
// Lists page by small `limit`s (files.list by `count`). Slack refuses with HTTP 200 {ok: false, error}; the
// definition's errors.rules map each code. users.list takes nothing Slack could refuse, so its refusal (a
// token without users:read) is injected.
import type { Cases } from '../suite/types.ts';
import { BOT_USER_ID, type ChannelRecord, type Dataset, type MessageRecord } from './fake/dataset.ts';

const NOWHERE_TS = '1600000000.000100';

/** Block Kit blocks and legacy attachments: JSON arrays of objects in the JSON body, as Slack takes them. */
const BLOCKS = [{ type: 'section', text: { type: 'mrkdwn', text: '*Suite*: hello from ces' } }];
const ATTACHMENTS = [{ color: '#36a64f', fallback: 'Suite: attached', text: 'Suite: attached' }];

/** The reaction the bot already has on #engineering's 11th message, so reactions.delete has one to remove. */
export const SEEDED_REACTION = 'eyes';

/** #engineering's top-level messages, oldest first (the seed order). */
export function engineeringTopLevel(data: Dataset): MessageRecord[] {
  const eng = channel(data, 'engineering');
  return data.messagesOf(eng.id).filter((m) => m.thread_ts === undefined || m.thread_ts === m.ts);
}

export function channel(data: Dataset, name: string): ChannelRecord {
  const ch = data.channelByName(name);
  if (ch === undefined) throw new Error(`the Slack fake has no #${name}`);
  return ch;
}

/** Gives the bot a reaction on #engineering's 11th message (reactions.delete's happy case). */
export function seedBotReaction(data: Dataset): void {
  const msg = engineeringTopLevel(data)[10];
  if (msg === undefined) throw new Error('the Slack fake seeded too few messages');
  msg.reactions.push({ name: SEEDED_REACTION, users: [BOT_USER_ID], count: 1 });
}

export function slackCases(data: Dataset): Cases {
  const eng = channel(data, 'engineering').id;
  const general = channel(data, 'general').id;
  const partners = channel(data, 'partners').id;
  const legal = channel(data, 'legal').id;
  const events = channel(data, 'events').id; // archived, the bot a member
  const design = channel(data, 'design');
  const product = channel(data, 'product');
  const top = engineeringTopLevel(data);
  const at = (i: number): string => {
    const m = top[i];
    if (m === undefined) throw new Error(`#engineering has no message ${i + 1}`);
    return m.ts;
  };
  const thread = top.reduce((a, b) =>
    data.repliesOf(b.channel, b.ts).length > data.repliesOf(a.channel, a.ts).length ? b : a,
  );
  const botMessages = top.filter((m) => m.bot === true && data.repliesOf(m.channel, m.ts).length === 0);
  const [toEdit, toDelete] = [botMessages[0], botMessages.at(-1)];
  const someoneElses = top.find((m) => m.user !== BOT_USER_ID && m.subtype === undefined);
  const outsider = data.activePeople().find((u) => !design.members.includes(u.id));
  const kickable = product.members.find((id) => id !== BOT_USER_ID && id !== data.owner.id);
  const engMember = channel(data, 'engineering').members.find((id) => id !== BOT_USER_ID);
  if (!toEdit || !toDelete || toEdit === toDelete || !someoneElses || !outsider || !kickable || !engMember)
    throw new Error('the Slack fake seeded an unexpected workspace');
  const file = data.files[0]?.id as string;
  const postAt = Math.floor(Date.now() / 1000) + 3600;

  return {
    'channels.list': {
      happy: { limit: 10 },
      error: { params: { types: 'public_channel,bogus' }, code: 'INVALID_PARAMS' },
    },
    'channels.get': {
      happy: { channel: eng, include_num_members: true },
      error: { params: { channel: legal }, code: 'UPSTREAM_NOT_FOUND' },
    },
    'channels.create': {
      happy: { name: 'suite-created', is_private: false },
      error: { params: { name: 'general' }, code: 'INVALID_PARAMS' }, // name_taken
    },
    'channels.update': {
      happy: { channel: channel(data, 'web').id, name: 'web-platform' },
      error: { params: { channel: 'C0NOWHERE1', name: 'anything' }, code: 'UPSTREAM_NOT_FOUND' },
    },
    'channel_messages.list': {
      happy: { channel: eng, limit: 20 },
      error: { params: { channel: partners }, code: 'UPSTREAM_FORBIDDEN' }, // not_in_channel
    },
    'threads.list': {
      happy: { channel: eng, ts: thread.ts, limit: 10 },
      error: { params: { channel: eng, ts: NOWHERE_TS }, code: 'UPSTREAM_NOT_FOUND' }, // thread_not_found
    },
    'users.list': {
      happy: { limit: 15 },
      error: {
        params: {},
        code: 'UPSTREAM_FORBIDDEN',
        fault: {
          status: 200,
          match: '/api/users.list',
          body: { ok: false, error: 'missing_scope', needed: 'users:read', provided: 'channels:read' },
        },
      },
    },
    'users.get': {
      happy: { user: data.owner.id },
      error: { params: { user: 'U0NOBODY01' }, code: 'UPSTREAM_NOT_FOUND' },
    },
    'messages.create': {
      happy: { channel: eng, text: 'Suite: hello from ces', blocks: BLOCKS, attachments: ATTACHMENTS },
      error: { params: { channel: partners, text: 'not a member' }, code: 'UPSTREAM_FORBIDDEN' },
    },
    'messages.update': {
      happy: { channel: eng, ts: toEdit.ts, text: 'Suite: edited', blocks: BLOCKS },
      // cant_update_message: someone else's message
      error: { params: { channel: eng, ts: someoneElses.ts, text: 'x' }, code: 'UPSTREAM_FORBIDDEN' },
    },
    'messages.delete': {
      happy: { channel: eng, ts: toDelete.ts },
      error: { params: { channel: eng, ts: NOWHERE_TS }, code: 'UPSTREAM_NOT_FOUND' },
    },
    'ephemeral_messages.create': {
      happy: { channel: eng, user: engMember, text: 'Suite: only you see this', blocks: BLOCKS },
      error: { params: { channel: eng, user: 'U0NOBODY01', text: 'x' }, code: 'UPSTREAM_NOT_FOUND' },
    },
    'scheduled_messages.create': {
      happy: { channel: eng, text: 'Suite: later', post_at: postAt, attachments: ATTACHMENTS },
      error: { params: { channel: eng, text: 'too late', post_at: 1 }, code: 'INVALID_PARAMS' }, // time_in_past
    },
    'bookmarks.create': {
      happy: { channel_id: eng, title: 'Runbook', type: 'link', link: 'https://example.com/runbook' },
      error: {
        params: { channel_id: eng, title: 'Broken', type: 'link', link: 'not a link' },
        code: 'INVALID_PARAMS', // invalid_link
      },
    },
    'channel_archives.create': {
      happy: { channel: channel(data, 'docs').id },
      error: { params: { channel: general }, code: 'INVALID_PARAMS' }, // cant_archive_general
    },
    'channel_invites.create': {
      happy: { channel: design.id, users: outsider.id },
      error: { params: { channel: design.id, users: 'U0NOBODY01' }, code: 'UPSTREAM_NOT_FOUND' },
    },
    'channel_kicks.create': {
      happy: { channel: product.id, user: kickable },
      error: { params: { channel: general, user: kickable }, code: 'INVALID_PARAMS' }, // cant_kick_from_general
    },
    'channel_purposes.create': {
      happy: { channel: eng, purpose: 'Suite: building things' },
      error: { params: { channel: partners, purpose: 'x' }, code: 'UPSTREAM_FORBIDDEN' }, // not_in_channel
    },
    'channel_topics.create': {
      happy: { channel: eng, topic: 'Suite: release week' },
      error: { params: { channel: events, topic: 'x' }, code: 'INVALID_PARAMS' }, // is_archived
    },
    'pins.create': {
      happy: { channel: eng, timestamp: at(5) },
      // the 7th message is pinned in the seed: already_pinned
      error: { params: { channel: eng, timestamp: at(6) }, code: 'INVALID_PARAMS' },
    },
    'reactions.create': {
      happy: { channel: eng, timestamp: at(8), name: 'tada' },
      // the same reaction again: already_reacted
      error: { params: { channel: eng, timestamp: at(8), name: 'tada' }, code: 'INVALID_PARAMS' },
    },
    'reactions.delete': {
      happy: { channel: eng, timestamp: at(10), name: SEEDED_REACTION },
      // no_reaction: the bot never reacted to the 14th message
      error: {
        params: { channel: eng, timestamp: at(13), name: SEEDED_REACTION },
        code: 'UPSTREAM_NOT_FOUND',
      },
    },
    'files.list': {
      happy: { count: 5 },
      error: { params: { types: 'bogus' }, code: 'INVALID_PARAMS' }, // unknown_type
    },
    'files.get': {
      happy: { file },
      error: { params: { file: 'F0NOTHERE1' }, code: 'UPSTREAM_NOT_FOUND' },
    },
    'files.download': {
      happy: { file },
      error: { params: { file: 'F0NOTHERE1' }, code: 'UPSTREAM_NOT_FOUND' },
    },
  };
}
