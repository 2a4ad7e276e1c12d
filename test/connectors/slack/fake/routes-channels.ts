// conversations.* methods over channels (reference operations in comments, named as in slack.json).
// Pages of conversations.list follow the channel id order, a cursor naming the next channel's id.
import { type Ctx, findChannel, isAnswer, type MethodTable, memberChannel } from './context.ts';
import type { ChannelRecord } from './dataset.ts';
import { renderChannel } from './render.ts';
import {
  type Answer,
  bool,
  decodeCursor,
  encodeCursor,
  fail,
  missingArg,
  ok,
  pageLimit,
  str,
} from './wire.ts';

const READ = ['channels:read', 'groups:read', 'im:read', 'mpim:read'];
const MANAGE = ['channels:manage', 'channels:write', 'groups:write', 'im:write', 'mpim:write'];
const TYPE_SCOPE: Record<string, string> = {
  public_channel: 'channels:read',
  private_channel: 'groups:read',
  mpim: 'mpim:read',
  im: 'im:read',
};
const MAX_TEXT = 250;

/** Slack's channel-name rules: lowercase letters, digits, hyphens and underscores, at most 80 characters. */
function checkName(ctx: Ctx, except?: ChannelRecord): string | Answer {
  const name = str(ctx.args, 'name');
  if (name === undefined) return fail('invalid_name_required');
  if (name.length > 80) return fail('invalid_name_maxlength');
  if (!/^[a-z0-9_-]+$/.test(name)) return fail('invalid_name_specials');
  if (!/[a-z0-9]/.test(name)) return fail('invalid_name_punctuation');
  const taken = ctx.data.channelByName(name);
  if (taken !== undefined && taken !== except) return fail('name_taken');
  return name;
}

function channelAnswer(ctx: Ctx, ch: ChannelRecord): Answer {
  return ok({ channel: renderChannel(ch, ctx.actor.userId, { numMembers: true }) });
}

function setText(ctx: Ctx, field: 'purpose' | 'topic'): Answer {
  const ch = memberChannel(ctx);
  if (isAnswer(ch)) return ch;
  const value = str(ctx.args, field) ?? '';
  if (ctx.args[field] === undefined) return missingArg(field);
  if (ch.is_archived) return fail('is_archived');
  if (value.length > MAX_TEXT) return fail('too_long');
  ch[field] = {
    value,
    creator: value === '' ? '' : ctx.actor.userId,
    last_set: Math.floor(ctx.now() / 1000),
  };
  return channelAnswer(ctx, ch);
}

