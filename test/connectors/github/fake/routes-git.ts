// Commits, releases, labels and the archive redirect over the seeded dataset. Each route names the operationId
// it follows; its docs.github.com reference page (DOCS) is also the documentation_url of its error bodies.
// Refs, tags and branch names may hold slashes, sent encoded or not (`{ref+}`).
// Labels of the recorded `octokit-fixture-org/labels` repository never get here: replays take precedence.
import type { RepoRecord } from './dataset.ts';
import type { CommitRecord } from './dataset-git.ts';
import * as render from './render.ts';
import * as git from './render-git.ts';
import {
  notFound,
  onRepo,
  type Route,
  type RouteKit,
  type RouteRequest,
  type RouteResult,
} from './routes.ts';
import type { Auth } from './wire.ts';
import { errorBody } from './wire.ts';

const DOCS = {
  commits: 'https://docs.github.com/rest/commits/commits#list-commits',
  commit: 'https://docs.github.com/rest/commits/commits#get-a-commit',
  releases: 'https://docs.github.com/rest/releases/releases#list-releases',
  release: 'https://docs.github.com/rest/releases/releases#get-a-release',
  latestRelease: 'https://docs.github.com/rest/releases/releases#get-the-latest-release',
  releaseByTag: 'https://docs.github.com/rest/releases/releases#get-a-release-by-tag-name',
  labels: 'https://docs.github.com/rest/issues/labels#list-labels-for-a-repository',
  label: 'https://docs.github.com/rest/issues/labels#get-a-label',
  tarball: 'https://docs.github.com/rest/repos/contents#download-a-repository-archive-tar',
} as const;

