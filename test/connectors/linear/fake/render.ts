// Records → the SDL's object types (Issue, Comment, Project, ProjectStatus, Team, User, WorkflowState,
// Organization), member names and types as the schema declares them. Relations and nested connections are
// functions graphql-js calls with the field's arguments; members not set here resolve through the fallback of
// graphql.ts (null, or an empty value for non-null members).
import type {
  CommentRecord,
  Dataset,
  IssueRecord,
  ProjectRecord,
  ProjectStatusRecord,
  StateRecord,
  TeamRecord,
  UserRecord,
} from './dataset.ts';
import { type Accessors, type ConnectionArgs, connection, type ListContext } from './lists.ts';

const WEB = 'https://linear.app';
const PRIORITY_LABELS = ['No priority', 'Urgent', 'High', 'Medium', 'Low'];
const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());
const slug = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 60);

type Obj = Record<string, unknown>;
type ListArgs = ConnectionArgs & { includeDisabled?: boolean | null };

export class Renderer {
  constructor(
    private readonly data: Dataset,
    private readonly list: () => ListContext,
    /** the user the request acts as (isMe) */
    private readonly viewerId: string,
  ) {}

  // ---- filter accessors, per filter input type ----
  readonly userFields: Accessors<UserRecord> = {
    id: { cmp: 'id', get: (u) => u.id },
    name: { cmp: 'string', get: (u) => u.name },
    displayName: { cmp: 'string', get: (u) => u.displayName },
    email: { cmp: 'string', get: (u) => u.email },
    active: { cmp: 'boolean', get: (u) => u.active },
    admin: { cmp: 'boolean', get: (u) => u.admin },
    app: { cmp: 'boolean', get: (u) => u.app },
    isMe: { cmp: 'boolean', get: (u) => u.id === this.viewerId },
    createdAt: { cmp: 'date', get: (u) => u.createdAt },
    updatedAt: { cmp: 'date', get: (u) => u.updatedAt },
  };
  readonly teamFields: Accessors<TeamRecord> = {
    id: { cmp: 'id', get: (t) => t.id },
    key: { cmp: 'string', get: (t) => t.key },
    name: { cmp: 'string', get: (t) => t.name },
    description: { cmp: 'string', get: (t) => t.description },
    private: { cmp: 'boolean', get: (t) => t.private },
    createdAt: { cmp: 'date', get: (t) => t.createdAt },
    updatedAt: { cmp: 'date', get: (t) => t.updatedAt },
  };
  readonly stateFields: Accessors<StateRecord> = {
    id: { cmp: 'id', get: (s) => s.id },
    name: { cmp: 'string', get: (s) => s.name },
    type: { cmp: 'string', get: (s) => s.type },
    description: { cmp: 'string', get: (s) => s.description },
    position: { cmp: 'number', get: (s) => s.position },
    createdAt: { cmp: 'date', get: (s) => s.createdAt },
    updatedAt: { cmp: 'date', get: (s) => s.updatedAt },
    team: { rel: () => this.teamFields as Accessors<unknown>, get: (s) => this.data.team(s.teamId) },
  };
  readonly projectFields: Accessors<ProjectRecord> = {
    id: { cmp: 'id', get: (p) => p.id },
    name: { cmp: 'string', get: (p) => p.name },
    slugId: { cmp: 'string', get: (p) => p.slugId },
    state: { cmp: 'string', get: (p) => this.data.projectStatus(p.statusId)?.type },
    priority: { cmp: 'number', get: (p) => p.priority },
    createdAt: { cmp: 'date', get: (p) => p.createdAt },
    updatedAt: { cmp: 'date', get: (p) => p.updatedAt },
    startedAt: { cmp: 'date', get: (p) => p.startedAt },
    completedAt: { cmp: 'date', get: (p) => p.completedAt },
    canceledAt: { cmp: 'date', get: (p) => p.canceledAt },
    lead: { rel: () => this.userFields as Accessors<unknown>, get: (p) => this.userOrNull(p.leadId) },
    creator: { rel: () => this.userFields as Accessors<unknown>, get: (p) => this.userOrNull(p.creatorId) },
  };
  readonly issueFields: Accessors<IssueRecord> = {
    id: { cmp: 'id', get: (i) => i.id },
    title: { cmp: 'string', get: (i) => i.title },
    description: { cmp: 'string', get: (i) => i.description },
    number: { cmp: 'number', get: (i) => i.number },
    priority: { cmp: 'number', get: (i) => i.priority },
    estimate: { cmp: 'number', get: (i) => i.estimate },
    createdAt: { cmp: 'date', get: (i) => i.createdAt },
    updatedAt: { cmp: 'date', get: (i) => i.updatedAt },
    startedAt: { cmp: 'date', get: (i) => i.startedAt },
    completedAt: { cmp: 'date', get: (i) => i.completedAt },
    canceledAt: { cmp: 'date', get: (i) => i.canceledAt },
    dueDate: { cmp: 'string', get: (i) => i.dueDate },
    team: { rel: () => this.teamFields as Accessors<unknown>, get: (i) => this.data.team(i.teamId) },
    state: { rel: () => this.stateFields as Accessors<unknown>, get: (i) => this.data.state(i.stateId) },
    assignee: { rel: () => this.userFields as Accessors<unknown>, get: (i) => this.userOrNull(i.assigneeId) },
    creator: { rel: () => this.userFields as Accessors<unknown>, get: (i) => this.userOrNull(i.creatorId) },
    project: {
      rel: () => this.projectFields as Accessors<unknown>,
      get: (i) => (i.projectId === null ? null : this.data.project(i.projectId)),
    },
    parent: {
      rel: () => this.issueFields as Accessors<unknown>,
      get: (i) => (i.parentId === null ? null : this.data.issue(i.parentId)),
    },
  };
  readonly commentFields: Accessors<CommentRecord> = {
    id: { cmp: 'id', get: (c) => c.id },
    body: { cmp: 'string', get: (c) => c.body },
    createdAt: { cmp: 'date', get: (c) => c.createdAt },
    updatedAt: { cmp: 'date', get: (c) => c.updatedAt },
    issue: { rel: () => this.issueFields as Accessors<unknown>, get: (c) => this.data.issue(c.issueId) },
    user: { rel: () => this.userFields as Accessors<unknown>, get: (c) => this.userOrNull(c.userId) },
    parent: {
      rel: () => this.commentFields as Accessors<unknown>,
      get: (c) => (c.parentId === null ? null : this.data.comment(c.parentId)),
    },
  };

