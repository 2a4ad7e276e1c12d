// The Linear fake's seeded workspace: deterministic (no randomness, no wall clock in records), shaped after the
// SDL's Organization, User, Team, WorkflowState, ProjectStatus, Project, Issue and Comment types. Timestamps are
// epoch ms here and ISO-8601 strings on the wire (DateTime); TimelessDate fields are `YYYY-MM-DD` strings.
// Writes (writes.ts) stamp records with `clock`, a counter that starts after every seeded timestamp and moves
// one second per write, so a later incremental sync sees them and only them.
import { createHash } from 'node:crypto';
import type {
  CommentRecord,
  IssueRecord,
  OrganizationRecord,
  ProjectRecord,
  ProjectStatusRecord,
  StateRecord,
  TeamRecord,
  UserRecord,
} from './records.ts';

export type {
  CommentRecord,
  IssueRecord,
  OrganizationRecord,
  ProjectRecord,
  ProjectStatusRecord,
  StateRecord,
  TeamRecord,
  UserRecord,
} from './records.ts';

const DAY = 86_400_000;
const HOUR = 3_600_000;
/** The first seeded issue's creation; users, teams and projects predate it. */
const BASE = Date.UTC(2024, 0, 1, 9, 0, 0);
/** Where the write clock starts: after every seeded timestamp. */
const CLOCK_START = Date.UTC(2025, 2, 1, 0, 0, 0);

