// Asana cases of the definition-driven suite, over the Asana fake's seeded dataset
// (test/connectors/asana/fake/dataset.ts), its gids read from the dataset rather than spelled out. Lists give a
// small `limit` so every paged list spans pages. Refusals come from the fake itself: a gid it does not know (404
// "Unknown object"), a request Asana rejects (400), the search of a workspace without premium (402); lists with
// no id to get wrong are refused by an injected 403.
import type { Cases } from '../suite/types.ts';
import type { Dataset, Project, Section, Tag, Task, User, Workspace } from './fake/dataset.ts';

/** A well-formed gid that names nothing. */
export const MISSING_GID = '1199999999999999';

const notFound = 'UPSTREAM_NOT_FOUND' as const;
const forbidden = (match: string) => ({
  params: {},
  code: 'UPSTREAM_FORBIDDEN' as const,
  fault: { status: 403, match },
});

export function asanaCases(data: Dataset): Cases {
  const [acme, side] = data.workspaces as [Workspace, Workspace];
  const [p0, p1, , p3] = data.projects as [Project, Project, Project, Project];
  const doomedProject = data.projects[7] as Project;
  const emptySection = data.sections.find(
    (s) => s.project === data.projects[8]?.gid && data.tasksOfSection(s.gid).length === 0,
  ) as Section;
  const tasks0 = data.tasksOfProject(p0.gid).filter((t) => t.parent === null);
  const lead = tasks0[0] as Task;
  const section0 = data.sections.find((s) => s.project === p0.gid) as Section;
  const doomedTask = data.tasksOfProject(p3.gid)[0] as Task;
  const [urgent, blocked] = data.tags as [Tag, Tag];
  const doomedTag = data.tags[7] as Tag;
  const team0 = data.teams[0];
  const hosted = data.attachments.find((a) => a.host === 'asana' && a.size < 100_000);
  const person = data.users[1] as User;
  if (!emptySection || !team0 || !hosted || tasks0.length < 14)
    throw new Error('the Asana fake seeded too few sections, teams, attachments or tasks');
  const missing = (param: string, extra: Record<string, unknown> = {}) => ({
    params: { [param]: MISSING_GID, ...extra },
    code: notFound,
  });
  return {
    'workspaces.list': { happy: { limit: 1 }, error: forbidden('/api/1.0/workspaces') },
    'workspaces.get': { happy: { workspace_gid: acme.gid }, error: missing('workspace_gid') },
    'workspace_memberships.create': {
      happy: { workspace_gid: side.gid, data: { user: person.email } },
      error: missing('workspace_gid', { data: { user: person.gid } }),
    },
    'users.list': { happy: { limit: 10 }, error: missing('workspace') },
    'users.get': { happy: { user_gid: person.gid }, error: missing('user_gid') },
    'workspace_users.list': {
      happy: { workspace_gid: acme.gid },
      error: missing('workspace_gid'),
      single_page: 'getUsersForWorkspace takes no limit: Asana answers up to 2,000 users at once',
    },
    'teams.list': { happy: { workspace_gid: acme.gid, limit: 2 }, error: missing('workspace_gid') },
    'teams.get': { happy: { team_gid: team0.gid }, error: missing('team_gid') },
    'workspace_teams.list': { happy: { workspace_gid: acme.gid, limit: 3 }, error: missing('workspace_gid') },
    'user_teams.list': {
      happy: { user_gid: 'me', organization: acme.gid, limit: 2 },
      error: { params: { user_gid: 'me', organization: MISSING_GID }, code: notFound },
    },
    'team_users.list': {
      happy: { team_gid: team0.gid },
      error: missing('team_gid'),
      single_page: 'getUsersForTeam takes no limit: Asana answers up to 2,000 members at once',
    },
    'projects.list': { happy: { workspace: acme.gid, limit: 4 }, error: missing('workspace') },
    'projects.get': { happy: { project_gid: p0.gid }, error: missing('project_gid') },
    'projects.create': {
      happy: { data: { name: 'Written by the suite', workspace: acme.gid, team: team0.gid } },
      // In an organization a project needs a team: 400.
      error: { params: { data: { name: 'No team', workspace: acme.gid } }, code: 'INVALID_PARAMS' },
    },
    'projects.update': {
      happy: { project_gid: p1.gid, data: { notes: 'Updated by the suite.' } },
      error: missing('project_gid', { data: { name: 'x' } }),
    },
    'projects.delete': { happy: { project_gid: doomedProject.gid }, error: missing('project_gid') },
    'workspace_projects.list': {
      happy: { workspace_gid: acme.gid, limit: 3 },
      error: missing('workspace_gid'),
    },
    'team_projects.list': { happy: { team_gid: team0.gid, limit: 1 }, error: missing('team_gid') },
    'task_projects.list': { happy: { task_gid: lead.gid, limit: 1 }, error: missing('task_gid') },
    'sections.list': { happy: { project_gid: p0.gid, limit: 2 }, error: missing('project_gid') },
    'sections.get': { happy: { section_gid: section0.gid }, error: missing('section_gid') },
    'sections.update': {
      happy: { section_gid: section0.gid, data: { name: 'Backlog' } },
      error: missing('section_gid', { data: { name: 'x' } }),
    },
    'sections.delete': {
      happy: { section_gid: emptySection.gid },
      // A section holding tasks can't be deleted: 400.
      error: { params: { section_gid: section0.gid }, code: 'INVALID_PARAMS' },
    },
    'project_sections.list': { happy: { project_gid: p1.gid, limit: 2 }, error: missing('project_gid') },
    'project_sections.create': {
      happy: { project_gid: p1.gid, data: { name: 'In review' } },
      error: missing('project_gid', { data: { name: 'x' } }),
    },
    'tasks.list': {
      happy: { project: p0.gid, limit: 20 },
      // Neither a project, a section nor assignee + workspace: 400.
      error: { params: { workspace: acme.gid }, code: 'INVALID_PARAMS' },
    },
    'tasks.get': { happy: { task_gid: lead.gid }, error: missing('task_gid') },
    'tasks.create': {
      happy: { data: { name: 'Filed by the suite', projects: [p0.gid], notes: 'From the suite.' } },
      error: { params: { data: { name: 'Nowhere' } }, code: 'INVALID_PARAMS' },
    },
    'tasks.update': {
      happy: { task_gid: (tasks0[4] as Task).gid, data: { completed: true } },
      error: missing('task_gid', { data: { completed: true } }),
    },
    'tasks.delete': { happy: { task_gid: doomedTask.gid }, error: missing('task_gid') },
    'project_tasks.list': { happy: { project_gid: p0.gid, limit: 20 }, error: missing('project_gid') },
    'section_tasks.list': { happy: { section_gid: section0.gid, limit: 6 }, error: missing('section_gid') },
    'section_tasks.create': {
      happy: { section_gid: section0.gid, data: { task: (tasks0[1] as Task).gid } },
      error: { params: { section_gid: section0.gid, data: { task: MISSING_GID } }, code: notFound },
    },
    'tag_tasks.list': { happy: { tag_gid: urgent.gid, limit: 4 }, error: missing('tag_gid') },
    'task_subtasks.list': { happy: { task_gid: lead.gid, limit: 3 }, error: missing('task_gid') },
    'task_dependencies.list': {
      happy: { task_gid: (tasks0[1] as Task).gid, limit: 3 },
      error: missing('task_gid'),
    },
    'task_dependents.list': {
      happy: { task_gid: (tasks0[2] as Task).gid, limit: 2 },
      error: missing('task_gid'),
    },
    'task_stories.create': {
      happy: { task_gid: lead.gid, data: { text: 'Checked by the suite.' } },
      error: missing('task_gid', { data: { text: 'Lost' } }),
    },
    'task_tags.create': {
      happy: { task_gid: lead.gid, data: { tag: blocked.gid } },
      error: { params: { task_gid: lead.gid, data: { tag: MISSING_GID } }, code: notFound },
    },
    'task_tags.delete': {
      happy: { task_gid: lead.gid, data: { tag: urgent.gid } },
      error: { params: { task_gid: MISSING_GID, data: { tag: urgent.gid } }, code: notFound },
    },
    'tags.list': { happy: { workspace: acme.gid, limit: 3 }, error: missing('workspace') },
    'tags.get': { happy: { tag_gid: urgent.gid }, error: missing('tag_gid') },
    'tags.update': {
      happy: { tag_gid: blocked.gid, data: { color: 'dark-orange' } },
      error: missing('tag_gid', { data: { name: 'x' } }),
    },
    'tags.delete': { happy: { tag_gid: doomedTag.gid }, error: missing('tag_gid') },
    'workspace_tags.list': { happy: { workspace_gid: acme.gid, limit: 3 }, error: missing('workspace_gid') },
    'workspace_tags.create': {
      happy: { workspace_gid: acme.gid, data: { name: 'suite' } },
      error: missing('workspace_gid', { data: { name: 'x' } }),
    },
    'workspace_task_search.list': {
      happy: { workspace_gid: acme.gid, text: 'sprocket', limit: 10 },
      // Side Projects is not a premium workspace: Asana answers 402, a permission.
      error: { params: { workspace_gid: side.gid, text: 'sprocket' }, code: 'UPSTREAM_FORBIDDEN' },
    },
    'attachments.list': { happy: { parent: lead.gid, limit: 5 }, error: missing('parent') },
    'attachments.get': { happy: { attachment_gid: hosted.gid }, error: missing('attachment_gid') },
    'attachments.download': { happy: { attachment_gid: hosted.gid }, error: missing('attachment_gid') },
  };
}
