// The deterministic in-memory dataset behind the handwritten routes. Records are compact; render.ts
// expands them into GitHub's documented JSON shapes on the way out, so 10 000 seeded issues stay cheap.
import {
  type CommitRecord,
  type Committer,
  generateCommits,
  type ReleasePlan,
  type ReleaseRecord,
  sha,
  WIDGETS_RELEASES,
} from './dataset-git.ts';

export { sha };

export interface Account {
  id: number;
  login: string;
  type: 'User' | 'Organization';
  name: string;
  company: string | null;
  blog: string;
  location: string | null;
  email: string | null;
  bio: string | null;
  createdAt: number;
  updatedAt: number;
  /** Organization members (logins); empty for users. */
  members: string[];
  /** Organization teams; empty for users. */
  teams?: TeamRecord[];
}

export interface Label {
  id: number;
  name: string;
  color: string;
  description: string;
  default: boolean;
}

export interface PullRecord {
  id: number;
  headRef: string;
  baseRef: string;
  headSha: string;
  baseSha: string;
  mergedAt: number | null;
  mergeCommitSha: string | null;
  draft: boolean;
  commits: number;
  additions: number;
  deletions: number;
  changedFiles: number;
}

export interface IssueRecord {
  id: number;
  number: number;
  title: string;
  body: string | null;
  author: string;
  assignees: string[];
  labels: string[];
  state: 'open' | 'closed';
  stateReason: 'completed' | 'not_planned' | 'reopened' | null;
  closedBy: string | null;
  createdAt: number;
  updatedAt: number;
  closedAt: number | null;
  pull: PullRecord | null;
  /** The number of its milestone, if any. */
  milestone?: number;
}

export interface CommentRecord {
  id: number;
  author: string;
  body: string;
  createdAt: number;
  updatedAt: number;
}

export interface RepoRecord {
  id: number;
  owner: Account;
  name: string;
  private: boolean;
  description: string | null;
  language: string | null;
  topics: string[];
  defaultBranch: string;
  createdAt: number;
  updatedAt: number;
  pushedAt: number;
  labels: Label[];
  /**
   * Issues and pull requests share one number sequence, as on GitHub. Ascending by number; a deleted issue
   * leaves a gap whose number is never handed out again (Dataset.deleteIssue).
   */
  issues: IssueRecord[];
  comments: Map<number, CommentRecord[]>;
  /** Linear history, oldest first. */
  commits: CommitRecord[];
  /** Branch name -> head sha. */
  branches: Map<string, string>;
  /** Newest first, as "List releases" returns them. */
  releases: ReleaseRecord[];
  /** Ascending by number. */
  milestones?: MilestoneRecord[];
  /** Logins, in starring order. */
  stargazers?: string[];
  /** Review comments (on the diff) per pull request number, oldest first. */
  reviewComments?: Map<number, ReviewCommentRecord[]>;
  /** Reviews per pull request number, oldest first. */
  reviews?: Map<number, ReviewRecord[]>;
}

export interface MilestoneRecord {
  id: number;
  number: number;
  title: string;
  description: string | null;
  state: 'open' | 'closed';
  creator: string;
  createdAt: number;
  updatedAt: number;
  closedAt: number | null;
  dueOn: number | null;
}

export interface ReviewCommentRecord {
  id: number;
  reviewId: number;
  author: string;
  body: string;
  path: string;
  line: number;
  createdAt: number;
  updatedAt: number;
}

export interface ReviewRecord {
  id: number;
  author: string;
  body: string;
  state: 'APPROVED' | 'CHANGES_REQUESTED' | 'COMMENTED';
  submittedAt: number;
}

export interface TeamRecord {
  id: number;
  slug: string;
  name: string;
  description: string | null;
  privacy: 'closed' | 'secret';
  members: string[];
  createdAt: number;
}

export interface ResolvedRef {
  kind: 'branch' | 'tag' | 'sha';
  /** Branch or tag name, or the full sha. */
  name: string;
  commit: CommitRecord;
}

const HOUR = 3_600_000;
const EPOCH = Date.UTC(2024, 0, 1);

const DEFAULT_LABELS: ReadonlyArray<Omit<Label, 'id'>> = [
  { name: 'bug', color: 'd73a4a', description: "Something isn't working", default: true },
  {
    name: 'documentation',
    color: '0075ca',
    description: 'Improvements or additions to documentation',
    default: true,
  },
  { name: 'enhancement', color: 'a2eeef', description: 'New feature or request', default: true },
];

