// Handwritten, stateful routes over the in-memory dataset, for everything @octokit/fixtures did not record.
// Each route names the operationId it follows; its docs.github.com reference page (DOCS) is also the
// documentation_url GitHub puts in the route's 404 body. Users, organizations, repositories, issues, comments and pull requests
// are here; commits, releases, labels and archives in routes-git.ts; search in search.ts; branches, tags,
// contents, milestones, teams, reviews and the repository/user searches in routes-parity.ts; writes (POST,
// PATCH) in routes-write.ts; the GraphQL endpoint (POST /graphql) in graphql.ts. Each route is a row of the
// kit's router (kit/router.ts), so a literal segment wins over a parameter whatever the order.
import type { RouteRequest } from '../../kit/router.ts';
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

export type { RouteRequest } from '../../kit/router.ts';

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

export interface RouteResult {
  status: number;
  body: unknown;
  link?: string;
  /** Merged over the standard JSON headers; null removes one (e.g. the 302 of an archive download). */
  headers?: Record<string, string | null>;
  /** Rate-limit bucket the request counts against; default core. */
  rateResource?: RateResource;
}

/**
 * A route of the kit's table (kit/router.ts) whose handler answers a RouteResult: index.ts puts GitHub's
 * headers (rate limit of `rateResource`, `link`) around it. `operation` is the operationId of GitHub's
 * OpenAPI description (reference/providers/github.json) the route follows.
 */
export interface Route {
  method: string;
  path: string;
  operation: string;
  handle(req: RouteRequest, auth: Auth): RouteResult | undefined;
}

export const route = (method: string, path: string, operation: string, handle: Route['handle']): Route => ({
  method,
  path,
  operation,
  handle,
});

/**
 * A repository route under both /repos/{owner}/{repo}/… and the id-based /repositories/{repository_id}/…
 * that GitHub advertises in `link` headers.
 */
export const onRepo = (method: string, tail: string, operation: string, handle: Route['handle']): Route[] => [
  route(method, `/repos/{owner}/{repo}${tail}`, operation, handle),
  route(method, `/repositories/{repository_id:\\d+}${tail}`, operation, handle),
];

/** The same for organizations: /orgs/{org}/… and /organizations/{organization_id}/…. */
export const onOrg = (method: string, tail: string, operation: string, handle: Route['handle']): Route[] => [
  route(method, `/orgs/{org}${tail}`, operation, handle),
  route(method, `/organizations/{organization_id:\\d+}${tail}`, operation, handle),
];

export const notFound = (doc: string): RouteResult => ({
  status: 404,
  body: errorBody(404, 'Not Found', doc),
});

/** What route modules share: the dataset, rendering context, visibility and paging. */
export interface RouteKit {
  data: Dataset;
  /** the fake's origin (the REST root), known once it listens */
  readonly baseUrl: string;
  archives: Archives;
  ctx(auth: Auth): render.RenderContext;
  /** The repository of an onRepo route, or undefined when it does not exist or is private to this caller. */
  visibleRepo(req: RouteRequest, auth: Auth): RepoRecord | undefined;
  listed<T>(
    records: readonly T[],
    req: RouteRequest,
    linkPath: string,
    renderOne: (record: T) => unknown,
    opts?: PagingOptions,
  ): RouteResult;
}

