// Expands commits, releases and search results into GitHub's documented JSON. Return types come from the
// official OpenAPI description (via @octokit/rest's RestEndpointMethodTypes), so a missing required field or
// an undocumented extra one fails `tsc`. Field order follows GitHub's responses (commits start with `sha`;
// releases and assets as recorded in the @octokit/fixtures `release-assets` scenario).
import { createHash } from 'node:crypto';
import type { RestEndpointMethodTypes as Rest } from '@octokit/rest';
import type { IssueRecord, RepoRecord } from './dataset.ts';
import type { AssetRecord, CommitRecord, FileChange, GitPerson, ReleaseRecord } from './dataset-git.ts';
import { authorAssociation, issue, labelJson } from './render.ts';
import { iso, type RenderContext, userByLogin, WEB } from './render-accounts.ts';

type Commit = Rest['repos']['listCommits']['response']['data'][number];
type CommitFull = Rest['repos']['getCommit']['response']['data'];
type DiffEntry = NonNullable<CommitFull['files']>[number];
type Release = Rest['repos']['getRelease']['response']['data'];
type ReleaseAsset = Release['assets'][number];
type SearchItem = Rest['search']['issuesAndPullRequests']['response']['data']['items'][number];

/** Legacy global node id of a commit: base64("06:Commit" + repositoryId + ":" + sha). */
function commitNodeId(repo: RepoRecord, commitSha: string): string {
  return Buffer.from(`06:Commit${repo.id}:${commitSha}`).toString('base64');
}

function legacyNodeId(typeName: string, id: number): string {
  return Buffer.from(`0${typeName.length}:${typeName}${id}`).toString('base64');
}

function gitUser(p: GitPerson) {
  return { name: p.name, email: p.email, date: iso(p.date) };
}

/** Items of "List commits" (the commit schema without stats and files). */
export function commit(ctx: RenderContext, repo: RepoRecord, c: CommitRecord): Commit {
  const full = `${repo.owner.login}/${repo.name}`;
  const api = `${ctx.api}/repos/${full}`;
  return {
    sha: c.sha,
    node_id: commitNodeId(repo, c.sha),
    commit: {
      author: gitUser(c.author),
      committer: gitUser(c.committer),
      message: c.message,
      tree: { sha: c.treeSha, url: `${api}/git/trees/${c.treeSha}` },
      url: `${api}/git/commits/${c.sha}`,
      comment_count: 0,
      verification: {
        verified: false,
        reason: 'unsigned',
        signature: null,
        payload: null,
        verified_at: null,
      },
    },
    url: `${api}/commits/${c.sha}`,
    html_url: `${WEB}/${full}/commit/${c.sha}`,
    comments_url: `${api}/commits/${c.sha}/comments`,
    author: c.author.login === null ? null : userByLogin(ctx, c.author.login),
    committer: c.committer.login === null ? null : userByLogin(ctx, c.committer.login),
    parents: c.parents.map((p) => ({
      sha: p,
      url: `${api}/commits/${p}`,
      html_url: `${WEB}/${full}/commit/${p}`,
    })),
  };
}

/** "Get a commit": the list shape plus stats and the (paged) files. */
export function commitFull(
  ctx: RenderContext,
  repo: RepoRecord,
  c: CommitRecord,
  files: readonly FileChange[],
): CommitFull {
  const additions = c.files.reduce((sum, f) => sum + f.additions, 0);
  const deletions = c.files.reduce((sum, f) => sum + f.deletions, 0);
  return {
    ...commit(ctx, repo, c),
    stats: { total: additions + deletions, additions, deletions },
    files: files.map((f) => diffEntry(ctx, repo, c, f)),
  };
}

function diffEntry(ctx: RenderContext, repo: RepoRecord, c: CommitRecord, f: FileChange): DiffEntry {
  const full = `${repo.owner.login}/${repo.name}`;
  const path = f.filename.split('/').map(encodeURIComponent).join('/');
  return {
    sha: f.blobSha,
    filename: f.filename,
    status: f.status,
    additions: f.additions,
    deletions: f.deletions,
    changes: f.additions + f.deletions,
    blob_url: `${WEB}/${full}/blob/${c.sha}/${path}`,
    raw_url: `${WEB}/${full}/raw/${c.sha}/${path}`,
    contents_url: `${ctx.api}/repos/${full}/contents/${path}?ref=${c.sha}`,
    patch: f.patch,
  };
}

function asset(ctx: RenderContext, repo: RepoRecord, r: ReleaseRecord, a: AssetRecord): ReleaseAsset {
  const full = `${repo.owner.login}/${repo.name}`;
  return {
    url: `${ctx.api}/repos/${full}/releases/assets/${a.id}`,
    id: a.id,
    node_id: legacyNodeId('ReleaseAsset', a.id),
    name: a.name,
    label: a.label,
    uploader: userByLogin(ctx, a.uploader),
    content_type: a.contentType,
    state: 'uploaded',
    size: a.size,
    digest: `sha256:${createHash('sha256').update(`${full}/${r.tag}/${a.name}`).digest('hex')}`,
    download_count: a.downloadCount,
    created_at: iso(a.createdAt),
    updated_at: iso(a.createdAt),
    browser_download_url: `${WEB}/${full}/releases/download/${encodeURIComponent(r.tag)}/${encodeURIComponent(a.name)}`,
  };
}

/** "List releases" items, "Get a release", "Get the latest release", "Get a release by tag name". */
export function release(ctx: RenderContext, repo: RepoRecord, r: ReleaseRecord): Release {
  const full = `${repo.owner.login}/${repo.name}`;
  const u = `${ctx.api}/repos/${full}/releases/${r.id}`;
  return {
    url: u,
    assets_url: `${u}/assets`,
    // Uploads go to a separate host that the fake does not serve, exactly as on github.com.
    upload_url: `https://uploads.github.com/repos/${full}/releases/${r.id}/assets{?name,label}`,
    html_url: `${WEB}/${full}/releases/tag/${encodeURIComponent(r.tag)}`,
    id: r.id,
    author: userByLogin(ctx, r.author),
    node_id: legacyNodeId('Release', r.id),
    tag_name: r.tag,
    target_commitish: r.targetCommitish,
    name: r.name,
    draft: r.draft,
    immutable: false,
    prerelease: r.prerelease,
    created_at: iso(r.createdAt),
    updated_at: iso(r.publishedAt),
    published_at: iso(r.publishedAt),
    assets: r.assets.map((a) => asset(ctx, repo, r, a)),
    tarball_url: `${ctx.api}/repos/${full}/tarball/${encodeURIComponent(r.tag)}`,
    zipball_url: `${ctx.api}/repos/${full}/zipball/${encodeURIComponent(r.tag)}`,
    body: r.body,
  };
}

/** "Search issues and pull requests" items: the issue shape plus the relevance `score`. */
export function searchItem(
  ctx: RenderContext,
  repo: RepoRecord,
  rec: IssueRecord,
  score: number,
): SearchItem {
  // Same labels as the issue shape, re-rendered because the issue schema also allows plain strings.
  const labels = repo.labels.filter((l) => rec.labels.includes(l.name)).map((l) => labelJson(ctx, repo, l));
  const base = issue(ctx, repo, rec);
  // The search schema types `body` as a string, but GitHub sends the issue's null body as null, like the
  // issue endpoints do; only that member is cast.
  return {
    ...base,
    body: base.body as string,
    labels,
    author_association: authorAssociation(repo, rec.author),
    score,
  };
}