  private userOrNull(id: string | null): UserRecord | null {
    return id === null ? null : (this.data.user(id) ?? null);
  }

  // ---- connections ----
  issues = (all: readonly IssueRecord[], args: ListArgs) =>
    connection(all, args, this.issueFields, this.list(), this.issue);
  comments = (all: readonly CommentRecord[], args: ListArgs) =>
    connection(all, args, this.commentFields, this.list(), this.comment);
  projects = (all: readonly ProjectRecord[], args: ListArgs) =>
    connection(all, args, this.projectFields, this.list(), this.project);
  teams = (all: readonly TeamRecord[], args: ListArgs) =>
    connection(all, args, this.teamFields, this.list(), this.team);
  states = (all: readonly StateRecord[], args: ListArgs) =>
    connection(all, args, this.stateFields, this.list(), this.state);
  /** Deactivated users are left out unless `includeDisabled`. */
  users = (all: readonly UserRecord[], args: ListArgs) =>
    connection(
      args.includeDisabled === true ? all : all.filter((u) => u.active),
      args,
      this.userFields,
      this.list(),
      this.user,
    );

  // ---- object types ----
  organization = (): Obj => {
    const o = this.data.organization;
    return {
      id: o.id,
      name: o.name,
      urlKey: o.urlKey,
      createdAt: iso(o.createdAt),
      updatedAt: iso(o.updatedAt),
      logoUrl: null,
      userCount: this.data.users.filter((u) => u.active && !u.app).length,
      createdIssueCount: this.data.issues.length,
      allowedAuthServices: [],
      previousUrlKeys: [],
      projectStatuses: () => this.data.projectStatuses.map(this.projectStatus),
      teams: (args: ListArgs) => this.teams(this.data.teams, args),
      users: (args: ListArgs) => this.users(this.data.users, args),
    };
  };

