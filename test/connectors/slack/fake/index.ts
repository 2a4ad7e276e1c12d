// A wire-faithful fake of the Slack Web API (https://slack.com/api) on the fake kit (kit/index.ts), following the
// Swagger 2.0 description of the Web API (../shared/reference/providers/slack.json; operationIds like
// conversations_list) and docs.slack.dev where that leaves gaps (bookmarks.add, token rotation, file host).
// Conventions (arguments, answers, warnings, cursors, rate limits): wire.ts.
// The kit answers every request in this order:
//   1. fault injected with failNext (matching path prefix)           → the fault
//   2. GET|POST /api/oauth.v2.access                                  → the OAuth token endpoint (oauth.ts)
//   3. GET /                                                          → the sign-in page (files.ts, public)
//      GET|HEAD /files-pri/<team>-<file>/[download/]<name>            → file bytes, Bearer needed (files.ts, public)
//   4. anything but GET|POST /api/<known method> (routeFirst)         → 404 {ok:false, error:"unknown_method"}
//                                                                        (HTML under /files-pri/), recorded in `unhandled`
//   5. a body Slack can't read                                        → {ok:false, error: invalid_json |
//                                                                        json_not_object | missing_post_type | invalid_post_type}
//      no token / unknown / revoked / expired                         → {ok:false, error: not_authed |
//                                                                        invalid_auth | token_revoked | token_expired}
//   6. over the configured per-second limit (off by default)          → 429 + Retry-After, {ok:false, error:"ratelimited"}
//   7. token without any of the method's scopes                       → {ok:false, error:"missing_scope", needed, provided}
//      the method                                                     → its answer (+ warning / response_metadata.warnings)
//                                                                        (context.ts methodRoutes)
// Every answer carries an x-slack-req-id.
// Methods: the tables of routes-*.ts (auth/users/files, channels, history, chat), each method naming the
// slack.json operationId it follows (bookmarks.add: its docs.slack.dev page); oauth.v2.access: oauth.ts.
// Cursor lists page by the client's `limit` (Slack's max 1000, 999 for history) or `pageSize` (default 10);
// files.list by `count`, default `pageSize`. Dataset: dataset.ts.
import { type Fault, faultAnswer } from '../../kit/errors.ts';
import { type InjectedFault, perSecond, type RecordedRequest, startFake } from '../../kit/index.ts';
import type { TokenEndpoint } from '../../kit/token.ts';
import { type Actor, type Call, type MethodTable, methodRoutes } from './context.ts';
import { BOT_USER_ID, Dataset } from './dataset.ts';
import { FILES_PREFIX, fileNotFound, fileRoutes } from './files.ts';
import { definition, type SlackOAuthOptions, slackTokenEndpoint } from './oauth.ts';
import { channelMethods } from './routes-channels.ts';
import { chatMethods } from './routes-chat.ts';
import { historyMethods } from './routes-history.ts';
import { userFileMethods } from './routes-users-files.ts';
import { defaultFaultBody, fail, methodOf, parseArgs, send } from './wire.ts';

export type { RecordedRequest } from '../../kit/server.ts';
export { APP_ID, BOT_ID, BOT_USER_ID, TEAM } from './dataset.ts';
export {
  SLACK_FAKE_CLIENT_ID,
  SLACK_FAKE_CLIENT_SECRET,
  SLACK_TOKEN_PATH,
  type SlackGrant,
  type SlackOAuthOptions,
} from './oauth.ts';

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

/** An answer instead of the route's (Slack's body for the status by default, wire.ts defaultFaultBody), a
 * hang or a reset. */
export type SlackFault = InjectedFault;

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
  const pageSize = opts.pageSize ?? 10;
  const now = opts.now ?? Date.now;
  // Known once the kit listens; file URLs read it.
  const site = { origin: '' };

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

  let seq = 0;
  const fake = await startFake<Call>({
    definition,
    routes: methodRoutes(METHODS),
    publicRoutes: fileRoutes(data, (recorded) => {
      const actor = actorFor(bearer(recorded));
      return typeof actor === 'string' ? undefined : actor;
    }),
    token: oauth,
    routeFirst: true,
    // The body is read first: Slack refuses one it cannot read before looking at the token, which a form
    // body may carry.
    authenticate: (recorded) => {
      const url = new URL(recorded.path, 'http://fake.invalid');
      const json = METHODS[methodOf(recorded.path)]?.json ?? false;
      const parsed = parseArgs(url.searchParams, recorded.headers, recorded.body, json);
      if (parsed.error !== undefined) return { refuse: fail(parsed.error) };
      const actor = actorFor(bearer(recorded) ?? parsed.formToken);
      if (typeof actor === 'string') return { refuse: fail(actor) };
      return {
        args: parsed.args,
        warnings: parsed.warnings,
        actor,
        data,
        origin: site.origin,
        pageSize,
        now,
      };
    },
    rateLimit: perSecond(opts.rateLimitPerSecond),
    errors: {
      body: (status) => defaultFaultBody(status, '/'),
      notFound: (recorded) =>
        recorded.path.startsWith(FILES_PREFIX)
          ? fileNotFound()
          : {
              status: 404,
              body: { ok: false, error: 'unknown_method', req_method: methodOf(recorded.path) },
            },
      rateLimited: (wait) => ({
        status: 429,
        headers: { 'retry-after': String(wait) },
        body: { ok: false, error: 'ratelimited' },
      }),
      fault: (fault: Fault, recorded) =>
        faultAnswer(fault, (status) => defaultFaultBody(status, recorded.path)),
    },
    send: (res, answer) => {
      seq++;
      send(res, {
        ...answer,
        headers: { 'x-slack-req-id': `cesfake${String(seq).padStart(8, '0')}`, ...(answer.headers ?? {}) },
      });
    },
    responseDelayMs: opts.responseDelayMs ?? 0,
  });
  site.origin = fake.origin;

  return {
    url: `${fake.origin}/api`,
    origin: fake.origin,
    oauth,
    requests: fake.requests,
    unhandled: fake.unhandled,
    data,
    failNext: fake.failNext,
    tokenRequests: fake.tokenRequests,
    fileRequests: () => fake.requests.filter((r) => r.path.startsWith(FILES_PREFIX)),
    close: fake.close,
  };
}
