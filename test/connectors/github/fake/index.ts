// A wire-faithful fake of the GitHub REST API v3 (https://api.github.com) on the fake kit (kit/index.ts),
// whose one dispatch answers every request in this order:
//   1. fault injected with failNext (matching path prefix)  → the fault (an answer, a hang or a reset)
//   2. /_codeload/… (stands in for https://codeload.github.com; no auth there, as on GitHub) → a recording,
//      else an archive of the seeded dataset (archive.ts, streamed); the kit's public routes
//   3. a present but unknown credential                     → 401 Bad credentials
//   4. (`before`) a repository part withheld from the token (withholdPermissions) → GitHub's 404 body;
//      an exact recorded request from @octokit/fixtures → replay.ts (any accepted token; none → 401);
//      another path of the recorded namespace → GitHub's 404, recorded in `unhandled`
//   5. a handwritten route over the seeded dataset          → routes.ts, routes-git.ts, search.ts,
//      routes-parity.ts; POST/PATCH writes in routes-write.ts; POST /graphql in graphql.ts (GraphQL API v4,
//      executed against GitHub's published schema)
//   6. anything else                                        → GitHub's 404 body, recorded in `unhandled`
// Every answer but an archive's and a codeload recording's carries api.github.com's headers (wire.ts
// baseHeaders), with x-ratelimit-* counted per token and resource (never enforced).
// Dataset: org `ces-demo` with private repo `widgets` (issues 1–25, #5/#10/#15/#20/#25 are pull requests,
// 3 comments on #1; 40 commits on main, branch release/1.x at commit 25; releases v1.0.0, v1.1.0 and the
// prerelease v2.0.0-beta.1; 6 labels; milestones v1.0 (closed), v1.1, v2.0; stars by octocat and hubot; on
// pull request #5 three reviews and three review comments); ces-demo's members octocat and hubot and teams
// maintainers, triage, security (secret); users `octocat` (Hello-World, Spoon-Knife, 3 commits each; every
// accepted token authenticates as octocat) and `hubot`.
import { loadDefinition } from '../../kit/definition.ts';
import { lowerKeys } from '../../kit/errors.ts';
import type { Answer, Fault, InjectedFault, Route as KitRoute, RecordedRequest } from '../../kit/index.ts';
import { startFake } from '../../kit/index.ts';
import { Archives } from './archive.ts';
import { Dataset, type IssueChange, type NewIssue, type RepoRecord } from './dataset.ts';
import * as render from './render.ts';
import { CODELOAD_PREFIX, loadReplays, type Recording, type ReplayTable } from './replay.ts';
import { createRoutes, type RouteResult } from './routes.ts';
import {
  type Auth,
  baseHeaders,
  errorBody,
  parseAuth,
  RateLimiter,
  type RateResource,
  REST_DOCS,
} from './wire.ts';

export type { RecordedRequest } from '../../kit/server.ts';
export type { IssueChange, NewIssue } from './dataset.ts';

/** An answer instead of the route's, a hang, or a connection cut after some bytes (kit/errors.ts). */
export type GithubFault = InjectedFault;

export interface GithubFakeOptions {
  /** accepted tokens, default ['ghp_test_token_0001'] */
  tokens?: string[];
  /** answer every request this much later, like a provider across the internet (benchmarks); default 0 */
  responseDelayMs?: number;
}