/** A UUID (version-4 layout) derived from a name, so ids are the same on every run. */
export function uuid(name: string): string {
  const h = createHash('sha1').update(`linear-fake:${name}`).digest('hex');
  const variant = ((Number.parseInt(h[16] as string, 16) & 0x3) | 0x8).toString(16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

export interface SeedSizes {
  /** human users, default 32 (2 of them deactivated); one app user is added */
  users: number;
  /** issues spread over the 3 teams, default 90 */
  issues: number;
  /** projects, default 14 */
  projects: number;
}

const FIRST = ['Ada', 'Ben', 'Cleo', 'Dev', 'Eli', 'Fay', 'Gus', 'Hana', 'Ivo', 'Jun', 'Kai', 'Lena', 'Milo'];
const LAST = ['Moreau', 'Okafor', 'Lindqvist', 'Tanaka', 'Silva', 'Novak', 'Reyes', 'Brandt', 'Ishii'];
const TEAMS = [
  { key: 'ENG', name: 'Engineering', color: '#5e6ad2', icon: 'Cpu' },
  { key: 'DES', name: 'Design', color: '#f2994a', icon: 'Brush' },
  { key: 'OPS', name: 'Operations', color: '#4cb782', icon: 'Server' },
];
const STATES = [
  { name: 'Backlog', type: 'backlog', color: '#bec2c8' },
  { name: 'Todo', type: 'unstarted', color: '#e2e2e2' },
  { name: 'In Progress', type: 'started', color: '#f2c94c' },
  { name: 'In Review', type: 'started', color: '#0f783c' },
  { name: 'Done', type: 'completed', color: '#5e6ad2' },
  { name: 'Canceled', type: 'canceled', color: '#95a2b3' },
];
const PROJECT_STATUSES = [
  { name: 'Backlog', type: 'backlog', color: '#bec2c8' },
  { name: 'Planned', type: 'planned', color: '#e2e2e2' },
  { name: 'In Progress', type: 'started', color: '#f2c94c' },
  { name: 'Completed', type: 'completed', color: '#5e6ad2' },
  { name: 'Canceled', type: 'canceled', color: '#95a2b3' },
];
const PROJECT_NAMES = [
  'Billing revamp',
  'Onboarding flow',
  'Search v2',
  'Mobile offline mode',
  'Design system',
  'Status page',
  'Audit log',
  'SSO rollout',
  'Data export',
  'Cost dashboard',
  'Incident tooling',
  'Brand refresh',
  'API rate limits',
  'Workspace templates',
  'Usage analytics',
  'Accessibility pass',
];
const VERBS = ['Fix', 'Add', 'Improve', 'Remove', 'Refactor', 'Document', 'Investigate', 'Speed up'];
const OBJECTS = [
  'login redirect',
  'invoice PDF',
  'search ranking',
  'empty state',
  'CSV import',
  'webhook retries',
  'dark mode colors',
  'settings page',
  'push notifications',
  'audit export',
  'billing emails',
  'on-call rota',
];

const iso = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

export class Dataset {
  readonly organization: OrganizationRecord;
  readonly users: UserRecord[] = [];
  readonly teams: TeamRecord[] = [];
  readonly states: StateRecord[] = [];
  readonly projectStatuses: ProjectStatusRecord[] = [];
  readonly projects: ProjectRecord[] = [];
  readonly issues: IssueRecord[] = [];
  readonly comments: CommentRecord[] = [];
  /** The user an API key (and a user-actor OAuth token) acts as. */
  readonly viewer: UserRecord;
  /** The app user a client-credentials token acts as. */
  readonly appUser: UserRecord;
  /** The write clock (epoch ms): only ever moves forward, by one second per write. */
  clock = CLOCK_START;

  constructor(sizes: SeedSizes) {
    this.organization = {
      id: uuid('organization'),
      name: 'CES Fake Co',
      urlKey: 'cesfake',
      createdAt: BASE - 400 * DAY,
      updatedAt: BASE - 30 * DAY,
    };
    for (let i = 0; i < sizes.users; i++) {
      const first = FIRST[i % FIRST.length] as string;
      const last = LAST[(i * 5) % LAST.length] as string;
      const createdAt = BASE - 300 * DAY + i * 3 * DAY;
      this.users.push({
        id: uuid(`user:${i}`),
        name: `${first} ${last}`,
        displayName: `${first.toLowerCase()}${i}`,
        email: `${first.toLowerCase()}.${last.toLowerCase()}${i}@cesfake.dev`,
        active: i < sizes.users - 2,
        admin: i === 0 || i === 5,
        guest: i % 11 === 10,
        app: false,
        timezone: i % 2 === 0 ? 'Europe/Berlin' : 'America/New_York',
        description: i % 3 === 0 ? `Works on ${TEAMS[i % 3]?.name}` : null,
        createdAt,
        updatedAt: createdAt + ((i * 37) % 400) * DAY + (i % 24) * HOUR,
        lastSeen: BASE + ((i * 13) % 300) * DAY,
      });
    }
    const app: UserRecord = {
      id: uuid('user:app'),
      name: 'CES Fake App',
      displayName: 'ces-fake-app',
      email: 'ces-fake-app@oauthapp.linear.app',
      active: true,
      admin: false,
      guest: false,
      app: true,
      timezone: 'UTC',
      description: null,
      createdAt: BASE - 100 * DAY,
      updatedAt: BASE - 100 * DAY,
      lastSeen: null,
    };
    this.users.push(app);
    this.appUser = app;
    this.viewer = this.users[0] as UserRecord;

    TEAMS.forEach((t, i) => {
      const createdAt = BASE - 350 * DAY + i * 20 * DAY;
      const team: TeamRecord = {
        id: uuid(`team:${t.key}`),
        key: t.key,
        name: t.name,
        description: `${t.name} team`,
        color: t.color,
        icon: t.icon,
        timezone: 'Europe/Berlin',
        private: false,
        memberIds: this.users.filter((u, n) => !u.app && (n === 0 || n % 3 === i)).map((u) => u.id),
        createdAt,
        updatedAt: BASE + (60 + i * 90) * DAY,
      };
      this.teams.push(team);
      STATES.forEach((s, p) => {
        this.states.push({
          id: uuid(`state:${t.key}:${s.name}`),
          teamId: team.id,
          name: s.name,
          type: s.type,
          color: s.color,
          position: p,
          description: null,
          createdAt,
          updatedAt: createdAt + (p + 1) * (i + 1) * 40 * DAY,
        });
      });
    });
    PROJECT_STATUSES.forEach((s, p) => {
      this.projectStatuses.push({
        id: uuid(`project-status:${s.type}`),
        ...s,
        position: p,
        createdAt: BASE - 400 * DAY,
        updatedAt: BASE - 400 * DAY,
      });
    });

    for (let i = 0; i < sizes.projects; i++) {
      const status = this.projectStatuses[i % this.projectStatuses.length] as ProjectStatusRecord;
      const teamIds = [(this.teams[i % 3] as TeamRecord).id];
      if (i % 4 === 3) teamIds.push((this.teams[(i + 1) % 3] as TeamRecord).id);
      const createdAt = BASE - 60 * DAY + i * 5 * DAY;
      const updatedAt = createdAt + ((i % 4) * 20 + 3) * DAY;
      const lead = this.users[(i * 3) % (sizes.users - 2)] as UserRecord;
      this.projects.push({
        id: uuid(`project:${i}`),
        slugId: createHash('sha1').update(`slug:${i}`).digest('hex').slice(0, 12),
        name: PROJECT_NAMES[i % PROJECT_NAMES.length] + (i >= PROJECT_NAMES.length ? ` ${i}` : ''),
        description: `Goals and scope of project ${i + 1}.`,
        content: i % 2 === 0 ? `## Why\n\nProject ${i + 1} matters because customers asked for it.` : null,
        color: ['#5e6ad2', '#f2994a', '#4cb782', '#eb5757'][i % 4] as string,
        icon: i % 3 === 0 ? 'Rocket' : null,
        priority: i % 5,
        statusId: status.id,
        leadId: i % 5 === 4 ? null : lead.id,
        creatorId: this.viewer.id,
        teamIds,
        memberIds: [lead.id, (this.users[(i * 3 + 1) % (sizes.users - 2)] as UserRecord).id],
        startDate: iso(createdAt + 7 * DAY),
        targetDate: i % 3 === 2 ? null : iso(createdAt + 120 * DAY),
        sortOrder: i * 10,
        createdAt,
        updatedAt,
        startedAt: ['started', 'completed'].includes(status.type) ? createdAt + 7 * DAY : null,
        completedAt: status.type === 'completed' ? updatedAt : null,
        canceledAt: status.type === 'canceled' ? updatedAt : null,
      });
    }

    const numbers = new Map<string, number>();
    for (let i = 0; i < sizes.issues; i++) {
      const team = this.teams[i % 3] as TeamRecord;
      const number = (numbers.get(team.id) ?? 0) + 1;
      numbers.set(team.id, number);
      const teamStates = this.states.filter((s) => s.teamId === team.id);
      const state = teamStates[(i * 5) % teamStates.length] as StateRecord;
      const projects = this.projects.filter((p) => p.teamIds.includes(team.id));
      const createdAt = BASE + i * 7 * HOUR;
      const updatedAt = createdAt + ((i * 37) % 300) * DAY + (i % 24) * HOUR;
      this.issues.push({
        id: uuid(`issue:${i}`),
        teamId: team.id,
        number,
        title: `${VERBS[i % VERBS.length]} ${OBJECTS[(i * 7) % OBJECTS.length]}`,
        description:
          i % 6 === 5 ? null : `Steps to reproduce issue ${i + 1}:\n\n1. Open the app\n2. Look closely`,
        priority: i % 5,
        estimate: i % 3 === 0 ? null : (i % 5) + 1,
        stateId: state.id,
        assigneeId: i % 5 === 0 ? null : (this.users[(i * 7) % (sizes.users - 2)] as UserRecord).id,
        creatorId: (this.users[(i * 3) % (sizes.users - 2)] as UserRecord).id,
        projectId: i % 4 === 0 || projects.length === 0 ? null : (projects[i % projects.length]?.id ?? null),
        parentId: i % 10 === 9 ? (this.issues[i - 3]?.id ?? null) : null,
        dueDate: i % 7 === 0 ? iso(createdAt + 30 * DAY) : null,
        sortOrder: -i * 100,
        previousIdentifiers: [],
        createdAt,
        updatedAt,
        startedAt: ['started', 'completed'].includes(state.type) ? createdAt + DAY : null,
        completedAt: state.type === 'completed' ? updatedAt : null,
        canceledAt: state.type === 'canceled' ? updatedAt : null,
      });
    }

    this.issues.forEach((issue, i) => {
      for (let k = 0; k < i % 4; k++) {
        const createdAt = issue.createdAt + (k + 1) * 5 * HOUR;
        const edited = (i + k) % 5 === 0;
        const n = this.comments.length;
        this.comments.push({
          id: uuid(`comment:${n}`),
          issueId: issue.id,
          userId: (this.users[(i + k * 4) % (sizes.users - 2)] as UserRecord).id,
          body: k === 0 ? `Can reproduce this on ${TEAMS[i % 3]?.key}-staging.` : `Follow-up ${k} on this.`,
          parentId: null,
          createdAt,
          updatedAt: edited ? createdAt + 2 * DAY : createdAt,
          editedAt: edited ? createdAt + 2 * DAY : null,
        });
      }
    });
  }

  /** The next write's timestamp. */
  tick(): number {
    this.clock += 1000;
    return this.clock;
  }

  team(id: string): TeamRecord | undefined {
    return this.teams.find((t) => t.id === id);
  }
  user(id: string): UserRecord | undefined {
    return this.users.find((u) => u.id === id);
  }
  state(id: string): StateRecord | undefined {
    return this.states.find((s) => s.id === id);
  }
  projectStatus(id: string): ProjectStatusRecord | undefined {
    return this.projectStatuses.find((s) => s.id === id);
  }
  /** By id or slugId. */
  project(id: string): ProjectRecord | undefined {
    return this.projects.find((p) => p.id === id || p.slugId === id);
  }
  /** By id or identifier (`ENG-12`, case-insensitive, also a former identifier). */
  issue(idOrIdentifier: string): IssueRecord | undefined {
    const key = idOrIdentifier.toUpperCase();
    return this.issues.find(
      (i) => i.id === idOrIdentifier || this.identifier(i) === key || i.previousIdentifiers.includes(key),
    );
  }
  comment(id: string): CommentRecord | undefined {
    return this.comments.find((c) => c.id === id);
  }

  identifier(issue: IssueRecord): string {
    return `${this.team(issue.teamId)?.key ?? '???'}-${issue.number}`;
  }
  statesOf(teamId: string): StateRecord[] {
    return this.states.filter((s) => s.teamId === teamId);
  }
}
