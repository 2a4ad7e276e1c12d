// Deterministic seeded data for the Jira fake: the same options always give the same ids, keys, names and
// timestamps (no randomness, no clock). Shapes follow the reference's schemas (User, Project, IssueBean fields,
// Comment, Worklog, Attachment, IssueLink); rendering to the wire lives in render.ts.
//   - users: `users` (default 36): 34 Atlassian accounts (every 9th inactive) and 2 app accounts; user 0 is the
//     credential's owner (JIRA_FAKE_EMAIL), the one /myself answers.
//   - projects: ENG (id 10000, software, lead user 1) and OPS (id 10001, business, lead user 2).
//   - issues: `issues` (default 64), ids from 10001, alternating ENG/OPS (ENG gets the odd indexes' rest), created
//     every 9 hours from 2024-01-01T09:00Z; `updated` = created + ((i * 37) % 240) hours, so update order differs
//     from creation order. The last 4 are sub-tasks of ENG-1 and ENG-3.
//   - comments on every 3rd issue (1-5 each) and 12 on ENG-1; worklogs on every 4th issue and 7 on ENG-1;
//     one attachment on every 5th issue; 3 issue links.
import { ISSUE_TYPES, PRIORITIES, RESOLUTION_DONE, STATUSES } from './catalog.ts';
import { buildFields, type FieldDef, RANK, START_DATE, STORY_POINTS } from './fields.ts';
import { type Adf, adf, JIRA_FAKE_EMAIL } from './wire.ts';

export interface UserRec {
  accountId: string;
  displayName: string;
  email: string;
  active: boolean;
  accountType: 'atlassian' | 'app';
  timeZone: string;
  locale: string;
}

export interface ProjectRec {
  id: string;
  key: string;
  name: string;
  description: string;
  leadAccountId: string;
  projectTypeKey: 'software' | 'business';
  categoryId: string;
  uuid: string;
}

export interface IssueRec {
  id: string;
  key: string;
  projectId: string;
  issueTypeId: string;
  statusId: string;
  priorityId: string;
  resolutionId: string | null;
  summary: string;
  description: Adf | null;
  environment: Adf | null;
  labels: string[];
  assigneeId: string | null;
  reporterId: string;
  creatorId: string;
  created: number;
  updated: number;
  statusCategoryChanged: number;
  resolutionDate: number | null;
  duedate: string | null;
  parentId: string | null;
  originalEstimate: number | null;
  remainingEstimate: number | null;
  custom: Record<string, unknown>;
  votes: number;
  watchCount: number;
}

export interface CommentRec {
  id: string;
  issueId: string;
  authorId: string;
  updateAuthorId: string;
  body: Adf;
  created: number;
  updated: number;
  visibility?: { type: string; value: string; identifier: string };
}

export interface WorklogRec {
  id: string;
  issueId: string;
  authorId: string;
  updateAuthorId: string;
  comment: Adf | null;
  created: number;
  updated: number;
  started: number;
  timeSpentSeconds: number;
}

export interface AttachmentRec {
  id: string;
  issueId: string;
  authorId: string;
  filename: string;
  mimeType: string;
  created: number;
  /** the Media Services file id the content redirect points to */
  mediaId: string;
  bytes: Buffer;
}

export interface LinkRec {
  id: string;
  typeId: string;
  inwardIssueId: string;
  outwardIssueId: string;
}

export * from './catalog.ts';

const FIRST = [
  'Ada',
  'Bruno',
  'Chen',
  'Dana',
  'Emeka',
  'Farah',
  'Goran',
  'Hana',
  'Ivo',
  'Jun',
  'Kemal',
  'Lena',
];
const LAST = ['Okafor', 'Lindqvist', 'Moreau', 'Tanaka', 'Silva', 'Novak', 'Haddad'];
const TOPICS = [
  'login',
  'billing',
  'search',
  'export',
  'webhooks',
  'dashboard',
  'notifications',
  'audit log',
];
const VERBS = ['Fix', 'Improve', 'Add', 'Refactor', 'Document', 'Investigate'];
const HOUR = 3600_000;
const EPOCH = Date.UTC(2024, 0, 1, 9, 0, 0);

export interface DatasetOptions {
  users: number;
  issues: number;
  customFields: number;
}

export class Dataset {
  readonly users: UserRec[] = [];
  readonly projects: ProjectRec[] = [];
  readonly fields: FieldDef[];
  readonly issues: IssueRec[] = [];
  readonly comments: CommentRec[] = [];
  readonly worklogs: WorklogRec[] = [];
  readonly attachments: AttachmentRec[] = [];
  readonly links: LinkRec[] = [];
  private nextId = { issue: 10001, comment: 10000, worklog: 10000, attachment: 10000, link: 10000 };
  private nextNumber: Record<string, number> = {};

