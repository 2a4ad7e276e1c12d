// oauth.v2.access (slack.json operation oauth_v2_access; token rotation per
// docs.slack.dev/authentication/using-token-rotation) on the kit's token endpoint, as slack.yaml declares it
// (client id and secret as form params) and as loosely as Slack takes it: GET or POST, params in the query, a
// form or a JSON body, mixed; HTTP Basic too; a `code` without grant_type. Each refresh retires the presented
// refresh token. Every answer is HTTP 200, `{ok: true, ...}` or `{ok: false, error}`.
import { randomBytes } from 'node:crypto';
import { loadDefinition, tokenEndpointPath } from '../../kit/definition.ts';
import { type Refusal, TokenEndpoint } from '../../kit/token.ts';
import { APP_ID, BOT_USER_ID, TEAM } from './dataset.ts';
import { fail } from './wire.ts';

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

export const definition = loadDefinition('slack');
export const SLACK_TOKEN_PATH = tokenEndpointPath(definition);

/** The endpoint, its answers naming `scope` (the scopes of the tokens it issues). */
export function slackTokenEndpoint(opts: SlackOAuthOptions, scope: string): TokenEndpoint {
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
