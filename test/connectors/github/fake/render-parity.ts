// Expands branches, tags, contents, teams, reviews and review comments into GitHub's documented JSON. Return
// types come from the official OpenAPI description (via @octokit/rest's RestEndpointMethodTypes), so a missing
// required field or an undocumented extra one fails `tsc`.
import type { RestEndpointMethodTypes as Rest } from '@octokit/rest';
import type { Account, RepoRecord, ReviewCommentRecord, ReviewRecord, TeamRecord } from './dataset.ts';
import type { CommitRecord } from './dataset-git.ts';
import { authorAssociation, organization, reactions, repository } from './render.ts';
import { iso, nodeId, type RenderContext, simpleUser, userByLogin, WEB } from './render-accounts.ts';

export { organizationSimple } from './render-accounts.ts';

import { commit } from './render-git.ts';

type ShortBranch = Rest['repos']['listBranches']['response']['data'][number];
type Branch = Rest['repos']['getBranch']['response']['data'];
type Tag = Rest['repos']['listTags']['response']['data'][number];
type GitRef = Rest['git']['getRef']['response']['data'];
type Team = Rest['teams']['list']['response']['data'][number];
type TeamFull = Rest['teams']['getByName']['response']['data'];
type Review = Rest['pulls']['listReviews']['response']['data'][number];
type ReviewComment = Rest['pulls']['getReviewComment']['response']['data'];
type RepoSearchItem = Rest['search']['repos']['response']['data']['items'][number];
type UserSearchItem = Rest['search']['users']['response']['data']['items'][number];
type Content = Rest['repos']['getContent']['response']['data'];
type ContentItem = Extract<Content, unknown[]>[number];

/** A file or directory of a tree, as the contents API lists it. */
export interface TreeEntry {
  path: string;
  type: 'file' | 'dir';
  /** Blob sha for files, a tree sha for directories. */
  sha: string;
  /** Files only. */
  content?: string;
}

function repoApi(ctx: RenderContext, repo: RepoRecord): string {
  return `${ctx.api}/repos/${repo.owner.login}/${repo.name}`;
}

/** "List branches" items. */
export function shortBranch(ctx: RenderContext, repo: RepoRecord, name: string, sha: string): ShortBranch {
  return {
    name,
    commit: { sha, url: `${repoApi(ctx, repo)}/commits/${sha}` },
    protected: name === repo.defaultBranch,
  };
}

/** "Get a branch" (branch-with-protection); the default branch is protected, without required checks. */
export function branch(ctx: RenderContext, repo: RepoRecord, name: string, head: CommitRecord): Branch {
  const api = repoApi(ctx, repo);
  const isProtected = name === repo.defaultBranch;
  const path = name.split('/').map(encodeURIComponent).join('/');
  return {
    name,
    commit: commit(ctx, repo, head),
    _links: { html: `${WEB}/${repo.owner.login}/${repo.name}/tree/${path}`, self: `${api}/branches/${path}` },
    protected: isProtected,
    protection: {
      enabled: isProtected,
      required_status_checks: { enforcement_level: 'off', contexts: [], checks: [] },
    },
    protection_url: `${api}/branches/${path}/protection`,
  };
}

/** "List repository tags" items. */
export function tag(ctx: RenderContext, repo: RepoRecord, name: string, sha: string): Tag {
  const api = repoApi(ctx, repo);
  return {
    name,
    zipball_url: `${api}/zipball/refs/tags/${encodeURIComponent(name)}`,
    tarball_url: `${api}/tarball/refs/tags/${encodeURIComponent(name)}`,
    commit: { sha, url: `${api}/commits/${sha}` },
    node_id: Buffer.from(`04:Ref${repo.id}:refs/tags/${name}`).toString('base64'),
  };
}

/** "Get a reference" for refs/tags/{name}: the fake's tags are lightweight, so object is the commit. */
export function tagRef(ctx: RenderContext, repo: RepoRecord, name: string, sha: string): GitRef {
  const api = repoApi(ctx, repo);
  return {
    ref: `refs/tags/${name}`,
    node_id: Buffer.from(`04:Ref${repo.id}:refs/tags/${name}`).toString('base64'),
    url: `${api}/git/refs/tags/${encodeURIComponent(name)}`,
    object: { sha, type: 'commit', url: `${api}/git/commits/${sha}` },
  };
}

function contentLinks(ctx: RenderContext, repo: RepoRecord, e: TreeEntry, ref: string) {
  const api = repoApi(ctx, repo);
  const path = e.path.split('/').map(encodeURIComponent).join('/');
  const self = `${api}/contents/${path}?ref=${encodeURIComponent(ref)}`;
  const git = `${api}/git/${e.type === 'dir' ? 'trees' : 'blobs'}/${e.sha}`;
  const html = `${WEB}/${repo.owner.login}/${repo.name}/${e.type === 'dir' ? 'tree' : 'blob'}/${encodeURIComponent(ref)}/${path}`;
  const download =
    e.type === 'dir'
      ? null
      : `https://raw.githubusercontent.com/${repo.owner.login}/${repo.name}/${encodeURIComponent(ref)}/${path}`;
  return { self, git, html, download };
}

