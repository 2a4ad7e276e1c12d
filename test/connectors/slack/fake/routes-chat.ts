// Writes on messages: chat.*, reactions.*, pins.add, bookmarks.add (reference operations in comments; bookmarks.add
// is missing from slack.json and follows docs.slack.dev/reference/methods/bookmarks.add). Posted messages get a
// ts from the fake's clock, never before the newest seeded message, so they sort last and a later
// conversations.history shows them.
import { type Ctx, findChannel, findMessage, isAnswer, type MethodTable, memberChannel } from './context.ts';
import type { ChannelRecord, MessageRecord } from './dataset.ts';
import { renderBookmark, renderPosted } from './render.ts';
import { type Answer, type Args, bool, canonicalTs, fail, int, missingArg, ok, str, tsOf } from './wire.ts';

const WRITE = ['chat:write', 'chat:write:bot', 'chat:write:user'];
const MAX_TEXT = 40_000;
const DAY = 86_400;

/** A fresh ts: now, or 1µs after the newest message when the clock is behind it. */
function newTs(ctx: Ctx): string {
  const now = ctx.now();
  const candidate = tsOf(Math.floor(now / 1000), (now % 1000) * 1000);
  const latest = ctx.data.latestTs();
  if (candidate > latest) return candidate;
  const [s, us] = latest.split('.') as [string, string];
  const micros = Number(us) + 1;
  return micros >= 1_000_000 ? tsOf(Number(s) + 1, 0) : tsOf(Number(s), micros);
}

/** A JSON-array argument (a JSON string in a form body, an array in a JSON body). */
function jsonArray(args: Args, name: string): unknown[] | undefined | 'invalid' {
  const v = args[name];
  if (v === undefined || v === null || v === '') return undefined;
  if (Array.isArray(v)) return v;
  if (typeof v !== 'string') return 'invalid';
  try {
    const parsed: unknown = JSON.parse(v);
    return Array.isArray(parsed) ? parsed : 'invalid';
  } catch {
    return 'invalid';
  }
}

interface Content {
  text: string;
  blocks?: unknown[];
  attachments?: unknown[];
}

function content(ctx: Ctx): Content | Answer {
  const blocks = jsonArray(ctx.args, 'blocks');
  if (blocks === 'invalid') return fail('invalid_blocks');
  const attachments = jsonArray(ctx.args, 'attachments');
  if (attachments === 'invalid') return fail('invalid_attachments');
  const text = str(ctx.args, 'text');
  if (text === undefined && blocks === undefined && attachments === undefined) return fail('no_text');
  if (text !== undefined && text.length > MAX_TEXT) return fail('msg_too_long');
  return {
    text: text ?? '',
    ...(blocks === undefined ? {} : { blocks }),
    // Slack numbers a message's attachments from 1 (`id`, which its description requires of each).
    ...(attachments === undefined
      ? {}
      : {
          attachments: attachments.map((a, i) =>
            typeof a === 'object' && a !== null && !Array.isArray(a) ? { ...a, id: i + 1 } : a,
          ),
        }),
  };
}

/** The conversation a chat.* call posts to: by ID or name, the caller a member, not archived. */
function postTarget(ctx: Ctx): ChannelRecord | Answer {
  if (str(ctx.args, 'channel') === undefined) return fail('channel_not_found');
  const ch = findChannel(ctx, 'channel', true);
  if (isAnswer(ch)) return ch;
  if (ch.is_archived) return fail('is_archived');
  if (!ch.members.includes(ctx.actor.userId)) return fail('not_in_channel');
  return ch;
}

/** A channel a bot has to be in for reactions and pins (a user token acts anywhere it can see). */
function reactTarget(ctx: Ctx, name = 'channel'): ChannelRecord | Answer {
  return ctx.actor.kind === 'bot' ? memberChannel(ctx, name) : findChannel(ctx, name);
}

/** The thread a reply goes to: the root of the message named by thread_ts, when it exists. */
function threadRoot(ctx: Ctx, ch: ChannelRecord): MessageRecord | undefined {
  const ts = str(ctx.args, 'thread_ts');
  if (ts === undefined) return undefined;
  const m = ctx.data.message(ch.id, ts);
  if (m?.thread_ts !== undefined && m.thread_ts !== m.ts) return ctx.data.message(ch.id, m.thread_ts);
  return m;
}

