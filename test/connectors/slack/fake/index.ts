// A wire-faithful fake of the Slack Web API (https://slack.com/api) on a real node:http server, following the
// Swagger 2.0 description of the Web API (../shared/reference/providers/slack.json; operationIds like
// conversations_list) and docs.slack.dev where that leaves gaps (bookmarks.add, token rotation, file host).
// Conventions (arguments, answers, warnings, cursors, rate limits): wire.ts.
// Dispatch order for every request:
//   1. fault injected with failNext (matching path prefix)           → the fault
//   2. GET /                                                          → the sign-in page (files.ts)
//   3. GET|HEAD /files-pri/<team>-<file>/[download/]<name>            → file bytes, Bearer needed (files.ts)
//   4. anything but GET|POST /api/<known method>                      → 404 {ok:false, error:"unknown_method"},
//                                                                        recorded in `unhandled`
//   5. GET|POST /api/oauth.v2.access                                  → the OAuth token endpoint (kit/token.ts)
//   6. a body Slack can't read                                        → {ok:false, error: invalid_json |
//                                                                        json_not_object | missing_post_type | invalid_post_type}
//   7. no token / unknown / revoked / expired                         → {ok:false, error: not_authed |
//                                                                        invalid_auth | token_revoked | token_expired}
//   8. over the configured per-second limit (off by default)          → 429 + Retry-After, {ok:false, error:"ratelimited"}
//   9. token without any of the method's scopes                       → {ok:false, error:"missing_scope", needed, provided}
//  10. the method                                                     → its answer (+ warning / response_metadata.warnings)
// Methods (GET or POST /api/<method>; reference operation in brackets):
//   auth.test [auth_test]                         routes-users-files.ts
//   conversations.list [conversations_list]       routes-channels.ts   cursor (`team:` + next channel id)
//   conversations.info [conversations_info]       routes-channels.ts
//   conversations.create / rename / archive / invite / kick / setPurpose / setTopic
//     [conversations_create, _rename, _archive, _invite, _kick, _setPurpose, _setTopic]   routes-channels.ts
//   conversations.history [conversations_history] routes-history.ts    cursor (`next_ts:`) + has_more, oldest/latest/inclusive
//   conversations.replies [conversations_replies] routes-history.ts    cursor (`next_ts:`) + has_more, oldest/latest/inclusive
//   users.list [users_list]                       routes-users-files.ts cursor (`user:` + next user id)
//   users.info [users_info]                       routes-users-files.ts
//   chat.postMessage / update / delete / postEphemeral / scheduleMessage
//     [chat_postMessage, chat_update, chat_delete, chat_postEphemeral, chat_scheduleMessage]  routes-chat.ts
//   reactions.add / remove [reactions_add, reactions_remove], pins.add [pins_add]             routes-chat.ts
//   bookmarks.add [docs.slack.dev bookmarks.add; not in slack.json]                           routes-chat.ts
//   files.list [files_list]                       routes-users-files.ts page/count paging
//   files.info [files_info]                       routes-users-files.ts
//   oauth.v2.access [oauth_v2_access]             kit/token.ts, configured below
// Cursor lists page by the client's `limit` (Slack's max 1000, 999 for history) or `pageSize` (default 10);
// files.list by `count`, default `pageSize`. Dataset: dataset.ts.
import { randomBytes } from 'node:crypto';
import { loadDefinition, tokenEndpointPath } from '../../kit/definition.ts';
import { FaultQueue, faultAnswer, perSecond, rateLimit } from '../../kit/errors.ts';
import { type RecordedRequest, startRecordingServer } from '../../kit/server.ts';
import { type Refusal, TokenEndpoint } from '../../kit/token.ts';
import type { Actor, Ctx, MethodTable } from './context.ts';
import { APP_ID, BOT_USER_ID, Dataset, TEAM } from './dataset.ts';
import { isFilePath, serveFile, signInPage } from './files.ts';
import { channelMethods } from './routes-channels.ts';
import { chatMethods } from './routes-chat.ts';
import { historyMethods } from './routes-history.ts';
import { userFileMethods } from './routes-users-files.ts';
import { type Answer, defaultFaultBody, fail, methodOf, parseArgs, send } from './wire.ts';