/** An entry of "Get repository content" for a directory (no content). */
export function contentEntry(ctx: RenderContext, repo: RepoRecord, e: TreeEntry, ref: string) {
  const l = contentLinks(ctx, repo, e, ref);
  return {
    name: e.path.split('/').at(-1) ?? e.path,
    path: e.path,
    sha: e.sha,
    size: e.content === undefined ? 0 : Buffer.byteLength(e.content),
    url: l.self,
    html_url: l.html,
    git_url: l.git,
    download_url: l.download,
    type: e.type,
    _links: { self: l.self, git: l.git, html: l.html },
  } satisfies ContentItem;
}

/** "Get repository content" for a file: base64 content wrapped at 60 characters, as GitHub sends it. */
export function contentFile(ctx: RenderContext, repo: RepoRecord, e: TreeEntry, ref: string) {
  const base64 = Buffer.from(e.content ?? '').toString('base64');
  const wrapped = `${base64.match(/.{1,60}/g)?.join('\n') ?? ''}\n`;
  return {
    ...contentEntry(ctx, repo, e, ref),
    type: 'file',
    content: wrapped,
    encoding: 'base64',
  } satisfies Rest['repos']['getContent']['response']['data'];
}

/** "List teams" items. */
export function team(ctx: RenderContext, org: Account, t: TeamRecord): Team {
  const u = `${ctx.api}/organizations/${org.id}/team/${t.id}`;
  return {
    name: t.name,
    id: t.id,
    node_id: nodeId('Team', t.id),
    slug: t.slug,
    description: t.description,
    privacy: t.privacy,
    notification_setting: 'notifications_enabled',
    url: u,
    html_url: `${WEB}/orgs/${org.login}/teams/${t.slug}`,
    members_url: `${u}/members{/member}`,
    repositories_url: `${u}/repos`,
    type: 'organization',
    organization_id: org.id,
    permission: 'pull',
    parent: null,
  };
}

/** "Get a team by name" (team-full). */
export function teamFull(ctx: RenderContext, org: Account, t: TeamRecord, repos: RepoRecord[]): TeamFull {
  const { privacy: _p, notification_setting: _n, ...base } = team(ctx, org, t);
  return {
    ...base,
    privacy: t.privacy,
    notification_setting: 'notifications_enabled',
    parent: null,
    members_count: t.members.length,
    repos_count: 0,
    created_at: iso(t.createdAt),
    updated_at: iso(t.createdAt),
    organization: { ...organization(ctx, org, repos), collaborators: null },
  };
}

/** "List reviews for a pull request" items. */
export function review(
  ctx: RenderContext,
  repo: RepoRecord,
  number: number,
  r: ReviewRecord,
  commitId: string,
): Review {
  const full = `${repo.owner.login}/${repo.name}`;
  const html = `${WEB}/${full}/pull/${number}#pullrequestreview-${r.id}`;
  const pull = `${ctx.api}/repos/${full}/pulls/${number}`;
  return {
    id: r.id,
    node_id: nodeId('PullRequestReview', r.id),
    user: userByLogin(ctx, r.author),
    body: r.body,
    state: r.state,
    html_url: html,
    pull_request_url: pull,
    author_association: authorAssociation(repo, r.author),
    _links: { html: { href: html }, pull_request: { href: pull } },
    submitted_at: iso(r.submittedAt),
    commit_id: commitId,
  };
}

/** "List review comments on a pull request" items and "Get a review comment for a pull request". */
export function reviewComment(
  ctx: RenderContext,
  repo: RepoRecord,
  number: number,
  c: ReviewCommentRecord,
  commitId: string,
): ReviewComment {
  const full = `${repo.owner.login}/${repo.name}`;
  const u = `${ctx.api}/repos/${full}/pulls/comments/${c.id}`;
  const html = `${WEB}/${full}/pull/${number}#discussion_r${c.id}`;
  const pull = `${ctx.api}/repos/${full}/pulls/${number}`;
  return {
    url: u,
    pull_request_review_id: c.reviewId,
    id: c.id,
    node_id: nodeId('PullRequestReviewComment', c.id),
    diff_hunk: `@@ -${c.line},3 +${c.line},4 @@`,
    path: c.path,
    commit_id: commitId,
    original_commit_id: commitId,
    user: userByLogin(ctx, c.author),
    body: c.body,
    created_at: iso(c.createdAt),
    updated_at: iso(c.updatedAt),
    html_url: html,
    pull_request_url: pull,
    author_association: authorAssociation(repo, c.author),
    _links: { self: { href: u }, html: { href: html }, pull_request: { href: pull } },
    start_line: null,
    original_start_line: null,
    start_side: null,
    line: c.line,
    original_line: c.line,
    side: 'RIGHT',
    subject_type: 'line',
    reactions: reactions(`${u}/reactions`),
  };
}

/** "Search repositories" items: the repository shape plus the relevance `score`. */
export function repoSearchItem(ctx: RenderContext, repo: RepoRecord, score: number): RepoSearchItem {
  const stars = repo.stargazers?.length ?? 0;
  return {
    ...repository(ctx, repo),
    stargazers_count: stars,
    watchers_count: stars,
    watchers: stars,
    created_at: iso(repo.createdAt),
    updated_at: iso(repo.updatedAt),
    pushed_at: iso(repo.pushedAt),
    score,
  };
}

/** "Search users" items: the simple user plus the relevance `score`. */
export function userSearchItem(ctx: RenderContext, account: Account, score: number): UserSearchItem {
  return { ...simpleUser(ctx, account), score };
}
