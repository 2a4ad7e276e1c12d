// A wire-faithful fake of the Gmail API v1 (https://gmail.googleapis.com/gmail/v1) on the kit, following Gmail's
// discovery document (test/reference/providers/gmail.json) and its guides (error handling, quotas, search).
// Dispatch order (kit/index.ts):
//   1. a fault injected with failNext                 → the fault (Google's error body for its status)
//   2. POST /token                                    → Google's OAuth token endpoint (oauth2.googleapis.com/token)
//   3. no, or an unknown, `Authorization: Bearer`     → 401 authError
//   4. over the per-user rate (off unless enabled)    → 403 userRateLimitExceeded (no Retry-After, as Google)
//   5. a route of routes.ts (each names its discovery method id)
//   6. anything else                                  → 404 notFound, recorded in `unhandled`

import { googleTokenEndpoint } from '../../google-token.ts';
import { loadDefinition } from '../../kit/definition.ts';
import { type Fault, perSecond, type RecordedRequest, startFake } from '../../kit/index.ts';
import { Router } from '../../kit/router.ts';
import { safeEqual, type TokenEndpoint } from '../../kit/token.ts';
import { Dataset, type DatasetOptions } from './dataset.ts';
import { type GmailCtx, ROUTES } from './routes.ts';
import { errorFor, googleError, unauthorized, userRateLimited } from './wire.ts';

export const GMAIL_SCOPE = 'https://www.googleapis.com/auth/gmail.modify';
export const GOOGLE_FAKE_CLIENT_ID = '407408718192-cesfake0gmail0client.apps.googleusercontent.com';
export const GOOGLE_FAKE_CLIENT_SECRET = 'GOCSPX-cesFakeGmailClientSecret01';
/** A long-lived access token the fake accepts besides those its token endpoint issues. */
export const GOOGLE_FAKE_ACCESS_TOKEN = 'ya29.cesFakeGmailAccessToken-not-a-real-one';

const definition = loadDefinition('gmail');

export interface GmailFakeOptions extends DatasetOptions {
  /** records per page when a request names no maxResults; default Gmail's 100 */
  pageSize?: number;
  /** lifetime of issued access tokens, seconds; default 3599 as Google's */
  expiresIn?: number;
  /** the most records a page holds; default Gmail's 500 */
  maxPageSize?: number;
  rateLimitPerSecond?: number;
}

export interface GmailFake {
  /** the API root, like https://gmail.googleapis.com/gmail/v1 */
  url: string;
  origin: string;
  oauth: TokenEndpoint;
  data: Dataset;
  requests: RecordedRequest[];
  unhandled: RecordedRequest[];
  failNext(fault: Fault): void;
  tokenRequests(): RecordedRequest[];
  apiRequests(): RecordedRequest[];
  close(): Promise<void>;
}

export async function startGmailFake(opts: GmailFakeOptions = {}): Promise<GmailFake> {
  const data = new Dataset(opts);
  const oauth = googleTokenEndpoint({
    definition,
    clientId: GOOGLE_FAKE_CLIENT_ID,
    clientSecret: GOOGLE_FAKE_CLIENT_SECRET,
    scope: GMAIL_SCOPE,
    expiresIn: opts.expiresIn ?? 3599,
  });
  const ctx: GmailCtx = { data, pageSize: opts.pageSize, maxPageSize: opts.maxPageSize ?? 500 };
  const fake = await startFake<GmailCtx>({
    definition,
    token: oauth,
    routes: new Router(ROUTES),
    authenticate: (recorded) => {
      const header = String(recorded.headers.authorization ?? '');
      const token = /^Bearer (\S+)$/.exec(header)?.[1];
      if (token === undefined || !(safeEqual(token, GOOGLE_FAKE_ACCESS_TOKEN) || oauth.accepts(token)))
        return { refuse: unauthorized() };
      return ctx;
    },
    errors: {
      body: errorFor,
      notFound: () => googleError(404, 'notFound', 'Not Found'),
      rateLimited: () => userRateLimited(),
    },
    rateLimit: perSecond(opts.rateLimitPerSecond),
  });
  return {
    url: `${fake.origin}/gmail/v1`,
    origin: fake.origin,
    oauth,
    data,
    requests: fake.requests,
    unhandled: fake.unhandled,
    failNext: fake.failNext,
    tokenRequests: fake.tokenRequests,
    apiRequests: () => fake.requests.filter((r) => !oauth.serves(r)),
    close: () => fake.close(),
  };
}
