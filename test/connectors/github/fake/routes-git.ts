// Commits, releases, labels and the archive redirect over the seeded dataset. Each route names the
// docs.github.com reference page it follows; that URL is also the documentation_url of its error bodies.
// Labels of the recorded `octokit-fixture-org/labels` repository never get here: replays take precedence.
import type { RepoRecord } from './dataset.ts';
import type { CommitRecord } from './dataset-git.ts';
import * as render from './render.ts';
import * as git from './render-git.ts';
import { notFound, REPO, type Route, type RouteKit, type RouteRequest, type RouteResult } from './routes.ts';
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

/** Path segments arrive percent-encoded (a ref `heads/main` may come as heads%2Fmain). */
function segment(raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  try {
    return decodeURIComponent(raw);
  } catch {
    return undefined;
  }
}

export function gitRoutes(kit: RouteKit): Route[] {
  const { data } = kit;

  const listCommits = (repo: RepoRecord, req: RouteRequest): RouteResult => {
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
    const c = kit.ctx(req);
    return kit.listed(commits, req, `/repositories/${repo.id}/commits`, (rec) => git.commit(c, repo, rec));
  };

  return [
    // "List commits"
    [
      new RegExp(`^/${REPO}/commits$`),
      (m, req) => {
        const repo = kit.visibleRepo(m, req);
        return repo === undefined ? notFound(DOCS.commits) : listCommits(repo, req);
      },
    ],
    // "Get a commit": an unknown ref is a 422, as documented; more than 300 files page with a Link header.
    [
      new RegExp(`^/${REPO}/commits/(.+)$`),
      (m, req) => {
        const repo = kit.visibleRepo(m, req);
        if (repo === undefined) return notFound(DOCS.commit);
        const ref = segment(m[4]) ?? '';
        const resolved = data.resolveRef(repo, ref);
        if (resolved === undefined)
          return { status: 422, body: errorBody(422, `No commit found for SHA: ${ref}`, DOCS.commit) };
        const c = kit.ctx(req);
        const commit = resolved.commit;
        const files = kit.listed(
          commit.files,
          req,
          `/repositories/${repo.id}/commits/${commit.sha}`,
          (f) => f,
          { defaultPerPage: 300, maxPerPage: 300 },
        );
        return { ...files, body: git.commitFull(c, repo, commit, files.body as typeof commit.files) };
      },
    ],
    // "List releases" (newest first; the fake has no drafts)
    [
      new RegExp(`^/${REPO}/releases$`),
      (m, req) => {
        const repo = kit.visibleRepo(m, req);
        if (repo === undefined) return notFound(DOCS.releases);
        const c = kit.ctx(req);
        return kit.listed(repo.releases, req, `/repositories/${repo.id}/releases`, (r) =>
          git.release(c, repo, r),
        );
      },
    ],
    // "Get the latest release": the most recent non-prerelease, non-draft release
    [
      new RegExp(`^/${REPO}/releases/latest$`),
      (m, req) => {
        const repo = kit.visibleRepo(m, req);
        const rel = repo?.releases.find((r) => !r.prerelease && !r.draft);
        if (repo === undefined || rel === undefined) return notFound(DOCS.latestRelease);
        return { status: 200, body: git.release(kit.ctx(req), repo, rel) };
      },
    ],
    // "Get a release by tag name"
    [
      new RegExp(`^/${REPO}/releases/tags/(.+)$`),
      (m, req) => {
        const repo = kit.visibleRepo(m, req);
        const tag = segment(m[4]);
        const rel = repo?.releases.find((r) => r.tag === tag);
        if (repo === undefined || rel === undefined) return notFound(DOCS.releaseByTag);
        return { status: 200, body: git.release(kit.ctx(req), repo, rel) };
      },
    ],
    // "Get a release"
    [
      new RegExp(`^/${REPO}/releases/(\\d+)$`),
      (m, req) => {
        const repo = kit.visibleRepo(m, req);
        const rel = repo?.releases.find((r) => r.id === Number(m[4]));
        if (repo === undefined || rel === undefined) return notFound(DOCS.release);
        return { status: 200, body: git.release(kit.ctx(req), repo, rel) };
      },
    ],
    // "List labels for a repository"
    [
      new RegExp(`^/${REPO}/labels$`),
      (m, req) => {
        const repo = kit.visibleRepo(m, req);
        if (repo === undefined) return notFound(DOCS.labels);
        const c = kit.ctx(req);
        return kit.listed(repo.labels, req, `/repositories/${repo.id}/labels`, (l) =>
          render.labelJson(c, repo, l),
        );
      },
    ],
    // "Get a label" (names are matched case-insensitively, as label names are unique regardless of case)
    [
      new RegExp(`^/${REPO}/labels/([^/]+)$`),
      (m, req) => {
        const repo = kit.visibleRepo(m, req);
        const name = segment(m[4])?.toLowerCase();
        const label = repo?.labels.find((l) => l.name.toLowerCase() === name);
        if (repo === undefined || label === undefined) return notFound(DOCS.label);
        return { status: 200, body: render.labelJson(kit.ctx(req), repo, label) };
      },
    ],
    // "Download a repository archive (tar)": a 302 to codeload; without a ref, the default branch.
    [
      new RegExp(`^/${REPO}/tarball(?:/(.+))?$`),
      (m, req) => {
        const repo = kit.visibleRepo(m, req);
        const ref = m[4] === undefined ? repo?.defaultBranch : segment(m[4]);
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
      },
    ],
  ];
}

function dateParam(raw: string | null): number | undefined {
  const ms = raw === null ? Number.NaN : Date.parse(raw);
  return Number.isNaN(ms) ? undefined : ms;
}