export const channelMethods: MethodTable = {
  'conversations.list': {
    operation: 'conversations_list',
    scopes: READ,
    json: false,
    handle(ctx) {
      const types = (str(ctx.args, 'types') ?? 'public_channel').split(',').map((t) => t.trim());
      for (const t of types) if (TYPE_SCOPE[t] === undefined) return fail('invalid_types');
      const needed = types.map((t) => TYPE_SCOPE[t] as string).filter((s) => !ctx.actor.scopes.has(s));
      if (needed.length > 0)
        return fail('missing_scope', { needed: needed.join(','), provided: [...ctx.actor.scopes].join(',') });
      const after = decodeCursor(ctx.args, 'team');
      if (after === 'invalid') return fail('invalid_cursor');
      const excludeArchived = bool(ctx.args, 'exclude_archived');
      const all = ctx.data.channels
        .filter((c) =>
          c.is_private
            ? types.includes('private_channel') && c.members.includes(ctx.actor.userId)
            : types.includes('public_channel'),
        )
        .filter((c) => !(excludeArchived && c.is_archived))
        .sort((a, b) => (a.id < b.id ? -1 : 1));
      const from = after === undefined ? all : all.filter((c) => c.id >= after);
      const limit = pageLimit(ctx.args, ctx.pageSize);
      const page = from.slice(0, limit);
      const next = from[limit];
      return ok({
        channels: page.map((c) => renderChannel(c, ctx.actor.userId, { numMembers: true })),
        response_metadata: { next_cursor: next === undefined ? '' : encodeCursor('team', next.id) },
      });
    },
  },
  'conversations.info': {
    operation: 'conversations_info',
    scopes: READ,
    json: false,
    handle(ctx) {
      const ch = findChannel(ctx);
      if (isAnswer(ch)) return ch;
      return ok({
        channel: renderChannel(ch, ctx.actor.userId, {
          numMembers: bool(ctx.args, 'include_num_members'),
          locale: bool(ctx.args, 'include_locale'),
        }),
      });
    },
  },
  'conversations.create': {
    operation: 'conversations_create',
    scopes: MANAGE,
    json: true,
    handle(ctx) {
      const name = checkName(ctx);
      if (isAnswer(name)) return name;
      const isPrivate = bool(ctx.args, 'is_private');
      const needed = isPrivate ? 'groups:write' : 'channels:manage';
      if (
        !ctx.actor.scopes.has(needed) &&
        !(needed === 'channels:manage' && ctx.actor.scopes.has('channels:write'))
      )
        return fail('missing_scope', { needed, provided: [...ctx.actor.scopes].join(',') });
      const created = Math.floor(ctx.now() / 1000);
      const ch: ChannelRecord = {
        id: ctx.data.nextChannelId(),
        name,
        created,
        creator: ctx.actor.userId,
        is_private: isPrivate,
        is_archived: false,
        is_general: false,
        topic: { value: '', creator: '', last_set: 0 },
        purpose: { value: '', creator: '', last_set: 0 },
        previous_names: [],
        members: [ctx.actor.userId],
      };
      ctx.data.channels.push(ch);
      return ok({
        channel: {
          ...renderChannel(ch, ctx.actor.userId),
          last_read: '0000000000.000000',
          latest: null,
          unread_count: 0,
          unread_count_display: 0,
          priority: 0,
        },
      });
    },
  },
  'conversations.rename': {
    operation: 'conversations_rename',
    scopes: MANAGE,
    json: true,
    handle(ctx) {
      const ch = memberChannel(ctx);
      if (isAnswer(ch)) return ch;
      const name = checkName(ctx, ch);
      if (isAnswer(name)) return name;
      if (name !== ch.name) {
        ch.previous_names.unshift(ch.name);
        ch.name = name;
      }
      return channelAnswer(ctx, ch);
    },
  },
  'conversations.archive': {
    operation: 'conversations_archive',
    scopes: MANAGE,
    json: true,
    handle(ctx) {
      const ch = memberChannel(ctx);
      if (isAnswer(ch)) return ch;
      if (ch.is_general) return fail('cant_archive_general');
      if (ch.is_archived) return fail('already_archived');
      ch.is_archived = true;
      return ok();
    },
  },
  'conversations.invite': {
    operation: 'conversations_invite',
    scopes: MANAGE,
    json: true,
    handle(ctx) {
      const ch = memberChannel(ctx);
      if (isAnswer(ch)) return ch;
      const raw = str(ctx.args, 'users');
      if (raw === undefined) return fail('no_user');
      const ids = raw
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s !== '');
      if (ids.length === 0) return fail('no_user');
      if (ids.length > 1000) return fail('too_many_users');
      if (ch.is_archived) return fail('is_archived');
      const errors: Array<{ user: string; ok: false; error: string }> = [];
      const toAdd: string[] = [];
      for (const id of ids) {
        const user = ctx.data.userById(id);
        if (id === ctx.actor.userId) errors.push({ user: id, ok: false, error: 'cant_invite_self' });
        else if (user === undefined || user.deleted)
          errors.push({ user: id, ok: false, error: 'user_not_found' });
        else if (ch.members.includes(id)) errors.push({ user: id, ok: false, error: 'already_in_channel' });
        else toAdd.push(id);
      }
      if (errors.length > 0) return fail((errors[0] as { error: string }).error, { errors });
      ch.members.push(...toAdd);
      return channelAnswer(ctx, ch);
    },
  },
  'conversations.kick': {
    operation: 'conversations_kick',
    scopes: MANAGE,
    json: true,
    handle(ctx) {
      const ch = memberChannel(ctx);
      if (isAnswer(ch)) return ch;
      const id = str(ctx.args, 'user');
      if (id === undefined) return missingArg('user');
      if (id === ctx.actor.userId) return fail('cant_kick_self');
      if (ch.is_general) return fail('cant_kick_from_general');
      const user = ctx.data.userById(id);
      if (user === undefined) return fail('user_not_found');
      const at = ch.members.indexOf(id);
      if (at < 0) return fail('not_in_channel');
      ch.members.splice(at, 1);
      return ok();
    },
  },
  'conversations.setPurpose': {
    operation: 'conversations_setPurpose',
    scopes: MANAGE,
    json: true,
    handle: (ctx) => setText(ctx, 'purpose'),
  },
  'conversations.setTopic': {
    operation: 'conversations_setTopic',
    scopes: MANAGE,
    json: true,
    handle: (ctx) => setText(ctx, 'topic'),
  },
};
