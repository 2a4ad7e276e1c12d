// The Notion fake's workspace: a deterministic seed (fixed ids from seededId, fixed timestamps; no randomness)
// stored in plain records that render.ts turns into Notion's objects for the request's API version. Writes
// (writes.ts) change these records in place, so later reads see them.
//   users        30 people + 4 bots (the first bot is the integration's own, answered by GET /users/me)
//   pages        6 top-level pages, 10 sub-pages, 5 rows in each of the 8 data sources (56 pages)
//   databases    7 databases under "Team Home" (one, "Roadmap", holds two data sources) → 8 data sources
//   blocks       130 top-level blocks under "Engineering Handbook" (headings, text, lists, a toggle with
//                children, file/image/pdf blocks), a few under every other page
//   comments     24 page comments on the handbook (6 discussions), block comments, 2 on each other top page
// Timestamps start 2024-01-01T00:00Z and spread over the year, minute-rounded like Notion's.
import { seedBlocks, seedComments } from './seed-content.ts';
import { seededId } from './wire.ts';

export const BASE_TIME = Date.UTC(2024, 0, 1);
const HOUR = 3_600_000;
const MINUTE = 60_000;

export interface UserRec {
  id: string;
  type: 'person' | 'bot';
  name: string;
  avatar_url: string | null;
  email?: string;
}

export type PageParent =
  | { type: 'workspace' }
  | { type: 'page_id'; page_id: string }
  | { type: 'data_source_id'; data_source_id: string };

export interface Stamped {
  created_time: number;
  last_edited_time: number;
  created_by: string;
  last_edited_by: string;
}

/** A page row's property values (besides the title and the computed timestamps). */
export interface RowValues {
  Status: string | null;
  Tags: string[];
  Owner: string[];
  Due: string | null;
  Done: boolean;
}

export interface PageRec extends Stamped {
  id: string;
  parent: PageParent;
  title: string;
  icon: string | null;
  row?: RowValues;
  in_trash: boolean;
}

export interface DatabaseRec extends Stamped {
  id: string;
  title: string;
  parentPageId: string;
  is_inline: boolean;
  dataSourceIds: string[];
  in_trash: boolean;
}

export interface DataSourceRec extends Stamped {
  id: string;
  databaseId: string;
  title: string;
  description: string;
  in_trash: boolean;
}

export interface FileRef {
  /** the object key on the file host: `<workspace>/<file id>/<name>` */
  key: string;
  name: string;
  contentType: string;
}

export interface BlockRec extends Stamped {
  id: string;
  /** the page or block the block sits under */
  parentId: string;
  parentType: 'page_id' | 'block_id';
  type: string;
  /** the type-specific payload (`paragraph: {...}`); file blocks keep `file` (a FileRef) out of it */
  content: Record<string, unknown>;
  file?: FileRef;
  in_trash: boolean;
}

export interface CommentRec {
  id: string;
  parent: { type: 'page_id'; page_id: string } | { type: 'block_id'; block_id: string };
  discussion_id: string;
  created_time: number;
  last_edited_time: number;
  created_by: string;
  text: string;
}

export const SELECT_OPTIONS = [
  { name: 'Not started', color: 'default' },
  { name: 'In progress', color: 'blue' },
  { name: 'Done', color: 'green' },
] as const;
export const TAG_OPTIONS = [
  { name: 'urgent', color: 'red' },
  { name: 'backend', color: 'purple' },
  { name: 'frontend', color: 'yellow' },
  { name: 'docs', color: 'gray' },
] as const;

const FIRST = [
  'Ada',
  'Ben',
  'Chloe',
  'Dev',
  'Elena',
  'Farid',
  'Grace',
  'Hugo',
  'Iris',
  'Jonas',
  'Keiko',
  'Liam',
  'Maya',
  'Nils',
  'Olga',
];
const LAST = [
  'Okafor',
  'Lindqvist',
  'Moreau',
  'Patel',
  'Rossi',
  'Haddad',
  'Hopper',
  'Silva',
  'Tanaka',
  'Berg',
];
const DATABASES: Array<{ title: string; sources: string[] }> = [
  { title: 'Tasks', sources: ['Tasks'] },
  { title: 'Projects', sources: ['Projects'] },
  { title: 'Meeting notes', sources: ['Meeting notes'] },
  { title: 'Roadmap', sources: ['Features', 'Releases'] },
  { title: 'Bugs', sources: ['Bugs'] },
  { title: 'Hiring', sources: ['Candidates'] },
  { title: 'Reading list', sources: ['Reading list'] },
];
const TOP_PAGES = [
  'Team Home',
  'Engineering Handbook',
  'Company Wiki',
  'Onboarding',
  'Design System',
  'Q3 Planning',
];
const ROW_WORDS = ['Migrate', 'Review', 'Draft', 'Ship', 'Audit', 'Plan', 'Fix', 'Write', 'Test', 'Refine'];
const ROW_NOUNS = [
  'billing flow',
  'search index',
  'launch post',
  'API limits',
  'sync job',
  'style guide',
  'on-call rota',
  'pricing page',
];

export class Dataset {
  readonly workspaceId = seededId('workspace');
  readonly workspaceName = 'Acme Fake Workspace';
  readonly users: UserRec[] = [];
  readonly pages: PageRec[] = [];
  readonly databases: DatabaseRec[] = [];
  readonly dataSources: DataSourceRec[] = [];
  readonly blocks = new Map<string, BlockRec>();
  readonly comments: CommentRec[] = [];
  /** Ordered child ids (blocks, child pages, child databases) of each page or block. */
  readonly children = new Map<string, string[]>();
  /** The integration's own bot user. */
  readonly bot: UserRec;
  /** The page holding the 130-block body. */
  readonly handbookId: string;

