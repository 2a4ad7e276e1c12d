// The fake account's records, deterministic so tests can assert exact values: 5 users (the admin every accepted
// credential authenticates as, 2 agents, 2 end users), 2 organizations, 2 groups and 30 tickets. Every ticket
// has its description as first comment; ticket 1 has 3 comments carrying 3 attachments.
import { createHash } from 'node:crypto';

export type Role = 'end-user' | 'agent' | 'admin';
export const STATUSES = ['new', 'open', 'pending', 'hold', 'solved', 'closed'] as const;
export const PRIORITIES = ['urgent', 'high', 'normal', 'low'] as const;
export const TYPES = ['problem', 'incident', 'question', 'task'] as const;
export type Status = (typeof STATUSES)[number];

export interface UserRecord {
  id: number;
  name: string;
  email: string;
  role: Role;
  organizationId: number | null;
  defaultGroupId: number | null;
  externalId: string | null;
  createdAt: number;
  updatedAt: number;
}

export interface OrganizationRecord {
  id: number;
  name: string;
  domainNames: string[];
  externalId: string | null;
  createdAt: number;
  updatedAt: number;
}

export interface GroupRecord {
  id: number;
  name: string;
  description: string;
  isDefault: boolean;
  createdAt: number;
  updatedAt: number;
}

export interface AttachmentRecord {
  id: number;
  fileName: string;
  contentType: string;
  /** The path segment of content_url; also what the storage host checks. */
  token: string;
  bytes: Buffer;
  width: number | null;
  height: number | null;
}

export interface CommentRecord {
  id: number;
  auditId: number;
  authorId: number;
  body: string;
  public: boolean;
  createdAt: number;
  attachments: AttachmentRecord[];
}

export interface TicketRecord {
  id: number;
  subject: string;
  status: Status;
  priority: (typeof PRIORITIES)[number] | null;
  type: (typeof TYPES)[number] | null;
  requesterId: number;
  submitterId: number;
  assigneeId: number | null;
  groupId: number | null;
  organizationId: number | null;
  tags: string[];
  externalId: string | null;
  dueAt: number | null;
  createdAt: number;
  updatedAt: number;
  comments: CommentRecord[];
}

const T0 = Date.parse('2024-03-01T09:00:00Z');
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

export const ADMIN_ID = 372000000001;
export const AGENT_IDS = [372000000002, 372000000003] as const;
export const END_USER_IDS = [372000000004, 372000000005] as const;
export const ORGANIZATION_IDS = [360000100001, 360000100002] as const;
export const GROUP_IDS = [360000200001, 360000200002] as const;

// The smallest valid PNG (1x1, transparent), so an image attachment is a real image.
const PNG_1X1 = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);

export class Dataset {
  readonly users: UserRecord[];
  readonly organizations: OrganizationRecord[];
  readonly groups: GroupRecord[];
  readonly tickets: TicketRecord[] = [];
  private nextCommentId = 8000000001;
  private nextAuditId = 7000000001;
  private nextAttachmentId = 9000000001;

  constructor(readonly adminEmail: string) {
    const at = (days: number) => T0 - days * DAY;
    this.organizations = [
      {
        id: ORGANIZATION_IDS[0],
        name: 'Acme Corp',
        domainNames: ['acme.example'],
        externalId: 'ACME-1',
        createdAt: at(400),
        updatedAt: at(30),
      },
      {
        id: ORGANIZATION_IDS[1],
        name: 'Globex',
        domainNames: ['globex.example'],
        externalId: null,
        createdAt: at(380),
        updatedAt: at(20),
      },
    ];
    this.groups = [
      {
        id: GROUP_IDS[0],
        name: 'Support',
        description: 'First line support',
        isDefault: true,
        createdAt: at(500),
        updatedAt: at(100),
      },
      {
        id: GROUP_IDS[1],
        name: 'Billing',
        description: 'Invoices and refunds',
        isDefault: false,
        createdAt: at(450),
        updatedAt: at(90),
      },
    ];
    const user = (
      id: number,
      name: string,
      email: string,
      role: Role,
      org: number | null,
      group: number | null,
    ) => ({
      id,
      name,
      email,
      role,
      organizationId: org,
      defaultGroupId: group,
      externalId: null,
      createdAt: at(365 - (id % 10)),
      updatedAt: at(10 - (id % 10)),
    });
    this.users = [
      user(ADMIN_ID, 'Avery Admin', adminEmail, 'admin', null, GROUP_IDS[0]),
      user(AGENT_IDS[0], 'Blake Agent', 'blake.agent@ces-demo.example', 'agent', null, GROUP_IDS[0]),
      user(AGENT_IDS[1], 'Casey Agent', 'casey.agent@ces-demo.example', 'agent', null, GROUP_IDS[1]),
      {
        ...user(END_USER_IDS[0], 'Dana Customer', 'dana@acme.example', 'end-user', ORGANIZATION_IDS[0], null),
        externalId: 'crm-1001',
      },
      user(END_USER_IDS[1], 'Emery Customer', 'emery@globex.example', 'end-user', ORGANIZATION_IDS[1], null),
    ];
    this.seedTickets(30);
    this.attachToFirstTicket();
  }

