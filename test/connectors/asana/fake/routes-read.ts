// The Asana fake's read routes, each after the operation (operationId of the Asana OpenAPI description) it names.
// Lists page as wire.ts says; single reads answer {data} with the full record.
import type { Answer } from '../../kit/errors.ts';
import { route } from '../../kit/route.ts';
import type { Route, RouteRequest } from '../../kit/router.ts';
import type { Dataset, Task } from './dataset.ts';
import { full, type Json, type Renderer } from './render.ts';
import { fail, list, one, optFields, unknownObject } from './wire.ts';

export interface Env {
  data: Dataset;
  render: Renderer;
  origin: string;
  now: () => number;
}
export interface AsanaCtx {
  env: Env;
}

const API = '/api/1.0';

/** A single read: the record at `gid` by `find`, or Asana's 404 naming the param. */
function read<T>(
  req: RouteRequest,
  what: string,
  find: (gid: string) => T | undefined,
  render: (record: T) => Json,
): Answer {
  const gid = req.params[what] as string;
  const record = find(gid);
  return record === undefined ? unknownObject(what, gid) : one(full(render(record), optFields(req)));
}

/** The tasks of a list filtered by completed_since (incomplete, or completed at/after it; "now": incomplete). */
function completedSince(req: RouteRequest, tasks: Task[]): Task[] | Answer {
  const raw = req.query.get('completed_since');
  if (raw === null) return tasks;
  const since = raw === 'now' ? Number.POSITIVE_INFINITY : Date.parse(raw);
  if (Number.isNaN(since)) return fail(400, 'completed_since: Not a valid date-time');
  return tasks.filter(
    (t) => !t.completed || (t.completed_at !== null && Date.parse(t.completed_at) >= since),
  );
}

const isAnswer = (v: unknown): v is Answer => !Array.isArray(v);

