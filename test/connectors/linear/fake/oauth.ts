// Linear's OAuth token endpoint, POST https://api.linear.app/oauth/token ("OAuth 2.0 authentication",
// linear.app/developers/oauth-2-0-authentication), on the kit's token endpoint as linear.yaml declares it:
// an application/x-www-form-urlencoded body with `client_id` + `client_secret` (HTTP Basic is taken too).
//   Grants:
//     refresh_token      — a new access token and a new refresh token; the presented one stops working.
//     client_credentials — an app-actor access token (no refresh token); `scope` optional (comma-separated).
//   Success: 200 {access_token, token_type: "Bearer", expires_in, scope, refresh_token?}.
//   Errors (RFC 6749 §5.2): 401 invalid_client, 400 invalid_request / invalid_grant / unsupported_grant_type /
//   invalid_scope.
// Access tokens it issues are accepted on /graphql as `Authorization: Bearer` until they expire.
import { randomBytes } from 'node:crypto';
import { loadDefinition, tokenEndpointPath } from '../../kit/definition.ts';
import { oauthError, TokenEndpoint } from '../../kit/token.ts';

const definition = loadDefinition('linear');

export const LINEAR_TOKEN_PATH = tokenEndpointPath(definition);
export const LINEAR_FAKE_CLIENT_ID = 'cesfake0client0id0000000000000001';
export const LINEAR_FAKE_CLIENT_SECRET = 'cesfake0client0secret00000000000000000001';
/** What the fake's tokens may do; Linear lists granted scopes as an array. */
export const LINEAR_FAKE_SCOPES = ['read', 'write'];

export interface LinearGrant {
  access_token: string;
  refresh_token: string;
}

export interface LinearOAuthOptions {
  clientId?: string;
  clientSecret?: string;
  /** `expires_in` of issued access tokens, seconds; default 86399 (a day, as Linear's). */
  expiresIn?: number;
}

export function linearTokenEndpoint(opts: LinearOAuthOptions = {}): TokenEndpoint {
  return new TokenEndpoint({
    definition,
    clientId: opts.clientId ?? LINEAR_FAKE_CLIENT_ID,
    clientSecret: opts.clientSecret ?? LINEAR_FAKE_CLIENT_SECRET,
    expiresIn: opts.expiresIn ?? 86_399,
    accept: { clientAuth: ['basic'] },
    scopes: { known: ['read', 'write', 'issues:create', 'comments:create'], default: ['read'] },
    mint: {
      access: () => `lin_oauth_${randomBytes(32).toString('hex')}`,
      refresh: () => `lin_refresh_${randomBytes(32).toString('hex')}`,
    },
    answer: (issued) => ({
      access_token: issued.access_token,
      token_type: 'Bearer',
      expires_in: issued.expires_in,
      scope: issued.scopes ?? LINEAR_FAKE_SCOPES,
      ...(issued.refresh_token === undefined ? {} : { refresh_token: issued.refresh_token }),
    }),
    refuse: (refusal) => oauthError(refusal, { realm: 'linear' }),
  });
}

/** Whom an unexpired access token of the endpoint acts as: the app for client_credentials, else the user. */
export function actorOf(endpoint: TokenEndpoint, token: string): 'user' | 'app' | undefined {
  const check = endpoint.check(token);
  if (check?.state !== 'valid') return undefined;
  return check.issued.grant === 'client_credentials' ? 'app' : 'user';
}