// GitHub's other default labels, added to ces-demo/widgets so it has six.
const MORE_LABELS: ReadonlyArray<Omit<Label, 'id'>> = [
  { name: 'good first issue', color: '7057ff', description: 'Good for newcomers', default: true },
  { name: 'help wanted', color: '008672', description: 'Extra attention is needed', default: true },
  { name: 'question', color: 'd876e3', description: 'Further information is requested', default: true },
];

const TOPICS = ['gears', 'sprockets', 'flanges', 'rivets', 'bearings', 'pulleys', 'levers', 'springs'];

/** What `updateIssue` may change; `updatedAt` (ISO 8601) replaces the fake clock's "now". */
export interface IssueChange {
  title?: string;
  body?: string | null;
  state?: 'open' | 'closed';
  labels?: string[];
  assignees?: string[];
  updatedAt?: string;
}

export interface NewIssue {
  title: string;
  body?: string | null;
  /** default octocat, the viewer */
  author?: string;
  labels?: string[];
  assignees?: string[];
  /** ISO 8601; default the fake clock's "now" */
  createdAt?: string;
}

function parseInstant(iso: string): number {
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) throw new Error(`github fake: '${iso}' is not an ISO 8601 timestamp`);
  // GitHub's timestamps have whole seconds.
  return Math.floor(ms / 1000) * 1000;
}

export class Dataset {
  readonly accounts = new Map<string, Account>();
  private readonly repos = new Map<string, RepoRecord>();
  private readonly reposById = new Map<number, RepoRecord>();
  private nextRepoId = 700_000_001;
  private nextIssueId = 800_000_001;
  private nextPullId = 850_000_001;
  private nextCommentId = 900_000_001;
  private nextLabelId = 950_000_001;
  private nextReleaseId = 960_000_001;
  private nextAssetId = 970_000_001;
  private nextMilestoneId = 980_000_001;
  private nextReviewId = 990_000_001;
  private nextReviewCommentId = 995_000_001;
  private nextTeamId = 60_000_001;
  /** The last "now" handed out by now(). */
  private lastChange = 0;
  /** Numbers of deleted issues per repository, kept so they are never reused. */
  private readonly deleted = new Map<RepoRecord, Set<number>>();

  /** The account every accepted token authenticates as. */
  readonly viewer: Account;

  constructor() {
    this.viewer = this.addAccount('octocat', 'User', 583231, {
      name: 'The Octocat',
      company: '@github',
      blog: 'https://github.blog',
      location: 'San Francisco',
      bio: null,
    });
    this.addAccount('hubot', 'User', 480938, {
      name: 'Hubot',
      company: null,
      blog: '',
      location: null,
      bio: null,
    });
    const org = this.addAccount('ces-demo', 'Organization', 90_000_001, {
      name: 'CES Demo',
      company: null,
      blog: 'https://example.com',
      location: 'Internet',
      bio: null,
    });
    org.members.push('octocat');

    const widgets = this.addRepo(org, 'widgets', {
      private: true,
      description: 'Widgets, gadgets and the issues they cause',
      commits: 40,
    });
    for (const label of MORE_LABELS) widgets.labels.push({ ...label, id: this.nextLabelId++ });
    widgets.branches.set('release/1.x', widgets.commits[24]?.sha ?? '');
    for (const plan of WIDGETS_RELEASES) this.addRelease(widgets, plan);
    // Issues 5, 10, 15, 20, 25 are pull requests: 10 merged, 15 closed unmerged, 20 a draft.
    for (let n = 1; n <= 25; n += 1) {
      const issue = this.addIssue(widgets);
      if (n % 5 === 0)
        this.makePull(widgets, issue, { merged: n === 10, closed: n === 10 || n === 15, draft: n === 20 });
    }
    this.addComment(widgets, 1, 'hubot', 'I can reproduce this on the latest release.');
    this.addComment(widgets, 1, 'octocat', 'Thanks, looking into it. Looks like a sprocket alignment issue.');
    this.addComment(widgets, 1, 'hubot', 'Confirmed fixed on main.');
    this.seedCollaboration(org, widgets);

    this.addRepo(this.viewer, 'Hello-World', {
      private: false,
      description: 'My first repository on GitHub!',
    });
    this.addRepo(this.viewer, 'Spoon-Knife', {
      private: false,
      description: 'This repo is for demonstration purposes only.',
    });
  }

  account(login: string): Account | undefined {
    return this.accounts.get(login.toLowerCase());
  }

