// A wire-faithful fake of one Salesforce org's REST API (https://{MyDomain}.my.salesforce.com/services/data/vXX.X)
// and its OAuth token endpoint (/services/oauth2/token, as login.salesforce.com serves it), on the kit.
// Dispatch order for every request:
//   1. a fault injected with failNext (matching path prefix)     → the fault (body: Salesforce's error array)
//   2. POST /services/oauth2/token                               → the token endpoint (refresh and code grants)
//   3. no or unknown bearer token                                → 401 [{errorCode: INVALID_SESSION_ID}]
//   4. the org's allocation spent (`allocation` reached)         → 403 [{errorCode: REQUEST_LIMIT_EXCEEDED}]
//   5. another API version than the definition's                 → 404 NOT_FOUND
//   6. a route of routes.ts over the seeded dataset              → its answer
//   7. anything else                                             → 404, recorded in `unhandled`
// Every answer of the API carries Sforce-Limit-Info (the allocation used, counted whether or not it is spent).
import { randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { loadDefinition } from '../../kit/definition.ts';
import { type Fault, type RecordedRequest, sendJson, startFake } from '../../kit/index.ts';
import { oauthError, type Refusal, TokenEndpoint } from '../../kit/token.ts';
import { Dataset, type DatasetOptions } from './dataset.ts';
import { createRoutes } from './routes.ts';
import { Allocation, API_VERSION, bodyForStatus, errorBody, MESSAGES } from './wire.ts';

export type { RecordedRequest } from '../../kit/index.ts';

export const SALESFORCE_CLIENT_ID = '3MVG9fe4g9fhX0E5ces.demo.consumer.key.0123456789abcdefABCDEF';
export const SALESFORCE_CLIENT_SECRET = '8F3C2A9E7B144D6E9A08C1E2B3D4F5A60123456789ABCDEF0123456789ABCDEF';
/** A refresh token the fake knows from the start, as if the user had consented already. */
export const SALESFORCE_REFRESH_TOKEN = '5Aep861ces.demo.refresh.token.0123456789abcdefghijklmnopqrstuvwxyz';
/** The My Domain host the token answers name by default. */
export const SALESFORCE_INSTANCE_URL = 'https://ces-demo.my.salesforce.com';
export const SALESFORCE_ORG_ID = '00DDn00000000001AAA'.slice(0, 18);

export interface SalesforceFakeOptions extends DatasetOptions {
  /** records per query batch, default 2000 as Salesforce */
  batchSize?: number;
  /** the API host the token answer names as instance_url; default SALESFORCE_INSTANCE_URL */
  instanceUrl?: string;
  /** the org's API request allocation; past it every request is 403 REQUEST_LIMIT_EXCEEDED; default 100000 */
  allocation?: number;
}

export interface SalesforceFake {
  /** the API root, e.g. http://127.0.0.1:54321/services/data/v63.0 */
  url: string;
  origin: string;
  requests: RecordedRequest[];
  unhandled: RecordedRequest[];
  failNext(fault: Fault): void;
  tokenRequests(): RecordedRequest[];
  data: Dataset;
  token: TokenEndpoint;
  allocation: Allocation;
  /** what the next token answers name as instance_url */
  setInstanceUrl(url: string): void;
  close(): Promise<void>;
}

const definition = loadDefinition('salesforce');

export async function startSalesforceFake(opts: SalesforceFakeOptions = {}): Promise<SalesforceFake> {
  const data = new Dataset(opts);
  const allocation = new Allocation(opts.allocation ?? 100_000);
  let instanceUrl = opts.instanceUrl ?? SALESFORCE_INSTANCE_URL;
  // Salesforce's token answer (remoteaccess_oauth_refresh_token_flow): no expires_in and, unless the app
  // rotates refresh tokens, no refresh_token on a refresh; instance_url and the identity URL always.
  const token = new TokenEndpoint({
    definition,
    clientId: SALESFORCE_CLIENT_ID,
    clientSecret: SALESFORCE_CLIENT_SECRET,
    expiresIn: 0,
    rotate: false,
    mint: {
      access: () => `${SALESFORCE_ORG_ID}!${randomBytes(48).toString('base64url')}`,
      refresh: () => `5Aep861${randomBytes(40).toString('base64url')}`,
      code: () => `aPrx${randomBytes(30).toString('base64url')}`,
    },
    answer: (issued) => ({
      access_token: issued.access_token,
      ...(issued.grant === 'authorization_code' ? { refresh_token: issued.refresh_token } : {}),
      signature: randomBytes(32).toString('base64'),
      scope: 'refresh_token api',
      instance_url: instanceUrl,
      id: `https://login.salesforce.com/id/${SALESFORCE_ORG_ID}/005Dn0000000001AAA`,
      token_type: 'Bearer',
      issued_at: String(issued.issuedAt),
    }),
    refuse: (refusal: Refusal) => {
      // Salesforce names an unknown or revoked refresh token invalid_grant "expired access/refresh token".
      const answer = oauthError(refusal);
      return refusal.error === 'invalid_grant'
        ? { ...answer, body: { error: 'invalid_grant', error_description: 'expired access/refresh token' } }
        : answer;
    },
  });
  token.seedRefreshToken(SALESFORCE_REFRESH_TOKEN);
  const fake = await startFake({
    definition,
    token,
    routes: createRoutes(data, opts.batchSize ?? 2000),
    authenticate: (recorded) => {
      const m = /^Bearer (.+)$/.exec(String(recorded.headers.authorization ?? ''));
      return m !== null && token.check(m[1] as string)?.state === 'valid'
        ? { token: m[1] }
        : {
            refuse: {
              status: 401,
              headers: { 'www-authenticate': 'Token' },
              body: errorBody('INVALID_SESSION_ID', MESSAGES.session),
            },
          };
    },
    before: (recorded) => {
      allocation.used += 1;
      if (allocation.used > allocation.max)
        return { status: 403, body: errorBody('REQUEST_LIMIT_EXCEEDED', MESSAGES.limit) };
      const version = /^\/services\/data\/([^/]+)\//.exec(
        new URL(recorded.path, 'http://fake.invalid').pathname,
      )?.[1];
      return version === API_VERSION
        ? undefined
        : { status: 404, body: errorBody('NOT_FOUND', MESSAGES.notFound) };
    },
    errors: { body: bodyForStatus },
    send: (res: ServerResponse, answer) => {
      const json = !(answer.body instanceof Readable);
      sendJson(res, {
        ...answer,
        headers: {
          ...(json ? { 'content-type': 'application/json;charset=UTF-8' } : {}),
          'sforce-limit-info': allocation.header(),
          ...(answer.headers ?? {}),
        },
      });
    },
  });
  return {
    url: `${fake.origin}/services/data/${API_VERSION}`,
    origin: fake.origin,
    requests: fake.requests,
    unhandled: fake.unhandled,
    failNext: fake.failNext,
    tokenRequests: fake.tokenRequests,
    data,
    token,
    allocation,
    setInstanceUrl: (url) => {
      instanceUrl = url;
    },
    close: fake.close,
  };
}
