// Handwritten, stateful routes over the in-memory dataset, for everything @octokit/fixtures did not record.
// Each route names the docs.github.com reference page it follows; that URL is also the documentation_url
// GitHub puts in the route's 404 body. Users, organizations, repositories, issues, comments and pull requests
// are here; commits, releases, labels and archives in routes-git.ts; search in search.ts; branches, tags,
// contents, milestones, teams, reviews and the repository/user searches in routes-parity.ts; writes (POST,
// PATCH) in routes-write.ts; the GraphQL endpoint (POST /graphql) in graphql.ts.
import type { Archives } from './archive.ts';
import type { Account, Dataset, IssueRecord, RepoRecord } from './dataset.ts';
import { graphqlRoute } from './graphql.ts';
import { type PagingOptions, paginate } from './paging.ts';
import * as render from './render.ts';
import { gitRoutes } from './routes-git.ts';
import { parityRoutes } from './routes-parity.ts';
import { writeRoutes } from './routes-write.ts';
import { searchRoutes } from './search.ts';
import { type Auth, errorBody, type RateResource } from './wire.ts';

const DOCS = {
  authenticatedUser: 'https://docs.github.com/rest/users/users#get-the-authenticated-user',
  user: 'https://docs.github.com/rest/users/users#get-a-user',
  userRepos: 'https://docs.github.com/rest/repos/repos#list-repositories-for-a-user',
  org: 'https://docs.github.com/rest/orgs/orgs#get-an-organization',
  orgRepos: 'https://docs.github.com/rest/repos/repos#list-organization-repositories',
  repo: 'https://docs.github.com/rest/repos/repos#get-a-repository',
  issues: 'https://docs.github.com/rest/issues/issues#list-repository-issues',
  issue: 'https://docs.github.com/rest/issues/issues#get-an-issue',
  comments: 'https://docs.github.com/rest/issues/comments#list-issue-comments',
  comment: 'https://docs.github.com/rest/issues/comments#get-an-issue-comment',
  pulls: 'https://docs.github.com/rest/pulls/pulls#list-pull-requests',
  pull: 'https://docs.github.com/rest/pulls/pulls#get-a-pull-request',
} as const;

export interface RouteRequest {
  /** GET, or one of the write methods (POST, PATCH) that writeRoutes serves. */
  method: string;
  /** The raw request body ('' for none). */
  body: string;
  pathname: string;
  query: URLSearchParams;
  auth: Auth;
}

export interface RouteResult {
  status: number;
  body: unknown;
  link?: string;
  /** Merged over the standard JSON headers; null removes one (e.g. the 302 of an archive download). */
  headers?: Record<string, string | null>;
  /** Rate-limit bucket the request counts against; default core. */
  rateResource?: RateResource;
}

export type Handler = (match: string[], req: RouteRequest) => RouteResult;
export type Route = [RegExp, Handler];

export const notFound = (doc: string): RouteResult => ({
  status: 404,
  body: errorBody(404, 'Not Found', doc),
});

// Repository routes answer both /repos/{owner}/{repo}/… and the id-based /repositories/{id}/… that GitHub
// advertises in `link` headers. The pattern takes match groups 1–3; a route's own groups start at 4.
export const REPO = '(?:repos/([^/]+)/([^/]+)|repositories/(\\d+))';

/** What route modules share: the dataset, rendering context, visibility and paging. */
export interface RouteKit {
  data: Dataset;
  baseUrl: string;
  archives: Archives;
  ctx(req: RouteRequest): render.RenderContext;
  /** The repository of a REPO match, or undefined when it does not exist or is private to this caller. */
  visibleRepo(m: string[], req: RouteRequest): RepoRecord | undefined;
  listed<T>(
    records: readonly T[],
    req: RouteRequest,
    linkPath: string,
    renderOne: (record: T) => unknown,
    opts?: PagingOptions,
  ): RouteResult;
}