  user = (u: UserRecord): Obj => ({
    id: u.id,
    name: u.name,
    displayName: u.displayName,
    email: u.email,
    active: u.active,
    admin: u.admin,
    guest: u.guest,
    app: u.app,
    owner: u.id === this.data.viewer.id,
    isMe: u.id === this.viewerId,
    isAssignable: u.active,
    isMentionable: u.active,
    avatarUrl: u.app ? null : `https://public.linear.app/avatars/${u.id}.png`,
    avatarBackgroundColor: '#5e6ad2',
    initials: u.name
      .split(' ')
      .map((p) => p[0])
      .join('')
      .slice(0, 2)
      .toUpperCase(),
    description: u.description,
    timezone: u.timezone,
    url: `${WEB}/${this.data.organization.urlKey}/profiles/${u.displayName}`,
    createdAt: iso(u.createdAt),
    updatedAt: iso(u.updatedAt),
    archivedAt: null,
    lastSeen: iso(u.lastSeen),
    createdIssueCount: this.data.issues.filter((i) => i.creatorId === u.id).length,
    organization: this.organization,
    teams: (args: ListArgs) =>
      this.teams(
        this.data.teams.filter((t) => t.memberIds.includes(u.id)),
        args,
      ),
    assignedIssues: (args: ListArgs) =>
      this.issues(
        this.data.issues.filter((i) => i.assigneeId === u.id),
        args,
      ),
    createdIssues: (args: ListArgs) =>
      this.issues(
        this.data.issues.filter((i) => i.creatorId === u.id),
        args,
      ),
  });

  team = (t: TeamRecord): Obj => ({
    id: t.id,
    key: t.key,
    name: t.name,
    displayName: t.name,
    description: t.description,
    color: t.color,
    icon: t.icon,
    timezone: t.timezone,
    private: t.private,
    createdAt: iso(t.createdAt),
    updatedAt: iso(t.updatedAt),
    archivedAt: null,
    cyclesEnabled: false,
    triageEnabled: false,
    issueEstimationType: 'notUsed',
    issueCount: this.data.issues.filter((i) => i.teamId === t.id).length,
    organization: this.organization,
    defaultIssueState: () => {
      const todo = this.data.statesOf(t.id).find((s) => s.type === 'unstarted');
      return todo === undefined ? null : this.state(todo);
    },
    states: (args: ListArgs) => this.states(this.data.statesOf(t.id), args),
    members: (args: ListArgs) =>
      this.users(
        this.data.users.filter((u) => t.memberIds.includes(u.id)),
        args,
      ),
    issues: (args: ListArgs) =>
      this.issues(
        this.data.issues.filter((i) => i.teamId === t.id),
        args,
      ),
    projects: (args: ListArgs) =>
      this.projects(
        this.data.projects.filter((p) => p.teamIds.includes(t.id)),
        args,
      ),
  });

  state = (s: StateRecord): Obj => ({
    id: s.id,
    name: s.name,
    type: s.type,
    color: s.color,
    position: s.position,
    description: s.description,
    createdAt: iso(s.createdAt),
    updatedAt: iso(s.updatedAt),
    archivedAt: null,
    team: () => this.team(this.data.team(s.teamId) as TeamRecord),
    issues: (args: ListArgs) =>
      this.issues(
        this.data.issues.filter((i) => i.stateId === s.id),
        args,
      ),
  });

  projectStatus = (s: ProjectStatusRecord): Obj => ({
    id: s.id,
    name: s.name,
    type: s.type,
    color: s.color,
    position: s.position,
    description: null,
    indefinite: s.type === 'backlog',
    createdAt: iso(s.createdAt),
    updatedAt: iso(s.updatedAt),
    archivedAt: null,
  });