export interface GithubFake {
  /** base URL, e.g. http://127.0.0.1:54321 (the REST root, like https://api.github.com) */
  url: string;
  /** every request received, in order */
  requests: RecordedRequest[];
  /** requests no route matched (answered 404 GitHub-style AND recorded here so tests can fail on them) */
  unhandled: RecordedRequest[];
  /** fault injection: the next matching request(s) get this response instead */
  failNext(fault: GithubFault): void;
  /**
   * The token loses access to these parts of a repository (the path segment after it: `pulls`, `commits`,
   * `releases`, ...), as a fine-grained token without that repository permission has, until called again
   * with other parts ([]: every part back). GitHub answers such requests 404 Not Found with the route's
   * documentation_url, exactly as for a repository that does not exist ("Troubleshooting the REST API").
   */
  withholdPermissions(owner: string, repo: string, parts: string[]): void;
  /** add `count` generated issues to a repo (creates the repo if missing) */
  seedIssues(owner: string, repo: string, count: number): void;
  // Changes between syncs take effect at the fake clock's "now": one second after the newest issue or comment
  // timestamp unless the change names a time, so each is the latest change. They answer the issue as "Get an
  // issue" renders it.
  /** Edits an issue (or pull request): the given members change and updated_at moves to now. */
  updateIssue(owner: string, repo: string, number: number, change: IssueChange): RenderedIssue;
  /** Opens an issue with the next number, created and updated now. */
  addIssue(owner: string, repo: string, fields: NewIssue): RenderedIssue;
  /**
   * Removes an issue as a deletion (or a transfer elsewhere) does: lists and search stop returning it and
   * "Get an issue" answers 410 Gone. GitHub's REST API has no issue delete; this stands in for the UI.
   */
  deleteIssue(owner: string, repo: string, number: number): void;
  /**
   * Makes every dataset archive exactly `bytes` long (streamed, never held in memory); undefined restores the
   * small default archive. Recorded archives (`get-archive`) are unaffected.
   */
  setArchiveSize(bytes: number | undefined): void;
  /** Closes the server and every open connection (hung requests included); safe to call twice. */
  close(): Promise<void>;
}

/** An issue as "Get an issue" answers it. */
export type RenderedIssue = ReturnType<typeof render.issue>;

export const GITHUB_FAKE_DEFAULT_TOKEN = 'ghp_test_token_0001';

