// conversations.history and conversations.replies: a conversation's messages in a time window, cursor-paged.
//   - history: top-level messages and broadcast replies (thread parents carry reply_count/latest_reply/...), newest first, in
//     (oldest, latest) — ends included when `inclusive` is set; `has_more` and a `next_ts` cursor while more
//     remain. Also pin_count, channel_actions_ts, channel_actions_count like Slack.
//   - replies: the parent first, then its replies oldest first; only the first page carries the parent.
// A bot must be a member of a public channel to read it (not_in_channel); a user token may read any public
// channel; nobody outside a private channel sees it (channel_not_found).
import { type Ctx, findChannel, isAnswer, type MethodTable } from './context.ts';
import type { ChannelRecord, MessageRecord } from './dataset.ts';
import { renderMessage } from './render.ts';
import {
  type Answer,
  bool,
  canonicalTs,
  decodeCursor,
  encodeCursor,
  fail,
  missingArg,
  ok,
  pageLimit,
  str,
} from './wire.ts';

const HISTORY = ['channels:history', 'groups:history', 'im:history', 'mpim:history'];

interface Window {
  inWindow(ts: string): boolean;
}

function readable(ctx: Ctx): ChannelRecord | Answer {
  const ch = findChannel(ctx);
  if (isAnswer(ch)) return ch;
  if (ctx.actor.kind === 'bot' && !ch.members.includes(ctx.actor.userId)) return fail('not_in_channel');
  return ch;
}

function timeWindow(ctx: Ctx): Window | Answer {
  const latest = canonicalTs(str(ctx.args, 'latest'));
  if (latest === 'invalid') return fail('invalid_ts_latest');
  const oldest = canonicalTs(str(ctx.args, 'oldest'));
  if (oldest === 'invalid') return fail('invalid_ts_oldest');
  const inclusive = bool(ctx.args, 'inclusive');
  return {
    inWindow: (ts) =>
      (latest === undefined || (inclusive ? ts <= latest : ts < latest)) &&
      (oldest === undefined || (inclusive ? ts >= oldest : ts > oldest)),
  };
}

function page(
  ctx: Ctx,
  items: MessageRecord[],
  start: number,
  limit: number,
  extra: Record<string, unknown>,
) {
  const slice = items.slice(start, start + limit);
  const next = items[start + limit];
  return ok({
    messages: slice.map((m) => renderMessage(ctx.data, m, ctx.actor.userId)),
    has_more: next !== undefined,
    ...extra,
    response_metadata: { next_cursor: next === undefined ? '' : encodeCursor('next_ts', next.ts) },
  });
}

export const historyMethods: MethodTable = {
  'conversations.history': {
    operation: 'conversations_history',
    scopes: HISTORY,
    json: false,
    handle(ctx) {
      const ch = readable(ctx);
      if (isAnswer(ch)) return ch;
      const window = timeWindow(ctx);
      if (isAnswer(window)) return window;
      const after = decodeCursor(ctx.args, 'next_ts');
      if (after === 'invalid' || (after !== undefined && canonicalTs(after) === 'invalid'))
        return fail('invalid_cursor');
      const all = ctx.data
        .messagesOf(ch.id)
        .filter((m) => m.thread_ts === undefined || m.thread_ts === m.ts || m.subtype === 'thread_broadcast')
        .filter((m) => window.inWindow(m.ts))
        .sort((a, b) => (a.ts < b.ts ? 1 : -1));
      const start = after === undefined ? 0 : all.findIndex((m) => m.ts <= after);
      const pinCount = ctx.data.messagesOf(ch.id).filter((m) => m.pinned_to.includes(ch.id)).length;
      return page(ctx, all, start < 0 ? all.length : start, pageLimit(ctx.args, ctx.pageSize, 999), {
        pin_count: pinCount,
        channel_actions_ts: null,
        channel_actions_count: 0,
      });
    },
  },
  'conversations.replies': {
    operation: 'conversations_replies',
    scopes: HISTORY,
    json: false,
    handle(ctx) {
      const ch = readable(ctx);
      if (isAnswer(ch)) return ch;
      const ts = str(ctx.args, 'ts');
      if (ts === undefined) return missingArg('ts');
      const window = timeWindow(ctx);
      if (isAnswer(window)) return window;
      const found = ctx.data.message(ch.id, ts);
      if (found === undefined) return fail('thread_not_found');
      const parent =
        found.thread_ts !== undefined && found.thread_ts !== found.ts
          ? ctx.data.message(ch.id, found.thread_ts)
          : found;
      if (parent === undefined) return fail('thread_not_found');
      const replies = ctx.data
        .repliesOf(ch.id, parent.ts)
        .filter((m) => window.inWindow(m.ts))
        .sort((a, b) => (a.ts < b.ts ? -1 : 1));
      const after = decodeCursor(ctx.args, 'next_ts');
      if (after === 'invalid' || (after !== undefined && canonicalTs(after) === 'invalid'))
        return fail('invalid_cursor');
      const limit = pageLimit(ctx.args, ctx.pageSize);
      if (after === undefined) return page(ctx, [parent, ...replies], 0, limit, {});
      const start = replies.findIndex((m) => m.ts >= after);
      return page(ctx, replies, start < 0 ? replies.length : start, limit, {});
    },
  },
};