  accountById(id: number): Account | undefined {
    for (const account of this.accounts.values()) if (account.id === id) return account;
    return undefined;
  }

  repo(owner: string, name: string): RepoRecord | undefined {
    return this.repos.get(`${owner}/${name}`.toLowerCase());
  }

  repoById(id: number): RepoRecord | undefined {
    return this.reposById.get(id);
  }

  reposOf(owner: Account): RepoRecord[] {
    return [...this.repos.values()].filter((repo) => repo.owner === owner);
  }

  allRepos(): RepoRecord[] {
    return [...this.repos.values()];
  }

  /**
   * Resolves a ref the way "Get a commit" documents it: a branch or tag name (optionally as heads/…, tags/…
   * or refs/…), a full sha, or an unambiguous sha prefix of at least 4 hex digits.
   */
  resolveRef(repo: RepoRecord, ref: string): ResolvedRef | undefined {
    const name = ref.startsWith('refs/') ? ref.slice('refs/'.length) : ref;
    const byBranch = (branch: string): ResolvedRef | undefined => {
      const head = repo.branches.get(branch);
      const commit = head === undefined ? undefined : repo.commits.find((c) => c.sha === head);
      return commit && { kind: 'branch', name: branch, commit };
    };
    const byTag = (tag: string): ResolvedRef | undefined => {
      const release = repo.releases.find((r) => r.tag === tag);
      const commit = release && repo.commits.find((c) => c.sha === release.commitSha);
      return commit && { kind: 'tag', name: tag, commit };
    };
    if (name.startsWith('heads/')) return byBranch(name.slice('heads/'.length));
    if (name.startsWith('tags/')) return byTag(name.slice('tags/'.length));
    const named = byBranch(name) ?? byTag(name);
    if (named !== undefined) return named;
    if (!/^[0-9a-f]{4,40}$/i.test(name)) return undefined;
    const matches = repo.commits.filter((c) => c.sha.startsWith(name.toLowerCase()));
    const commit = matches.length === 1 ? matches[0] : undefined;
    return commit && { kind: 'sha', name: commit.sha, commit };
  }

  /** Appends `count` generated plain issues; creates the owner (as an Organization) and repo if missing. */
  seedIssues(ownerLogin: string, name: string, count: number): void {
    const owner =
      this.account(ownerLogin) ??
      this.addAccount(ownerLogin, 'Organization', 0, {
        name: ownerLogin,
        company: null,
        blog: '',
        location: null,
        bio: null,
      });
    const repo =
      this.repo(ownerLogin, name) ?? this.addRepo(owner, name, { private: false, description: null });
    for (let i = 0; i < count; i += 1) this.addIssue(repo);
  }

