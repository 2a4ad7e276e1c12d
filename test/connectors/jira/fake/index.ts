// A wire-faithful fake of the Jira Cloud platform REST API v3 (https://{site}.atlassian.net/rest/api/3) on a
// real node:http server, following the platform's OpenAPI document (../shared/reference/providers/jira.json)
// and, where it is silent, developer.atlassian.com (rate limiting) and what Cloud sites answer (401 body).
// `url` is the API root (`${origin}/rest/api/3`).
// Dispatch order for every request:
//   1. fault injected with failNext (matching path prefix)          → the fault (default body: Jira's for the status)
//   2. a path outside /rest/api/3                                   → 404 ErrorCollection "null for uri: …", unhandled
//   3. missing or wrong Basic email:api_token                       → 401 text/html "Client must be authenticated…"
//   4. over `rateLimitPerSecond` (off by default)                   → 429 + Retry-After, X-RateLimit-*, RateLimit-Reason
//   5. a route of routes-issues.ts / routes-activity.ts / routes-more.ts → its answer
//   6. a known path with another method                             → 405 (empty body, Allow), recorded in `unhandled`
//   7. anything else                                                → 404 ErrorCollection "null for uri: …", unhandled
// Routes (below /rest/api/3; operationId of the reference):
//   GET  /myself                                getCurrentUser          (the credential check)
//   GET  /search/jql, POST /search/jql          searchAndReconsileIssuesUsingJql(Post)  nextPageToken paging
//   POST /issue                                 createIssue
//   GET|PUT|DELETE /issue/{issueIdOrKey}        getIssue, editIssue, deleteIssue
//   PUT  /issue/{issueIdOrKey}/assignee         assignIssue
//   GET|POST /issue/{issueIdOrKey}/transitions  getTransitions, doTransition
//   POST /issueLink                             linkIssues
//   GET|POST /issue/{issueIdOrKey}/comment      getComments (startAt/maxResults/total), addComment
//   GET|PUT|DELETE /issue/{i}/comment/{id}      getComment, updateComment, deleteComment
//   GET|POST /issue/{issueIdOrKey}/worklog      getIssueWorklog (startAt/maxResults/total), addWorklog
//   GET  /issue/{issueIdOrKey}/worklog/{id}     getWorklog
//   GET  /field, GET /field/search              getFields (one array), getFieldsPaginated (PageBean values)
//   GET  /project/search, /project/{idOrKey}    searchProjects (PageBean values, nextPage), getProject
//   GET  /users/search, /user, /user/search     getAllUsers, getUser, findUsers (bare arrays, startAt/maxResults)
//   GET  /attachment/{id}                       getAttachment (metadata with `content`)
//   GET  /attachment/content/{id}               getAttachmentContent: 303 to the media host (media.ts), or the
//                                               bytes with redirect=false (Range honoured)
// Dataset: see dataset.ts (2 projects, 64 issues, 36 users, 128 fields by default); JQL subset: see jql.ts.
// Writes stamp `updated` with `now()` (default Date.now), so incremental sync by `updated >=` sees them.
import { type RecordedRequest, startRecordingServer } from '../../kit/server.ts';
import { Dataset, type UserRec } from './dataset.ts';
import { type MediaHost, startMediaHost } from './media.ts';
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
  PageTokens,
  RateLimiter,
  type Result,
  type Route,
  type RouteRequest,
  send,
  unauthenticated,
} from './wire.ts';
import type { Ctx } from './writes.ts';

export type { RecordedRequest } from '../../kit/server.ts';
export { JIRA_FAKE_API_TOKEN, JIRA_FAKE_EMAIL, JIRA_FAKE_SITE } from './wire.ts';

export interface JiraFault {
  status: number;
  /** path prefix as the fake receives it, e.g. `/rest/api/3/search/jql` */
  match: string;
  headers?: Record<string, string>;
  /** object → JSON, string → raw; default: Jira's body for the status */
  body?: unknown;
  /** default 1 */
  times?: number;
}

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
  media: MediaHost;
  close(): Promise<void>;
}