  constructor() {
    for (let i = 0; i < 30; i++) {
      const first = FIRST[i % FIRST.length] as string;
      const last = LAST[(i * 7) % LAST.length] as string;
      const id = seededId('user', i);
      this.users.push({
        id,
        type: 'person',
        name: `${first} ${last}`,
        avatar_url:
          i % 3 === 0 ? null : `https://s3-us-west-2.amazonaws.com/public.notion-static.com/${id}/avatar.png`,
        email: `${first}.${last}${i >= FIRST.length ? i : ''}@acme.test`.toLowerCase(),
      });
    }
    for (const [i, name] of ['CES Sync', 'Slack', 'GitHub', 'Jira Cloud'].entries())
      this.users.push({ id: seededId('bot', i), type: 'bot', name, avatar_url: null });
    this.bot = this.users[30] as UserRec;

    let seq = 0;
    const stamp = (): Stamped => {
      const k = seq++;
      const created = BASE_TIME + k * 31 * HOUR + ((k * 17) % 60) * MINUTE;
      return {
        created_time: created,
        last_edited_time: created + ((k * 37) % 240) * HOUR + (k % 60) * MINUTE,
        created_by: this.person(k).id,
        last_edited_by: this.person(k * 3 + 1).id,
      };
    };

    const tops = TOP_PAGES.map((title, i) =>
      this.addPage(seededId('page', title), { type: 'workspace' }, title, stamp(), i),
    );
    const home = tops[0] as PageRec;
    this.handbookId = (tops[1] as PageRec).id;
    for (let i = 0; i < 10; i++) {
      const parent = tops[2 + (i % 4)] as PageRec;
      const page = this.addPage(
        seededId('subpage', i),
        { type: 'page_id', page_id: parent.id },
        `${parent.title} — part ${i + 1}`,
        stamp(),
        i,
      );
      this.childrenOf(parent.id).push(page.id);
    }
    let row = 0;
    for (const [d, spec] of DATABASES.entries()) {
      const db: DatabaseRec = {
        id: seededId('database', d),
        title: spec.title,
        parentPageId: home.id,
        is_inline: d % 2 === 1,
        dataSourceIds: [],
        in_trash: false,
        ...stamp(),
      };
      this.databases.push(db);
      this.childrenOf(home.id).push(db.id);
      for (const [s, title] of spec.sources.entries()) {
        const ds: DataSourceRec = {
          id: seededId('data_source', d, s),
          databaseId: db.id,
          title,
          description: `Everything about ${title.toLowerCase()}.`,
          in_trash: false,
          ...stamp(),
        };
        db.dataSourceIds.push(ds.id);
        this.dataSources.push(ds);
      }
    }
    for (let r = 0; r < 5; r++) {
      for (const ds of this.dataSources) {
        const title = `${ROW_WORDS[row % ROW_WORDS.length]} ${ROW_NOUNS[(row * 3) % ROW_NOUNS.length]} #${row + 1}`;
        const page = this.addPage(
          seededId('row', ds.id, r),
          { type: 'data_source_id', data_source_id: ds.id },
          title,
          stamp(),
          row,
        );
        page.row = {
          Status: row % 4 === 3 ? null : (SELECT_OPTIONS[row % 3] as { name: string }).name,
          Tags: TAG_OPTIONS.filter((_, t) => (row + t) % 3 === 0).map((o) => o.name),
          Owner: row % 5 === 4 ? [] : [this.person(row * 2).id],
          Due:
            row % 6 === 5
              ? null
              : new Date(BASE_TIME + (40 + row * 5) * 24 * HOUR).toISOString().slice(0, 10),
          Done: row % 3 === 2,
        };
        row++;
      }
    }
    seedBlocks(this);
    seedComments(this);
  }

  person(n: number): UserRec {
    return this.users[((n % 30) + 30) % 30] as UserRec;
  }

  childrenOf(id: string): string[] {
    let list = this.children.get(id);
    if (list === undefined) {
      list = [];
      this.children.set(id, list);
    }
    return list;
  }

  user(id: string): UserRec | undefined {
    return this.users.find((u) => u.id === id);
  }
  page(id: string): PageRec | undefined {
    return this.pages.find((p) => p.id === id);
  }
  database(id: string): DatabaseRec | undefined {
    return this.databases.find((d) => d.id === id);
  }
  dataSource(id: string): DataSourceRec | undefined {
    return this.dataSources.find((d) => d.id === id);
  }
  block(id: string): BlockRec | undefined {
    return this.blocks.get(id);
  }

  addPage(id: string, parent: PageParent, title: string, stamps: Stamped, n: number): PageRec {
    const page: PageRec = { id, parent, title, icon: n % 3 === 0 ? '📄' : null, in_trash: false, ...stamps };
    this.pages.push(page);
    return page;
  }

  addBlock(block: Omit<BlockRec, 'in_trash'>, after?: string): BlockRec {
    const rec: BlockRec = { ...block, in_trash: false };
    this.blocks.set(rec.id, rec);
    const list = this.childrenOf(rec.parentId);
    const at = after === undefined ? -1 : list.indexOf(after);
    if (at < 0) list.push(rec.id);
    else list.splice(at + 1, 0, rec.id);
    return rec;
  }
}
