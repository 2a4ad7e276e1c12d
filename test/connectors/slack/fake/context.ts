// What every method handler gets (the authenticated caller, its arguments, the dataset), the methods as the
// kit's routes, and the lookups handlers share: a conversation as the caller may see it, and a message within it.
import type { Route } from '../../kit/index.ts';
import type { ChannelRecord, Dataset, MessageRecord } from './dataset.ts';
import { type Answer, type Args, fail, missingArg, str } from './wire.ts';

export interface Actor {
  token: string;
  kind: 'bot' | 'user';
  /** the user the token acts as: the bot user for xoxb tokens, the owner for xoxp tokens */
  userId: string;
  scopes: ReadonlySet<string>;
}

export interface Ctx {
  args: Args;
  actor: Actor;
  data: Dataset;
  /** the fake's origin, for file URLs */
  origin: string;
  /** records per page when the client gives no `limit` */
  pageSize: number;
  /** the fake's clock, ms */
  now(): number;
}

/** A request past authentication: the handler's context and the warnings its body drew. */
export interface Call extends Ctx {
  warnings: string[];
}

export interface MethodSpec {
  /** the reference operation the method follows: slack.json's operationId, or the docs.slack.dev page */
  operation: string;
  /** the scopes any one of which lets a token call the method (Slack's x-accepted-oauth-scopes) */
  scopes: string[];
  /** whether the method reads an application/json body (the reference's `consumes`) */
  json: boolean;
  handle(ctx: Ctx): Answer;
}

export type MethodTable = Record<string, MethodSpec>;

/**
 * Each method as the kit's routes, GET and POST /api/<method>: a token without any of the method's scopes
 * gets missing_scope, else the handler answers, with the body's warnings. Every answer names the token's
 * scopes and the method's (x-oauth-scopes, x-accepted-oauth-scopes).
 */
export function methodRoutes(table: MethodTable): Route<Call>[] {
  return Object.entries(table).flatMap(([name, spec]) =>
    ['GET', 'POST'].map((method) => ({
      method,
      path: `/api/${name}`,
      operation: spec.operation,
      handle: (_req: unknown, call: Call) => answer(spec, call),
    })),
  );
}

function answer(spec: MethodSpec, call: Call): Answer {
  const scopes = call.actor.scopes;
  const headers = {
    'x-oauth-scopes': [...scopes].join(','),
    'x-accepted-oauth-scopes': spec.scopes.join(','),
  };
  if (spec.scopes.length > 0 && !spec.scopes.some((s) => scopes.has(s)))
    return {
      ...fail('missing_scope', { needed: spec.scopes.join(','), provided: [...scopes].join(',') }),
      headers,
    };
  const answered = spec.handle(call);
  const body = answered.body as Record<string, unknown>;
  if (call.warnings.length > 0) {
    const meta = (body.response_metadata ?? {}) as Record<string, unknown>;
    body.warning = call.warnings.join(',');
    body.response_metadata = { ...meta, warnings: call.warnings };
  }
  return { ...answered, headers: { ...headers, ...(answered.headers ?? {}) } };
}

export function isAnswer(value: unknown): value is Answer {
  return typeof value === 'object' && value !== null && 'status' in value && 'body' in value;
}

/**
 * The conversation named by argument `name` (an ID, or for chat.* a `#name`/name too), as the caller sees it:
 * a private channel the caller isn't in doesn't exist for it.
 */
export function findChannel(ctx: Ctx, name = 'channel', byName = false): ChannelRecord | Answer {
  const raw = str(ctx.args, name);
  if (raw === undefined) return missingArg(name);
  let ch = ctx.data.channelById(raw);
  if (ch === undefined && byName) ch = ctx.data.channelByName(raw.replace(/^#/, ''));
  if (ch === undefined || (ch.is_private && !ch.members.includes(ctx.actor.userId)))
    return fail('channel_not_found');
  return ch;
}

/** A member-only action on a conversation: not_in_channel for a public one the caller hasn't joined. */
export function memberChannel(ctx: Ctx, name = 'channel', byName = false): ChannelRecord | Answer {
  const ch = findChannel(ctx, name, byName);
  if (isAnswer(ch)) return ch;
  if (!ch.members.includes(ctx.actor.userId)) return fail('not_in_channel');
  return ch;
}

/** The message at argument `tsArg` of the conversation, or message_not_found. */
export function findMessage(ctx: Ctx, ch: ChannelRecord, tsArg: string): MessageRecord | Answer {
  const ts = str(ctx.args, tsArg);
  if (ts === undefined) return missingArg(tsArg);
  const m = ctx.data.message(ch.id, ts);
  return m === undefined || m.subtype === 'tombstone' ? fail('message_not_found') : m;
}