  /** Adds `count` generated tickets after the last one. */
  seedTickets(count: number): void {
    for (let i = 0; i < count; i++) {
      const id = (this.tickets.at(-1)?.id ?? 0) + 1;
      const requester = END_USER_IDS[id % 2] as number;
      const status = STATUSES[(id - 1) % STATUSES.length] as Status;
      const createdAt = T0 + (id - 1) * 6 * HOUR;
      const ticket: TicketRecord = {
        id,
        subject: `Ticket ${id}: ${SUBJECTS[(id - 1) % SUBJECTS.length]}`,
        status,
        priority: id % 5 === 0 ? null : (PRIORITIES[id % 4] ?? null),
        type: id % 7 === 0 ? null : (TYPES[id % 4] ?? null),
        requesterId: requester,
        submitterId: requester,
        assigneeId: status === 'new' ? null : (AGENT_IDS[id % 2] as number),
        groupId: GROUP_IDS[id % 2] as number,
        organizationId: this.user(requester)?.organizationId ?? null,
        tags: id % 3 === 0 ? ['vip', 'web'] : ['web'],
        externalId: id % 10 === 0 ? `ext-${id}` : null,
        dueAt: null,
        createdAt,
        // Distinct for every id and not in id order, so sorting by updated_at is observable.
        updatedAt: T0 + 10 * DAY + ((id * 7) % 30) * HOUR + Math.floor((id - 1) / 30) * 30 * HOUR,
        comments: [],
      };
      ticket.comments.push(
        this.comment(requester, `Hello, ${ticket.subject.toLowerCase()}. Please help.`, true, createdAt),
      );
      this.tickets.push(ticket);
    }
  }

  comment(
    authorId: number,
    body: string,
    isPublic: boolean,
    createdAt: number,
    attachments: AttachmentRecord[] = [],
  ) {
    return {
      id: this.nextCommentId++,
      auditId: this.nextAuditId++,
      authorId,
      body,
      public: isPublic,
      createdAt,
      attachments,
    };
  }

  nextAudit(): number {
    return this.nextAuditId++;
  }

  ticket(id: number) {
    return this.tickets.find((t) => t.id === id);
  }

  user(id: number) {
    return this.users.find((u) => u.id === id);
  }

  organization(id: number) {
    return this.organizations.find((o) => o.id === id);
  }

  group(id: number) {
    return this.groups.find((g) => g.id === id);
  }

  attachment(id: number) {
    return this.allAttachments().find((a) => a.id === id);
  }

  attachmentByToken(token: string) {
    return this.allAttachments().find((a) => a.token === token);
  }

  private allAttachments(): AttachmentRecord[] {
    return this.tickets.flatMap((t) => t.comments.flatMap((c) => c.attachments));
  }

  private file(
    fileName: string,
    contentType: string,
    bytes: Buffer,
    size?: { width: number; height: number },
  ) {
    const id = this.nextAttachmentId++;
    // Zendesk tokens are opaque 25-character strings; derived from the id so runs are reproducible.
    const token = createHash('sha256').update(`attachment-${id}`).digest('base64url').slice(0, 25);
    return {
      id,
      fileName,
      contentType,
      token,
      bytes,
      width: size?.width ?? null,
      height: size?.height ?? null,
    };
  }

  private attachToFirstTicket(): void {
    const ticket = this.tickets[0] as TicketRecord;
    const first = ticket.comments[0] as CommentRecord;
    const log = Buffer.from(
      Array.from(
        { length: 40 },
        (_, i) => `2024-03-01T08:${String(i).padStart(2, '0')}:00Z ERROR printer ${i}: on fire\n`,
      ).join(''),
    );
    first.attachments.push(
      this.file('crash.log', 'text/plain', log),
      this.file('screenshot.png', 'image/png', PNG_1X1, { width: 1, height: 1 }),
    );
    ticket.comments.push(
      this.comment(AGENT_IDS[1], 'Thanks, we are looking into it.', true, ticket.createdAt + 2 * HOUR),
      this.comment(AGENT_IDS[1], 'Internal: escalated to hardware.', false, ticket.createdAt + 3 * HOUR, [
        this.file('notes.pdf', 'application/pdf', Buffer.from('%PDF-1.4\n% fake pdf for ces tests\n%%EOF\n')),
      ]),
    );
  }
}

const SUBJECTS = [
  'printer on fire',
  'cannot log in',
  'refund request',
  'invoice missing',
  'feature request',
  'slow dashboard',
];
