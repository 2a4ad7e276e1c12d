// The Asana fake's data: two organizations with their users, teams, projects, sections, tasks (with subtasks,
// dependencies, tags and comments) and attachments, seeded deterministically. Gids are numeric strings as Asana's
// are (16 digits), timestamps ISO 8601 with milliseconds (Asana's `created_at`/`modified_at` form).

export type Gid = string;

export interface Workspace {
  gid: Gid;
  name: string;
  is_organization: boolean;
  email_domains: string[];
  /** the advanced search needs a premium workspace (searchTasksForWorkspace: 402 otherwise) */
  premium: boolean;
}
export interface User {
  gid: Gid;
  name: string;
  email: string;
  workspaces: Gid[];
}
export interface Team {
  gid: Gid;
  name: string;
  description: string;
  organization: Gid;
  visibility: 'secret' | 'request_to_join' | 'public';
  members: Gid[];
}
export interface Project {
  gid: Gid;
  name: string;
  notes: string;
  archived: boolean;
  color: string | null;
  created_at: string;
  modified_at: string;
  due_on: string | null;
  start_on: string | null;
  owner: Gid | null;
  team: Gid | null;
  workspace: Gid;
  public: boolean;
}
export interface Section {
  gid: Gid;
  name: string;
  project: Gid;
  created_at: string;
}
export interface Tag {
  gid: Gid;
  name: string;
  color: string | null;
  notes: string;
  workspace: Gid;
  created_at: string;
}
export interface Task {
  gid: Gid;
  name: string;
  notes: string;
  resource_subtype: 'default_task' | 'milestone' | 'approval';
  completed: boolean;
  completed_at: string | null;
  assignee: Gid | null;
  due_on: string | null;
  due_at: string | null;
  start_on: string | null;
  created_at: string;
  modified_at: string;
  workspace: Gid;
  parent: Gid | null;
  /** project gid -> section gid */
  memberships: Array<{ project: Gid; section: Gid }>;
  tags: Gid[];
  dependencies: Gid[];
  followers: Gid[];
}
export interface Story {
  gid: Gid;
  task: Gid;
  text: string;
  created_by: Gid;
  created_at: string;
}
export interface Attachment {
  gid: Gid;
  name: string;
  parent: Gid;
  /** asana: the file is on Asana's storage; others are links to another service (no download_url) */
  host: 'asana' | 'gdrive' | 'dropbox';
  size: number;
  created_at: string;
  /** the storage key of an asana-hosted file */
  key?: string;
}

export interface DatasetOptions {
  /** tasks of the first project (the one paged through); default 45 */
  tasksInFirstProject?: number;
  /** size of the large attachment, bytes; default 11 MiB (above ces's 10 MB test bound) */
  largeFileBytes?: number;
}

const BASE = Date.UTC(2024, 0, 8, 9, 0, 0);
const HOUR = 3_600_000;
const iso = (ms: number) => new Date(ms).toISOString();
const day = (ms: number) => iso(ms).slice(0, 10);

const FIRST = [
  'Ada',
  'Ben',
  'Chloé',
  'Dev',
  'Erin',
  'Farid',
  'Grace',
  'Hiro',
  'Ines',
  'Jonas',
  'Kemi',
  'Luis',
];
const LAST = ['Okafor', 'Lindqvist', 'Moreau', 'Patel', 'Nakamura', 'Haddad', 'Silva', 'Kowalski'];

export class Dataset {
  readonly workspaces: Workspace[] = [];
  readonly users: User[] = [];
  readonly teams: Team[] = [];
  readonly projects: Project[] = [];
  readonly sections: Section[] = [];
  readonly tags: Tag[] = [];
  readonly tasks: Task[] = [];
  readonly stories: Story[] = [];
  readonly attachments: Attachment[] = [];
  /** the authenticated user (GET /users/me) */
  readonly me: User;
  readonly largeFileBytes: number;
  private next = 1_206_000_000_000_000;

