// A wire-faithful fake of the Jira Cloud platform REST API v3 (https://{site}.atlassian.net/rest/api/3) on a
// real node:http server, following the platform's OpenAPI document (../shared/reference/providers/jira.json)
// and, where it is silent, developer.atlassian.com (rate limiting) and what Cloud sites answer (401 body).
// `url` is the API root (`${origin}/rest/api/3`).
// It stands on the kit (test/connectors/kit), which answers in its order: an injected fault (default body:
// Jira's for the status); a path outside /rest/api/3 → 404 ErrorCollection "null for uri: …", unhandled;
// missing or wrong Basic email:api_token → 401 text/html "Client must be authenticated…"; over
// `rateLimitPerSecond` (off by default) → 429 + Retry-After, X-RateLimit-*, RateLimit-Reason; a route of
// routes-issues.ts / routes-activity.ts / routes-more.ts (each names its operationId, paths below
// /rest/api/3); a known path with another method → 405 (empty body, Allow), unhandled; else the 404.
// Attachment content (getAttachmentContent) redirects to the media host (test/connectors/atlassian-media.ts), another origin.
// Dataset: see dataset.ts (2 projects, 64 issues, 36 users, 128 fields by default); JQL subset: see jql.ts.
// Writes stamp `updated` with `now()` (default Date.now), so incremental sync by `updated >=` sees them.

import { type MediaHost, startMediaHost } from '../../atlassian-media.ts';
import { loadDefinition } from '../../kit/definition.ts';
import { type Fault, perSecond, type RecordedRequest, type Route, startFake } from '../../kit/index.ts';
import { CursorCodec } from '../../kit/paging.ts';
import { Router } from '../../kit/router.ts';
import { type AttachmentRec, Dataset, type UserRec } from './dataset.ts';
import { Renderer } from './render.ts';
import { activityRoutes } from './routes-activity.ts';
import { issueRoutes } from './routes-issues.ts';
import { moreRoutes } from './routes-more.ts';
import {
  API_PREFIX,
  basicMatches,
  defaultErrorFor,
  errorCollection,
  JIRA_FAKE_API_TOKEN,
  JIRA_FAKE_EMAIL,
  rateLimited,
  send,
  unauthenticated,
} from './wire.ts';
import type { Ctx } from './writes.ts';

export type { RecordedRequest } from '../../kit/index.ts';
export { JIRA_FAKE_API_TOKEN, JIRA_FAKE_EMAIL, JIRA_FAKE_SITE } from './wire.ts';

/** A fault: `match` is a path prefix as the fake receives it, e.g. `/rest/api/3/search/jql`. */
export type JiraFault = Fault & { match: string };

export interface JiraFakeOptions {
  /** the accepted Basic credential, default JIRA_FAKE_EMAIL / JIRA_FAKE_API_TOKEN */
  email?: string;
  apiToken?: string;
  /** seeded issues (default 64, at least 8 are advisable), users (default 36), custom fields (default 84) */
  issues?: number;
  users?: number;
  customFields?: number;
  /** the clock writes use; default Date.now */
  now?: () => number;
  /** enforce a per-second burst limit; default off */
  rateLimitPerSecond?: number;
  /** answer every request this much later (benchmarks); default 0 */
  responseDelayMs?: number;
}

export interface JiraFake {
  /** the API root, like https://{site}.atlassian.net/rest/api/3, e.g. http://127.0.0.1:54321/rest/api/3 */
  url: string;
  origin: string;
  requests: RecordedRequest[];
  /** requests no route matched (answered 404/405 AND recorded here so tests can fail on them) */
  unhandled: RecordedRequest[];
  failNext(fault: JiraFault): void;
  data: Dataset;
  /** the account the credential belongs to (what /myself answers) */
  me: UserRec;
  /** Atlassian Media stand-in the attachment content redirects to (another origin, no credentials) */
  media: MediaHost<AttachmentRec>;
  close(): Promise<void>;
}

const definition = loadDefinition('jira');

export async function startJiraFake(opts: JiraFakeOptions = {}): Promise<JiraFake> {
  const email = opts.email ?? JIRA_FAKE_EMAIL;
  const apiToken = opts.apiToken ?? JIRA_FAKE_API_TOKEN;
  const data = new Dataset({
    users: opts.users ?? 36,
    issues: opts.issues ?? 64,
    customFields: opts.customFields ?? 84,
  });
  const me = data.users[0] as UserRec;
  me.email = email;
  const asMedia = (a: AttachmentRec) => ({
    id: a.mediaId,
    bytes: a.bytes,
    mimeType: a.mimeType,
    filename: a.filename,
  });
  const media = await startMediaHost<AttachmentRec>({
    find: (id) => {
      const a = data.attachments.find((x) => x.mediaId === id);
      return a === undefined ? undefined : asMedia(a);
    },
    of: asMedia,
    key: 'jira-fake-media-key',
    client: '1e7e3c1d-7f1b-4c5e-9a7e-5a3c8f0d2b10',
    responseDelayMs: opts.responseDelayMs ?? 0,
  });
  const site = { origin: '' };
  const ctx: Ctx = {
    data,
    render: new Renderer(data, site),
    tokens: new CursorCodec(),
    now: opts.now ?? Date.now,
    me: () => me,
    mediaUrl: (a) => media.urlFor(a),
  };
  const below = (r: Route<unknown>): Route<unknown> => ({ ...r, path: `${API_PREFIX}${r.path}` });
  const router = new Router([...issueRoutes(ctx), ...activityRoutes(ctx), ...moreRoutes(ctx)].map(below), {
    trailingSlash: true,
  });
  const methods = [...new Set(router.routes.map((r) => r.method))];
  const inApi = (path: string) => path === API_PREFIX || path.startsWith(`${API_PREFIX}/`);

  const fake = await startFake({
    definition,
    routes: router,
    // A path outside the API is a 404 before the credential is looked at.
    authenticate: (recorded) =>
      !inApi(pathOf(recorded)) || basicMatches(recorded.headers, email, apiToken)
        ? {}
        : { refuse: unauthenticated() },
    errors: {
      body: (status) => defaultErrorFor(status).body,
      rateLimited,
      notFound: (recorded) => {
        const path = pathOf(recorded);
        const allow = inApi(path) ? methods.filter((m) => router.match(m, path) !== undefined) : [];
        return allow.length > 0
          ? { status: 405, headers: { allow: allow.join(',') }, body: undefined }
          : { status: 404, body: errorCollection([`null for uri: ${site.origin}${path}`]) };
      },
    },
    rateLimit: perSecond(opts.rateLimitPerSecond),
    send,
    responseDelayMs: opts.responseDelayMs ?? 0,
  });
  site.origin = fake.origin;

  return {
    url: `${fake.origin}${API_PREFIX}`,
    origin: fake.origin,
    requests: fake.requests,
    unhandled: fake.unhandled,
    // Jira's 401 is text/html, also when a test injects it without a body.
    failNext: (fault) => {
      const base = defaultErrorFor(fault.status);
      const headers = { ...base.headers, ...fault.headers };
      fake.failNext(fault.body === undefined ? { ...fault, body: base.body, headers } : fault);
    },
    data,
    me,
    media,
    close: async () => {
      await fake.close();
      await media.close();
    },
  };
}

function pathOf(recorded: RecordedRequest): string {
  return new URL(recorded.path, 'http://fake.invalid').pathname;
}
