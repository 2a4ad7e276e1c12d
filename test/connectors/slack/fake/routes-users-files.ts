// auth.test, users.* and files.* (reference operations in comments, named as in slack.json).
//   - users.list: cursor-paged in user-id order (cursor names the next user's id), `cache_ts` like Slack;
//     profile.email only for tokens with users:read.email.
//   - files.list: the older page/count paging (`paging: {count, total, page, pages}`), newest first, filtered
//     by user, channel, ts_from/ts_to (inclusive, Unix seconds) and types.
import type { MethodTable } from './context.ts';
import { BOT_ID, type FileRecord, TEAM } from './dataset.ts';
import { renderFile, renderUser } from './render.ts';
import {
  bool,
  canonicalTs,
  decodeCursor,
  encodeCursor,
  fail,
  int,
  missingArg,
  ok,
  pageLimit,
  str,
} from './wire.ts';

const FILE_TYPES: Record<string, (f: FileRecord) => boolean> = {
  all: () => true,
  spaces: () => false,
  snippets: () => false,
  images: (f) => f.mimetype.startsWith('image/'),
  gdocs: () => false,
  zips: (f) => f.filetype === 'zip',
  pdfs: (f) => f.filetype === 'pdf',
};

export const userFileMethods: MethodTable = {
  'auth.test': {
    operation: 'auth_test',
    scopes: [],
    json: true,
    handle(ctx) {
      const user = ctx.data.userById(ctx.actor.userId);
      return ok({
        url: `https://${TEAM.domain}.slack.com/`,
        team: TEAM.name,
        user: user?.name ?? '',
        team_id: TEAM.id,
        user_id: ctx.actor.userId,
        ...(ctx.actor.kind === 'bot' ? { bot_id: BOT_ID } : {}),
        is_enterprise_install: false,
      });
    },
  },
  'users.list': {
    operation: 'users_list',
    scopes: ['users:read'],
    json: false,
    handle(ctx) {
      const after = decodeCursor(ctx.args, 'user');
      if (after === 'invalid') return fail('invalid_cursor');
      const all = [...ctx.data.users].sort((a, b) => (a.id < b.id ? -1 : 1));
      const from = after === undefined ? all : all.filter((u) => u.id >= after);
      const limit = pageLimit(ctx.args, ctx.pageSize);
      const next = from[limit];
      const opts = {
        locale: bool(ctx.args, 'include_locale'),
        email: ctx.actor.scopes.has('users:read.email'),
      };
      return ok({
        members: from.slice(0, limit).map((u) => renderUser(u, opts)),
        cache_ts: Math.floor(ctx.now() / 1000),
        response_metadata: { next_cursor: next === undefined ? '' : encodeCursor('user', next.id) },
      });
    },
  },
  'users.info': {
    operation: 'users_info',
    scopes: ['users:read'],
    json: false,
    handle(ctx) {
      const id = str(ctx.args, 'user');
      const user = id === undefined ? undefined : ctx.data.userById(id);
      if (user === undefined) return fail('user_not_found');
      return ok({
        user: renderUser(user, {
          locale: bool(ctx.args, 'include_locale'),
          email: ctx.actor.scopes.has('users:read.email'),
        }),
      });
    },
  },
  'files.list': {
    operation: 'files_list',
    scopes: ['files:read'],
    json: false,
    handle(ctx) {
      const user = str(ctx.args, 'user');
      if (user !== undefined && ctx.data.userById(user) === undefined) return fail('user_not_found');
      const types = (str(ctx.args, 'types') ?? 'all').split(',').map((t) => t.trim());
      for (const t of types) if (FILE_TYPES[t] === undefined) return fail('unknown_type');
      const channel = str(ctx.args, 'channel');
      const from = seconds(str(ctx.args, 'ts_from'));
      const to = seconds(str(ctx.args, 'ts_to'));
      const visible = (f: FileRecord) =>
        f.channels.some((c) => {
          const ch = ctx.data.channelById(c);
          return ch !== undefined && (!ch.is_private || ch.members.includes(ctx.actor.userId));
        });
      const all = ctx.data.files
        .filter(visible)
        .filter((f) => user === undefined || f.user === user)
        .filter((f) => channel === undefined || f.channels.includes(channel))
        .filter((f) => from === undefined || f.created >= from)
        .filter((f) => to === undefined || f.created <= to)
        .filter((f) => types.some((t) => (FILE_TYPES[t] as (f: FileRecord) => boolean)(f)))
        .sort((a, b) => b.created - a.created || (a.id < b.id ? 1 : -1));
      const countArg = int(ctx.args, 'count');
      const count = countArg === undefined || countArg <= 0 ? ctx.pageSize : Math.min(countArg, 1000);
      const pageArg = int(ctx.args, 'page');
      const page = pageArg === undefined || pageArg <= 0 ? 1 : pageArg;
      const pages = Math.max(1, Math.ceil(all.length / count));
      return ok({
        files: all
          .slice((page - 1) * count, page * count)
          .map((f) => renderFile(f, ctx.origin, channelName(ctx.data))),
        paging: { count, total: all.length, page, pages },
      });
    },
  },
  'files.info': {
    operation: 'files_info',
    scopes: ['files:read'],
    json: false,
    handle(ctx) {
      const id = str(ctx.args, 'file');
      if (id === undefined) return missingArg('file');
      const file = ctx.data.fileById(id);
      if (file === undefined) return fail('file_not_found');
      return ok({
        file: renderFile(file, ctx.origin, channelName(ctx.data)),
        comments: [],
        response_metadata: { next_cursor: '' },
      });
    },
  },
};

function channelName(data: { channelById(id: string): { name: string } | undefined }) {
  return (id: string) => data.channelById(id)?.name ?? '';
}

/** Whole seconds of a files.list time bound (Slack takes a Unix timestamp, fractions allowed). */
function seconds(raw: string | undefined): number | undefined {
  const ts = canonicalTs(raw);
  if (ts === undefined || ts === 'invalid') return undefined;
  return Number(ts.slice(0, 10)) + Number(ts.slice(11)) / 1e6;
}