  project = (p: ProjectRecord): Obj => {
    const issues = this.data.issues.filter((i) => i.projectId === p.id);
    const done = issues.filter((i) => i.completedAt !== null).length;
    const status = this.data.projectStatus(p.statusId) as ProjectStatusRecord;
    return {
      id: p.id,
      slugId: p.slugId,
      name: p.name,
      description: p.description,
      content: p.content,
      color: p.color,
      icon: p.icon,
      priority: p.priority,
      priorityLabel: PRIORITY_LABELS[p.priority] ?? 'No priority',
      prioritySortOrder: p.priority === 0 ? 5 : p.priority,
      sortOrder: p.sortOrder,
      state: status.type,
      status: this.projectStatus(status),
      progress: issues.length === 0 ? 0 : done / issues.length,
      scope: issues.length,
      health: null,
      url: `${WEB}/${this.data.organization.urlKey}/project/${slug(p.name)}-${p.slugId}`,
      startDate: p.startDate,
      targetDate: p.targetDate,
      createdAt: iso(p.createdAt),
      updatedAt: iso(p.updatedAt),
      startedAt: iso(p.startedAt),
      completedAt: iso(p.completedAt),
      canceledAt: iso(p.canceledAt),
      archivedAt: null,
      labelIds: [],
      lead: () => (p.leadId === null ? null : this.user(this.data.user(p.leadId) as UserRecord)),
      creator: () => this.user(this.data.user(p.creatorId) as UserRecord),
      teams: (args: ListArgs) =>
        this.teams(
          this.data.teams.filter((t) => p.teamIds.includes(t.id)),
          args,
        ),
      members: (args: ListArgs) =>
        this.users(
          this.data.users.filter((u) => p.memberIds.includes(u.id)),
          args,
        ),
      issues: (args: ListArgs) => this.issues(issues, args),
    };
  };

  issue = (i: IssueRecord): Obj => {
    const team = this.data.team(i.teamId) as TeamRecord;
    const identifier = this.data.identifier(i);
    return {
      id: i.id,
      identifier,
      number: i.number,
      title: i.title,
      description: i.description,
      priority: i.priority,
      priorityLabel: PRIORITY_LABELS[i.priority] ?? 'No priority',
      prioritySortOrder: i.priority === 0 ? 5 : i.priority,
      estimate: i.estimate,
      sortOrder: i.sortOrder,
      boardOrder: 0,
      url: `${WEB}/${this.data.organization.urlKey}/issue/${identifier}/${slug(i.title)}`,
      branchName: `${identifier.toLowerCase()}-${slug(i.title)}`,
      dueDate: i.dueDate,
      labelIds: [],
      previousIdentifiers: i.previousIdentifiers,
      customerTicketCount: 0,
      reactionData: [],
      trashed: null,
      createdAt: iso(i.createdAt),
      updatedAt: iso(i.updatedAt),
      startedAt: iso(i.startedAt),
      completedAt: iso(i.completedAt),
      canceledAt: iso(i.canceledAt),
      archivedAt: null,
      team: () => this.team(team),
      state: () => this.state(this.data.state(i.stateId) as StateRecord),
      assignee: () => (i.assigneeId === null ? null : this.user(this.data.user(i.assigneeId) as UserRecord)),
      creator: () => this.user(this.data.user(i.creatorId) as UserRecord),
      project: () =>
        i.projectId === null ? null : this.project(this.data.project(i.projectId) as ProjectRecord),
      parent: () => (i.parentId === null ? null : this.issue(this.data.issue(i.parentId) as IssueRecord)),
      children: (args: ListArgs) =>
        this.issues(
          this.data.issues.filter((c) => c.parentId === i.id),
          args,
        ),
      comments: (args: ListArgs) =>
        this.comments(
          this.data.comments.filter((c) => c.issueId === i.id),
          args,
        ),
    };
  };

  comment = (c: CommentRecord): Obj => {
    const issue = this.data.issue(c.issueId) as IssueRecord;
    return {
      id: c.id,
      body: c.body,
      // bodyData is the ProseMirror document of the body, JSON-encoded.
      bodyData: JSON.stringify({
        type: 'doc',
        content: [{ type: 'paragraph', content: [{ type: 'text', text: c.body }] }],
      }),
      issueId: c.issueId,
      parentId: c.parentId,
      url: `${this.issue(issue).url}#comment-${c.id.slice(0, 8)}`,
      reactionData: [],
      reactions: [],
      createdAt: iso(c.createdAt),
      updatedAt: iso(c.updatedAt),
      editedAt: iso(c.editedAt),
      archivedAt: null,
      resolvedAt: null,
      issue: () => this.issue(issue),
      user: () => this.user(this.data.user(c.userId) as UserRecord),
      parent: () =>
        c.parentId === null ? null : this.comment(this.data.comment(c.parentId) as CommentRecord),
      children: (args: ListArgs) =>
        this.comments(
          this.data.comments.filter((x) => x.parentId === c.id),
          args,
        ),
    };
  };
}
