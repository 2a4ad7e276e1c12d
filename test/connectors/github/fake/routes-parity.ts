// Branches, tags, contents, milestones, organizations, teams, members, stargazers, reviews, review comments and
// the repository and user searches over the seeded dataset. Each route names the operation id of
// reference/providers/github.json (GitHub's OpenAPI description) it follows, and the docs.github.com page that
// is also the documentation_url of its error bodies.
import type { RepoRecord } from './dataset.ts';
import { sha } from './dataset-git.ts';
import { paginate } from './paging.ts';
import * as render from './render.ts';
import * as parity from './render-parity.ts';
import {
  notFound,
  onOrg,
  onRepo,
  type Route,
  type RouteKit,
  type RouteRequest,
  type RouteResult,
  route,
} from './routes.ts';
import { type Auth, errorBody } from './wire.ts';

const DOCS = {
  branches: 'https://docs.github.com/rest/branches/branches#list-branches',
  branch: 'https://docs.github.com/rest/branches/branches#get-a-branch',
  content: 'https://docs.github.com/rest/repos/contents#get-repository-content',
  milestones: 'https://docs.github.com/rest/issues/milestones#list-milestones',
  milestone: 'https://docs.github.com/rest/issues/milestones#get-a-milestone',
  userOrgs: 'https://docs.github.com/rest/orgs/orgs#list-organizations-for-a-user',
  members: 'https://docs.github.com/rest/orgs/members#list-organization-members',
  teams: 'https://docs.github.com/rest/teams/teams#list-teams',
  team: 'https://docs.github.com/rest/teams/teams#get-a-team-by-name',
  reviewComments: 'https://docs.github.com/rest/pulls/comments#list-review-comments-on-a-pull-request',
  reviewComment: 'https://docs.github.com/rest/pulls/comments#get-a-review-comment-for-a-pull-request',
  reviews: 'https://docs.github.com/rest/pulls/reviews#list-reviews-for-a-pull-request',
  stargazers: 'https://docs.github.com/rest/activity/starring#list-stargazers',
  tags: 'https://docs.github.com/rest/repos/repos#list-repository-tags',
  ref: 'https://docs.github.com/rest/git/refs#get-a-reference',
  searchRepos: 'https://docs.github.com/rest/search/search#search-repositories',
  searchUsers: 'https://docs.github.com/rest/search/search#search-users',
} as const;

const MAX_QUERY = 256;
const REACHABLE = 1000;

/**
 * The files of the tree at a commit: every file some commit up to it added or changed. A file's content is
 * the lines its commits added, so it changes with the history and every run serves the same bytes.
 */
function treeAt(repo: RepoRecord, commitSha: string): Map<string, parity.TreeEntry> {
  const files = new Map<string, parity.TreeEntry>();
  for (const c of repo.commits) {
    for (const f of c.files) {
      if (f.status === 'removed') {
        files.delete(f.filename);
        continue;
      }
      const added = f.patch
        .split('\n')
        .filter((l) => l.startsWith('+'))
        .map((l) => l.slice(1));
      const before = files.get(f.filename)?.content ?? '';
      files.set(f.filename, {
        path: f.filename,
        type: 'file',
        sha: f.blobSha,
        content: `${before}${added.join('\n')}\n`,
      });
    }
    if (c.sha === commitSha) break;
  }
  return files;
}

