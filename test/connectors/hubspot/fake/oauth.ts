// HubSpot's OAuth token endpoint, POST /oauth/v1/token on api.hubapi.com (reference: "OAuth" guide and the
// legacy OAuth tokens API, operation "Refresh OAuth token" / createToken), on the kit's token endpoint as
// hubspot.yaml declares it: client_id and client_secret in an application/x-www-form-urlencoded body (a JSON
// body is not read, so it fails as a missing grant type), refresh_token and authorization_code grants.
//   Success: 200 {token_type: "bearer", refresh_token, access_token, expires_in}; access tokens live 1800 s by
//     default. HubSpot refresh tokens do not rotate: a refresh answers the same refresh token again.
//   Errors: 400 `{status: <CODE>, message, correlationId}` with HubSpot's codes BAD_GRANT_TYPE, BAD_CLIENT_ID,
//     BAD_CLIENT_SECRET, BAD_REFRESH_TOKEN ("missing or unknown refresh token"), BAD_AUTH_CODE,
//     BAD_REDIRECT_URI.
// Issued access tokens are accepted by the API until they expire; after that the API answers 401
// EXPIRED_AUTHENTICATION ("The OAuth token used to make this call expired N minute(s) ago.").
import { randomBytes } from 'node:crypto';
import { loadDefinition, tokenEndpointPath } from '../../kit/definition.ts';
import { type Refusal, TokenEndpoint } from '../../kit/token.ts';
import { type Answer, correlationId } from './wire.ts';

const definition = loadDefinition('hubspot');

export const HUBSPOT_TOKEN_PATH = tokenEndpointPath(definition);
export const HUBSPOT_FAKE_CLIENT_ID = '5f3c2a9e-7b14-4d6e-9a08-c1e2b3d4f5a6';
export const HUBSPOT_FAKE_CLIENT_SECRET = 'b7e4d1c8-2a5f-4e93-8c6b-0d9f1e2a3b4c';
/** A refresh token the fake knows from the start, as if the app had been installed already. */
export const HUBSPOT_FAKE_REFRESH_TOKEN = 'na1-7c2e-41d5-9b8a-3f6e0d1c2b4a';
export const HUBSPOT_FAKE_REDIRECT_URI = 'https://ces.example.com/oauth/hubspot/callback';

export interface HubSpotOAuthOptions {
  clientId?: string;
  clientSecret?: string;
  /** `expires_in` of issued access tokens, seconds; default 1800 as HubSpot */
  expiresIn?: number;
}

export function hubspotTokenEndpoint(opts: HubSpotOAuthOptions = {}): TokenEndpoint {
  const endpoint = new TokenEndpoint({
    definition,
    clientId: opts.clientId ?? HUBSPOT_FAKE_CLIENT_ID,
    clientSecret: opts.clientSecret ?? HUBSPOT_FAKE_CLIENT_SECRET,
    expiresIn: opts.expiresIn ?? 1800,
    rotate: false,
    redirectUri: HUBSPOT_FAKE_REDIRECT_URI,
    mint: {
      // HubSpot access tokens are opaque base64url strings of a few hundred characters starting with "C".
      access: () => `C${randomBytes(96).toString('base64url')}`,
      refresh: () => {
        const hex = randomBytes(14).toString('hex');
        return `na1-${hex.slice(0, 4)}-${hex.slice(4, 8)}-${hex.slice(8, 12)}-${hex.slice(12)}`;
      },
      code: () => `na1-${randomBytes(16).toString('hex')}`,
    },
    headers: { 'cache-control': 'no-store' },
    answer: (issued) => ({
      token_type: 'bearer',
      refresh_token: issued.refresh_token,
      access_token: issued.access_token,
      expires_in: issued.expires_in,
    }),
    refuse: hubspotError,
  });
  endpoint.seedRefreshToken(HUBSPOT_FAKE_REFRESH_TOKEN);
  return endpoint;
}

function hubspotError(refusal: Refusal): Answer {
  const [status, message] = ((): [string, string] => {
    switch (refusal.error) {
      case 'invalid_client':
        return refusal.reason === 'secret'
          ? ['BAD_CLIENT_SECRET', 'missing or invalid client secret']
          : ['BAD_CLIENT_ID', 'missing or unknown client id'];
      case 'invalid_grant':
        if (refusal.reason === 'refresh_token')
          return ['BAD_REFRESH_TOKEN', 'missing or unknown refresh token'];
        return refusal.reason === 'code'
          ? ['BAD_AUTH_CODE', 'missing or unknown auth code']
          : ['BAD_REDIRECT_URI', 'redirect_uri does not match initial auth request'];
      case 'invalid_request':
        if (refusal.reason === 'refresh_token')
          return ['BAD_REFRESH_TOKEN', 'missing or unknown refresh token'];
        return ['BAD_GRANT_TYPE', 'missing or unknown grant type'];
      default:
        return ['BAD_GRANT_TYPE', 'missing or unknown grant type'];
    }
  })();
  return { status: 400, body: { status, message, correlationId: correlationId() } };
}