export function gitRoutes(kit: RouteKit): Route[] {
  const { data } = kit;

  const listCommits = (repo: RepoRecord, req: RouteRequest, auth: Auth): RouteResult => {
    // "409 Conflict: Git Repository is empty."
    if (repo.commits.length === 0)
      return { status: 409, body: errorBody(409, 'Git Repository is empty.', DOCS.commits) };
    const q = req.query;
    const start = q.get('sha') ?? repo.defaultBranch;
    const head = data.resolveRef(repo, start);
    if (head === undefined) return notFound(DOCS.commits);
    const path = q.get('path')?.replace(/^\/+|\/+$/g, '');
    const author = q.get('author')?.toLowerCase();
    const committer = q.get('committer')?.toLowerCase();
    const since = dateParam(q.get('since'));
    const until = dateParam(q.get('until'));
    const matchesPerson = (p: CommitRecord['author'], who: string) =>
      p.login?.toLowerCase() === who || p.email.toLowerCase() === who;
    // Linear history: the ancestors of `head` are every earlier commit, newest first.
    const ancestry = repo.commits.slice(0, repo.commits.indexOf(head.commit) + 1).reverse();
    const commits = ancestry.filter((c) => {
      if (path && !c.files.some((f) => f.filename === path || f.filename.startsWith(`${path}/`)))
        return false;
      if (author !== undefined && !matchesPerson(c.author, author)) return false;
      if (committer !== undefined && !matchesPerson(c.committer, committer)) return false;
      if (since !== undefined && c.committer.date < since) return false;
      if (until !== undefined && c.committer.date > until) return false;
      return true;
    });
    const c = kit.ctx(auth);
    return kit.listed(commits, req, `/repositories/${repo.id}/commits`, (rec) => git.commit(c, repo, rec));
  };

  // "Download a repository archive (tar)": a 302 to codeload; without a ref, the default branch.
  const tarball = (req: RouteRequest, auth: Auth): RouteResult => {
    const repo = kit.visibleRepo(req, auth);
    const ref = req.params.ref ?? repo?.defaultBranch;
    const resolved = repo && ref !== undefined ? data.resolveRef(repo, ref) : undefined;
    if (repo === undefined || resolved === undefined) return notFound(DOCS.tarball);
    return {
      status: 302,
      body: '',
      // As recorded in the `get-archive` scenario: an empty text/html body, no JSON media-type headers.
      headers: {
        'content-type': 'text/html;charset=utf-8',
        'cache-control': 'public, must-revalidate, max-age=0',
        expires: new Date().toUTCString(),
        location: kit.archives.location(repo, resolved),
        'x-github-media-type': null,
        vary: null,
        'x-oauth-scopes': null,
      },
    };
  };

  return [
    ...onRepo('GET', '/commits', 'repos/list-commits', (req, auth) => {
      const repo = kit.visibleRepo(req, auth);
      return repo === undefined ? notFound(DOCS.commits) : listCommits(repo, req, auth);
    }),
    // An unknown ref is a 422, as documented; more than 300 files page with a Link header.
    ...onRepo('GET', '/commits/{ref+}', 'repos/get-commit', (req, auth) => {
      const repo = kit.visibleRepo(req, auth);
      if (repo === undefined) return notFound(DOCS.commit);
      const ref = req.params.ref ?? '';
      const resolved = data.resolveRef(repo, ref);
      if (resolved === undefined)
        return { status: 422, body: errorBody(422, `No commit found for SHA: ${ref}`, DOCS.commit) };
      const c = kit.ctx(auth);
      const commit = resolved.commit;
      const files = kit.listed(
        commit.files,
        req,
        `/repositories/${repo.id}/commits/${commit.sha}`,
        (f) => f,
        {
          defaultPerPage: 300,
          maxPerPage: 300,
        },
      );
      return { ...files, body: git.commitFull(c, repo, commit, files.body as typeof commit.files) };
    }),
    // Newest first; the fake has no drafts.
    ...onRepo('GET', '/releases', 'repos/list-releases', (req, auth) => {
      const repo = kit.visibleRepo(req, auth);
      if (repo === undefined) return notFound(DOCS.releases);
      const c = kit.ctx(auth);
      return kit.listed(repo.releases, req, `/repositories/${repo.id}/releases`, (r) =>
        git.release(c, repo, r),
      );
    }),
    // The most recent non-prerelease, non-draft release.
    ...onRepo('GET', '/releases/latest', 'repos/get-latest-release', (req, auth) => {
      const repo = kit.visibleRepo(req, auth);
      const rel = repo?.releases.find((r) => !r.prerelease && !r.draft);
      if (repo === undefined || rel === undefined) return notFound(DOCS.latestRelease);
      return { status: 200, body: git.release(kit.ctx(auth), repo, rel) };
    }),
    ...onRepo('GET', '/releases/tags/{tag+}', 'repos/get-release-by-tag', (req, auth) => {
      const repo = kit.visibleRepo(req, auth);
      const rel = repo?.releases.find((r) => r.tag === req.params.tag);
      if (repo === undefined || rel === undefined) return notFound(DOCS.releaseByTag);
      return { status: 200, body: git.release(kit.ctx(auth), repo, rel) };
    }),
    ...onRepo('GET', '/releases/{release_id:\\d+}', 'repos/get-release', (req, auth) => {
      const repo = kit.visibleRepo(req, auth);
      const rel = repo?.releases.find((r) => r.id === Number(req.params.release_id));
      if (repo === undefined || rel === undefined) return notFound(DOCS.release);
      return { status: 200, body: git.release(kit.ctx(auth), repo, rel) };
    }),
    ...onRepo('GET', '/labels', 'issues/list-labels-for-repo', (req, auth) => {
      const repo = kit.visibleRepo(req, auth);
      if (repo === undefined) return notFound(DOCS.labels);
      const c = kit.ctx(auth);
      return kit.listed(repo.labels, req, `/repositories/${repo.id}/labels`, (l) =>
        render.labelJson(c, repo, l),
      );
    }),
    // Names are matched case-insensitively, as label names are unique regardless of case.
    ...onRepo('GET', '/labels/{name}', 'issues/get-label', (req, auth) => {
      const repo = kit.visibleRepo(req, auth);
      const name = req.params.name?.toLowerCase();
      const label = repo?.labels.find((l) => l.name.toLowerCase() === name);
      if (repo === undefined || label === undefined) return notFound(DOCS.label);
      return { status: 200, body: render.labelJson(kit.ctx(auth), repo, label) };
    }),
    ...onRepo('GET', '/tarball', 'repos/download-tarball-archive', tarball),
    ...onRepo('GET', '/tarball/{ref+}', 'repos/download-tarball-archive', tarball),
  ];
}

function dateParam(raw: string | null): number | undefined {
  const ms = raw === null ? Number.NaN : Date.parse(raw);
  return Number.isNaN(ms) ? undefined : ms;
}