  constructor(opts: DatasetOptions) {
    this.fields = buildFields(opts.customFields);
    for (let i = 0; i < opts.users; i++) this.users.push(seedUser(i, opts.users));
    const lead = (n: number) => (this.users[n] ?? this.users[0] ?? seedUser(0, 1)).accountId;
    this.projects.push(
      {
        id: '10000',
        key: 'ENG',
        name: 'Engineering',
        description: 'Product engineering work.',
        leadAccountId: lead(1),
        projectTypeKey: 'software',
        categoryId: '10000',
        uuid: 'a3f1c7e2-0000-4000-8000-000000010000',
      },
      {
        id: '10001',
        key: 'OPS',
        name: 'Operations',
        description: 'Operations and support requests.',
        leadAccountId: lead(2),
        projectTypeKey: 'business',
        categoryId: '10001',
        uuid: 'a3f1c7e2-0000-4000-8000-000000010001',
      },
    );
    const people = this.users.filter((u) => u.accountType === 'atlassian' && u.active);
    const person = (n: number) => (people[n % people.length] as UserRec).accountId;
    const subtasks = Math.min(4, Math.max(0, opts.issues - 4));
    for (let i = 0; i < opts.issues; i++) {
      const isSub = i >= opts.issues - subtasks;
      const project = (isSub ? this.projects[0] : this.projects[i % 3 === 2 ? 1 : 0]) as ProjectRec;
      const created = EPOCH + i * 9 * HOUR;
      const updated = created + ((i * 37) % 240) * HOUR + (i % 7) * 60_000;
      const status = STATUSES[i % 3] as (typeof STATUSES)[number];
      const type = isSub ? ISSUE_TYPES[4] : (ISSUE_TYPES[i % 4] as (typeof ISSUE_TYPES)[number]);
      const topic = TOPICS[i % TOPICS.length] as string;
      const issue = this.addIssue(project, {
        issueTypeId: type.id,
        statusId: status.id,
        priorityId: (PRIORITIES[i % 5] as (typeof PRIORITIES)[number]).id,
        summary: `${VERBS[i % VERBS.length]} ${topic} (${i + 1})`,
        description:
          i % 6 === 5 ? null : adf(`The ${topic} flow needs attention.`, `Seeded issue number ${i + 1}.`),
        labels: i % 4 === 0 ? [topic.replace(' ', '-'), 'seeded'] : [],
        assigneeId: i % 5 === 4 ? null : person(i),
        reporterId: person(i + 3),
        created,
        updated,
        parentId: null,
        duedate: i % 4 === 1 ? new Date(created + 14 * 24 * HOUR).toISOString().slice(0, 10) : null,
        originalEstimate: i % 2 === 0 ? 4 * 3600 : null,
        custom: {
          [START_DATE]: i % 3 === 0 ? new Date(created).toISOString().slice(0, 10) : null,
          [STORY_POINTS]: type.name === 'Story' ? (i % 8) + 1 : null,
          [RANK]: `0|i000${(i + 10).toString(36)}:`,
        },
      });
      if (status.category === 3) {
        issue.resolutionId = RESOLUTION_DONE.id;
        issue.resolutionDate = updated;
      }
      issue.statusCategoryChanged = status.category === 2 ? created : updated;
      if (isSub) issue.parentId = (this.issues[i - (opts.issues - subtasks) < 2 ? 0 : 3] as IssueRec).id;
    }
    this.seedActivity(person);
  }

  private seedActivity(person: (n: number) => string): void {
    this.issues.forEach((issue, i) => {
      const comments = i === 0 ? 12 : i % 3 === 0 ? (i % 5) + 1 : 0;
      for (let c = 0; c < comments; c++) {
        const at = issue.created + (c + 1) * 30 * 60_000;
        this.comments.push({
          id: String(this.nextId.comment++),
          issueId: issue.id,
          authorId: person(i + c),
          updateAuthorId: person(i + c),
          body: adf(`Comment ${c + 1} on ${issue.key}.`),
          created: at,
          updated: c % 4 === 3 ? at + 2 * HOUR : at,
          ...(c === 2
            ? { visibility: { type: 'role', value: 'Administrators', identifier: 'Administrators' } }
            : {}),
        });
      }
      const worklogs = i === 0 ? 7 : i % 4 === 0 ? (i % 3) + 1 : 0;
      for (let w = 0; w < worklogs; w++) {
        const started = issue.created + (w + 1) * 4 * HOUR;
        this.worklogs.push({
          id: String(this.nextId.worklog++),
          issueId: issue.id,
          authorId: person(i + w + 1),
          updateAuthorId: person(i + w + 1),
          comment: w % 2 === 0 ? adf(`Worked on ${issue.key}, session ${w + 1}.`) : null,
          created: started + HOUR,
          updated: started + HOUR,
          started,
          timeSpentSeconds: (w + 1) * 1800,
        });
      }
      if (i % 5 === 0) {
        const ext = (['txt', 'csv', 'json', 'log'] as const)[i % 4] as 'txt' | 'csv' | 'json' | 'log';
        const mime = { txt: 'text/plain', csv: 'text/csv', json: 'application/json', log: 'text/plain' }[ext];
        this.addAttachment(
          issue,
          person(i),
          `${issue.key.toLowerCase()}-notes.${ext}`,
          mime,
          issue.created + HOUR,
        );
      }
    });
    const byIndex = (n: number) => this.issues[n]?.id;
    for (const [type, from, to] of [
      ['10000', 0, 3],
      ['10003', 1, 2],
      ['10002', 6, 9],
    ] as const) {
      const a = byIndex(from);
      const b = byIndex(to);
      if (a && b) this.addLink(type, a, b);
    }
  }

