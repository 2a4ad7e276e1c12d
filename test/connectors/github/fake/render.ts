// Expands repository records (repositories, issues, comments, pull requests) into GitHub's documented JSON.
// Return types come from the official OpenAPI description (via @octokit/rest's RestEndpointMethodTypes), so a
// missing required field or an undocumented extra one fails `tsc`. Field order follows the recorded
// responses in @octokit/fixtures.
import type { RestEndpointMethodTypes as Rest } from '@octokit/rest';
import type {
  CommentRecord,
  IssueRecord,
  Label,
  MilestoneRecord,
  PullRecord,
  RepoRecord,
} from './dataset.ts';
import { iso, nodeId, type RenderContext, simpleUser, userByLogin, WEB } from './render-accounts.ts';

export {
  authenticatedUser,
  iso,
  nodeId,
  organization,
  publicUser,
  type RenderContext,
  simpleUser,
} from './render-accounts.ts';

type Repository = Rest['pulls']['list']['response']['data'][number]['head']['repo'];
type FullRepository = Rest['repos']['get']['response']['data'];
type MinimalRepository = Rest['repos']['listForOrg']['response']['data'][number];
type Issue = Rest['issues']['get']['response']['data'];
type IssueComment = Rest['issues']['listComments']['response']['data'][number];
type PullSimple = Rest['pulls']['list']['response']['data'][number];
type Pull = Rest['pulls']['get']['response']['data'];
type AuthorAssociation = Issue['author_association'] & string;
type LabelJson = Rest['issues']['getLabel']['response']['data'];
type Milestone = Rest['issues']['getMilestone']['response']['data'];

function openIssueCount(repo: RepoRecord): number {
  let open = 0;
  for (const issue of repo.issues) if (issue.state === 'open') open += 1;
  return open;
}

/** The `repository` schema: embedded in pull requests' head/base. */
export function repository(ctx: RenderContext, repo: RepoRecord): Repository {
  const full = `${repo.owner.login}/${repo.name}`;
  const u = `${ctx.api}/repos/${full}`;
  const open = openIssueCount(repo);
  return {
    id: repo.id,
    node_id: nodeId('Repository', repo.id),
    name: repo.name,
    full_name: full,
    private: repo.private,
    owner: simpleUser(ctx, repo.owner),
    html_url: `${WEB}/${full}`,
    description: repo.description,
    fork: false,
    url: u,
    forks_url: `${u}/forks`,
    keys_url: `${u}/keys{/key_id}`,
    collaborators_url: `${u}/collaborators{/collaborator}`,
    teams_url: `${u}/teams`,
    hooks_url: `${u}/hooks`,
    issue_events_url: `${u}/issues/events{/number}`,
    events_url: `${u}/events`,
    assignees_url: `${u}/assignees{/user}`,
    branches_url: `${u}/branches{/branch}`,
    tags_url: `${u}/tags`,
    blobs_url: `${u}/git/blobs{/sha}`,
    git_tags_url: `${u}/git/tags{/sha}`,
    git_refs_url: `${u}/git/refs{/sha}`,
    trees_url: `${u}/git/trees{/sha}`,
    statuses_url: `${u}/statuses/{sha}`,
    languages_url: `${u}/languages`,
    stargazers_url: `${u}/stargazers`,
    contributors_url: `${u}/contributors`,
    subscribers_url: `${u}/subscribers`,
    subscription_url: `${u}/subscription`,
    commits_url: `${u}/commits{/sha}`,
    git_commits_url: `${u}/git/commits{/sha}`,
    comments_url: `${u}/comments{/number}`,
    issue_comment_url: `${u}/issues/comments{/number}`,
    contents_url: `${u}/contents/{+path}`,
    compare_url: `${u}/compare/{base}...{head}`,
    merges_url: `${u}/merges`,
    archive_url: `${u}/{archive_format}{/ref}`,
    downloads_url: `${u}/downloads`,
    issues_url: `${u}/issues{/number}`,
    pulls_url: `${u}/pulls{/number}`,
    milestones_url: `${u}/milestones{/number}`,
    notifications_url: `${u}/notifications{?since,all,participating}`,
    labels_url: `${u}/labels{/name}`,
    releases_url: `${u}/releases{/id}`,
    deployments_url: `${u}/deployments`,
    created_at: iso(repo.createdAt),
    updated_at: iso(repo.updatedAt),
    pushed_at: iso(repo.pushedAt),
    git_url: `git://github.com/${full}.git`,
    ssh_url: `git@github.com:${full}.git`,
    clone_url: `${WEB}/${full}.git`,
    svn_url: `${WEB}/${full}`,
    homepage: null,
    size: 128 + repo.issues.length,
    stargazers_count: 0,
    watchers_count: 0,
    language: repo.language,
    has_issues: true,
    has_projects: true,
    has_downloads: true,
    has_wiki: true,
    has_pages: false,
    has_discussions: false,
    forks_count: 0,
    mirror_url: null,
    archived: false,
    disabled: false,
    open_issues_count: open,
    license: null,
    allow_forking: true,
    is_template: false,
    web_commit_signoff_required: false,
    topics: repo.topics,
    visibility: repo.private ? 'private' : 'public',
    forks: 0,
    open_issues: open,
    watchers: 0,
    default_branch: repo.defaultBranch,
    ...(ctx.authenticated
      ? { permissions: { admin: true, maintain: true, push: true, triage: true, pull: true } }
      : {}),
  };
}