export type { RecordedRequest } from '../../kit/server.ts';
export { APP_ID, BOT_ID, BOT_USER_ID, TEAM } from './dataset.ts';

export const SLACK_FAKE_CLIENT_ID = '7000000001.7000000099';
export const SLACK_FAKE_CLIENT_SECRET = 'cesfakeclientsecret0000000000001';
export interface SlackGrant {
  access_token: string;
  refresh_token: string;
}
export interface SlackOAuthOptions {
  clientId?: string;
  clientSecret?: string;
  /** lifetime of issued access tokens, seconds; default 43200 (12 hours, as Slack's) */
  expiresIn?: number;
}

const definition = loadDefinition('slack');
export const SLACK_TOKEN_PATH = tokenEndpointPath(definition);

/**
 * oauth.v2.access (slack.json operation oauth_v2_access; token rotation per
 * docs.slack.dev/authentication/using-token-rotation), as the definition declares it (client id and secret as
 * form params) and as loosely as Slack takes it: GET or POST, params in the query, a form or a JSON body,
 * mixed; HTTP Basic too; a `code` without grant_type. Each refresh retires the presented refresh token.
 * Every answer is HTTP 200, `{ok: true, ...}` or `{ok: false, error}`.
 */
function slackTokenEndpoint(opts: SlackOAuthOptions, scope: string): TokenEndpoint {
  return new TokenEndpoint({
    definition,
    clientId: opts.clientId ?? SLACK_FAKE_CLIENT_ID,
    clientSecret: opts.clientSecret ?? SLACK_FAKE_CLIENT_SECRET,
    expiresIn: opts.expiresIn ?? 43_200,
    accept: {
      clientAuth: ['basic'],
      bodyFormats: ['query', 'json'],
      methods: ['GET', 'POST'],
      mixedParams: true,
      implicitCodeGrant: true,
    },
    mint: {
      access: () => `xoxe.xoxb-1-${slackToken()}`,
      refresh: () => `xoxe-1-${slackToken()}`,
      code: () => `7000000001.${slackToken()}`,
    },
    headers: {},
    answer: (issued) => ({
      ok: true,
      app_id: APP_ID,
      authed_user: { id: 'U0700000001' },
      scope,
      token_type: 'bot',
      access_token: issued.access_token,
      bot_user_id: BOT_USER_ID,
      refresh_token: issued.refresh_token,
      expires_in: issued.expires_in,
      team: { id: TEAM.id, name: TEAM.name },
      enterprise: null,
      is_enterprise_install: false,
    }),
    refuse: (refusal) => fail(slackError(refusal)),
  });
}

function slackError(refusal: Refusal): string {
  switch (refusal.error) {
    case 'invalid_client':
      return refusal.reason === 'secret' ? 'bad_client_secret' : 'invalid_client_id';
    case 'invalid_grant':
      return refusal.reason === 'refresh_token' ? 'invalid_refresh_token' : 'invalid_code';
    case 'invalid_request':
      if (refusal.reason === 'body_syntax') return 'invalid_json';
      return refusal.reason === 'refresh_token' ? 'invalid_refresh_token' : 'invalid_grant_type';
    default:
      return 'invalid_grant_type';
  }
}

/** A unique token body in Slack's style (digits, dashes, lowercase hex). */
function slackToken(): string {
  return `7000000001-${randomBytes(16).toString('hex')}`;
}

export const SLACK_FAKE_BOT_TOKEN = 'xoxb-7000000001-7000000002-CesFakeBotToken00000001';
export const SLACK_FAKE_USER_TOKEN = 'xoxp-7000000001-7000000003-7000000004-cesfakeusertoken000000000000001';
/** a bot token with read scopes only (channels/groups read + history, users:read, files:read) */
export const SLACK_FAKE_READONLY_BOT_TOKEN = 'xoxb-7000000001-7000000005-CesFakeReadOnly00000001';
/** a token Slack once issued and then revoked: token_revoked */
export const SLACK_FAKE_REVOKED_TOKEN = 'xoxb-7000000001-7000000006-CesFakeRevoked000000001';