  constructor(opts: DatasetOptions = {}) {
    this.largeFileBytes = opts.largeFileBytes ?? 11 * 1024 * 1024;
    const acme = this.add(this.workspaces, {
      name: 'Acme Corp',
      is_organization: true,
      email_domains: ['acme.example'],
      premium: true,
    });
    const side = this.add(this.workspaces, {
      name: 'Side Projects',
      is_organization: true,
      email_domains: ['side.example'],
      premium: false,
    });
    for (let i = 0; i < 34; i++) {
      const first = FIRST[i % FIRST.length] as string;
      const last = LAST[(i * 5) % LAST.length] as string;
      this.add(this.users, {
        name: `${first} ${last}`,
        email: `${first.toLowerCase().replace('é', 'e')}.${last.toLowerCase()}${i}@acme.example`,
        workspaces: i % 4 === 0 ? [acme.gid, side.gid] : [acme.gid],
      });
    }
    this.me = this.users[0] as User;
    const teamNames = ['Engineering', 'Design', 'Marketing', 'Operations'];
    teamNames.forEach((name, i) => {
      this.add(this.teams, {
        name,
        description: `The ${name.toLowerCase()} team of Acme.`,
        organization: acme.gid,
        visibility: i === 3 ? 'secret' : 'public',
        members: this.users.filter((_, u) => u % teamNames.length === i || u === 0).map((u) => u.gid),
      });
    });
    this.add(this.teams, {
      name: 'Weekend crew',
      description: 'Side projects.',
      organization: side.gid,
      visibility: 'public',
      members: this.users.filter((u) => u.workspaces.includes(side.gid)).map((u) => u.gid),
    });
    const colors = ['dark-green', 'light-blue', null, 'dark-orange', 'light-purple'];
    for (let i = 0; i < 9; i++) {
      const team = i < 7 ? (this.teams[i % 4] as Team) : (this.teams[4] as Team);
      const created = BASE + i * 24 * HOUR;
      this.add(this.projects, {
        name: [
          'Website relaunch',
          'Q3 roadmap',
          'Brand refresh',
          'Hiring pipeline',
          'Mobile app',
          'Office move',
          'Legacy billing',
          'Garden shed',
          'Board game',
        ][i] as string,
        notes: `Project ${i + 1}: goals, owners and the plan.`,
        archived: i === 6,
        color: colors[i % colors.length] ?? null,
        created_at: iso(created),
        modified_at: iso(created + 6 * HOUR),
        due_on: i % 2 === 0 ? day(created + 60 * 24 * HOUR) : null,
        start_on: null,
        owner: team.members[0] ?? null,
        team: team.gid,
        workspace: team.organization,
        public: true,
      });
    }
    for (const project of this.projects) {
      for (const name of ['To do', 'Doing', 'Done'])
        this.add(this.sections, { name, project: project.gid, created_at: project.created_at });
    }
    const tagNames = [
      'urgent',
      'blocked',
      'customer',
      'design-review',
      'tech-debt',
      'quick-win',
      'q3',
      'later',
    ];
    tagNames.forEach((name, i) => {
      this.add(this.tags, {
        name,
        color: i % 3 === 0 ? 'dark-red' : null,
        notes: `Tasks marked ${name}.`,
        workspace: i < 7 ? acme.gid : side.gid,
        created_at: iso(BASE + i * HOUR),
      });
    });
    const counts = [opts.tasksInFirstProject ?? 45, 12, 8, 6, 6, 4, 3, 3, 2];
    this.projects.forEach((project, p) => {
      const sections = this.sections.filter((s) => s.project === project.gid);
      for (let t = 0; t < (counts[p] ?? 2); t++) this.seedTask(project, sections, t, p);
    });
    const first = this.tasks.filter((t) => t.memberships[0]?.project === this.projects[0]?.gid);
    // Subtasks of the first task, dependencies between the next ones.
    const lead = first[0] as Task;
    for (let s = 0; s < 7; s++)
      this.add(this.tasks, {
        ...this.blankTask(lead.workspace, `Subtask ${s + 1} of ${lead.name}`, BASE + (200 + s) * HOUR),
        parent: lead.gid,
      });
    for (let d = 2; d < 9; d++) (first[1] as Task).dependencies.push((first[d] as Task).gid);
    for (let d = 10; d < 14; d++) (first[d] as Task).dependencies.push((first[2] as Task).gid);
    // The lead task is in the second project too (a task may be in several).
    const second = this.projects[1] as Project;
    const secondSection = this.sections.find((s) => s.project === second.gid) as Section;
    lead.memberships.push({ project: second.gid, section: secondSection.gid });
    // Comments, and attachments: files on Asana's storage (one larger than 10 MB) and linked ones.
    for (let c = 0; c < 3; c++)
      this.add(this.stories, {
        task: lead.gid,
        text: `Comment ${c + 1} on the lead task.`,
        created_by: this.me.gid,
        created_at: iso(BASE + (300 + c) * HOUR),
      });
    const files: Array<[string, Attachment['host'], number]> = [
      ['spec.pdf', 'asana', 48_213],
      ['mockup.png', 'asana', 20_480],
      ['recording.mp4', 'asana', this.largeFileBytes],
      ['Budget (Drive).xlsx', 'gdrive', 0],
      ['notes.txt', 'asana', 1_337],
      ['contract.docx', 'dropbox', 0],
    ];
    for (let a = 0; a < 14; a++) {
      const [name, host, size] = files[a % files.length] as [string, Attachment['host'], number];
      const gid = this.gid();
      this.attachments.push({
        gid,
        name: a < files.length ? name : `${a}-${name}`,
        parent: lead.gid,
        host,
        size,
        created_at: iso(BASE + (400 + a) * HOUR),
        ...(host === 'asana' ? { key: `${gid}/${name}` } : {}),
      });
    }
    this.add(this.attachments, {
      name: 'roadmap-brief.pdf',
      parent: (this.projects[1] as Project).gid,
      host: 'asana',
      size: 9_001,
      created_at: iso(BASE + 500 * HOUR),
      key: 'project/roadmap-brief.pdf',
    });
  }