/** Items of "List repositories for a user" / "List organization repositories". */
export function minimalRepository(ctx: RenderContext, repo: RepoRecord): MinimalRepository {
  return { ...repository(ctx, repo), license: null };
}

/** GET /repos/{owner}/{repo} — "Get a repository" (full-repository). */
export function fullRepository(ctx: RenderContext, repo: RepoRecord): FullRepository {
  const base = repository(ctx, repo);
  return {
    ...base,
    has_discussions: false,
    pushed_at: iso(repo.pushedAt),
    created_at: iso(repo.createdAt),
    updated_at: iso(repo.updatedAt),
    ...(ctx.authenticated
      ? {
          allow_squash_merge: true,
          allow_merge_commit: true,
          allow_rebase_merge: true,
          allow_auto_merge: false,
          delete_branch_on_merge: false,
          allow_update_branch: false,
          use_squash_pr_title_as_default: false,
        }
      : {}),
    ...(repo.owner.type === 'Organization' ? { organization: simpleUser(ctx, repo.owner) } : {}),
    network_count: 0,
    subscribers_count: 1,
  };
}

// Untyped on purpose: pull requests embed labels with a non-null description, the label schema allows null.
function label(ctx: RenderContext, repo: RepoRecord, l: Label) {
  return {
    id: l.id,
    node_id: nodeId('Label', l.id),
    url: `${ctx.api}/repos/${repo.owner.login}/${repo.name}/labels/${encodeURIComponent(l.name)}`,
    name: l.name,
    color: l.color,
    default: l.default,
    description: l.description,
  };
}

/** "List labels for a repository" items and "Get a label". */
export function labelJson(ctx: RenderContext, repo: RepoRecord, l: Label): LabelJson {
  return label(ctx, repo, l);
}

function labels(ctx: RenderContext, repo: RepoRecord, names: string[]) {
  return repo.labels.filter((l) => names.includes(l.name)).map((l) => label(ctx, repo, l));
}

export function authorAssociation(repo: RepoRecord, login: string): AuthorAssociation {
  if (repo.owner.login === login) return 'OWNER';
  return repo.owner.members.includes(login) ? 'MEMBER' : 'CONTRIBUTOR';
}

export function reactions(url: string) {
  return {
    url,
    total_count: 0,
    '+1': 0,
    '-1': 0,
    laugh: 0,
    hooray: 0,
    confused: 0,
    heart: 0,
    rocket: 0,
    eyes: 0,
  };
}