export function createRoutes(
  data: Dataset,
  baseUrl: string,
  archives: Archives,
): (req: RouteRequest) => RouteResult | undefined {
  const ctx = (req: RouteRequest): render.RenderContext => ({
    api: baseUrl,
    account: (login) => data.account(login),
    authenticated: req.auth.kind === 'token',
  });

  // Private repositories are a 404, never a 403, without credentials ("Troubleshooting the REST API").
  const visibleRepo = (m: string[], req: RouteRequest): RepoRecord | undefined => {
    const repo = m[3] !== undefined ? data.repoById(Number(m[3])) : data.repo(m[1] ?? '', m[2] ?? '');
    return repo === undefined || (repo.private && req.auth.kind !== 'token') ? undefined : repo;
  };
  const issueOf = (repo: RepoRecord, raw: string | undefined): IssueRecord | undefined =>
    data.issue(repo, Number(raw));

  // Pages records before rendering them: a 10 000-issue repository must not render 10 000 objects per page.
  const listed = <T>(
    records: readonly T[],
    req: RouteRequest,
    linkPath: string,
    renderOne: (record: T) => unknown,
    opts: PagingOptions = {},
  ): RouteResult => {
    const page = paginate(records, req.query, baseUrl, linkPath, opts);
    const body = page.items.map(renderOne);
    return { status: 200, body, ...(page.link === undefined ? {} : { link: page.link }) };
  };
  const kit: RouteKit = { data, baseUrl, archives, ctx, visibleRepo, listed };

  const userRepos = (account: Account, req: RouteRequest): RouteResult => {
    const type = req.query.get('type') ?? 'owner';
    // This endpoint lists public repositories only; the fake's users are members of no other repositories.
    let repos = type === 'member' ? [] : data.reposOf(account).filter((r) => !r.private);
    repos = sortRepos(repos, req.query, 'full_name');
    const c = ctx(req);
    return listed(repos, req, `/user/${account.id}/repos`, (r) => render.minimalRepository(c, r));
  };

  const orgRepos = (org: Account, req: RouteRequest): RouteResult => {
    const type = req.query.get('type') ?? 'all';
    let repos = data.reposOf(org).filter((r) => !r.private || req.auth.kind === 'token');
    if (type === 'public') repos = repos.filter((r) => !r.private);
    else if (type === 'private') repos = repos.filter((r) => r.private);
    else if (type === 'forks') repos = [];
    repos = sortRepos(repos, req.query, 'created');
    const c = ctx(req);
    return listed(repos, req, `/organizations/${org.id}/repos`, (r) => render.minimalRepository(c, r));
  };

  const routes: Route[] = [
    // "Get the authenticated user"
    [
      /^\/user$/,
      (_m, req) =>
        req.auth.kind === 'token'
          ? {
              status: 200,
              body: render.authenticatedUser(ctx(req), data.viewer, data.reposOf(data.viewer)),
            }
          : { status: 401, body: errorBody(401, 'Requires authentication', DOCS.authenticatedUser) },
    ],
    // "Get a user" (organizations are answered here too, with type "Organization")
    [
      /^\/users\/([^/]+)$/,
      (m, req) => {
        const account = data.account(m[1] ?? '');
        if (account === undefined) return notFound(DOCS.user);
        return { status: 200, body: render.publicUser(ctx(req), account, data.reposOf(account)) };
      },
    ],
    // "List repositories for a user"
    [
      /^\/users\/([^/]+)\/repos$/,
      (m, req) => {
        const account = data.account(m[1] ?? '');
        return account === undefined ? notFound(DOCS.userRepos) : userRepos(account, req);
      },
    ],
    [
      /^\/user\/(\d+)\/repos$/,
      (m, req) => {
        const account = data.accountById(Number(m[1]));
        return account === undefined ? notFound(DOCS.userRepos) : userRepos(account, req);
      },
    ],
    // "Get an organization"
    [
      /^\/orgs\/([^/]+)$/,
      (m, req) => {
        const org = data.account(m[1] ?? '');
        if (org?.type !== 'Organization') return notFound(DOCS.org);
        return { status: 200, body: render.organization(ctx(req), org, data.reposOf(org)) };
      },
    ],
    // "List organization repositories"
    [
      /^\/orgs\/([^/]+)\/repos$/,
      (m, req) => {
        const org = data.account(m[1] ?? '');
        return org?.type === 'Organization' ? orgRepos(org, req) : notFound(DOCS.orgRepos);
      },
    ],
    [
      /^\/organizations\/(\d+)\/repos$/,
      (m, req) => {
        const org = data.accountById(Number(m[1]));
        return org?.type === 'Organization' ? orgRepos(org, req) : notFound(DOCS.orgRepos);
      },
    ],
    // "Get a repository"
    [
      new RegExp(`^/${REPO}$`),
      (m, req) => {
        const repo = visibleRepo(m, req);
        return repo === undefined
          ? notFound(DOCS.repo)
          : { status: 200, body: render.fullRepository(ctx(req), repo) };
      },
    ],
    // "List repository issues" (pull requests included, each with a `pull_request` key)
    [
      new RegExp(`^/${REPO}/issues$`),
      (m, req) => {
        const repo = visibleRepo(m, req);
        if (repo === undefined) return notFound(DOCS.issues);
        const c = ctx(req);
        return listed(filterIssues(repo, req.query), req, `/repositories/${repo.id}/issues`, (i) =>
          render.issue(c, repo, i),
        );
      },
    ],
    // "Get an issue": an issue deleted from a repository the caller can read is a 410.
    [
      new RegExp(`^/${REPO}/issues/(\\d+)$`),
      (m, req) => {
        const repo = visibleRepo(m, req);
        if (repo !== undefined && data.wasDeleted(repo, Number(m[4])))
          return { status: 410, body: errorBody(410, 'This issue was deleted', DOCS.issue) };
        const rec = repo && issueOf(repo, m[4]);
        if (repo === undefined || rec === undefined) return notFound(DOCS.issue);
        return { status: 200, body: render.issue(ctx(req), repo, rec, true) };
      },
    ],
    // "List issue comments"
    [
      new RegExp(`^/${REPO}/issues/(\\d+)/comments$`),
      (m, req) => {
        const repo = visibleRepo(m, req);
        const rec = repo && issueOf(repo, m[4]);
        if (repo === undefined || rec === undefined) return notFound(DOCS.comments);
        const since = parseSince(req.query);
        const comments = (repo.comments.get(rec.number) ?? []).filter(
          (c) => since === undefined || c.updatedAt >= since,
        );
        const c = ctx(req);
        return listed(comments, req, `/repositories/${repo.id}/issues/${rec.number}/comments`, (comment) =>
          render.issueComment(c, repo, rec.number, comment),
        );
      },
    ],
    // "Get an issue comment"
    [
      new RegExp(`^/${REPO}/issues/comments/(\\d+)$`),
      (m, req) => {
        const repo = visibleRepo(m, req);
        const id = Number(m[4]);
        const found =
          repo === undefined
            ? undefined
            : [...repo.comments.entries()].flatMap(([number, list]) =>
                list.filter((c) => c.id === id).map((comment) => ({ number, comment })),
              )[0];
        if (repo === undefined || found === undefined) return notFound(DOCS.comment);
        return { status: 200, body: render.issueComment(ctx(req), repo, found.number, found.comment) };
      },
    ],
    // "List pull requests"
    [
      new RegExp(`^/${REPO}/pulls$`),
      (m, req) => {
        const repo = visibleRepo(m, req);
        if (repo === undefined) return notFound(DOCS.pulls);
        const c = ctx(req);
        const pulls = filterPulls(repo, req.query).flatMap((i) =>
          i.pull === null ? [] : [{ i, pull: i.pull }],
        );
        return listed(pulls, req, `/repositories/${repo.id}/pulls`, ({ i, pull }) =>
          render.pullSimple(c, repo, i, pull),
        );
      },
    ],
    // "Get a pull request"
    [
      new RegExp(`^/${REPO}/pulls/(\\d+)$`),
      (m, req) => {
        const repo = visibleRepo(m, req);
        const rec = repo && issueOf(repo, m[4]);
        if (repo === undefined || rec?.pull == null) return notFound(DOCS.pull);
        return { status: 200, body: render.pullFull(ctx(req), repo, rec, rec.pull) };
      },
    ],
    ...gitRoutes(kit),
    ...searchRoutes(kit),
    ...parityRoutes(kit),
  ];
  const writes = writeRoutes(kit);

  const graphql = graphqlRoute(data);
  return (req) => {
    if (req.method === 'POST' && req.pathname === '/graphql') return graphql(req);
    const table =
      req.method === 'GET' ? routes : req.method === 'POST' || req.method === 'PATCH' ? writes : [];
    for (const [pattern, handle] of table) {
      const match = pattern.exec(req.pathname);
      if (match !== null) return handle([...match], req);
    }
    return undefined;
  };
}

