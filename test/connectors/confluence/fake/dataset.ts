// The Confluence fake's site, seeded deterministically: spaces (one personal), pages in a tree under each space's
// homepage, blog posts, attachments on pages, groups and an audit log. Ids are numeric strings as Cloud answers
// them (attachments `att` + digits), account ids 24 hex digits, times fixed from SEED_TIME one hour apart.
import { createHash } from 'node:crypto';

export const SEED_TIME = Date.UTC(2024, 0, 1, 9, 0, 0);
const HOUR = 3_600_000;

export interface UserRec {
  accountId: string;
  displayName: string;
  email: string;
}

export interface SpaceRec {
  id: string;
  key: string;
  name: string;
  type: 'global' | 'personal' | 'collaboration' | 'knowledge_base';
  status: 'current' | 'archived';
  authorId: string;
  createdAt: number;
  homepageId: string;
  description: string;
  labels: string[];
}

export interface VersionRec {
  number: number;
  createdAt: number;
  authorId: string;
  message: string;
  minorEdit: boolean;
}

export interface ContentRec {
  kind: 'page' | 'blogpost';
  id: string;
  title: string;
  status: 'current' | 'archived' | 'trashed' | 'deleted' | 'draft';
  spaceId: string;
  parentId: string | null;
  authorId: string;
  ownerId: string;
  createdAt: number;
  version: VersionRec;
  /** storage format (XHTML) */
  storage: string;
}

export interface AttachmentRec {
  id: string;
  title: string;
  mediaType: string;
  pageId: string;
  fileId: string;
  createdAt: number;
  version: VersionRec;
  comment: string;
  bytes: Buffer;
}

export interface GroupRec {
  id: string;
  name: string;
}

export interface AuditRec {
  creationDate: number;
  summary: string;
  description: string;
  category: string;
  authorId: string;
  remoteAddress: string;
  object: { name: string; objectType: string };
  changed: Array<{ name: string; oldValue: string; newValue: string }>;
}

export interface DatasetOptions {
  spaces: number;
  pages: number;
  blogPosts: number;
  groups: number;
  audit: number;
  /** the size of one more attachment (its bytes made on demand), for large downloads; default none */
  largeAttachmentBytes?: number;
}

export class Dataset {
  readonly users: UserRec[] = [];
  readonly spaces: SpaceRec[] = [];
  readonly content: ContentRec[] = [];
  readonly attachments: AttachmentRec[] = [];
  readonly groups: GroupRec[] = [];
  /** newest first, as the audit log answers */
  readonly audit: AuditRec[] = [];
  private nextId = 98_305;