/** "List repository issues" items and "Get an issue" (`single` adds closed_by, as GitHub does). */
export function issue(ctx: RenderContext, repo: RepoRecord, rec: IssueRecord, single = false): Issue {
  const full = `${repo.owner.login}/${repo.name}`;
  const u = `${ctx.api}/repos/${full}/issues/${rec.number}`;
  const pull = rec.pull;
  const html = `${WEB}/${full}/${pull === null ? 'issues' : 'pull'}/${rec.number}`;
  const assignees = rec.assignees.map((login) => userByLogin(ctx, login));
  return {
    url: u,
    repository_url: `${ctx.api}/repos/${full}`,
    labels_url: `${u}/labels{/name}`,
    comments_url: `${u}/comments`,
    events_url: `${u}/events`,
    html_url: html,
    id: rec.id,
    // Pull requests listed through the issues API carry the pull request's node id.
    node_id: pull === null ? nodeId('Issue', rec.id) : nodeId('PullRequest', pull.id),
    number: rec.number,
    title: rec.title,
    user: userByLogin(ctx, rec.author),
    labels: labels(ctx, repo, rec.labels),
    state: rec.state,
    locked: false,
    assignee: assignees[0] ?? null,
    assignees,
    milestone: milestoneOf(ctx, repo, rec.milestone),
    comments: repo.comments.get(rec.number)?.length ?? 0,
    created_at: iso(rec.createdAt),
    updated_at: iso(rec.updatedAt),
    closed_at: rec.closedAt === null ? null : iso(rec.closedAt),
    author_association: authorAssociation(repo, rec.author),
    type: null,
    active_lock_reason: null,
    ...(pull === null
      ? {}
      : {
          draft: pull.draft,
          pull_request: {
            url: `${ctx.api}/repos/${full}/pulls/${rec.number}`,
            html_url: html,
            diff_url: `${html}.diff`,
            patch_url: `${html}.patch`,
            merged_at: pull.mergedAt === null ? null : iso(pull.mergedAt),
          },
        }),
    body: rec.body,
    ...(single ? { closed_by: rec.closedBy === null ? null : userByLogin(ctx, rec.closedBy) } : {}),
    reactions: reactions(`${u}/reactions`),
    timeline_url: `${u}/timeline`,
    performed_via_github_app: null,
    state_reason: rec.stateReason,
  };
}

/** "List issue comments" items. */
export function issueComment(
  ctx: RenderContext,
  repo: RepoRecord,
  number: number,
  c: CommentRecord,
): IssueComment {
  const full = `${repo.owner.login}/${repo.name}`;
  const u = `${ctx.api}/repos/${full}/issues/comments/${c.id}`;
  return {
    url: u,
    html_url: `${WEB}/${full}/issues/${number}#issuecomment-${c.id}`,
    issue_url: `${ctx.api}/repos/${full}/issues/${number}`,
    id: c.id,
    node_id: nodeId('IssueComment', c.id),
    user: userByLogin(ctx, c.author),
    created_at: iso(c.createdAt),
    updated_at: iso(c.updatedAt),
    author_association: authorAssociation(repo, c.author),
    body: c.body,
    reactions: reactions(`${u}/reactions`),
    performed_via_github_app: null,
  };
}

function branch(ctx: RenderContext, repo: RepoRecord, ref: string, sha: string) {
  return {
    label: `${repo.owner.login}:${ref}`,
    ref,
    sha,
    user: simpleUser(ctx, repo.owner),
    repo: repository(ctx, repo),
  };
}

/** "List pull requests" items (pull-request-simple). */
export function pullSimple(
  ctx: RenderContext,
  repo: RepoRecord,
  rec: IssueRecord,
  pull: PullRecord,
): PullSimple {
  return pullCore(ctx, repo, rec, pull);
}