function parseSince(query: URLSearchParams): number | undefined {
  const raw = query.get('since');
  const ms = raw === null ? Number.NaN : Date.parse(raw);
  return Number.isNaN(ms) ? undefined : ms;
}

function direction(query: URLSearchParams, fallback: 'asc' | 'desc'): 1 | -1 {
  const raw = query.get('direction');
  return (raw === 'asc' || raw === 'desc' ? raw : fallback) === 'asc' ? 1 : -1;
}

/** Numbers are handed out in creation order, so "created" order is number order and needs no sort key. */
function sortByKey(list: IssueRecord[], key: (i: IssueRecord) => number, dir: 1 | -1): IssueRecord[] {
  return list.sort((a, b) => dir * (key(a) - key(b) || a.number - b.number));
}

function filterIssues(repo: RepoRecord, q: URLSearchParams): IssueRecord[] {
  const state = q.get('state') ?? 'open';
  const wanted = (q.get('labels') ?? '')
    .split(',')
    .map((l) => l.trim().toLowerCase())
    .filter((l) => l !== '');
  const since = parseSince(q);
  const creator = q.get('creator')?.toLowerCase();
  const assignee = q.get('assignee')?.toLowerCase();
  const milestone = q.get('milestone');
  const list = repo.issues.filter((i) => {
    if (state !== 'all' && i.state !== state) return false;
    if (since !== undefined && i.updatedAt < since) return false;
    if (wanted.some((l) => !i.labels.includes(l))) return false;
    if (creator !== undefined && i.author.toLowerCase() !== creator) return false;
    if (assignee === 'none' && i.assignees.length > 0) return false;
    if (assignee === '*' && i.assignees.length === 0) return false;
    if (assignee !== undefined && assignee !== 'none' && assignee !== '*' && !i.assignees.includes(assignee))
      return false;
    // The dataset has no milestones: any specific or wildcard milestone matches nothing.
    if (milestone !== null && milestone !== 'none') return false;
    return true;
  });
  const sort = q.get('sort');
  const dir = direction(q, 'desc');
  if (sort === 'updated') return sortByKey(list, (i) => i.updatedAt, dir);
  if (sort === 'comments') return sortByKey(list, (i) => repo.comments.get(i.number)?.length ?? 0, dir);
  return dir === 1 ? list : list.reverse();
}