export function createRoutes(data: Dataset, site: { readonly origin: string }, archives: Archives): Route[] {
  const ctx = (auth: Auth): render.RenderContext => ({
    api: site.origin,
    account: (login) => data.account(login),
    authenticated: auth.kind === 'token',
  });

  // Private repositories are a 404, never a 403, without credentials ("Troubleshooting the REST API").
  const visibleRepo = ({ params }: RouteRequest, auth: Auth): RepoRecord | undefined => {
    const repo =
      params.repository_id !== undefined
        ? data.repoById(Number(params.repository_id))
        : data.repo(params.owner ?? '', params.repo ?? '');
    return repo === undefined || (repo.private && auth.kind !== 'token') ? undefined : repo;
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
    const page = paginate(records, req.query, site.origin, linkPath, opts);
    const body = page.items.map(renderOne);
    return { status: 200, body, ...(page.link === undefined ? {} : { link: page.link }) };
  };
  const kit: RouteKit = {
    data,
    get baseUrl() {
      return site.origin;
    },
    archives,
    ctx,
    visibleRepo,
    listed,
  };

  const userRepos = (account: Account, req: RouteRequest, auth: Auth): RouteResult => {
    const type = req.query.get('type') ?? 'owner';
    // This endpoint lists public repositories only; the fake's users are members of no other repositories.
    let repos = type === 'member' ? [] : data.reposOf(account).filter((r) => !r.private);
    repos = sortRepos(repos, req.query, 'full_name');
    const c = ctx(auth);
    return listed(repos, req, `/user/${account.id}/repos`, (r) => render.minimalRepository(c, r));
  };

  const orgRepos = (org: Account, req: RouteRequest, auth: Auth): RouteResult => {
    const type = req.query.get('type') ?? 'all';
    let repos = data.reposOf(org).filter((r) => !r.private || auth.kind === 'token');
    if (type === 'public') repos = repos.filter((r) => !r.private);
    else if (type === 'private') repos = repos.filter((r) => r.private);
    else if (type === 'forks') repos = [];
    repos = sortRepos(repos, req.query, 'created');
    const c = ctx(auth);
    return listed(repos, req, `/organizations/${org.id}/repos`, (r) => render.minimalRepository(c, r));
  };

  return [
    route('GET', '/user', 'users/get-authenticated', (_req, auth) =>
      auth.kind === 'token'
        ? { status: 200, body: render.authenticatedUser(ctx(auth), data.viewer, data.reposOf(data.viewer)) }
        : { status: 401, body: errorBody(401, 'Requires authentication', DOCS.authenticatedUser) },
    ),
    // Organizations are answered here too, with type "Organization".
    route('GET', '/users/{username}', 'users/get-by-username', ({ params }, auth) => {
      const account = data.account(params.username ?? '');
      if (account === undefined) return notFound(DOCS.user);
      return { status: 200, body: render.publicUser(ctx(auth), account, data.reposOf(account)) };
    }),
    route('GET', '/users/{username}/repos', 'repos/list-for-user', (req, auth) => {
      const account = data.account(req.params.username ?? '');
      return account === undefined ? notFound(DOCS.userRepos) : userRepos(account, req, auth);
    }),
    route('GET', '/user/{account_id:\\d+}/repos', 'repos/list-for-user', (req, auth) => {
      const account = data.accountById(Number(req.params.account_id));
      return account === undefined ? notFound(DOCS.userRepos) : userRepos(account, req, auth);
    }),
    route('GET', '/orgs/{org}', 'orgs/get', ({ params }, auth) => {
      const org = data.account(params.org ?? '');
      if (org?.type !== 'Organization') return notFound(DOCS.org);
      return { status: 200, body: render.organization(ctx(auth), org, data.reposOf(org)) };
    }),
    ...onOrg('GET', '/repos', 'repos/list-for-org', (req, auth) => {
      const { org: login, organization_id: id } = req.params;
      const org = id !== undefined ? data.accountById(Number(id)) : data.account(login ?? '');
      return org?.type === 'Organization' ? orgRepos(org, req, auth) : notFound(DOCS.orgRepos);
    }),
    ...onRepo('GET', '', 'repos/get', (req, auth) => {
      const repo = visibleRepo(req, auth);
      return repo === undefined
        ? notFound(DOCS.repo)
        : { status: 200, body: render.fullRepository(ctx(auth), repo) };
    }),
    // Pull requests included, each with a `pull_request` key.
    ...onRepo('GET', '/issues', 'issues/list-for-repo', (req, auth) => {
      const repo = visibleRepo(req, auth);
      if (repo === undefined) return notFound(DOCS.issues);
      const c = ctx(auth);
      return listed(filterIssues(repo, req.query), req, `/repositories/${repo.id}/issues`, (i) =>
        render.issue(c, repo, i),
      );
    }),
    // An issue deleted from a repository the caller can read is a 410.
    ...onRepo('GET', '/issues/{issue_number:\\d+}', 'issues/get', (req, auth) => {
      const repo = visibleRepo(req, auth);
      const number = Number(req.params.issue_number);
      if (repo !== undefined && data.wasDeleted(repo, number))
        return { status: 410, body: errorBody(410, 'This issue was deleted', DOCS.issue) };
      const rec = repo && issueOf(repo, req.params.issue_number);
      if (repo === undefined || rec === undefined) return notFound(DOCS.issue);
      return { status: 200, body: render.issue(ctx(auth), repo, rec, true) };
    }),
    ...onRepo('GET', '/issues/{issue_number:\\d+}/comments', 'issues/list-comments', (req, auth) => {
      const repo = visibleRepo(req, auth);
      const rec = repo && issueOf(repo, req.params.issue_number);
      if (repo === undefined || rec === undefined) return notFound(DOCS.comments);
      const since = parseSince(req.query);
      const comments = (repo.comments.get(rec.number) ?? []).filter(
        (c) => since === undefined || c.updatedAt >= since,
      );
      const c = ctx(auth);
      return listed(comments, req, `/repositories/${repo.id}/issues/${rec.number}/comments`, (comment) =>
        render.issueComment(c, repo, rec.number, comment),
      );
    }),
    ...onRepo('GET', '/issues/comments/{comment_id:\\d+}', 'issues/get-comment', (req, auth) => {
      const repo = visibleRepo(req, auth);
      const id = Number(req.params.comment_id);
      const found =
        repo === undefined
          ? undefined
          : [...repo.comments.entries()].flatMap(([number, list]) =>
              list.filter((c) => c.id === id).map((comment) => ({ number, comment })),
            )[0];
      if (repo === undefined || found === undefined) return notFound(DOCS.comment);
      return { status: 200, body: render.issueComment(ctx(auth), repo, found.number, found.comment) };
    }),
    ...onRepo('GET', '/pulls', 'pulls/list', (req, auth) => {
      const repo = visibleRepo(req, auth);
      if (repo === undefined) return notFound(DOCS.pulls);
      const c = ctx(auth);
      const pulls = filterPulls(repo, req.query).flatMap((i) =>
        i.pull === null ? [] : [{ i, pull: i.pull }],
      );
      return listed(pulls, req, `/repositories/${repo.id}/pulls`, ({ i, pull }) =>
        render.pullSimple(c, repo, i, pull),
      );
    }),
    ...onRepo('GET', '/pulls/{pull_number:\\d+}', 'pulls/get', (req, auth) => {
      const repo = visibleRepo(req, auth);
      const rec = repo && issueOf(repo, req.params.pull_number);
      if (repo === undefined || rec?.pull == null) return notFound(DOCS.pull);
      return { status: 200, body: render.pullFull(ctx(auth), repo, rec, rec.pull) };
    }),
    ...gitRoutes(kit),
    ...searchRoutes(kit),
    ...parityRoutes(kit),
    ...writeRoutes(kit),
    route('POST', '/graphql', 'graphql', graphqlRoute(data)),
  ];
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