  gid(): Gid {
    this.next += 7;
    return String(this.next);
  }

  /** Adds a record with a fresh gid. */
  add<T extends { gid: Gid }>(into: T[], record: Omit<T, 'gid'>): T {
    const full = { gid: this.gid(), ...record } as T;
    into.push(full);
    return full;
  }

  blankTask(workspace: Gid, name: string, createdMs: number): Omit<Task, 'gid'> {
    return {
      name,
      notes: '',
      resource_subtype: 'default_task',
      completed: false,
      completed_at: null,
      assignee: null,
      due_on: null,
      due_at: null,
      start_on: null,
      created_at: iso(createdMs),
      modified_at: iso(createdMs),
      workspace,
      parent: null,
      memberships: [],
      tags: [],
      dependencies: [],
      followers: [],
    };
  }

  private seedTask(project: Project, sections: Section[], t: number, p: number): void {
    const created = BASE + (p * 50 + t) * HOUR;
    const done = t % 4 === 3;
    const members = this.users.filter((u) => u.workspaces.includes(project.workspace));
    const tagsHere = this.tags.filter((g) => g.workspace === project.workspace);
    this.add(this.tasks, {
      ...this.blankTask(project.workspace, `${project.name}: step ${t + 1}`, created),
      notes: `Seeded task ${t + 1} of ${project.name}. Check the sprocket alignment.`,
      resource_subtype: t % 10 === 9 ? 'milestone' : 'default_task',
      completed: done,
      completed_at: done ? iso(created + 30 * HOUR) : null,
      assignee: t % 3 === 2 ? null : ((members[t % members.length] as User).gid ?? null),
      due_on: t % 2 === 0 ? day(created + 14 * 24 * HOUR) : null,
      modified_at: iso(created + (done ? 30 : 2) * HOUR),
      memberships: [{ project: project.gid, section: (sections[t % sections.length] as Section).gid }],
      tags: t % 5 === 0 && tagsHere[0] ? [tagsHere[0].gid] : [],
      followers: [this.me.gid],
    });
  }

  workspace(gid: Gid): Workspace | undefined {
    return this.workspaces.find((w) => w.gid === gid);
  }
  user(ref: string): User | undefined {
    if (ref === 'me') return this.me;
    return this.users.find((u) => u.gid === ref || u.email === ref);
  }
  team(gid: Gid): Team | undefined {
    return this.teams.find((t) => t.gid === gid);
  }
  project(gid: Gid): Project | undefined {
    return this.projects.find((p) => p.gid === gid);
  }
  section(gid: Gid): Section | undefined {
    return this.sections.find((s) => s.gid === gid);
  }
  tag(gid: Gid): Tag | undefined {
    return this.tags.find((t) => t.gid === gid);
  }
  task(gid: Gid): Task | undefined {
    return this.tasks.find((t) => t.gid === gid);
  }
  attachment(gid: Gid): Attachment | undefined {
    return this.attachments.find((a) => a.gid === gid);
  }
  /** Tasks of a project (its memberships), in the order they were added. */
  tasksOfProject(project: Gid): Task[] {
    return this.tasks.filter((t) => t.memberships.some((m) => m.project === project));
  }
  tasksOfSection(section: Gid): Task[] {
    return this.tasks.filter((t) => t.memberships.some((m) => m.section === section));
  }
}