// Untyped on purpose: the simple and full schemas disagree on nullability (head.user), so each public
// function checks this one literal against its own schema.
function pullCore(ctx: RenderContext, repo: RepoRecord, rec: IssueRecord, pull: PullRecord) {
  const full = `${repo.owner.login}/${repo.name}`;
  const u = `${ctx.api}/repos/${full}/pulls/${rec.number}`;
  const html = `${WEB}/${full}/pull/${rec.number}`;
  const issueUrl = `${ctx.api}/repos/${full}/issues/${rec.number}`;
  const assignees = rec.assignees.map((login) => userByLogin(ctx, login));
  const links = {
    self: { href: u },
    html: { href: html },
    issue: { href: issueUrl },
    comments: { href: `${issueUrl}/comments` },
    review_comments: { href: `${u}/comments` },
    review_comment: { href: `${ctx.api}/repos/${full}/pulls/comments{/number}` },
    commits: { href: `${u}/commits` },
    statuses: { href: `${ctx.api}/repos/${full}/statuses/${pull.headSha}` },
  };
  return {
    url: u,
    id: pull.id,
    node_id: nodeId('PullRequest', pull.id),
    html_url: html,
    diff_url: `${html}.diff`,
    patch_url: `${html}.patch`,
    issue_url: issueUrl,
    number: rec.number,
    state: rec.state,
    locked: false,
    title: rec.title,
    user: userByLogin(ctx, rec.author),
    body: rec.body,
    created_at: iso(rec.createdAt),
    updated_at: iso(rec.updatedAt),
    closed_at: rec.closedAt === null ? null : iso(rec.closedAt),
    merged_at: pull.mergedAt === null ? null : iso(pull.mergedAt),
    merge_commit_sha: pull.mergeCommitSha,
    assignee: assignees[0] ?? null,
    assignees,
    requested_reviewers: [],
    requested_teams: [],
    labels: labels(ctx, repo, rec.labels),
    milestone: null,
    draft: pull.draft,
    commits_url: links.commits.href,
    review_comments_url: links.review_comments.href,
    review_comment_url: links.review_comment.href,
    comments_url: links.comments.href,
    statuses_url: links.statuses.href,
    head: branch(ctx, repo, pull.headRef, pull.headSha),
    base: branch(ctx, repo, pull.baseRef, pull.baseSha),
    _links: links,
    author_association: authorAssociation(repo, rec.author),
    auto_merge: null,
    active_lock_reason: null,
  };
}

/** "Get a pull request" (pull-request): the list shape plus merge state and diff statistics. */
export function pullFull(ctx: RenderContext, repo: RepoRecord, rec: IssueRecord, pull: PullRecord): Pull {
  const merged = pull.mergedAt !== null;
  return {
    ...pullCore(ctx, repo, rec, pull),
    merged,
    mergeable: rec.state === 'open' ? true : null,
    rebaseable: rec.state === 'open' ? true : null,
    mergeable_state: rec.state === 'open' ? (pull.draft ? 'draft' : 'clean') : 'unknown',
    merged_by: merged ? userByLogin(ctx, rec.closedBy ?? rec.author) : null,
    comments: repo.comments.get(rec.number)?.length ?? 0,
    review_comments: 0,
    maintainer_can_modify: false,
    commits: pull.commits,
    additions: pull.additions,
    deletions: pull.deletions,
    changed_files: pull.changedFiles,
  };
}

function milestoneOf(ctx: RenderContext, repo: RepoRecord, number: number | undefined): Milestone | null {
  const m = number === undefined ? undefined : (repo.milestones ?? []).find((x) => x.number === number);
  return m === undefined ? null : milestone(ctx, repo, m);
}

/** "List milestones" items and "Get a milestone"; the issue counts are computed from the issues. */
export function milestone(ctx: RenderContext, repo: RepoRecord, m: MilestoneRecord): Milestone {
  const full = `${repo.owner.login}/${repo.name}`;
  const u = `${ctx.api}/repos/${full}/milestones/${m.number}`;
  let open = 0;
  let closed = 0;
  for (const i of repo.issues) {
    if (i.milestone !== m.number) continue;
    if (i.state === 'open') open += 1;
    else closed += 1;
  }
  return {
    url: u,
    html_url: `${WEB}/${full}/milestone/${m.number}`,
    labels_url: `${u}/labels`,
    id: m.id,
    node_id: nodeId('Milestone', m.id),
    number: m.number,
    title: m.title,
    description: m.description,
    creator: userByLogin(ctx, m.creator),
    open_issues: open,
    closed_issues: closed,
    state: m.state,
    created_at: iso(m.createdAt),
    updated_at: iso(m.updatedAt),
    closed_at: m.closedAt === null ? null : iso(m.closedAt),
    due_on: m.dueOn === null ? null : iso(m.dueOn),
  };
}