export async function startJiraFake(opts: JiraFakeOptions = {}): Promise<JiraFake> {
  const email = opts.email ?? JIRA_FAKE_EMAIL;
  const apiToken = opts.apiToken ?? JIRA_FAKE_API_TOKEN;
  const requests: RecordedRequest[] = [];
  const unhandled: RecordedRequest[] = [];
  const faults: Array<JiraFault & { times: number }> = [];
  const limiter = new RateLimiter(opts.rateLimitPerSecond);
  const data = new Dataset({
    users: opts.users ?? 36,
    issues: opts.issues ?? 64,
    customFields: opts.customFields ?? 84,
  });
  const me = data.users[0] as UserRec;
  me.email = email;
  const media = await startMediaHost(data, opts.responseDelayMs ?? 0);
  let routes: Route[] = [];

  const takeFault = (path: string): JiraFault | undefined => {
    const index = faults.findIndex((f) => path.startsWith(f.match));
    const fault = faults[index];
    if (fault === undefined) return undefined;
    fault.times -= 1;
    if (fault.times <= 0) faults.splice(index, 1);
    return fault;
  };

  const notFound = (recorded: RecordedRequest, origin: string): Result => {
    unhandled.push(recorded);
    return { status: 404, body: errorCollection([`null for uri: ${origin}${recorded.path.split('?')[0]}`]) };
  };

  const handle = (recorded: RecordedRequest, origin: string): Result => {
    const fault = takeFault(recorded.path);
    if (fault !== undefined) {
      const base = defaultErrorFor(fault.status);
      const headers = Object.fromEntries(
        Object.entries(fault.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v]),
      );
      return fault.body === undefined
        ? { ...base, headers: { ...(base.headers ?? {}), ...headers } }
        : { status: fault.status, headers, body: fault.body };
    }
    const url = new URL(recorded.path, 'http://fake.invalid');
    if (url.pathname !== API_PREFIX && !url.pathname.startsWith(`${API_PREFIX}/`))
      return notFound(recorded, origin);
    if (!basicMatches(recorded.headers, email, apiToken)) return unauthenticated();
    const limited = limiter.take();
    if (limited) return limited;
    const req: RouteRequest = {
      method: recorded.method,
      path: url.pathname.slice(API_PREFIX.length).replace(/\/+$/, '') || '/',
      query: url.searchParams,
      body: parseBody(recorded.body),
      headers: recorded.headers,
    };
    const methods: string[] = [];
    for (const [method, pattern, handler] of routes) {
      const m = pattern.exec(req.path);
      if (!m) continue;
      if (method === req.method) return handler([...m], req);
      methods.push(method);
    }
    if (methods.length > 0) {
      unhandled.push(recorded);
      return { status: 405, headers: { allow: [...new Set(methods)].join(',') } };
    }
    return notFound(recorded, origin);
  };

  let origin = '';
  const server = await startRecordingServer(
    (_req, res, recorded) => send(res, handle(recorded, origin)),
    { requests, unhandled },
    { responseDelayMs: opts.responseDelayMs ?? 0 },
  );
  origin = server.origin;
  const base = `${origin}${API_PREFIX}`;
  const ctx: Ctx = {
    data,
    render: new Renderer(data, base, origin),
    tokens: new PageTokens(`jira-fake-${origin}`),
    now: opts.now ?? Date.now,
    me: () => me,
    mediaUrl: (a) => media.urlFor(a),
  };
  routes = [...issueRoutes(ctx), ...activityRoutes(ctx), ...moreRoutes(ctx)];

  return {
    url: base,
    origin,
    requests,
    unhandled,
    failNext(fault) {
      faults.push({ ...fault, times: fault.times ?? 1 });
    },
    data,
    me,
    media,
    close: async () => {
      await server.close();
      await media.close();
    },
  };
}

function parseBody(raw: string): unknown {
  if (raw.trim() === '') return undefined;
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return 'invalid';
  }
}