  constructor(opts: DatasetOptions) {
    for (let i = 0; i < 6; i++)
      this.users.push({
        accountId: hex(`user-${i}`, 24),
        displayName: ['Ada Ops', 'Grace Docs', 'Linus Eng', 'Ken Support', 'Barbara QA', 'Edsger Bot'][
          i
        ] as string,
        email: `user${i}@example.com`,
      });
    const person = (i: number) => this.users[i % this.users.length] as UserRec;
    const names = ['Engineering', 'Support Handbook', 'Product', 'Design Reviews', 'Marketing', 'Legal'];
    for (let s = 0; s < opts.spaces; s++) {
      const personal = s === opts.spaces - 1 && opts.spaces > 1;
      const author = person(s);
      const space: SpaceRec = {
        id: this.id(),
        key: personal
          ? `~${author.accountId}`
          : (names[s % names.length] as string).slice(0, 3).toUpperCase() + s,
        name: personal ? author.displayName : (names[s % names.length] as string),
        type: personal ? 'personal' : 'global',
        status: 'current',
        authorId: author.accountId,
        createdAt: SEED_TIME - (opts.spaces - s) * 24 * HOUR,
        homepageId: '',
        description: personal ? '' : `Notes and decisions of the ${names[s % names.length]} team.`,
        labels: s % 2 === 0 ? ['team'] : [],
      };
      this.spaces.push(space);
      const home = this.addContent(
        'page',
        space,
        null,
        `${space.name} Home`,
        space.createdAt,
        author.accountId,
      );
      space.homepageId = home.id;
    }
    const topics = [
      'Runbook',
      'Onboarding',
      'Release notes',
      'Incident review',
      'Architecture',
      'Roadmap',
      'FAQ',
    ];
    for (let i = 0; i < opts.pages; i++) {
      const space = this.spaces[i % this.spaces.length] as SpaceRec;
      const siblings = this.content.filter((c) => c.kind === 'page' && c.spaceId === space.id);
      const parent =
        i % 3 === 2 && siblings.length > 1 ? (siblings.at(-1) as ContentRec).id : space.homepageId;
      const page = this.addContent(
        'page',
        space,
        parent,
        `${topics[i % topics.length]} ${i + 1}`,
        SEED_TIME + i * HOUR,
        person(i).accountId,
      );
      if (i % 10 === 4) page.status = 'archived';
      if (i % 5 === 1) page.version = { ...page.version, number: 3, createdAt: page.createdAt + 30 * HOUR };
    }
    for (let i = 0; i < opts.blogPosts; i++) {
      const space = this.spaces[i % this.spaces.length] as SpaceRec;
      this.addContent(
        'blogpost',
        space,
        null,
        `Week ${i + 1} update`,
        SEED_TIME + (i * 7 + 3) * HOUR,
        person(i + 2).accountId,
      );
    }
    const pages = this.content.filter((c) => c.kind === 'page' && c.parentId !== null);
    const kinds = [
      ['diagram.png', 'image/png'],
      ['minutes.pdf', 'application/pdf'],
      ['export.csv', 'text/csv'],
    ] as const;
    for (let i = 0; i < 6 && pages.length > 0; i++) {
      const [name, type] = kinds[i % kinds.length] as (typeof kinds)[number];
      const title = `${i + 1}-${name}`;
      this.addAttachment(
        pages[(i * 7) % pages.length] as ContentRec,
        title,
        type,
        fileBytes(title, 2048 + i * 517),
      );
    }
    if (opts.largeAttachmentBytes !== undefined && pages[0] !== undefined)
      this.addAttachment(
        pages[0],
        'site-backup.zip',
        'application/zip',
        fileBytes('site-backup.zip', opts.largeAttachmentBytes),
      );
    const groupNames = [
      'confluence-users',
      'confluence-administrators',
      'site-admins',
      'engineering',
      'support',
    ];
    for (let i = 0; i < opts.groups; i++)
      this.groups.push({
        id: uuid(`group-${i}`),
        name: i < groupNames.length ? (groupNames[i] as string) : `team-${String(i).padStart(3, '0')}`,
      });
    this.groups.sort((a, b) => a.name.localeCompare(b.name));
    const events = [
      ['Space exported', 'Import/Export', 'space'],
      ['User added to group', 'Users and groups', 'group'],
      ['Page restrictions changed', 'Permissions', 'page'],
      ['App installed', 'Apps', 'app'],
    ] as const;
    for (let i = 0; i < opts.audit; i++) {
      const [summary, category, objectType] = events[i % events.length] as (typeof events)[number];
      this.audit.push({
        creationDate: SEED_TIME + i * 17 * 60_000,
        summary,
        description: `${summary}: record ${i + 1}.`,
        category,
        authorId: person(i).accountId,
        remoteAddress: `203.0.113.${(i % 250) + 1}`,
        object: { name: `${objectType}-${i + 1}`, objectType },
        changed: i % 2 === 0 ? [{ name: 'state', oldValue: '', newValue: `value-${i}` }] : [],
      });
    }
    this.audit.reverse();
  }

  id(): string {
    this.nextId += 1;
    return String(this.nextId);
  }

  user(accountId: string): UserRec | undefined {
    return this.users.find((u) => u.accountId === accountId);
  }

  space(id: string): SpaceRec | undefined {
    return this.spaces.find((s) => s.id === id);
  }

  find(kind: ContentRec['kind'], id: string): ContentRec | undefined {
    return this.content.find((c) => c.kind === kind && c.id === id);
  }

  addContent(
    kind: ContentRec['kind'],
    space: SpaceRec,
    parentId: string | null,
    title: string,
    at: number,
    authorId: string,
    storage = `<p>${title}: written for the ${space.name} space.</p>`,
    status: ContentRec['status'] = 'current',
  ): ContentRec {
    const rec: ContentRec = {
      kind,
      id: this.id(),
      title,
      status,
      spaceId: space.id,
      parentId,
      authorId,
      ownerId: authorId,
      createdAt: at,
      version: { number: 1, createdAt: at, authorId, message: '', minorEdit: false },
      storage,
    };
    this.content.push(rec);
    return rec;
  }

  /** A new version of a page or blog post (what an edit in Confluence does), stamped `at`. */
  edit(rec: ContentRec, at: number, storage: string): void {
    rec.storage = storage;
    rec.version = { ...rec.version, number: rec.version.number + 1, createdAt: at };
  }

  private addAttachment(page: ContentRec, title: string, mediaType: string, bytes: Buffer): void {
    const at = page.createdAt + HOUR;
    this.attachments.push({
      id: `att${this.id()}`,
      title,
      mediaType,
      pageId: page.id,
      fileId: uuid(`file-${title}`),
      createdAt: at,
      version: { number: 1, createdAt: at, authorId: page.authorId, message: '', minorEdit: false },
      comment: `Uploaded with ${page.title}`,
      bytes,
    });
  }
}

function hex(seed: string, length: number): string {
  return createHash('sha256').update(seed).digest('hex').slice(0, length);
}

function uuid(seed: string): string {
  const h = hex(seed, 32);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** Deterministic bytes of a file: the same name and size give the same content. */
export function fileBytes(name: string, size: number): Buffer {
  const out = Buffer.alloc(size);
  const seed = createHash('sha256').update(name).digest();
  for (let i = 0; i < size; i++) out[i] = ((seed[i % seed.length] as number) ^ (i * 31 + (i >>> 8))) & 0xff;
  return out;
}