export const READ_ROUTES: Route<AsanaCtx>[] = [
  route('GET', `${API}/workspaces`, 'getWorkspaces', (req, { env }) =>
    list(
      req,
      env.data.workspaces.map((w) => env.render.workspace(w)),
      env.origin,
    ),
  ),
  route('GET', `${API}/workspaces/{workspace_gid}`, 'getWorkspace', (req, { env }) =>
    read(
      req,
      'workspace_gid',
      (g) => env.data.workspace(g),
      (w) => env.render.workspace(w),
    ),
  ),
  // getUsers: every user of the user's workspaces, sorted by gid; workspace or team narrows.
  route('GET', `${API}/users`, 'getUsers', (req, { env }) => {
    const ws = req.query.get('workspace');
    const team = req.query.get('team');
    if (ws !== null && env.data.workspace(ws) === undefined) return unknownObject('workspace', ws);
    const members = team === null ? undefined : env.data.team(team)?.members;
    if (team !== null && members === undefined) return unknownObject('team', team);
    const users = env.data.users
      .filter(
        (u) =>
          (ws === null || u.workspaces.includes(ws)) && (members === undefined || members.includes(u.gid)),
      )
      .sort((a, b) => (BigInt(a.gid) < BigInt(b.gid) ? -1 : 1));
    return list(
      req,
      users.map((u) => env.render.user(u)),
      env.origin,
    );
  }),
  route('GET', `${API}/users/{user_gid}`, 'getUser', (req, { env }) =>
    read(
      req,
      'user_gid',
      (g) => env.data.user(g),
      (u) => env.render.user(u),
    ),
  ),
  // getTeamsForUser: organization is required.
  route('GET', `${API}/users/{user_gid}/teams`, 'getTeamsForUser', (req, { env }) => {
    const user = env.data.user(req.params.user_gid as string);
    if (user === undefined) return unknownObject('user', req.params.user_gid as string);
    const org = req.query.get('organization');
    if (org === null) return fail(400, 'organization: Missing input');
    if (env.data.workspace(org) === undefined) return unknownObject('organization', org);
    const teams = env.data.teams.filter((t) => t.organization === org && t.members.includes(user.gid));
    return list(
      req,
      teams.map((t) => env.render.team(t)),
      env.origin,
    );
  }),
  // getUsersForWorkspace: sorted by name, at most 2,000, no limit param: one answer.
  route('GET', `${API}/workspaces/{workspace_gid}/users`, 'getUsersForWorkspace', (req, { env }) => {
    const ws = req.params.workspace_gid as string;
    if (env.data.workspace(ws) === undefined) return unknownObject('workspace', ws);
    const users = env.data.users
      .filter((u) => u.workspaces.includes(ws))
      .sort((a, b) => a.name.localeCompare(b.name));
    return list(
      req,
      users.map((u) => env.render.user(u)),
      env.origin,
      { unpaged: true },
    );
  }),
  route('GET', `${API}/workspaces/{workspace_gid}/teams`, 'getTeamsForWorkspace', (req, { env }) => {
    const ws = env.data.workspace(req.params.workspace_gid as string);
    if (ws === undefined) return unknownObject('workspace', req.params.workspace_gid as string);
    if (!ws.is_organization) return fail(400, 'workspace: Teams are only available in organizations.');
    const teams = env.data.teams.filter((t) => t.organization === ws.gid);
    return list(
      req,
      teams.map((t) => env.render.team(t)),
      env.origin,
    );
  }),
  route('GET', `${API}/teams/{team_gid}`, 'getTeam', (req, { env }) =>
    read(
      req,
      'team_gid',
      (g) => env.data.team(g),
      (t) => env.render.team(t),
    ),
  ),
  // getUsersForTeam: sorted by name, at most 2,000, no limit param: one answer.
  route('GET', `${API}/teams/{team_gid}/users`, 'getUsersForTeam', (req, { env }) => {
    const team = env.data.team(req.params.team_gid as string);
    if (team === undefined) return unknownObject('team', req.params.team_gid as string);
    const users = env.data.users
      .filter((u) => team.members.includes(u.gid))
      .sort((a, b) => a.name.localeCompare(b.name));
    return list(
      req,
      users.map((u) => env.render.user(u)),
      env.origin,
      { unpaged: true },
    );
  }),
  // getProjects: workspace, team and archived filter.
  route('GET', `${API}/projects`, 'getProjects', (req, { env }) => {
    const ws = req.query.get('workspace');
    const team = req.query.get('team');
    const archived = req.query.get('archived');
    if (ws !== null && env.data.workspace(ws) === undefined) return unknownObject('workspace', ws);
    if (team !== null && env.data.team(team) === undefined) return unknownObject('team', team);
    const projects = env.data.projects.filter(
      (p) =>
        (ws === null || p.workspace === ws) &&
        (team === null || p.team === team) &&
        (archived === null || String(p.archived) === archived),
    );
    return list(
      req,
      projects.map((p) => env.render.project(p)),
      env.origin,
    );
  }),
  route('GET', `${API}/projects/{project_gid}`, 'getProject', (req, { env }) =>
    read(
      req,
      'project_gid',
      (g) => env.data.project(g),
      (p) => env.render.project(p),
    ),
  ),
  route('GET', `${API}/workspaces/{workspace_gid}/projects`, 'getProjectsForWorkspace', (req, { env }) => {
    const ws = req.params.workspace_gid as string;
    if (env.data.workspace(ws) === undefined) return unknownObject('workspace', ws);
    const archived = req.query.get('archived');
    const projects = env.data.projects.filter(
      (p) => p.workspace === ws && (archived === null || String(p.archived) === archived),
    );
    return list(
      req,
      projects.map((p) => env.render.project(p)),
      env.origin,
    );
  }),
  route('GET', `${API}/teams/{team_gid}/projects`, 'getProjectsForTeam', (req, { env }) => {
    const team = req.params.team_gid as string;
    if (env.data.team(team) === undefined) return unknownObject('team', team);
    const archived = req.query.get('archived');
    const projects = env.data.projects.filter(
      (p) => p.team === team && (archived === null || String(p.archived) === archived),
    );
    return list(
      req,
      projects.map((p) => env.render.project(p)),
      env.origin,
    );
  }),
  route('GET', `${API}/tasks/{task_gid}/projects`, 'getProjectsForTask', (req, { env }) => {
    const task = env.data.task(req.params.task_gid as string);
    if (task === undefined) return unknownObject('task', req.params.task_gid as string);
    const projects = task.memberships.flatMap((m) => env.data.project(m.project) ?? []);
    return list(
      req,
      projects.map((p) => env.render.project(p)),
      env.origin,
    );
  }),
  route('GET', `${API}/projects/{project_gid}/sections`, 'getSectionsForProject', (req, { env }) => {
    const project = req.params.project_gid as string;
    if (env.data.project(project) === undefined) return unknownObject('project', project);
    const sections = env.data.sections.filter((s) => s.project === project);
    return list(
      req,
      sections.map((s) => env.render.section(s)),
      env.origin,
    );
  }),
  route('GET', `${API}/sections/{section_gid}`, 'getSection', (req, { env }) =>
    read(
      req,
      'section_gid',
      (g) => env.data.section(g),
      (s) => env.render.section(s),
    ),
  ),
  // getTasks: a project, a section, or assignee + workspace; completed_since and modified_since narrow.
  route('GET', `${API}/tasks`, 'getTasks', (req, { env }) => {
    const q = req.query;
    const project = q.get('project');
    const section = q.get('section');
    const assignee = q.get('assignee');
    const ws = q.get('workspace');
    const scopes = [project, section, assignee !== null || ws !== null ? 'assignee' : null].filter(
      (s) => s !== null,
    );
    if (scopes.length !== 1 || (assignee === null) !== (ws === null))
      return fail(
        400,
        'Must specify exactly one of project, tag, section, user task list, or assignee + workspace',
      );
    let tasks: Task[];
    if (project !== null) {
      if (env.data.project(project) === undefined) return unknownObject('project', project);
      tasks = env.data.tasksOfProject(project);
    } else if (section !== null) {
      if (env.data.section(section) === undefined) return unknownObject('section', section);
      tasks = env.data.tasksOfSection(section);
    } else {
      const user = env.data.user(assignee as string);
      if (user === undefined) return unknownObject('assignee', assignee as string);
      if (env.data.workspace(ws as string) === undefined) return unknownObject('workspace', ws as string);
      tasks = env.data.tasks.filter((t) => t.assignee === user.gid && t.workspace === ws);
    }
    const done = completedSince(req, tasks);
    if (isAnswer(done)) return done;
    const rawModified = q.get('modified_since');
    const modified = rawModified === null ? undefined : Date.parse(rawModified);
    if (modified !== undefined && Number.isNaN(modified))
      return fail(400, 'modified_since: Not a valid date-time');
    const kept = modified === undefined ? done : done.filter((t) => Date.parse(t.modified_at) >= modified);
    return list(
      req,
      kept.map((t) => env.render.task(t)),
      env.origin,
    );
  }),
  route('GET', `${API}/tasks/{task_gid}`, 'getTask', (req, { env }) =>
    read(
      req,
      'task_gid',
      (g) => env.data.task(g),
      (t) => env.render.task(t),
    ),
  ),
  route('GET', `${API}/projects/{project_gid}/tasks`, 'getTasksForProject', (req, { env }) => {
    const project = req.params.project_gid as string;
    if (env.data.project(project) === undefined) return unknownObject('project', project);
    const tasks = completedSince(req, env.data.tasksOfProject(project));
    return isAnswer(tasks)
      ? tasks
      : list(
          req,
          tasks.map((t) => env.render.task(t)),
          env.origin,
        );
  }),
  route('GET', `${API}/sections/{section_gid}/tasks`, 'getTasksForSection', (req, { env }) => {
    const section = req.params.section_gid as string;
    if (env.data.section(section) === undefined) return unknownObject('section', section);
    const tasks = completedSince(req, env.data.tasksOfSection(section));
    return isAnswer(tasks)
      ? tasks
      : list(
          req,
          tasks.map((t) => env.render.task(t)),
          env.origin,
        );
  }),
  route('GET', `${API}/tags/{tag_gid}/tasks`, 'getTasksForTag', (req, { env }) => {
    const tag = req.params.tag_gid as string;
    if (env.data.tag(tag) === undefined) return unknownObject('tag', tag);
    const tasks = env.data.tasks.filter((t) => t.tags.includes(tag));
    return list(
      req,
      tasks.map((t) => env.render.task(t)),
      env.origin,
    );
  }),
  ...(
    [
      ['subtasks', 'getSubtasksForTask', (d: Dataset, t: Task) => d.tasks.filter((s) => s.parent === t.gid)],
      [
        'dependencies',
        'getDependenciesForTask',
        (d: Dataset, t: Task) => t.dependencies.flatMap((g) => d.task(g) ?? []),
      ],
      [
        'dependents',
        'getDependentsForTask',
        (d: Dataset, t: Task) => d.tasks.filter((o) => o.dependencies.includes(t.gid)),
      ],
    ] as const
  ).map(([tail, operation, related]) =>
    route<AsanaCtx>('GET', `${API}/tasks/{task_gid}/${tail}`, operation, (req, { env }) => {
      const task = env.data.task(req.params.task_gid as string);
      if (task === undefined) return unknownObject('task', req.params.task_gid as string);
      return list(
        req,
        related(env.data, task).map((t) => env.render.task(t)),
        env.origin,
      );
    }),
  ),
  // getTags: the tags of a workspace.
  route('GET', `${API}/tags`, 'getTags', (req, { env }) => {
    const ws = req.query.get('workspace');
    if (ws !== null && env.data.workspace(ws) === undefined) return unknownObject('workspace', ws);
    const tags = env.data.tags.filter((t) => ws === null || t.workspace === ws);
    return list(
      req,
      tags.map((t) => env.render.tag(t)),
      env.origin,
    );
  }),
  route('GET', `${API}/tags/{tag_gid}`, 'getTag', (req, { env }) =>
    read(
      req,
      'tag_gid',
      (g) => env.data.tag(g),
      (t) => env.render.tag(t),
    ),
  ),
  route('GET', `${API}/workspaces/{workspace_gid}/tags`, 'getTagsForWorkspace', (req, { env }) => {
    const ws = req.params.workspace_gid as string;
    if (env.data.workspace(ws) === undefined) return unknownObject('workspace', ws);
    return list(
      req,
      env.data.tags.filter((t) => t.workspace === ws).map((t) => env.render.tag(t)),
      env.origin,
    );
  }),
  route('GET', `${API}/attachments`, 'getAttachmentsForObject', (req, { env }) => {
    const parent = req.query.get('parent');
    if (parent === null) return fail(400, 'parent: Missing input');
    if (env.data.task(parent) === undefined && env.data.project(parent) === undefined)
      return unknownObject('parent', parent);
    const attachments = env.data.attachments.filter((a) => a.parent === parent);
    return list(
      req,
      attachments.map((a) => env.render.attachment(a)),
      env.origin,
    );
  }),
  route('GET', `${API}/attachments/{attachment_gid}`, 'getAttachment', (req, { env }) =>
    read(
      req,
      'attachment_gid',
      (g) => env.data.attachment(g),
      (a) => env.render.attachment(a),
    ),
  ),
];