function filterPulls(repo: RepoRecord, q: URLSearchParams): IssueRecord[] {
  const state = q.get('state') ?? 'open';
  const head = q.get('head');
  const base = q.get('base');
  const list = repo.issues.filter((i) => {
    if (i.pull === null) return false;
    if (state !== 'all' && i.state !== state) return false;
    if (head !== null && `${repo.owner.login}:${i.pull.headRef}`.toLowerCase() !== head.toLowerCase())
      return false;
    if (base !== null && i.pull.baseRef !== base) return false;
    return true;
  });
  const sort = q.get('sort') ?? 'created';
  // "direction: Default: desc when sort is created or sort is not specified, otherwise asc."
  const dir = direction(q, sort === 'created' ? 'desc' : 'asc');
  if (sort === 'updated') return sortByKey(list, (i) => i.updatedAt, dir);
  if (sort === 'popularity') return sortByKey(list, (i) => repo.comments.get(i.number)?.length ?? 0, dir);
  if (sort === 'long-running') return sortByKey(list, (i) => i.updatedAt - i.createdAt, dir);
  return dir === 1 ? list : list.reverse();
}

function sortRepos(repos: RepoRecord[], q: URLSearchParams, fallback: string): RepoRecord[] {
  const sort = q.get('sort') ?? fallback;
  // "direction: Default: asc when using full_name, otherwise desc."
  const dir = direction(q, sort === 'full_name' ? 'asc' : 'desc');
  const key = (r: RepoRecord): number | string =>
    sort === 'updated'
      ? r.updatedAt
      : sort === 'pushed'
        ? r.pushedAt
        : sort === 'created'
          ? r.createdAt
          : `${r.owner.login}/${r.name}`.toLowerCase();
  return [...repos].sort((a, b) => {
    const ka = key(a);
    const kb = key(b);
    return dir * (ka < kb ? -1 : ka > kb ? 1 : a.id - b.id);
  });
}