export const SLACK_FAKE_BOT_SCOPES = [
  'channels:read',
  'groups:read',
  'im:read',
  'mpim:read',
  'channels:history',
  'groups:history',
  'im:history',
  'mpim:history',
  'channels:manage',
  'groups:write',
  'im:write',
  'mpim:write',
  'chat:write',
  'reactions:write',
  'pins:write',
  'bookmarks:write',
  'users:read',
  'users:read.email',
  'files:read',
];
const READONLY_SCOPES = [
  'channels:read',
  'groups:read',
  'channels:history',
  'groups:history',
  'users:read',
  'files:read',
];

export interface SlackFault {
  status: number;
  /** path prefix as the fake receives it, e.g. `/api/conversations.list` */
  match: string;
  headers?: Record<string, string>;
  /** default: Slack's body for the status (wire.ts defaultFaultBody) */
  body?: unknown;
  /** default 1 */
  times?: number;
}

export interface SlackFakeOptions {
  botToken?: string;
  userToken?: string;
  /** scopes of the bot token and of tokens the token endpoint issues; default SLACK_FAKE_BOT_SCOPES */
  botScopes?: string[];
  /** scopes of the user token; default SLACK_FAKE_BOT_SCOPES */
  userScopes?: string[];
  oauth?: SlackOAuthOptions;
  /** records per page when the client gives no `limit` (files.list: no `count`); default 10 */
  pageSize?: number;
  /** seeded people (besides Slackbot and the bot user); default 32 */
  users?: number;
  /** top-level messages seeded in #engineering; default 48 */
  engineeringMessages?: number;
  /** Slack's per-method limits, collapsed into one per-second budget; default off */
  rateLimitPerSecond?: number;
  /** answer every request this much later (benchmarks); default 0 */
  responseDelayMs?: number;
  /** the clock new messages and scheduled posts are stamped with, ms; default Date.now */
  now?: () => number;
}

export interface SlackFake {
  /** the API root, like https://slack.com/api: `${origin}/api` */
  url: string;
  origin: string;
  oauth: TokenEndpoint;
  requests: RecordedRequest[];
  unhandled: RecordedRequest[];
  failNext(fault: SlackFault): void;
  data: Dataset;
  /** requests to the token endpoint */
  tokenRequests(): RecordedRequest[];
  /** requests to the file host */
  fileRequests(): RecordedRequest[];
  close(): Promise<void>;
}

const METHODS: MethodTable = { ...userFileMethods, ...channelMethods, ...historyMethods, ...chatMethods };