  addIssue(
    project: ProjectRec,
    init: Omit<
      IssueRec,
      | 'id'
      | 'key'
      | 'projectId'
      | 'creatorId'
      | 'statusCategoryChanged'
      | 'resolutionId'
      | 'resolutionDate'
      | 'environment'
      | 'remainingEstimate'
      | 'votes'
      | 'watchCount'
    > &
      Partial<Pick<IssueRec, 'environment' | 'creatorId'>>,
  ): IssueRec {
    const number = (this.nextNumber[project.key] ?? 0) + 1;
    this.nextNumber[project.key] = number;
    const issue: IssueRec = {
      id: String(this.nextId.issue++),
      key: `${project.key}-${number}`,
      projectId: project.id,
      creatorId: init.creatorId ?? init.reporterId,
      statusCategoryChanged: init.created,
      resolutionId: null,
      resolutionDate: null,
      environment: null,
      remainingEstimate: init.originalEstimate,
      votes: 0,
      watchCount: 1,
      ...init,
    };
    this.issues.push(issue);
    return issue;
  }

  addAttachment(issue: IssueRec, authorId: string, filename: string, mimeType: string, created: number) {
    const id = String(this.nextId.attachment++);
    const lines = Array.from(
      { length: 40 },
      (_, n) => `${filename} line ${n + 1}: seeded content for ${issue.key}`,
    );
    const rec: AttachmentRec = {
      id,
      issueId: issue.id,
      authorId,
      filename,
      mimeType,
      created,
      mediaId: `5e1ad0c4-7a1b-4c2d-9e3f-${id.padStart(12, '0')}`,
      bytes: Buffer.from(`${lines.join('\n')}\n`),
    };
    this.attachments.push(rec);
    return rec;
  }

  addLink(typeId: string, inwardIssueId: string, outwardIssueId: string): LinkRec {
    const link = { id: String(this.nextId.link++), typeId, inwardIssueId, outwardIssueId };
    this.links.push(link);
    return link;
  }

  addComment(rec: Omit<CommentRec, 'id'>): CommentRec {
    const comment = { id: String(this.nextId.comment++), ...rec };
    this.comments.push(comment);
    return comment;
  }

  addWorklog(rec: Omit<WorklogRec, 'id'>): WorklogRec {
    const worklog = { id: String(this.nextId.worklog++), ...rec };
    this.worklogs.push(worklog);
    return worklog;
  }

  /** An issue by id or key (keys case-insensitively, as Jira looks them up). */
  issue(idOrKey: string): IssueRec | undefined {
    const upper = idOrKey.toUpperCase();
    return this.issues.find((i) => i.id === idOrKey || i.key === upper);
  }

  project(idOrKey: string): ProjectRec | undefined {
    return this.projects.find((p) => p.id === idOrKey || p.key === idOrKey);
  }

  user(accountId: string): UserRec | undefined {
    return this.users.find((u) => u.accountId === accountId);
  }

  deleteIssue(issue: IssueRec): void {
    const drop = <T>(list: T[], pred: (t: T) => boolean) => {
      for (let n = list.length - 1; n >= 0; n--) if (pred(list[n] as T)) list.splice(n, 1);
    };
    drop(this.issues, (i) => i.id === issue.id);
    drop(this.comments, (c) => c.issueId === issue.id);
    drop(this.worklogs, (w) => w.issueId === issue.id);
    drop(this.attachments, (a) => a.issueId === issue.id);
    drop(this.links, (l) => l.inwardIssueId === issue.id || l.outwardIssueId === issue.id);
  }
}

function seedUser(i: number, total: number): UserRec {
  const app = i >= total - 2 && total > 4;
  const first = FIRST[i % FIRST.length] as string;
  const last = LAST[i % LAST.length] as string;
  const hex = (0x5b10a2 + i).toString(16);
  if (app) {
    const name = i === total - 1 ? 'Automation for Jira' : 'Jira Service Management Widget';
    return {
      accountId: `557058:f58131cb-b67d-43c7-b30d-6b58d40bd0${String(i).padStart(2, '0')}`,
      displayName: name,
      email: '',
      active: true,
      accountType: 'app',
      timeZone: 'UTC',
      locale: 'en_US',
    };
  }
  return {
    accountId: `${hex}844c20165700ede${String(i).padStart(3, '0')}`,
    displayName: i === 0 ? 'CES Bot' : `${first} ${last}`,
    email: i === 0 ? JIRA_FAKE_EMAIL : `${first.toLowerCase()}.${last.toLowerCase()}${i}@example.com`,
    active: i === 0 || i % 9 !== 0,
    accountType: 'atlassian',
    timeZone: 'UTC',
    locale: 'en_US',
  };
}
