// A wire-faithful fake of the Google Drive API v3 (https://www.googleapis.com/drive/v3) on the kit, following
// Drive's discovery document (test/reference/providers/google-drive.json) and its guides (error handling,
// downloads, the fields parameter). Dispatch order (kit/index.ts):
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
import { type DriveCtx, ROUTES } from './routes.ts';
import { errorFor, googleError, unauthorized, userRateLimited } from './wire.ts';

export const DRIVE_SCOPE = 'https://www.googleapis.com/auth/drive';
export const GOOGLE_FAKE_CLIENT_ID = '407408718192-cesfake0drive0client.apps.googleusercontent.com';
export const GOOGLE_FAKE_CLIENT_SECRET = 'GOCSPX-cesFakeDriveClientSecret01';

const definition = loadDefinition('google-drive');

export interface DriveFakeOptions extends DatasetOptions {
  /** records per page when a request names no pageSize; default Drive's per-list default */
  pageSize?: number;
  /** lifetime of issued access tokens, seconds; default 3599 as Google's */
  expiresIn?: number;
  rateLimitPerSecond?: number;
}

export interface DriveFake {
  /** the API root, like https://www.googleapis.com/drive/v3 */
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

/** A long-lived access token the fake accepts besides those its token endpoint issues. */
export const GOOGLE_FAKE_ACCESS_TOKEN = 'ya29.cesFakeDriveAccessToken-not-a-real-one';

export async function startDriveFake(opts: DriveFakeOptions = {}): Promise<DriveFake> {
  const data = new Dataset(opts);
  const oauth = googleTokenEndpoint({
    definition,
    clientId: GOOGLE_FAKE_CLIENT_ID,
    clientSecret: GOOGLE_FAKE_CLIENT_SECRET,
    scope: DRIVE_SCOPE,
    expiresIn: opts.expiresIn ?? 3599,
  });
  const ctx: DriveCtx = { data, pageSize: opts.pageSize };
  const fake = await startFake<DriveCtx>({
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
      notFound: () => googleError(404, { reason: 'notFound', message: 'Not Found' }),
      rateLimited: () => userRateLimited(),
    },
    rateLimit: perSecond(opts.rateLimitPerSecond),
  });
  return {
    url: `${fake.origin}/drive/v3`,
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