export async function startGithubFake(opts: GithubFakeOptions = {}): Promise<GithubFake> {
  const tokens = new Set(opts.tokens ?? [GITHUB_FAKE_DEFAULT_TOKEN]);
  const limiter = new RateLimiter();
  const data = new Dataset();
  // The origin is known once the kit listens; routes, archives and recordings read it from here.
  const site = { origin: '' };
  const archives = new Archives(data, site);
  let replays: ReplayTable | undefined;
  const recorded = (): ReplayTable => {
    if (replays === undefined) throw new Error('github fake used before it listened');
    return replays;
  };

  // Per repository id, the parts of it the token may not see.
  const withheld = new Map<number, { pattern: RegExp; parts: Set<string> }>();
  const refused = (pathname: string): string | undefined => {
    for (const { pattern, parts } of withheld.values()) {
      const part = pattern.exec(pathname)?.[1];
      if (part !== undefined && parts.has(part)) return part;
    }
    return undefined;
  };

  const headers = (auth: Auth, resource: RateResource = 'core') =>
    baseHeaders(auth, limiter.take(auth, resource));
  const authOf = (request: RecordedRequest) => parseAuth(request.headers, tokens);
  const answer = (result: RouteResult, auth: Auth): Answer => {
    const merged = headers(auth, result.rateResource);
    if (result.link !== undefined) merged.link = result.link;
    for (const [name, value] of Object.entries(result.headers ?? {})) {
      if (value === null) delete merged[name];
      else merged[name] = value;
    }
    return { status: result.status, headers: merged, body: result.body };
  };
  const replay = (recording: Recording, auth: Auth): Answer => {
    const rate = recording.rateResource === null ? {} : limiter.take(auth, recording.rateResource);
    return { status: recording.status, headers: { ...recording.headers, ...rate }, body: recording.body };
  };
  const notFound = (request: RecordedRequest): Answer => ({
    status: 404,
    headers: headers(authOf(request)),
    body: errorBody(404, 'Not Found'),
  });
  const routes = createRoutes(data, site, archives).map(
    (route): KitRoute<Auth> => ({
      ...route,
      handle: (req, auth) => {
        const result = route.handle(req, auth);
        return result === undefined ? undefined : answer(result, auth);
      },
    }),
  );

  const fake = await startFake<Auth>({
    definition: loadDefinition('github'),
    routes,
    publicRoutes: [
      {
        method: 'GET',
        path: `${CODELOAD_PREFIX}/{path+}`,
        operation: 'codeload.github.com archive download',
        handle: (req) => {
          const recording = recorded().find(req.method, req.recorded.path);
          if (recording !== undefined) return replay(recording, authOf(req.recorded));
          return archives.answer(req.pathname, req.query);
        },
      },
    ],
    authenticate: (request) => {
      const auth = authOf(request);
      if (auth.kind !== 'bad') return auth;
      return { refuse: { status: 401, headers: headers(auth), body: errorBody(401, 'Bad credentials') } };
    },
    before: (request, auth) => {
      const { pathname } = new URL(request.path, 'http://fake.invalid');
      const hidden = refused(pathname);
      if (hidden !== undefined)
        return {
          status: 404,
          headers: headers(auth),
          body: errorBody(404, 'Not Found', PART_DOCS[hidden] ?? REST_DOCS),
        };
      const recording = recorded().find(request.method, request.path);
      // Every recording was made with a token and GitHub's anonymous answer is unknown, so replays need one.
      if (recording !== undefined && auth.kind === 'anonymous')
        return {
          status: 401,
          headers: headers(auth, recording.rateResource ?? 'core'),
          body: errorBody(401, 'Requires authentication'),
        };
      if (recording !== undefined) return replay(recording, auth);
      // A miss inside the recorded namespace is a request the fake cannot answer faithfully.
      if (recorded().ownsPath(pathname)) return { ...notFound(request), unhandled: true };
      return undefined;
    },
    errors: {
      body: (status) => errorBody(status, defaultMessage(status)),
      notFound,
      fault: (fault: Fault, request) => ({
        status: fault.status,
        headers: { ...headers(authOf(request)), ...lowerKeys(fault.headers ?? {}) },
        body: fault.body ?? errorBody(fault.status, defaultMessage(fault.status)),
      }),
    },
    responseDelayMs: opts.responseDelayMs ?? 0,
  });
  site.origin = fake.origin;
  try {
    replays = loadReplays(fake.origin);
  } catch (error) {
    await fake.close();
    throw error;
  }
  const url = fake.origin;
  const renderCtx: render.RenderContext = {
    api: url,
    account: (login) => data.account(login),
    authenticated: true,
  };
  const repoOf = (owner: string, name: string): RepoRecord => {
    const repo = data.repo(owner, name);
    if (repo === undefined) throw new Error(`github fake: no repository ${owner}/${name}`);
    return repo;
  };

  return {
    url,
    requests: fake.requests,
    unhandled: fake.unhandled,
    failNext: fake.failNext,
    withholdPermissions(owner, repo, parts) {
      const record = repoOf(owner, repo);
      const name = (s: string) => s.replace(/[.]/g, '\\.');
      // Both spellings of the repository: by name (case-insensitive, as GitHub) and the id-based `link` form.
      const pattern = new RegExp(
        `^/(?:repos/${name(record.owner.login)}/${name(record.name)}|repositories/${record.id})/([^/]+)`,
        'i',
      );
      withheld.set(record.id, { pattern, parts: new Set(parts) });
    },
    seedIssues(owner, repo, count) {
      data.seedIssues(owner, repo, count);
    },
    updateIssue(owner, repo, number, change) {
      const record = repoOf(owner, repo);
      return render.issue(renderCtx, record, data.updateIssue(record, number, change), true);
    },
    addIssue(owner, repo, fields) {
      const record = repoOf(owner, repo);
      return render.issue(renderCtx, record, data.openIssue(record, fields), true);
    },
    deleteIssue(owner, repo, number) {
      data.deleteIssue(repoOf(owner, repo), number);
    },
    setArchiveSize(bytes) {
      archives.setSize(bytes);
    },
    close: () => fake.close(),
  };
}

/** The reference page (documentation_url of a 404) of the list a withheld part stands for. */
const PART_DOCS: Record<string, string> = {
  pulls: 'https://docs.github.com/rest/pulls/pulls#list-pull-requests',
  commits: 'https://docs.github.com/rest/commits/commits#list-commits',
  releases: 'https://docs.github.com/rest/releases/releases#list-releases',
  issues: 'https://docs.github.com/rest/issues/issues#list-repository-issues',
  labels: 'https://docs.github.com/rest/issues/labels#list-labels-for-a-repository',
  milestones: 'https://docs.github.com/rest/issues/milestones#list-milestones',
  branches: 'https://docs.github.com/rest/branches/branches#list-branches',
};

function defaultMessage(status: number): string {
  if (status >= 500) return 'Server Error';
  if (status === 429 || status === 403) return 'API rate limit exceeded';
  return 'Error';
}