/** The entries directly inside `dir` ('' = the root): files, and directories derived from deeper paths. */
function listDir(files: Map<string, parity.TreeEntry>, dir: string, commitSha: string): parity.TreeEntry[] {
  const prefix = dir === '' ? '' : `${dir}/`;
  const out = new Map<string, parity.TreeEntry>();
  for (const [path, entry] of files) {
    if (!path.startsWith(prefix)) continue;
    const rest = path.slice(prefix.length);
    const slash = rest.indexOf('/');
    if (slash === -1) out.set(path, entry);
    else {
      const sub = `${prefix}${rest.slice(0, slash)}`;
      out.set(sub, { path: sub, type: 'dir', sha: sha(`tree ${commitSha} ${sub}`) });
    }
  }
  // GitHub lists a directory's entries sorted by name.
  return [...out.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

function words(q: string): string[] {
  return q
    .toLowerCase()
    .split(/\s+/)
    .filter((w) => w !== '' && !w.includes(':'));
}

function qualifiers(q: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of q.matchAll(/(?:^|\s)([a-z]+):(\S+)/gi))
    out.set((m[1] ?? '').toLowerCase(), (m[2] ?? '').toLowerCase());
  return out;
}

/** A search query GitHub refuses: empty, or longer than 256 characters ("Validation Failed", 422). */
function badQuery(q: string | null, doc: string): RouteResult | undefined {
  if (q === null || q.trim() === '')
    return {
      status: 422,
      body: {
        message: 'Validation Failed',
        errors: [{ resource: 'Search', field: 'q', code: 'missing' }],
        documentation_url: doc,
        status: '422',
      },
      rateResource: 'search',
    };
  if (q.length > MAX_QUERY)
    return {
      status: 422,
      body: {
        message: 'Validation Failed',
        errors: [
          {
            message: `The search is longer than ${MAX_QUERY} characters.`,
            resource: 'Search',
            field: 'q',
            code: 'invalid',
          },
        ],
        documentation_url: doc,
        status: '422',
      },
      rateResource: 'search',
    };
  return undefined;
}

export function parityRoutes(kit: RouteKit): Route[] {
  const { data } = kit;
  // Organization routes answer /orgs/{org}/… and the id-based /organizations/{id}/… of their `link` headers.
  const orgOf = ({ params }: RouteRequest) =>
    params.organization_id !== undefined
      ? data.accountById(Number(params.organization_id))
      : data.account(params.org ?? '');
  const pullOf = (repo: RepoRecord, raw: string | undefined) => {
    const rec = data.issue(repo, Number(raw));
    return rec?.pull == null ? undefined : { rec, pull: rec.pull };
  };

  const searchList = <T>(
    items: T[],
    req: RouteRequest,
    path: string,
    renderOne: (t: T) => unknown,
  ): RouteResult => {
    const page = paginate(items, req.query, kit.baseUrl, path, { reachable: REACHABLE });
    return {
      status: 200,
      body: { total_count: items.length, incomplete_results: false, items: page.items.map(renderOne) },
      ...(page.link === undefined ? {} : { link: page.link }),
      rateResource: 'search',
    };
  };

  const content = (req: RouteRequest, auth: Auth): RouteResult => {
    const repo = kit.visibleRepo(req, auth);
    if (repo === undefined) return notFound(DOCS.content);
    const ref = req.query.get('ref') ?? repo.defaultBranch;
    const resolved = data.resolveRef(repo, ref);
    if (resolved === undefined)
      return { status: 404, body: errorBody(404, `No commit found for the ref ${ref}`, DOCS.content) };
    const path = (req.params.path ?? '').replace(/^\/+|\/+$/g, '');
    const files = treeAt(repo, resolved.commit.sha);
    const c = kit.ctx(auth);
    const file = files.get(path);
    if (file !== undefined) return { status: 200, body: parity.contentFile(c, repo, file, ref) };
    const entries = listDir(files, path, resolved.commit.sha);
    if (entries.length === 0) return notFound(DOCS.content);
    return { status: 200, body: entries.map((e) => parity.contentEntry(c, repo, e, ref)) };
  };

  return [
    ...onRepo('GET', '/branches', 'repos/list-branches', (req, auth) => {
      const repo = kit.visibleRepo(req, auth);
      if (repo === undefined) return notFound(DOCS.branches);
      const wanted = req.query.get('protected');
      const c = kit.ctx(auth);
      const all = [...repo.branches.entries()]
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([name, head]) => parity.shortBranch(c, repo, name, head))
        .filter((b) => wanted === null || String(b.protected) === wanted);
      return kit.listed(all, req, `/repositories/${repo.id}/branches`, (b) => b);
    }),
    // The name may hold slashes, sent encoded or not.
    ...onRepo('GET', '/branches/{branch+}', 'repos/get-branch', (req, auth) => {
      const repo = kit.visibleRepo(req, auth);
      const name = req.params.branch;
      const head = repo && name !== undefined ? repo.branches.get(name) : undefined;
      const commit = head === undefined ? undefined : repo?.commits.find((c) => c.sha === head);
      if (repo === undefined || name === undefined || commit === undefined)
        return { status: 404, body: errorBody(404, 'Branch not found', DOCS.branch) };
      return { status: 200, body: parity.branch(kit.ctx(auth), repo, name, commit) };
    }),
    // A directory answers an array of entries, a file the file with its content.
    ...['/contents', '/contents/', '/contents/{path+}'].flatMap((tail) =>
      onRepo('GET', tail, 'repos/get-content', content),
    ),
    ...onRepo('GET', '/milestones', 'issues/list-milestones', (req, auth) => {
      const repo = kit.visibleRepo(req, auth);
      if (repo === undefined) return notFound(DOCS.milestones);
      const state = req.query.get('state') ?? 'open';
      const sort = req.query.get('sort') ?? 'due_on';
      const dir = req.query.get('direction') === 'desc' ? -1 : 1;
      const c = kit.ctx(auth);
      const rendered = (repo.milestones ?? [])
        .filter((x) => state === 'all' || x.state === state)
        .map((x) => render.milestone(c, repo, x));
      const key = (x: (typeof rendered)[number]): number =>
        sort === 'completeness'
          ? x.closed_issues / Math.max(1, x.open_issues + x.closed_issues)
          : // Milestones without a due date sort last, ascending.
            x.due_on === null
            ? Number.MAX_SAFE_INTEGER
            : Date.parse(x.due_on);
      rendered.sort((a, b) => dir * (key(a) - key(b) || a.number - b.number));
      return kit.listed(rendered, req, `/repositories/${repo.id}/milestones`, (x) => x);
    }),
    ...onRepo('GET', '/milestones/{milestone_number:\\d+}', 'issues/get-milestone', (req, auth) => {
      const repo = kit.visibleRepo(req, auth);
      const found = repo?.milestones?.find((x) => x.number === Number(req.params.milestone_number));
      if (repo === undefined || found === undefined) return notFound(DOCS.milestone);
      return { status: 200, body: render.milestone(kit.ctx(auth), repo, found) };
    }),
    ...onRepo('GET', '/pulls/{pull_number:\\d+}/comments', 'pulls/list-review-comments', (req, auth) => {
      const repo = kit.visibleRepo(req, auth);
      const pr = repo && pullOf(repo, req.params.pull_number);
      if (repo === undefined || pr === undefined) return notFound(DOCS.reviewComments);
      const since = Date.parse(req.query.get('since') ?? '');
      const byUpdated = req.query.get('sort') === 'updated';
      const dir = req.query.get('direction') === 'desc' ? -1 : 1;
      const list = (repo.reviewComments?.get(pr.rec.number) ?? [])
        .filter((x) => Number.isNaN(since) || x.updatedAt >= since)
        .sort(
          (a, b) => dir * (byUpdated ? a.updatedAt - b.updatedAt : a.createdAt - b.createdAt || a.id - b.id),
        );
      const c = kit.ctx(auth);
      return kit.listed(list, req, `/repositories/${repo.id}/pulls/${pr.rec.number}/comments`, (x) =>
        parity.reviewComment(c, repo, pr.rec.number, x, pr.pull.headSha),
      );
    }),
    ...onRepo('GET', '/pulls/comments/{comment_id:\\d+}', 'pulls/get-review-comment', (req, auth) => {
      const repo = kit.visibleRepo(req, auth);
      const id = Number(req.params.comment_id);
      for (const [number, list] of repo?.reviewComments ?? []) {
        const found = list.find((x) => x.id === id);
        const pr = repo && found && pullOf(repo, String(number));
        if (repo !== undefined && found !== undefined && pr !== undefined)
          return {
            status: 200,
            body: parity.reviewComment(kit.ctx(auth), repo, number, found, pr.pull.headSha),
          };
      }
      return notFound(DOCS.reviewComment);
    }),
    ...onRepo('GET', '/pulls/{pull_number:\\d+}/reviews', 'pulls/list-reviews', (req, auth) => {
      const repo = kit.visibleRepo(req, auth);
      const pr = repo && pullOf(repo, req.params.pull_number);
      if (repo === undefined || pr === undefined) return notFound(DOCS.reviews);
      const c = kit.ctx(auth);
      return kit.listed(
        repo.reviews?.get(pr.rec.number) ?? [],
        req,
        `/repositories/${repo.id}/pulls/${pr.rec.number}/reviews`,
        (r) => parity.review(c, repo, pr.rec.number, r, pr.pull.headSha),
      );
    }),
    ...onRepo('GET', '/stargazers', 'activity/list-stargazers-for-repo', (req, auth) => {
      const repo = kit.visibleRepo(req, auth);
      if (repo === undefined) return notFound(DOCS.stargazers);
      const c = kit.ctx(auth);
      return kit.listed(repo.stargazers ?? [], req, `/repositories/${repo.id}/stargazers`, (login) =>
        render.simpleUser(c, data.account(login) ?? repo.owner),
      );
    }),
    // The fake's tags are its releases' tags, newest first.
    ...onRepo('GET', '/tags', 'repos/list-tags', (req, auth) => {
      const repo = kit.visibleRepo(req, auth);
      if (repo === undefined) return notFound(DOCS.tags);
      const c = kit.ctx(auth);
      return kit.listed(repo.releases, req, `/repositories/${repo.id}/tags`, (r) =>
        parity.tag(c, repo, r.tag, r.commitSha),
      );
    }),
    // For refs/tags/{tag} only.
    ...onRepo('GET', '/git/ref/tags/{tag+}', 'git/get-ref', (req, auth) => {
      const repo = kit.visibleRepo(req, auth);
      const name = req.params.tag;
      const rel = repo?.releases.find((r) => r.tag === name);
      if (repo === undefined || rel === undefined) return notFound(DOCS.ref);
      return { status: 200, body: parity.tagRef(kit.ctx(auth), repo, rel.tag, rel.commitSha) };
    }),
    // Public memberships; the fake's memberships are all public.
    ...['/users/{username}/orgs', '/user/{account_id:\\d+}/orgs'].map((path) =>
      route('GET', path, 'orgs/list-for-user', (req, auth) => {
        const { username, account_id: id } = req.params;
        const user = id !== undefined ? data.accountById(Number(id)) : data.account(username ?? '');
        if (user === undefined) return notFound(DOCS.userOrgs);
        const orgs = [...data.accounts.values()].filter(
          (a) =>
            a.type === 'Organization' && a.members.some((x) => x.toLowerCase() === user.login.toLowerCase()),
        );
        const c = kit.ctx(auth);
        return kit.listed(orgs, req, `/user/${user.id}/orgs`, (o) => parity.organizationSimple(c, o));
      }),
    ),
    // A member sees every member (the fake's token user is a member of ces-demo).
    ...onOrg('GET', '/members', 'orgs/list-members', (req, auth) => {
      const org = orgOf(req);
      if (org?.type !== 'Organization') return notFound(DOCS.members);
      const role = req.query.get('role') ?? 'all';
      // The first member is the organization's admin.
      const logins = org.members.filter((_login, i) => role === 'all' || (role === 'admin') === (i === 0));
      const c = kit.ctx(auth);
      return kit.listed(logins, req, `/organizations/${org.id}/members`, (login) =>
        render.simpleUser(c, data.account(login) ?? org),
      );
    }),
    // Secret teams only for their members; the token authenticates as the viewer.
    ...onOrg('GET', '/teams', 'teams/list', (req, auth) => {
      const org = orgOf(req);
      if (org?.type !== 'Organization') return notFound(DOCS.teams);
      if (auth.kind !== 'token')
        return { status: 403, body: errorBody(403, 'Must have admin rights to Repository.', DOCS.teams) };
      const viewer = data.viewer.login;
      const teams = (org.teams ?? []).filter((t) => t.privacy !== 'secret' || t.members.includes(viewer));
      const c = kit.ctx(auth);
      return kit.listed(teams, req, `/organizations/${org.id}/teams`, (t) => parity.team(c, org, t));
    }),
    route('GET', '/orgs/{org}/teams/{team_slug}', 'teams/get-by-name', ({ params }, auth) => {
      const org = data.account(params.org ?? '');
      const slug = params.team_slug?.toLowerCase();
      const found = org?.teams?.find((t) => t.slug === slug);
      if (org === undefined || found === undefined || auth.kind !== 'token') return notFound(DOCS.team);
      return { status: 200, body: parity.teamFull(kit.ctx(auth), org, found, data.reposOf(org)) };
    }),
    // Words match the name, full name or description (every word required); qualifiers user:/org: (owner),
    // is:public/is:private; private repositories only with a token. Best match = most words in the name,
    // then stars.
    route('GET', '/search/repositories', 'search/repos', (req, auth) => {
      const q = req.query.get('q');
      const bad = badQuery(q, DOCS.searchRepos);
      if (bad !== undefined || q === null) return bad ?? notFound(DOCS.searchRepos);
      const quals = qualifiers(q);
      const terms = words(q);
      const owner = quals.get('user') ?? quals.get('org');
      const visibility = quals.get('is');
      const hits = data
        .allRepos()
        .filter((r) => !r.private || auth.kind === 'token')
        .filter((r) => owner === undefined || r.owner.login.toLowerCase() === owner)
        .filter((r) => visibility === undefined || (visibility === 'private') === r.private)
        .map((r) => {
          const hay = `${r.owner.login}/${r.name} ${r.description ?? ''}`.toLowerCase();
          const inName = terms.filter((t) => r.name.toLowerCase().includes(t)).length;
          return { r, ok: terms.every((t) => hay.includes(t)), score: 1 + inName };
        })
        .filter((h) => h.ok);
      const sort = req.query.get('sort');
      const dir = req.query.get('order') === 'asc' ? 1 : -1;
      const key = (h: (typeof hits)[number]): number =>
        sort === 'stars'
          ? (h.r.stargazers?.length ?? 0)
          : sort === 'updated'
            ? h.r.updatedAt
            : sort === null
              ? h.score
              : 0;
      hits.sort((a, b) => dir * (key(a) - key(b)) || a.r.id - b.r.id);
      const c = kit.ctx(auth);
      return searchList(hits, req, '/search/repositories', (h) => parity.repoSearchItem(c, h.r, h.score));
    }),
    // Words match the login or name; type:user / type:org.
    route('GET', '/search/users', 'search/users', (req, auth) => {
      const q = req.query.get('q');
      const bad = badQuery(q, DOCS.searchUsers);
      if (bad !== undefined || q === null) return bad ?? notFound(DOCS.searchUsers);
      const type = qualifiers(q).get('type');
      const terms = words(q);
      const hits = [...data.accounts.values()]
        .filter((a) => type === undefined || (type === 'org') === (a.type === 'Organization'))
        .filter((a) => terms.every((t) => `${a.login} ${a.name}`.toLowerCase().includes(t)))
        .sort((a, b) => a.id - b.id);
      const c = kit.ctx(auth);
      return searchList(hits, req, '/search/users', (a) => parity.userSearchItem(c, a, 1));
    }),
  ];
}
