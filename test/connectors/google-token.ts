// Google's OAuth 2.0 token endpoint as the Drive and Gmail fakes serve it
// (https://developers.google.com/identity/protocols/oauth2/web-server#offline): a form body with client_id and
// client_secret; a refresh answers a new access token, its lifetime and scope, and no new refresh token (the one
// given keeps working). Refusals are RFC 6749's (`invalid_grant` "Token has been expired or revoked.").
import { randomBytes } from 'node:crypto';
import type { ConnectorDefinition } from '../../src/connectors/schema.ts';
import { oauthError, TokenEndpoint } from './kit/token.ts';

export function googleTokenEndpoint(opts: {
  definition: ConnectorDefinition;
  clientId: string;
  clientSecret: string;
  /** the scope a token answer names (the definition's consent scope) */
  scope: string;
  expiresIn: number;
}): TokenEndpoint {
  return new TokenEndpoint({
    definition: opts.definition,
    clientId: opts.clientId,
    clientSecret: opts.clientSecret,
    expiresIn: opts.expiresIn,
    rotate: false,
    mint: {
      access: () => `ya29.${randomBytes(48).toString('base64url')}`,
      refresh: () => `1//0${randomBytes(40).toString('base64url')}`,
      code: () => `4/0${randomBytes(30).toString('base64url')}`,
    },
    answer: (issued) => ({
      access_token: issued.access_token,
      expires_in: issued.expires_in,
      scope: opts.scope,
      token_type: 'Bearer',
      ...(issued.grant === 'authorization_code' && issued.refresh_token
        ? { refresh_token: issued.refresh_token }
        : {}),
    }),
    refuse: (refusal) => {
      const answer = oauthError(refusal);
      if (refusal.error === 'invalid_grant')
        return {
          ...answer,
          body: { error: 'invalid_grant', error_description: 'Token has been expired or revoked.' },
        };
      return answer;
    },
  });
}
