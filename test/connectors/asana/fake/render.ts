// Asana's record shapes (the description's *Compact and *Response schemas). Lists answer the compact form,
// single reads the full one, and `opt_fields` (getTasks and every other read: "a comma-separated list of the
// properties you wish to include") answers the gid plus exactly the members named, a dotted name reaching into
// a related object (`assignee.name`), as Asana's input/output options do
// (https://developers.asana.com/docs/inputoutput-options).
import type {
  Attachment,
  Dataset,
  Project,
  Section,
  Story,
  Tag,
  Task,
  Team,
  User,
  Workspace,
} from './dataset.ts';

export type Json = Record<string, unknown>;

const ref = (resource_type: string, gid: string | null, name?: string): Json | null =>
  gid === null ? null : { gid, resource_type, ...(name === undefined ? {} : { name }) };

export class Renderer {
  constructor(
    private readonly data: Dataset,
    /** a signed download URL for an asana-hosted file (the storage host's) */
    private readonly signUrl: (key: string) => string,
  ) {}

  workspace(w: Workspace): Json {
    return {
      gid: w.gid,
      resource_type: 'workspace',
      name: w.name,
      is_organization: w.is_organization,
      email_domains: w.email_domains,
    };
  }
  user(u: User): Json {
    return {
      gid: u.gid,
      resource_type: 'user',
      name: u.name,
      email: u.email,
      photo: null,
      workspaces: u.workspaces.map((g) => ref('workspace', g, this.data.workspace(g)?.name)),
    };
  }
  team(t: Team): Json {
    return {
      gid: t.gid,
      resource_type: 'team',
      name: t.name,
      description: t.description,
      html_description: `<body>${t.description}</body>`,
      organization: ref('workspace', t.organization, this.data.workspace(t.organization)?.name),
      permalink_url: `https://app.asana.com/0/${t.gid}/overview`,
      visibility: t.visibility,
    };
  }
  project(p: Project): Json {
    return {
      gid: p.gid,
      resource_type: 'project',
      name: p.name,
      archived: p.archived,
      color: p.color,
      created_at: p.created_at,
      modified_at: p.modified_at,
      due_on: p.due_on,
      start_on: p.start_on,
      notes: p.notes,
      html_notes: `<body>${p.notes}</body>`,
      public: p.public,
      owner: ref('user', p.owner, p.owner === null ? undefined : this.data.user(p.owner)?.name),
      team: ref('team', p.team, p.team === null ? undefined : this.data.team(p.team)?.name),
      workspace: ref('workspace', p.workspace, this.data.workspace(p.workspace)?.name),
      permalink_url: `https://app.asana.com/0/${p.gid}/${p.gid}`,
    };
  }
  section(s: Section): Json {
    return {
      gid: s.gid,
      resource_type: 'section',
      name: s.name,
      created_at: s.created_at,
      project: ref('project', s.project, this.data.project(s.project)?.name),
    };
  }
  tag(t: Tag): Json {
    return {
      gid: t.gid,
      resource_type: 'tag',
      name: t.name,
      color: t.color,
      notes: t.notes,
      created_at: t.created_at,
      followers: [],
      workspace: ref('workspace', t.workspace, this.data.workspace(t.workspace)?.name),
      permalink_url: `https://app.asana.com/0/${t.gid}/list`,
    };
  }
  task(t: Task): Json {
    const subtasks = this.data.tasks.filter((s) => s.parent === t.gid).length;
    return {
      gid: t.gid,
      resource_type: 'task',
      name: t.name,
      resource_subtype: t.resource_subtype,
      notes: t.notes,
      html_notes: `<body>${t.notes}</body>`,
      completed: t.completed,
      completed_at: t.completed_at,
      assignee: ref('user', t.assignee, t.assignee === null ? undefined : this.data.user(t.assignee)?.name),
      due_on: t.due_on,
      due_at: t.due_at,
      start_on: t.start_on,
      created_at: t.created_at,
      modified_at: t.modified_at,
      num_subtasks: subtasks,
      parent: t.parent === null ? null : ref('task', t.parent, this.data.task(t.parent)?.name),
      projects: t.memberships.map((m) => ref('project', m.project, this.data.project(m.project)?.name)),
      memberships: t.memberships.map((m) => ({
        project: ref('project', m.project, this.data.project(m.project)?.name),
        section: ref('section', m.section, this.data.section(m.section)?.name),
      })),
      tags: t.tags.map((g) => ref('tag', g, this.data.tag(g)?.name)),
      dependencies: t.dependencies.map((g) => ref('task', g)),
      dependents: this.data.tasks
        .filter((o) => o.dependencies.includes(t.gid))
        .map((o) => ref('task', o.gid)),
      followers: t.followers.map((g) => ref('user', g, this.data.user(g)?.name)),
      workspace: ref('workspace', t.workspace, this.data.workspace(t.workspace)?.name),
      permalink_url: `https://app.asana.com/0/0/${t.gid}`,
    };
  }
  story(s: Story): Json {
    return {
      gid: s.gid,
      resource_type: 'story',
      resource_subtype: 'comment_added',
      type: 'comment',
      text: s.text,
      html_text: `<body>${s.text}</body>`,
      created_at: s.created_at,
      created_by: ref('user', s.created_by, this.data.user(s.created_by)?.name),
      is_edited: false,
      is_pinned: false,
      target: ref('task', s.task, this.data.task(s.task)?.name),
    };
  }
  attachment(a: Attachment): Json {
    const parent = this.data.task(a.parent) ?? this.data.project(a.parent);
    const hosted = a.host === 'asana' && a.key !== undefined;
    return {
      gid: a.gid,
      resource_type: 'attachment',
      name: a.name,
      resource_subtype: hosted ? 'asana' : a.host === 'gdrive' ? 'gdrive' : 'dropbox',
      host: a.host,
      size: a.size,
      created_at: a.created_at,
      connected_to_app: false,
      download_url: hosted ? this.signUrl(a.key as string) : null,
      permanent_url: `https://app.asana.com/app/asana/-/get_asset?asset_id=${a.gid}`,
      view_url: hosted ? null : `https://${a.host}.example/view/${a.gid}`,
      parent: ref(this.data.task(a.parent) ? 'task' : 'project', a.parent, parent?.name),
    };
  }
}