export async function startSlackFake(opts: SlackFakeOptions = {}): Promise<SlackFake> {
  const data = new Dataset({
    ...(opts.users === undefined ? {} : { users: opts.users }),
    ...(opts.engineeringMessages === undefined ? {} : { engineeringMessages: opts.engineeringMessages }),
  });
  const botScopes = new Set(opts.botScopes ?? SLACK_FAKE_BOT_SCOPES);
  const oauth = slackTokenEndpoint(opts.oauth ?? {}, [...botScopes].join(','));
  const tokens = new Map<string, Actor>();
  const addToken = (token: string, kind: 'bot' | 'user', userId: string, scopes: Set<string>) =>
    tokens.set(token, { token, kind, userId, scopes });
  addToken(opts.botToken ?? SLACK_FAKE_BOT_TOKEN, 'bot', BOT_USER_ID, botScopes);
  addToken(
    opts.userToken ?? SLACK_FAKE_USER_TOKEN,
    'user',
    data.owner.id,
    new Set(opts.userScopes ?? SLACK_FAKE_BOT_SCOPES),
  );
  addToken(SLACK_FAKE_READONLY_BOT_TOKEN, 'bot', BOT_USER_ID, new Set(READONLY_SCOPES));

  const requests: RecordedRequest[] = [];
  const unhandled: RecordedRequest[] = [];
  const faults = new FaultQueue<SlackFault>();
  const limiter = rateLimit(perSecond(opts.rateLimitPerSecond));
  const pageSize = opts.pageSize ?? 10;
  const now = opts.now ?? Date.now;
  let origin = '';

  /** The caller a token stands for, or Slack's error for it. */
  const actorFor = (token: string | undefined): Actor | string => {
    if (token === undefined || token === '') return 'not_authed';
    const known = tokens.get(token);
    if (known !== undefined) return known;
    if (token === SLACK_FAKE_REVOKED_TOKEN) return 'token_revoked';
    const issued = oauth.check(token)?.state;
    if (issued === 'expired') return 'token_expired';
    if (issued === 'valid') return { token, kind: 'bot', userId: BOT_USER_ID, scopes: botScopes };
    return 'invalid_auth';
  };
  const bearer = (recorded: RecordedRequest): string | undefined => {
    const m = /^Bearer\s+(\S+)\s*$/i.exec(recorded.headers.authorization ?? '');
    return m?.[1];
  };

  const handle = (recorded: RecordedRequest): Answer => {
    const fault = faults.take(recorded.path);
    if (fault !== undefined) return faultAnswer(fault, (status) => defaultFaultBody(status, recorded.path));
    const url = new URL(recorded.path, 'http://fake.invalid');
    if (url.pathname === '/' && recorded.method === 'GET') return signInPage();
    if (isFilePath(url.pathname)) {
      const actor = actorFor(bearer(recorded));
      const out = serveFile(data, recorded.method, url, typeof actor === 'string' ? undefined : actor);
      if (!out.handled) unhandled.push(recorded);
      return out.answer;
    }
    const method = methodOf(recorded.path);
    const spec = METHODS[method];
    const isToken = url.pathname === SLACK_TOKEN_PATH;
    if (
      !url.pathname.startsWith('/api/') ||
      (spec === undefined && !isToken) ||
      !['GET', 'POST'].includes(recorded.method)
    ) {
      unhandled.push(recorded);
      return { status: 404, body: { ok: false, error: 'unknown_method', req_method: method } };
    }
    if (isToken) return oauth.token(recorded);
    if (spec === undefined) throw new Error('unreachable');

    const parsed = parseArgs(url.searchParams, recorded.headers, recorded.body, spec.json);
    if (parsed.error !== undefined) return fail(parsed.error);
    const actor = actorFor(bearer(recorded) ?? parsed.formToken);
    if (typeof actor === 'string') return fail(actor);
    const wait = limiter.take();
    if (wait !== undefined)
      return {
        status: 429,
        headers: { 'retry-after': String(wait) },
        body: { ok: false, error: 'ratelimited' },
      };
    const scopeHeaders = {
      'x-oauth-scopes': [...actor.scopes].join(','),
      'x-accepted-oauth-scopes': spec.scopes.join(','),
    };
    if (spec.scopes.length > 0 && !spec.scopes.some((s) => actor.scopes.has(s))) {
      return {
        ...fail('missing_scope', { needed: spec.scopes.join(','), provided: [...actor.scopes].join(',') }),
        headers: scopeHeaders,
      };
    }
    const ctx: Ctx = { args: parsed.args, actor, data, origin, pageSize, now };
    const answer = spec.handle(ctx);
    const body = answer.body as Record<string, unknown>;
    if (parsed.warnings.length > 0) {
      const meta = (body.response_metadata ?? {}) as Record<string, unknown>;
      body.warning = parsed.warnings.join(',');
      body.response_metadata = { ...meta, warnings: parsed.warnings };
    }
    return { ...answer, headers: { ...scopeHeaders, ...(answer.headers ?? {}) } };
  };

  let seq = 0;
  const server = await startRecordingServer(
    (_req, res, recorded) => {
      const answer = handle(recorded);
      seq++;
      send(res, {
        ...answer,
        headers: { 'x-slack-req-id': `cesfake${String(seq).padStart(8, '0')}`, ...(answer.headers ?? {}) },
      });
    },
    { requests, unhandled },
    { responseDelayMs: opts.responseDelayMs ?? 0 },
  );
  origin = server.origin;

  return {
    url: `${origin}/api`,
    origin,
    oauth,
    requests,
    unhandled,
    data,
    failNext: (fault) => faults.push(fault),
    tokenRequests: () =>
      requests.filter((r) => new URL(r.path, 'http://fake.invalid').pathname === SLACK_TOKEN_PATH),
    fileRequests: () => requests.filter((r) => r.path.startsWith('/files-pri/')),
    close: () => server.close(),
  };
}