export const chatMethods: MethodTable = {
  'chat.postMessage': {
    operation: 'chat_postMessage',
    scopes: WRITE,
    json: true,
    handle(ctx) {
      const ch = postTarget(ctx);
      if (isAnswer(ch)) return ch;
      const body = content(ctx);
      if (isAnswer(body)) return body;
      const root = threadRoot(ctx, ch);
      const msg: MessageRecord = {
        channel: ch.id,
        ts: newTs(ctx),
        user: ctx.actor.userId,
        ...body,
        reactions: [],
        pinned_to: [],
      };
      if (ctx.actor.kind === 'bot') msg.bot = true;
      if (root !== undefined) {
        msg.thread_ts = root.ts;
        msg.parent_user_id = root.user;
        if (bool(ctx.args, 'reply_broadcast')) msg.subtype = 'thread_broadcast';
      }
      ctx.data.messagesOf(ch.id).push(msg);
      return ok({ channel: ch.id, ts: msg.ts, message: renderPosted(msg) });
    },
  },
  'chat.update': {
    operation: 'chat_update',
    scopes: WRITE,
    json: true,
    handle(ctx) {
      const ch = findChannel(ctx);
      if (isAnswer(ch)) return ch;
      const msg = findMessage(ctx, ch, 'ts');
      if (isAnswer(msg)) return msg;
      if (msg.user !== ctx.actor.userId) return fail('cant_update_message');
      const body = content(ctx);
      if (isAnswer(body)) return body;
      msg.text = body.text;
      if (body.blocks !== undefined) msg.blocks = body.blocks;
      if (body.attachments !== undefined) msg.attachments = body.attachments;
      msg.edited = { user: ctx.actor.userId, ts: newTs(ctx) };
      return ok({ channel: ch.id, ts: msg.ts, text: msg.text, message: renderPosted(msg) });
    },
  },
  'chat.delete': {
    operation: 'chat_delete',
    scopes: WRITE,
    json: true,
    handle(ctx) {
      const ch = findChannel(ctx);
      if (isAnswer(ch)) return ch;
      const msg = findMessage(ctx, ch, 'ts');
      if (isAnswer(msg)) return msg;
      const admin = ctx.actor.kind === 'user' && ctx.data.userById(ctx.actor.userId)?.is_admin === true;
      if (msg.user !== ctx.actor.userId && !admin) return fail('cant_delete_message');
      const list = ctx.data.messagesOf(ch.id);
      if (ctx.data.repliesOf(ch.id, msg.ts).length > 0 && (msg.thread_ts ?? msg.ts) === msg.ts) {
        // A thread parent stays as a tombstone so its replies keep their thread.
        Object.assign(msg, { subtype: 'tombstone', text: 'This message was deleted.', user: 'USLACKBOT' });
        msg.bot = false;
        msg.reactions = [];
        delete msg.blocks;
        delete msg.attachments;
      } else {
        list.splice(list.indexOf(msg), 1);
      }
      return ok({ channel: ch.id, ts: msg.ts });
    },
  },
  'chat.postEphemeral': {
    operation: 'chat_postEphemeral',
    scopes: WRITE,
    json: true,
    handle(ctx) {
      const ch = postTarget(ctx);
      if (isAnswer(ch)) return ch;
      const user = str(ctx.args, 'user');
      if (user === undefined) return missingArg('user');
      if (ctx.data.userById(user) === undefined) return fail('user_not_found');
      if (!ch.members.includes(user)) return fail('user_not_in_channel');
      const body = content(ctx);
      if (isAnswer(body)) return body;
      const ts = newTs(ctx);
      ctx.data.ephemeral.push({ channel: ch.id, user, ts, text: body.text });
      return ok({ message_ts: ts });
    },
  },
  'chat.scheduleMessage': {
    operation: 'chat_scheduleMessage',
    scopes: WRITE,
    json: true,
    handle(ctx) {
      const ch = postTarget(ctx);
      if (isAnswer(ch)) return ch;
      if (ctx.args.post_at === undefined) return missingArg('post_at');
      const postAt = int(ctx.args, 'post_at');
      if (postAt === undefined) return fail('invalid_time');
      const now = Math.floor(ctx.now() / 1000);
      if (postAt <= now) return fail('time_in_past');
      if (postAt > now + 120 * DAY) return fail('time_too_far');
      const body = content(ctx);
      if (isAnswer(body)) return body;
      const root = threadRoot(ctx, ch);
      const id = ctx.data.nextId('Q');
      ctx.data.scheduled.push({
        id,
        channel: ch.id,
        post_at: postAt,
        text: body.text,
        user: ctx.actor.userId,
        bot: ctx.actor.kind === 'bot',
        ...(root === undefined ? {} : { thread_ts: root.ts }),
        date_created: now,
      });
      const preview: MessageRecord = {
        channel: ch.id,
        ts: '',
        user: ctx.actor.userId,
        ...body,
        reactions: [],
        pinned_to: [],
        ...(ctx.actor.kind === 'bot' ? { bot: true } : {}),
      };
      const { ts: _ts, ...message } = renderPosted(preview);
      return ok({
        channel: ch.id,
        scheduled_message_id: id,
        post_at: postAt,
        message: { ...message, type: 'delayed_message' },
      });
    },
  },
  'reactions.add': {
    operation: 'reactions_add',
    scopes: ['reactions:write'],
    json: true,
    handle(ctx) {
      const name = str(ctx.args, 'name');
      if (name === undefined) return missingArg('name');
      if (str(ctx.args, 'channel') === undefined || str(ctx.args, 'timestamp') === undefined)
        return fail('no_item_specified');
      if (canonicalTs(str(ctx.args, 'timestamp')) === 'invalid') return fail('bad_timestamp');
      const ch = reactTarget(ctx);
      if (isAnswer(ch)) return ch;
      const msg = findMessage(ctx, ch, 'timestamp');
      if (isAnswer(msg)) return msg;
      if (!/^[a-z0-9_+'-]+(::skin-tone-[2-6])?$/.test(name)) return fail('invalid_name');
      const existing = msg.reactions.find((r) => r.name === name);
      if (existing?.users.includes(ctx.actor.userId)) return fail('already_reacted');
      if (existing === undefined) msg.reactions.push({ name, users: [ctx.actor.userId], count: 1 });
      else {
        existing.users.push(ctx.actor.userId);
        existing.count++;
      }
      return ok();
    },
  },
  'reactions.remove': {
    operation: 'reactions_remove',
    scopes: ['reactions:write'],
    json: true,
    handle(ctx) {
      const name = str(ctx.args, 'name');
      if (name === undefined) return missingArg('name');
      const file = str(ctx.args, 'file');
      if (file !== undefined)
        return ctx.data.fileById(file) === undefined ? fail('file_not_found') : fail('no_reaction');
      if (str(ctx.args, 'file_comment') !== undefined) return fail('file_comment_not_found');
      if (str(ctx.args, 'channel') === undefined || str(ctx.args, 'timestamp') === undefined)
        return fail('no_item_specified');
      if (canonicalTs(str(ctx.args, 'timestamp')) === 'invalid') return fail('bad_timestamp');
      const ch = reactTarget(ctx);
      if (isAnswer(ch)) return ch;
      const msg = findMessage(ctx, ch, 'timestamp');
      if (isAnswer(msg)) return msg;
      const existing = msg.reactions.find((r) => r.name === name);
      if (existing === undefined || !existing.users.includes(ctx.actor.userId)) return fail('no_reaction');
      existing.users.splice(existing.users.indexOf(ctx.actor.userId), 1);
      existing.count--;
      if (existing.count === 0) msg.reactions.splice(msg.reactions.indexOf(existing), 1);
      return ok();
    },
  },
  'pins.add': {
    operation: 'pins_add',
    scopes: ['pins:write'],
    json: true,
    handle(ctx) {
      if (str(ctx.args, 'channel') === undefined) return missingArg('channel');
      const ts = str(ctx.args, 'timestamp');
      if (ts === undefined) return fail('no_item_specified');
      if (canonicalTs(ts) === 'invalid') return fail('bad_timestamp');
      const ch = reactTarget(ctx);
      if (isAnswer(ch)) return ch;
      const msg = findMessage(ctx, ch, 'timestamp');
      if (isAnswer(msg)) return msg;
      if (msg.pinned_to.includes(ch.id)) return fail('already_pinned');
      msg.pinned_to.push(ch.id);
      return ok();
    },
  },
  'bookmarks.add': {
    // not in slack.json
    operation: 'docs.slack.dev/reference/methods/bookmarks.add',
    scopes: ['bookmarks:write'],
    json: true,
    handle(ctx) {
      for (const name of ['channel_id', 'title', 'type'])
        if (str(ctx.args, name) === undefined) return missingArg(name);
      const ch = reactTarget(ctx, 'channel_id');
      if (isAnswer(ch)) return ch;
      if (ch.is_archived) return fail('is_archived');
      if (str(ctx.args, 'type') !== 'link') return fail('invalid_bookmark_type');
      const link = str(ctx.args, 'link');
      if (link === undefined) return missingArg('link');
      if (!/^https?:\/\/[^\s]+$/.test(link)) return fail('invalid_link');
      const existing = ctx.data.bookmarks.filter((b) => b.channel_id === ch.id);
      if (existing.length >= 100) return fail('too_many_bookmarks');
      const bookmark = {
        id: ctx.data.nextId('Bk'),
        channel_id: ch.id,
        title: str(ctx.args, 'title') as string,
        link,
        emoji: str(ctx.args, 'emoji') ?? null,
        type: 'link',
        entity_id: str(ctx.args, 'entity_id') ?? null,
        parent_id: str(ctx.args, 'parent_id') ?? null,
        date_created: Math.floor(ctx.now() / 1000),
        last_updated_by_user_id: ctx.actor.userId,
        rank: String.fromCharCode(103 + existing.length),
      };
      ctx.data.bookmarks.push(bookmark);
      return ok({ bookmark: renderBookmark(bookmark) });
    },
  },
};
