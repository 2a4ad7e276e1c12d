// The Asana fake's writes and its task search, each after the operation (operationId) it names. Every write takes
// Asana's envelope {data: {...}} (https://developers.asana.com/docs/inputoutput-options) and answers {data}: the
// record written (201 for a create), or an empty object for the add/remove actions and deletes.
import type { Answer } from '../../kit/errors.ts';
import { route } from '../../kit/route.ts';
import type { Route, RouteRequest } from '../../kit/router.ts';
import type { Project, Section, Tag, Task } from './dataset.ts';
import { compact, full, type Json } from './render.ts';
import type { AsanaCtx } from './routes-read.ts';
import { fail, missingInput, one, optFields, unknownObject } from './wire.ts';

const API = '/api/1.0';

/** The `data` object of a write's body, or Asana's 400. */
function body(req: RouteRequest): { data: Json } | { refuse: Answer } {
  const json = req.json;
  if (json === 'invalid') return { refuse: fail(400, 'Could not parse request data, invalid JSON') };
  const data = json?.data;
  if (typeof data !== 'object' || data === null || Array.isArray(data))
    return { refuse: missingInput('data') };
  return { data: data as Json };
}

const text = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const EMPTY = (): Answer => one({});

export const WRITE_ROUTES: Route<AsanaCtx>[] = [
  route('POST', `${API}/workspaces/{workspace_gid}/addUser`, 'addUserForWorkspace', (req, { env }) => {
    const ws = env.data.workspace(req.params.workspace_gid as string);
    if (ws === undefined) return unknownObject('workspace', req.params.workspace_gid as string);
    const sent = body(req);
    if ('refuse' in sent) return sent.refuse;
    const { data } = sent;
    const ref = text(data.user);
    if (ref === undefined) return missingInput('user');
    const user = env.data.user(ref);
    if (user === undefined) return unknownObject('user', ref);
    if (!user.workspaces.includes(ws.gid)) user.workspaces.push(ws.gid);
    const rendered = env.render.user(user);
    return one({
      gid: user.gid,
      resource_type: 'user',
      name: user.name,
      email: user.email,
      photo: rendered.photo,
    });
  }),
  // createProject: a workspace (or a team's organization); in an organization, a team too.
  route('POST', `${API}/projects`, 'createProject', (req, { env }) => {
    const sent = body(req);
    if ('refuse' in sent) return sent.refuse;
    const { data } = sent;
    const name = text(data.name);
    const teamGid = text(data.team);
    const team = teamGid === undefined ? undefined : env.data.team(teamGid);
    if (teamGid !== undefined && team === undefined) return unknownObject('team', teamGid);
    const wsGid = text(data.workspace) ?? team?.organization;
    if (wsGid === undefined) return missingInput('workspace');
    const ws = env.data.workspace(wsGid);
    if (ws === undefined) return unknownObject('workspace', wsGid);
    if (ws.is_organization && team === undefined) return missingInput('team');
    const now = new Date(env.now()).toISOString();
    const project = env.data.add<Project>(env.data.projects, {
      name: name ?? '',
      notes: text(data.notes) ?? '',
      archived: data.archived === true,
      color: text(data.color) ?? null,
      created_at: now,
      modified_at: now,
      due_on: text(data.due_on) ?? null,
      start_on: null,
      owner: env.data.me.gid,
      team: team?.gid ?? null,
      workspace: ws.gid,
      public: true,
    });
    return one(full(env.render.project(project), optFields(req)), 201);
  }),
  route('PUT', `${API}/projects/{project_gid}`, 'updateProject', (req, { env }) => {
    const project = env.data.project(req.params.project_gid as string);
    if (project === undefined) return unknownObject('project', req.params.project_gid as string);
    const sent = body(req);
    if ('refuse' in sent) return sent.refuse;
    const { data } = sent;
    for (const k of ['name', 'notes', 'color', 'due_on'] as const)
      if (typeof data[k] === 'string') project[k] = data[k] as string;
    if (typeof data.archived === 'boolean') project.archived = data.archived;
    project.modified_at = new Date(env.now()).toISOString();
    return one(full(env.render.project(project), optFields(req)));
  }),
  route('DELETE', `${API}/projects/{project_gid}`, 'deleteProject', (req, { env }) => {
    const at = env.data.projects.findIndex((p) => p.gid === req.params.project_gid);
    if (at < 0) return unknownObject('project', req.params.project_gid as string);
    env.data.projects.splice(at, 1);
    return EMPTY();
  }),
  route('POST', `${API}/projects/{project_gid}/sections`, 'createSectionForProject', (req, { env }) => {
    const project = env.data.project(req.params.project_gid as string);
    if (project === undefined) return unknownObject('project', req.params.project_gid as string);
    const sent = body(req);
    if ('refuse' in sent) return sent.refuse;
    const { data } = sent;
    const name = text(data.name);
    if (name === undefined) return missingInput('name');
    const section = env.data.add<Section>(env.data.sections, {
      name,
      project: project.gid,
      created_at: new Date(env.now()).toISOString(),
    });
    return one(full(env.render.section(section), optFields(req)), 201);
  }),
  route('PUT', `${API}/sections/{section_gid}`, 'updateSection', (req, { env }) => {
    const section = env.data.section(req.params.section_gid as string);
    if (section === undefined) return unknownObject('section', req.params.section_gid as string);
    const sent = body(req);
    if ('refuse' in sent) return sent.refuse;
    const { data } = sent;
    const name = text(data.name);
    if (name === undefined) return missingInput('name');
    section.name = name;
    return one(full(env.render.section(section), optFields(req)));
  }),
  // deleteSection: the section must be empty and not the project's last.
  route('DELETE', `${API}/sections/{section_gid}`, 'deleteSection', (req, { env }) => {
    const section = env.data.section(req.params.section_gid as string);
    if (section === undefined) return unknownObject('section', req.params.section_gid as string);
    if (env.data.tasksOfSection(section.gid).length > 0)
      return fail(400, 'section: Section must be empty to be deleted.');
    if (env.data.sections.filter((s) => s.project === section.project).length === 1)
      return fail(400, 'section: Cannot delete the last section of a project.');
    env.data.sections.splice(env.data.sections.indexOf(section), 1);
    return EMPTY();
  }),
  // addTaskForSection: the task moves into the section, out of the project's other sections.
  route('POST', `${API}/sections/{section_gid}/addTask`, 'addTaskForSection', (req, { env }) => {
    const section = env.data.section(req.params.section_gid as string);
    if (section === undefined) return unknownObject('section', req.params.section_gid as string);
    const sent = body(req);
    if ('refuse' in sent) return sent.refuse;
    const { data } = sent;
    const taskGid = text(data.task);
    if (taskGid === undefined) return missingInput('task');
    const task = env.data.task(taskGid);
    if (task === undefined) return unknownObject('task', taskGid);
    task.memberships = [
      ...task.memberships.filter((m) => m.project !== section.project),
      { project: section.project, section: section.gid },
    ];
    task.modified_at = new Date(env.now()).toISOString();
    return EMPTY();
  }),
  // createTask: needs a workspace, projects or a parent to place it.
  route('POST', `${API}/tasks`, 'createTask', (req, { env }) => {
    const sent = body(req);
    if ('refuse' in sent) return sent.refuse;
    const { data } = sent;
    const projects = Array.isArray(data.projects) ? data.projects.map(String) : [];
    for (const p of projects) if (env.data.project(p) === undefined) return unknownObject('projects', p);
    const parent = text(data.parent);
    if (parent !== undefined && env.data.task(parent) === undefined) return unknownObject('parent', parent);
    const ws =
      text(data.workspace) ??
      env.data.project(projects[0] ?? '')?.workspace ??
      (parent === undefined ? undefined : env.data.task(parent)?.workspace);
    if (ws === undefined) return fail(400, 'workspace: Missing input (or give projects or a parent)');
    if (env.data.workspace(ws) === undefined) return unknownObject('workspace', ws);
    const assigneeRef = text(data.assignee);
    const assignee = assigneeRef === undefined ? undefined : env.data.user(assigneeRef);
    if (assigneeRef !== undefined && assignee === undefined) return unknownObject('assignee', assigneeRef);
    const task = env.data.add<Task>(env.data.tasks, {
      ...env.data.blankTask(ws, text(data.name) ?? '', env.now()),
      notes: text(data.notes) ?? '',
      assignee: assignee?.gid ?? null,
      due_on: text(data.due_on) ?? null,
      parent: parent ?? null,
      memberships: projects.map((p) => ({
        project: p,
        section: env.data.sections.find((s) => s.project === p)?.gid ?? '',
      })),
      followers: [env.data.me.gid],
    });
    return one(full(env.render.task(task), optFields(req)), 201);
  }),
  route('PUT', `${API}/tasks/{task_gid}`, 'updateTask', (req, { env }) => {
    const task = env.data.task(req.params.task_gid as string);
    if (task === undefined) return unknownObject('task', req.params.task_gid as string);
    const sent = body(req);
    if ('refuse' in sent) return sent.refuse;
    const { data } = sent;
    const now = new Date(env.now()).toISOString();
    for (const k of ['name', 'notes'] as const) if (typeof data[k] === 'string') task[k] = data[k] as string;
    if ('due_on' in data) task.due_on = text(data.due_on) ?? null;
    if (typeof data.completed === 'boolean') {
      task.completed = data.completed;
      task.completed_at = data.completed ? now : null;
    }
    if ('assignee' in data) {
      const ref = text(data.assignee);
      const user = ref === undefined ? undefined : env.data.user(ref);
      if (ref !== undefined && user === undefined) return unknownObject('assignee', ref);
      task.assignee = user?.gid ?? null;
    }
    task.modified_at = now;
    return one(full(env.render.task(task), optFields(req)));
  }),
  route('DELETE', `${API}/tasks/{task_gid}`, 'deleteTask', (req, { env }) => {
    const at = env.data.tasks.findIndex((t) => t.gid === req.params.task_gid);
    if (at < 0) return unknownObject('task', req.params.task_gid as string);
    env.data.tasks.splice(at, 1);
    return EMPTY();
  }),
  route('POST', `${API}/tasks/{task_gid}/stories`, 'createStoryForTask', (req, { env }) => {
    const task = env.data.task(req.params.task_gid as string);
    if (task === undefined) return unknownObject('task', req.params.task_gid as string);
    const sent = body(req);
    if ('refuse' in sent) return sent.refuse;
    const { data } = sent;
    const said = text(data.text) ?? text(data.html_text)?.replace(/<[^>]*>/g, '');
    if (said === undefined) return missingInput('text');
    const story = env.data.add(env.data.stories, {
      task: task.gid,
      text: said,
      created_by: env.data.me.gid,
      created_at: new Date(env.now()).toISOString(),
    });
    task.modified_at = story.created_at;
    return one(full(env.render.story(story), optFields(req)), 201);
  }),
  ...(['addTag', 'removeTag'] as const).map((action) =>
    route<AsanaCtx>('POST', `${API}/tasks/{task_gid}/${action}`, `${action}ForTask`, (req, { env }) => {
      const task = env.data.task(req.params.task_gid as string);
      if (task === undefined) return unknownObject('task', req.params.task_gid as string);
      const sent = body(req);
      if ('refuse' in sent) return sent.refuse;
      const { data } = sent;
      const tagGid = text(data.tag);
      if (tagGid === undefined) return missingInput('tag');
      if (env.data.tag(tagGid) === undefined) return unknownObject('tag', tagGid);
      task.tags =
        action === 'addTag' ? [...new Set([...task.tags, tagGid])] : task.tags.filter((g) => g !== tagGid);
      task.modified_at = new Date(env.now()).toISOString();
      return EMPTY();
    }),
  ),
  route('POST', `${API}/workspaces/{workspace_gid}/tags`, 'createTagForWorkspace', (req, { env }) => {
    const ws = env.data.workspace(req.params.workspace_gid as string);
    if (ws === undefined) return unknownObject('workspace', req.params.workspace_gid as string);
    const sent = body(req);
    if ('refuse' in sent) return sent.refuse;
    const { data } = sent;
    const tag = env.data.add<Tag>(env.data.tags, {
      name: text(data.name) ?? '',
      color: text(data.color) ?? null,
      notes: text(data.notes) ?? '',
      workspace: ws.gid,
      created_at: new Date(env.now()).toISOString(),
    });
    return one(full(env.render.tag(tag), optFields(req)), 201);
  }),
  route('PUT', `${API}/tags/{tag_gid}`, 'updateTag', (req, { env }) => {
    const tag = env.data.tag(req.params.tag_gid as string);
    if (tag === undefined) return unknownObject('tag', req.params.tag_gid as string);
    const sent = body(req);
    if ('refuse' in sent) return sent.refuse;
    const { data } = sent;
    for (const k of ['name', 'notes'] as const) if (typeof data[k] === 'string') tag[k] = data[k] as string;
    if ('color' in data) tag.color = text(data.color) ?? null;
    return one(full(env.render.tag(tag), optFields(req)));
  }),
  route('DELETE', `${API}/tags/{tag_gid}`, 'deleteTag', (req, { env }) => {
    const tag = env.data.tag(req.params.tag_gid as string);
    if (tag === undefined) return unknownObject('tag', req.params.tag_gid as string);
    env.data.tags.splice(env.data.tags.indexOf(tag), 1);
    for (const t of env.data.tasks) t.tags = t.tags.filter((g) => g !== tag.gid);
    return EMPTY();
  }),
  // searchTasksForWorkspace: premium workspaces only (402 otherwise); one page of at most `limit` (100).
  route(
    'GET',
    `${API}/workspaces/{workspace_gid}/tasks/search`,
    'searchTasksForWorkspace',
    (req, { env }) => {
      const ws = env.data.workspace(req.params.workspace_gid as string);
      if (ws === undefined) return unknownObject('workspace', req.params.workspace_gid as string);
      if (!ws.premium) return fail(402, 'Search is only available to premium users.');
      const q = req.query;
      const limit = Number(q.get('limit') ?? '100');
      if (!Number.isInteger(limit) || limit < 1 || limit > 100)
        return fail(400, 'limit: Must be an integer between 1 and 100');
      const list = (k: string) =>
        q
          .get(k)
          ?.split(',')
          .map((v) => (v === 'me' ? env.data.me.gid : v));
      const words = q.get('text')?.toLowerCase();
      const [assignees, projects, sections, followers] = [
        'assignee.any',
        'projects.any',
        'sections.any',
        'followers.any',
      ].map(list);
      const teams = list('teams.any');
      const time = (k: string) => (q.get(k) === null ? undefined : Date.parse(q.get(k) as string));
      const [cAfter, cBefore, mAfter, mBefore] = [
        'created_at.after',
        'created_at.before',
        'modified_at.after',
        'modified_at.before',
      ].map(time);
      const completed = q.get('completed');
      const subtype = q.get('resource_subtype');
      const found = env.data.tasks.filter((t) => {
        const created = Date.parse(t.created_at);
        const modified = Date.parse(t.modified_at);
        const inProjects = t.memberships.map((m) => m.project);
        return (
          t.workspace === ws.gid &&
          (words === undefined || `${t.name} ${t.notes}`.toLowerCase().includes(words)) &&
          (assignees === undefined || (t.assignee !== null && assignees.includes(t.assignee))) &&
          (projects === undefined || inProjects.some((p) => projects.includes(p))) &&
          (sections === undefined || t.memberships.some((m) => sections.includes(m.section))) &&
          (followers === undefined || t.followers.some((f) => followers.includes(f))) &&
          (teams === undefined || inProjects.some((p) => teams.includes(env.data.project(p)?.team ?? ''))) &&
          (cAfter === undefined || created > cAfter) &&
          (cBefore === undefined || created < cBefore) &&
          (mAfter === undefined || modified > mAfter) &&
          (mBefore === undefined || modified < mBefore) &&
          (completed === null || String(t.completed) === completed) &&
          (subtype === null || t.resource_subtype === subtype)
        );
      });
      const by = q.get('sort_by') ?? 'modified_at';
      const key = (t: Task) =>
        by === 'created_at'
          ? t.created_at
          : by === 'completed_at'
            ? (t.completed_at ?? '')
            : by === 'due_date'
              ? (t.due_on ?? '')
              : t.modified_at;
      found.sort((a, b) => key(a).localeCompare(key(b)));
      if (q.get('sort_ascending') !== 'true') found.reverse();
      const fields = optFields(req);
      return {
        status: 200,
        body: { data: found.slice(0, limit).map((t) => compact(env.render.task(t), fields)) },
      };
    },
  ),
];
