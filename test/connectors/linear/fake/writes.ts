// The mutations the fake resolves, applied to the dataset so later reads see them. Inputs are the SDL's
// IssueCreateInput / IssueUpdateInput / CommentCreateInput / CommentUpdateInput / ProjectCreateInput /
// ProjectUpdateInput (graphql-js has already checked their types); what the schema cannot say (a referenced
// entity exists, a state belongs to the issue's team, a title is not empty) is refused the way Linear refuses
// it: "Entity not found: <Type>" or "Argument Validation Error", both INPUT_ERROR.
import {
  type CommentRecord,
  type Dataset,
  type IssueRecord,
  type ProjectRecord,
  type StateRecord,
  uuid,
} from './dataset.ts';
import { FakeNotImplemented, LinearApiError } from './wire.ts';

type Input = Record<string, unknown>;

export function notFound(type: string): LinearApiError {
  return new LinearApiError('input', `Entity not found: ${type}`, `Could not find referenced ${type}.`);
}

function invalid(detail: string): LinearApiError {
  return new LinearApiError('input', 'Argument Validation Error', detail);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Input members the fake stores; any other member given is a feature it does not have. */
function only(input: Input, allowed: readonly string[], type: string): void {
  for (const [key, value] of Object.entries(input)) {
    if (value !== undefined && !allowed.includes(key))
      throw new FakeNotImplemented(`linear fake: ${type}.${key} is not implemented`);
  }
}

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

export class Writes {
  private created = 0;

  constructor(private readonly data: Dataset) {}

  private newId(kind: string, given: unknown): string {
    if (typeof given === 'string') {
      if (!UUID.test(given)) throw invalid('id must be a UUID');
      return given;
    }
    this.created += 1;
    return uuid(`created:${kind}:${this.created}`);
  }

  private userRef(id: unknown): string | null {
    if (id === null) return null;
    const u = this.data.user(String(id));
    if (u === undefined) throw notFound('User');
    return u.id;
  }

  private projectRef(id: unknown): string | null {
    if (id === null) return null;
    const p = this.data.project(String(id));
    if (p === undefined) throw notFound('Project');
    return p.id;
  }

  private stateFor(teamId: string, stateId: unknown): StateRecord {
    const state = this.data.state(String(stateId));
    if (state === undefined) throw notFound('WorkflowState');
    if (state.teamId !== teamId) throw invalid('The workflow state does not belong to the issue team.');
    return state;
  }

  private applyState(issue: IssueRecord, state: StateRecord, now: number): void {
    issue.stateId = state.id;
    if (state.type === 'started' && issue.startedAt === null) issue.startedAt = now;
    issue.completedAt = state.type === 'completed' ? now : null;
    issue.canceledAt = state.type === 'canceled' ? now : null;
  }

  private static ISSUE_FIELDS = [
    'title',
    'description',
    'priority',
    'estimate',
    'stateId',
    'assigneeId',
    'projectId',
    'parentId',
    'dueDate',
    'sortOrder',
    'teamId',
  ] as const;

  private applyIssue(issue: IssueRecord, input: Input, now: number): void {
    if (input.title !== undefined) {
      if (typeof input.title !== 'string' || input.title.trim() === '')
        throw invalid('title should not be empty');
      issue.title = input.title;
    }
    if (input.description !== undefined) issue.description = str(input.description) ?? null;
    if (input.priority !== undefined) {
      const p = input.priority;
      if (typeof p !== 'number' || p < 0 || p > 4) throw invalid('priority must be between 0 and 4');
      issue.priority = p;
    }
    if (input.estimate !== undefined) issue.estimate = input.estimate as number | null;
    if (input.assigneeId !== undefined) issue.assigneeId = this.userRef(input.assigneeId);
    if (input.projectId !== undefined) issue.projectId = this.projectRef(input.projectId);
    if (input.parentId !== undefined) {
      const parent = input.parentId === null ? undefined : this.data.issue(String(input.parentId));
      if (input.parentId !== null && parent === undefined) throw notFound('Issue');
      issue.parentId = parent?.id ?? null;
    }
    if (input.dueDate !== undefined) issue.dueDate = str(input.dueDate) ?? null;
    if (input.sortOrder !== undefined) issue.sortOrder = input.sortOrder as number;
    if (input.stateId !== undefined && input.stateId !== null)
      this.applyState(issue, this.stateFor(issue.teamId, input.stateId), now);
  }

  /** Mutation.issueCreate */
  issueCreate(input: Input, creatorId: string): IssueRecord {
    only(input, [...Writes.ISSUE_FIELDS, 'id'], 'IssueCreateInput');
    const team = this.data.team(String(input.teamId));
    if (team === undefined) throw notFound('Team');
    if (typeof input.title !== 'string' || input.title.trim() === '')
      throw invalid('title should not be empty');
    const now = this.data.tick();
    const number =
      Math.max(0, ...this.data.issues.filter((i) => i.teamId === team.id).map((i) => i.number)) + 1;
    const todo = this.data.statesOf(team.id).find((s) => s.type === 'unstarted') as StateRecord;
    const issue: IssueRecord = {
      id: this.newId('issue', input.id),
      teamId: team.id,
      number,
      title: input.title,
      description: null,
      priority: 0,
      estimate: null,
      stateId: todo.id,
      assigneeId: null,
      creatorId,
      projectId: null,
      parentId: null,
      dueDate: null,
      sortOrder: -number * 100,
      previousIdentifiers: [],
      createdAt: now,
      updatedAt: now,
      startedAt: null,
      completedAt: null,
      canceledAt: null,
    };
    this.applyIssue(issue, { ...input, teamId: undefined, id: undefined }, now);
    this.data.issues.push(issue);
    return issue;
  }

  /** Mutation.issueUpdate: `id` is the issue's id or identifier. */
  issueUpdate(id: string, input: Input): IssueRecord {
    only(input, Writes.ISSUE_FIELDS, 'IssueUpdateInput');
    const issue = this.data.issue(id);
    if (issue === undefined) throw notFound('Issue');
    const now = this.data.tick();
    if (input.teamId !== undefined && input.teamId !== null && input.teamId !== issue.teamId) {
      // Moving teams gives the issue a new number in the new team; the old identifier keeps resolving.
      const team = this.data.team(String(input.teamId));
      if (team === undefined) throw notFound('Team');
      issue.previousIdentifiers.push(this.data.identifier(issue));
      issue.teamId = team.id;
      issue.number =
        Math.max(0, ...this.data.issues.filter((i) => i.teamId === team.id).map((i) => i.number)) + 1;
      const same = this.data.statesOf(team.id).find((s) => s.type === this.data.state(issue.stateId)?.type);
      if (input.stateId === undefined) issue.stateId = (same ?? this.data.statesOf(team.id)[0])?.id as string;
    }
    this.applyIssue(issue, { ...input, teamId: undefined }, now);
    issue.updatedAt = now;
    return issue;
  }

  /** Mutation.commentCreate (comments on issues; other parents are not implemented). */
  commentCreate(input: Input, userId: string): CommentRecord {
    only(input, ['body', 'issueId', 'parentId', 'id'], 'CommentCreateInput');
    if (input.issueId === undefined || input.issueId === null) throw invalid('issueId should not be empty');
    const issue = this.data.issue(String(input.issueId));
    if (issue === undefined) throw notFound('Issue');
    if (typeof input.body !== 'string' || input.body.trim() === '') throw invalid('body should not be empty');
    let parentId: string | null = null;
    if (input.parentId !== undefined && input.parentId !== null) {
      const parent = this.data.comment(String(input.parentId));
      if (parent === undefined) throw notFound('Comment');
      parentId = parent.id;
    }
    const now = this.data.tick();
    const comment: CommentRecord = {
      id: this.newId('comment', input.id),
      issueId: issue.id,
      userId,
      body: input.body,
      parentId,
      createdAt: now,
      updatedAt: now,
      editedAt: null,
    };
    this.data.comments.push(comment);
    return comment;
  }

  /** Mutation.commentUpdate */
  commentUpdate(id: string, input: Input, skipEditedAt: boolean): CommentRecord {
    only(input, ['body'], 'CommentUpdateInput');
    const comment = this.data.comment(id);
    if (comment === undefined) throw notFound('Comment');
    const now = this.data.tick();
    if (input.body !== undefined) {
      if (typeof input.body !== 'string' || input.body.trim() === '')
        throw invalid('body should not be empty');
      comment.body = input.body;
      if (!skipEditedAt) comment.editedAt = now;
    }
    comment.updatedAt = now;
    return comment;
  }

  private static PROJECT_FIELDS = [
    'name',
    'description',
    'content',
    'color',
    'icon',
    'priority',
    'statusId',
    'leadId',
    'memberIds',
    'teamIds',
    'startDate',
    'targetDate',
    'sortOrder',
  ] as const;

  private applyProject(project: ProjectRecord, input: Input, now: number): void {
    if (input.name !== undefined) {
      if (typeof input.name !== 'string' || input.name.trim() === '')
        throw invalid('name should not be empty');
      project.name = input.name;
    }
    if (input.description !== undefined) project.description = str(input.description) ?? '';
    if (input.content !== undefined) project.content = str(input.content) ?? null;
    if (input.color !== undefined) project.color = str(input.color) ?? project.color;
    if (input.icon !== undefined) project.icon = str(input.icon) ?? null;
    if (input.priority !== undefined) project.priority = input.priority as number;
    if (input.leadId !== undefined) project.leadId = this.userRef(input.leadId);
    if (input.memberIds !== undefined)
      project.memberIds = ((input.memberIds as unknown[]) ?? []).map((m) => this.userRef(m) as string);
    if (input.teamIds !== undefined) {
      const ids = (input.teamIds as unknown[]) ?? [];
      if (ids.length === 0) throw invalid('teamIds should not be empty');
      project.teamIds = ids.map((t) => {
        const team = this.data.team(String(t));
        if (team === undefined) throw notFound('Team');
        return team.id;
      });
    }
    if (input.startDate !== undefined) project.startDate = str(input.startDate) ?? null;
    if (input.targetDate !== undefined) project.targetDate = str(input.targetDate) ?? null;
    if (input.sortOrder !== undefined) project.sortOrder = input.sortOrder as number;
    if (input.statusId !== undefined && input.statusId !== null) {
      const status = this.data.projectStatus(String(input.statusId));
      if (status === undefined) throw notFound('ProjectStatus');
      project.statusId = status.id;
      if (status.type === 'started' && project.startedAt === null) project.startedAt = now;
      project.completedAt = status.type === 'completed' ? now : null;
      project.canceledAt = status.type === 'canceled' ? now : null;
    }
  }

  /** Mutation.projectCreate */
  projectCreate(input: Input, creatorId: string): ProjectRecord {
    only(input, [...Writes.PROJECT_FIELDS, 'id'], 'ProjectCreateInput');
    const now = this.data.tick();
    const planned = this.data.projectStatuses.find((s) => s.type === 'planned');
    const project: ProjectRecord = {
      id: this.newId('project', input.id),
      slugId: uuid(`slug:${now}`).replaceAll('-', '').slice(0, 12),
      name: '',
      description: '',
      content: null,
      color: '#bec2c8',
      icon: null,
      priority: 0,
      statusId: planned?.id as string,
      leadId: null,
      creatorId,
      teamIds: [],
      memberIds: [],
      startDate: null,
      targetDate: null,
      sortOrder: 0,
      createdAt: now,
      updatedAt: now,
      startedAt: null,
      completedAt: null,
      canceledAt: null,
    };
    if (input.name === undefined) throw invalid('name should not be empty');
    this.applyProject(project, { ...input, id: undefined }, now);
    this.data.projects.push(project);
    return project;
  }

  /** Mutation.projectUpdate: `id` is the project's id or slugId. */
  projectUpdate(id: string, input: Input): ProjectRecord {
    only(input, Writes.PROJECT_FIELDS, 'ProjectUpdateInput');
    const project = this.data.project(id);
    if (project === undefined) throw notFound('Project');
    const now = this.data.tick();
    this.applyProject(project, input, now);
    project.updatedAt = now;
    return project;
  }
}