  /** A live issue (or pull request) by number. */
  issue(repo: RepoRecord, number: number): IssueRecord | undefined {
    let lo = 0;
    let hi = repo.issues.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const at = repo.issues[mid];
      if (at === undefined) return undefined;
      if (at.number === number) return at;
      if (at.number < number) lo = mid + 1;
      else hi = mid - 1;
    }
    return undefined;
  }

  /**
   * The fake's clock for changes made between syncs: one second after the newest timestamp of any issue or
   * comment, so an edit is always the most recent change (as "now" is on GitHub) and runs stay reproducible.
   */
  now(): number {
    let latest = this.lastChange;
    for (const repo of this.repos.values()) {
      for (const issue of repo.issues) latest = Math.max(latest, issue.updatedAt);
      for (const list of repo.comments.values()) for (const c of list) latest = Math.max(latest, c.updatedAt);
    }
    this.lastChange = latest + 1000;
    return this.lastChange;
  }

  /** Edits an issue the way "Update an issue" does: only the given members change, and updated_at moves. */
  updateIssue(repo: RepoRecord, number: number, change: IssueChange): IssueRecord {
    const issue = this.liveIssue(repo, number);
    const at = change.updatedAt === undefined ? this.now() : parseInstant(change.updatedAt);
    if (change.title !== undefined) issue.title = change.title;
    if (change.body !== undefined) issue.body = change.body;
    if (change.labels !== undefined) issue.labels = this.knownLabels(repo, change.labels);
    if (change.assignees !== undefined) issue.assignees = [...change.assignees];
    if (change.state !== undefined && change.state !== issue.state) {
      issue.state = change.state;
      const closed = change.state === 'closed';
      issue.closedAt = closed ? at : null;
      issue.closedBy = closed ? this.viewer.login : null;
      // GitHub keeps state_reason null on pull requests.
      if (issue.pull === null) issue.stateReason = closed ? 'completed' : 'reopened';
    }
    issue.updatedAt = at;
    return issue;
  }

  /** Opens a new issue with the next number, created (and updated) now unless `createdAt` says otherwise. */
  openIssue(repo: RepoRecord, fields: NewIssue): IssueRecord {
    const issue = this.addIssue(repo);
    const at = fields.createdAt === undefined ? this.now() : parseInstant(fields.createdAt);
    Object.assign(issue, {
      title: fields.title,
      body: fields.body ?? null,
      author: fields.author ?? this.viewer.login,
      assignees: [...(fields.assignees ?? [])],
      labels: this.knownLabels(repo, fields.labels ?? []),
      state: 'open',
      stateReason: null,
      closedBy: null,
      createdAt: at,
      updatedAt: at,
      closedAt: null,
    } satisfies Partial<IssueRecord>);
    return issue;
  }

  /**
   * Takes an issue and its comments out of the repository, as deleting it (or transferring it to a
   * repository elsewhere) does: lists and search no longer return it and its number is not reused.
   */
  deleteIssue(repo: RepoRecord, number: number): void {
    const issue = this.liveIssue(repo, number);
    repo.issues.splice(repo.issues.indexOf(issue), 1);
    repo.comments.delete(number);
    const gone = this.deleted.get(repo) ?? new Set<number>();
    gone.add(number);
    this.deleted.set(repo, gone);
  }

  /** Was this number an issue that deleteIssue removed? */
  wasDeleted(repo: RepoRecord, number: number): boolean {
    return this.deleted.get(repo)?.has(number) ?? false;
  }

  /** "Create an issue comment": the new comment, created now. */
  postComment(repo: RepoRecord, number: number, author: string, body: string): CommentRecord {
    const at = this.now();
    const comment: CommentRecord = { id: this.nextCommentId++, author, body, createdAt: at, updatedAt: at };
    repo.comments.set(number, [...(repo.comments.get(number) ?? []), comment]);
    this.liveIssue(repo, number).updatedAt = at;
    return comment;
  }

  /** "Create a pull request": an open pull request from head into base, with the next number. */
  openPull(
    repo: RepoRecord,
    fields: { title: string; body: string | null; head: string; base: string; draft: boolean },
  ): IssueRecord {
    const issue = this.openIssue(repo, { title: fields.title, body: fields.body });
    const headSha = repo.branches.get(fields.head) ?? '';
    issue.pull = {
      id: this.nextPullId++,
      headRef: fields.head,
      baseRef: fields.base,
      headSha,
      baseSha: repo.branches.get(fields.base) ?? '',
      mergedAt: null,
      mergeCommitSha: null,
      draft: fields.draft,
      commits: 1,
      additions: 0,
      deletions: 0,
      changedFiles: 0,
    };
    return issue;
  }

  /** Labels an issue edit names that the repository lacks are created, as GitHub does (color ededed). */
  ensureLabels(repo: RepoRecord, names: readonly string[]): void {
    for (const name of names) {
      if (repo.labels.some((l) => l.name.toLowerCase() === name.toLowerCase())) continue;
      repo.labels.push({ id: this.nextLabelId++, name, color: 'ededed', description: '', default: false });
    }
  }

  /** Milestones, stars, teams, reviews and review comments of the seeded organization and repository. */
  private seedCollaboration(org: Account, widgets: RepoRecord): void {
    const milestones: MilestoneRecord[] = [];
    const reviews = new Map<number, ReviewRecord[]>();
    const reviewComments = new Map<number, ReviewCommentRecord[]>();
    Object.assign(widgets, { milestones, stargazers: ['octocat', 'hubot'], reviews, reviewComments });
    const plans: Array<[string, string | null, 'open' | 'closed', number | null]> = [
      ['v1.0', 'The first stable widgets.', 'closed', Date.UTC(2024, 1, 1)],
      ['v1.1', 'Sprocket torque limits.', 'open', Date.UTC(2024, 3, 1)],
      ['v2.0', null, 'open', null],
    ];
    for (const [title, description, state, dueOn] of plans) {
      const number = milestones.length + 1;
      const createdAt = EPOCH + number * 24 * HOUR;
      milestones.push({
        id: this.nextMilestoneId++,
        number,
        title,
        description,
        state,
        creator: 'octocat',
        createdAt,
        updatedAt: createdAt + HOUR,
        closedAt: state === 'closed' ? createdAt + HOUR : null,
        dueOn,
      });
    }
    org.members.push('hubot');
    org.teams = [
      {
        id: this.nextTeamId++,
        slug: 'maintainers',
        name: 'Maintainers',
        description: 'Merge rights on widgets',
        privacy: 'closed',
        members: ['octocat'],
        createdAt: EPOCH,
      },
      {
        id: this.nextTeamId++,
        slug: 'triage',
        name: 'Triage',
        description: null,
        privacy: 'closed',
        members: ['octocat', 'hubot'],
        createdAt: EPOCH + HOUR,
      },
      {
        id: this.nextTeamId++,
        slug: 'security',
        name: 'Security',
        description: 'Private security response',
        privacy: 'secret',
        members: ['octocat'],
        createdAt: EPOCH + 2 * HOUR,
      },
    ];
    // Pull request #5: hubot asks for changes with two comments on the diff, then octocat approves.
    const pull = this.issue(widgets, 5);
    if (pull === undefined) return;
    const review = {
      id: this.nextReviewId++,
      author: 'hubot',
      body: 'A few nits.',
      state: 'CHANGES_REQUESTED' as const,
      submittedAt: pull.createdAt + HOUR,
    };
    reviews.set(5, [
      review,
      {
        id: this.nextReviewId++,
        author: 'octocat',
        body: '',
        state: 'COMMENTED',
        submittedAt: pull.createdAt + 2 * HOUR,
      },
      {
        id: this.nextReviewId++,
        author: 'octocat',
        body: 'Looks good now.',
        state: 'APPROVED',
        submittedAt: pull.createdAt + 3 * HOUR,
      },
    ]);
    reviewComments.set(
      5,
      ['Rename this variable?', 'This loop can exit early.', 'Missing a test for the empty case.'].map(
        (body, i) => ({
          id: this.nextReviewCommentId++,
          reviewId: review.id,
          author: 'hubot',
          body,
          path: 'src/widget.ts',
          line: 10 + i * 5,
          createdAt: review.submittedAt,
          updatedAt: review.submittedAt + i * 60_000,
        }),
      ),
    );
  }

  private liveIssue(repo: RepoRecord, number: number): IssueRecord {
    const issue = this.issue(repo, number);
    if (issue === undefined)
      throw new Error(`github fake: ${repo.owner.login}/${repo.name} has no issue #${number}`);
    return issue;
  }

  /** Label names as stored: the repository's own spelling; an unknown name is a mistake in the test. */
  private knownLabels(repo: RepoRecord, names: readonly string[]): string[] {
    return names.map((name) => {
      const label = repo.labels.find((l) => l.name.toLowerCase() === name.toLowerCase());
      if (label === undefined)
        throw new Error(`github fake: ${repo.owner.login}/${repo.name} has no label '${name}'`);
      return label.name;
    });
  }

  private addAccount(
    login: string,
    type: Account['type'],
    id: number,
    profile: Pick<Account, 'name' | 'company' | 'blog' | 'location' | 'bio'>,
  ): Account {
    const account: Account = {
      id: id === 0 ? 91_000_000 + this.accounts.size : id,
      login,
      type,
      ...profile,
      email: null,
      createdAt: EPOCH - 365 * 24 * HOUR,
      updatedAt: EPOCH,
      members: [],
    };
    this.accounts.set(login.toLowerCase(), account);
    return account;
  }

  private addRepo(
    owner: Account,
    name: string,
    opts: { private: boolean; description: string | null; commits?: number },
  ): RepoRecord {
    const id = this.nextRepoId++;
    const createdAt = EPOCH - (id % 97) * 24 * HOUR;
    const repo: RepoRecord = {
      id,
      owner,
      name,
      private: opts.private,
      description: opts.description,
      language: 'TypeScript',
      topics: [TOPICS[id % TOPICS.length] ?? 'gears'],
      defaultBranch: 'main',
      createdAt,
      updatedAt: EPOCH + (id % 13) * HOUR,
      pushedAt: EPOCH + (id % 29) * HOUR,
      labels: DEFAULT_LABELS.map((label) => ({ ...label, id: this.nextLabelId++ })),
      issues: [],
      comments: new Map(),
      commits: generateCommits(`${owner.login}/${name}`, opts.commits ?? 3, this.committers(), createdAt),
      branches: new Map(),
      releases: [],
    };
    const head = repo.commits.at(-1);
    if (head !== undefined) repo.branches.set(repo.defaultBranch, head.sha);
    this.repos.set(`${owner.login}/${name}`.toLowerCase(), repo);
    this.reposById.set(id, repo);
    return repo;
  }

  private committers(): Committer[] {
    return ['octocat', 'hubot'].flatMap((login) => {
      const account = this.account(login);
      return account === undefined ? [] : [{ login, id: account.id, name: account.name }];
    });
  }

  private addRelease(repo: RepoRecord, plan: ReleasePlan): void {
    const commit = repo.commits[plan.commit - 1];
    if (commit === undefined) throw new Error(`release ${plan.tag} tags a missing commit`);
    const createdAt = commit.committer.date;
    const publishedAt = createdAt + HOUR;
    repo.releases.unshift({
      id: this.nextReleaseId++,
      tag: plan.tag,
      commitSha: commit.sha,
      targetCommitish: repo.defaultBranch,
      name: plan.name,
      body: plan.body,
      draft: false,
      prerelease: plan.prerelease,
      author: 'octocat',
      createdAt,
      publishedAt,
      assets: plan.assets.map((asset, i) => ({
        id: this.nextAssetId++,
        name: asset.name,
        label: asset.label,
        contentType: asset.contentType,
        size: asset.size,
        downloadCount: 100 * (i + 1) + plan.commit,
        uploader: 'octocat',
        createdAt: publishedAt,
      })),
    });
  }

  /** Everything about an issue derives from its number, so every run serves identical data. */
  private addIssue(repo: RepoRecord): IssueRecord {
    const n = Math.max(repo.issues.at(-1)?.number ?? 0, ...(this.deleted.get(repo) ?? [])) + 1;
    const createdAt = EPOCH + n * 6 * HOUR;
    const closed = n % 3 === 0;
    const updatedAt = createdAt + (1 + ((n * 37) % 100)) * HOUR;
    const labels = [[], ['bug'], ['enhancement'], ['bug', 'documentation']][n % 4] ?? [];
    const issue: IssueRecord = {
      id: this.nextIssueId++,
      number: n,
      title: `${['Widget', 'Gadget', 'Sprocket', 'Flange'][n % 4]} ${['jams', 'rattles', 'overheats', 'misaligns', 'squeaks'][n % 5]} (#${n})`,
      body:
        n % 7 === 0 ? null : `Steps to reproduce issue ${n}:\n\n1. Start the widget\n2. Observe the problem`,
      author: n % 2 === 1 ? 'octocat' : 'hubot',
      assignees: n % 5 === 1 ? ['octocat'] : [],
      labels,
      state: closed ? 'closed' : 'open',
      stateReason: closed ? (n % 9 === 0 ? 'not_planned' : 'completed') : null,
      closedBy: closed ? 'octocat' : null,
      createdAt,
      updatedAt,
      closedAt: closed ? updatedAt : null,
      pull: null,
    };
    repo.issues.push(issue);
    return issue;
  }

  private makePull(
    repo: RepoRecord,
    issue: IssueRecord,
    opts: { merged: boolean; closed: boolean; draft: boolean },
  ): void {
    const seed = `${repo.owner.login}/${repo.name}#${issue.number}`;
    issue.state = opts.closed ? 'closed' : 'open';
    issue.closedAt = opts.closed ? issue.updatedAt : null;
    issue.closedBy = opts.closed ? 'octocat' : null;
    // GitHub leaves state_reason null on pull requests.
    issue.stateReason = null;
    issue.title = `Fix ${issue.title.toLowerCase()}`;
    issue.pull = {
      id: this.nextPullId++,
      headRef: `fix/issue-${issue.number}`,
      baseRef: repo.defaultBranch,
      headSha: sha(`head ${seed}`),
      baseSha: sha(`base ${seed}`),
      mergedAt: opts.merged ? issue.updatedAt : null,
      mergeCommitSha: sha(`merge ${seed}`),
      draft: opts.draft,
      commits: 1 + (issue.number % 4),
      additions: issue.number * 7,
      deletions: issue.number * 2,
      changedFiles: 1 + (issue.number % 3),
    };
  }

  private addComment(repo: RepoRecord, number: number, author: string, body: string): void {
    const list = repo.comments.get(number) ?? [];
    const issue = this.issue(repo, number);
    const createdAt = (issue?.createdAt ?? EPOCH) + (list.length + 1) * HOUR;
    list.push({ id: this.nextCommentId++, author, body, createdAt, updatedAt: createdAt });
    repo.comments.set(number, list);
  }
}