/** The compact members of each resource type (the description's *Compact schemas). */
const COMPACT: Record<string, string[]> = {
  task: ['name', 'resource_subtype'],
  attachment: ['name', 'resource_subtype'],
  story: ['created_at', 'created_by', 'resource_subtype', 'text'],
};

/** A full record as a list answers it: its compact members, or with `opt_fields` the members named. */
export function compact(full: Json, optFields: string[] | undefined): Json {
  if (optFields !== undefined) return select(full, optFields);
  const type = String(full.resource_type);
  const keep = COMPACT[type] ?? ['name'];
  const out: Json = { gid: full.gid, resource_type: type };
  for (const k of keep) if (k in full) out[k] = full[k];
  return out;
}

/** A full record as a single read answers it: whole, or with `opt_fields` the members named. */
export function full(record: Json, optFields: string[] | undefined): Json {
  return optFields === undefined ? record : select(record, optFields);
}

/** The gid plus each named member; `a.b` keeps `b` of the related object (or of each element) at `a`. */
function select(record: Json, fields: string[]): Json {
  const out: Json = { gid: record.gid };
  const nested = new Map<string, string[]>();
  for (const field of fields) {
    const [head, ...rest] = field.split('.');
    if (head === undefined || !(head in record)) continue;
    const list = nested.get(head) ?? [];
    if (rest.length > 0) list.push(rest.join('.'));
    nested.set(head, list);
  }
  for (const [head, subs] of nested) {
    const value = record[head];
    const pick = (v: unknown): unknown => {
      if (typeof v !== 'object' || v === null || Array.isArray(v)) return v;
      const obj = v as Json;
      if (!('gid' in obj)) return subs.length === 0 ? obj : select(obj, subs);
      return subs.length === 0 ? { gid: obj.gid, resource_type: obj.resource_type } : select(obj, subs);
    };
    out[head] = Array.isArray(value) ? value.map(pick) : pick(value);
  }
  return out;
}
