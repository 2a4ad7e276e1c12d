// Records of dataset.ts as Notion's objects, per API version. Shapes follow Notion's object reference pages
// (developers.notion.com/reference/user, /page, /page-property-values, /database, /data-source, /block,
// /file-object, /comment-object) and the examples of notion.json (get-self, retrieve-a-comment):
//   - 2025-09-03: a row page's parent is `{type: "data_source_id", data_source_id, database_id}`; a database
//     lists its `data_sources` (`{id, name}`) and the schema lives on the data source object.
//   - 2022-06-28: a row page's parent is `{type: "database_id", database_id}` and a database carries the schema
//     (`properties`) itself.
//   - Hosted files (`type: "file"`) carry a signed `url` that stops working at `expiry_time` (an hour later); the
//     URL is minted when the object is answered, as Notion does.
import {
  type BlockRec,
  type CommentRec,
  type DatabaseRec,
  type DataSourceRec,
  type Dataset,
  type FileRef,
  type PageRec,
  SELECT_OPTIONS,
  TAG_OPTIONS,
  type UserRec,
} from './dataset.ts';
import { minuteIso, type NotionVersion, richText, seededId } from './wire.ts';

/** A short-lived signed URL for a hosted file, and when it stops working (ISO). */
export type FileSigner = (file: FileRef) => { url: string; expiry_time: string };

/** Property ids of the shared data-source schema (Notion's are short, URL-encoded strings; the title's is "title"). */
export const PROPERTY_IDS: Record<string, string> = {
  Name: 'title',
  Status: '%3DzXs',
  Tags: 'Fg%5Bk',
  Owner: 'oWn%3E',
  Due: 'd%3Bue',
  Done: 'D%3Fne',
  'Last edited': 'LeT%40',
  Created: 'CrT%3A',
};

const option = (o: { name: string; color: string }) => ({
  id: seededId('option', o.name),
  name: o.name,
  color: o.color,
});

function schemaProperties(): Record<string, unknown> {
  const prop = (name: string, type: string, config: unknown = {}) => ({
    id: PROPERTY_IDS[name],
    name,
    description: null,
    type,
    [type]: config,
  });
  return {
    Name: prop('Name', 'title'),
    Status: prop('Status', 'select', {
      options: SELECT_OPTIONS.map((o) => ({ ...option(o), description: null })),
    }),
    Tags: prop('Tags', 'multi_select', {
      options: TAG_OPTIONS.map((o) => ({ ...option(o), description: null })),
    }),
    Owner: prop('Owner', 'people'),
    Due: prop('Due', 'date'),
    Done: prop('Done', 'checkbox'),
    'Last edited': prop('Last edited', 'last_edited_time'),
    Created: prop('Created', 'created_time'),
  };
}

export function optionByName(kind: 'select' | 'multi_select', name: string) {
  const list: ReadonlyArray<{ name: string; color: string }> =
    kind === 'select' ? SELECT_OPTIONS : TAG_OPTIONS;
  const found = list.find((o) => o.name === name);
  return found === undefined ? undefined : option(found);
}

const partialUser = (id: string) => ({ object: 'user', id });
const notionUrl = (title: string, id: string) =>
  `https://www.notion.so/${title.replace(/[^A-Za-z0-9]+/g, '-').replace(/^-|-$/g, '')}${title ? '-' : ''}${id.replace(/-/g, '')}`;

function stamps(rec: {
  created_time: number;
  last_edited_time: number;
  created_by: string;
  last_edited_by: string;
}) {
  return {
    created_time: minuteIso(rec.created_time),
    last_edited_time: minuteIso(rec.last_edited_time),
    created_by: partialUser(rec.created_by),
    last_edited_by: partialUser(rec.last_edited_by),
  };
}

export class Renderer {
  constructor(
    private readonly data: Dataset,
    private readonly signFile: FileSigner,
  ) {}

  user(u: UserRec): Record<string, unknown> {
    const base = { object: 'user', id: u.id, name: u.name, avatar_url: u.avatar_url, type: u.type };
    if (u.type === 'person') return { ...base, person: { email: u.email } };
    if (u.id !== this.data.bot.id) return { ...base, bot: {} };
    return {
      ...base,
      bot: {
        owner: { type: 'workspace', workspace: true },
        workspace_name: this.data.workspaceName,
        workspace_id: this.data.workspaceId,
        workspace_limits: { max_file_upload_size_in_bytes: 5_368_709_120 },
      },
    };
  }

  page(p: PageRec, version: NotionVersion): Record<string, unknown> {
    let parent: Record<string, unknown>;
    if (p.parent.type === 'workspace') parent = { type: 'workspace', workspace: true };
    else if (p.parent.type === 'page_id') parent = { type: 'page_id', page_id: p.parent.page_id };
    else {
      const databaseId = this.data.dataSource(p.parent.data_source_id)?.databaseId;
      parent =
        version === '2022-06-28'
          ? { type: 'database_id', database_id: databaseId }
          : { type: 'data_source_id', data_source_id: p.parent.data_source_id, database_id: databaseId };
    }
    return {
      object: 'page',
      id: p.id,
      ...stamps(p),
      cover: null,
      icon: p.icon === null ? null : { type: 'emoji', emoji: p.icon },
      parent,
      archived: p.in_trash,
      in_trash: p.in_trash,
      is_locked: false,
      properties: this.pageProperties(p),
      url: notionUrl(p.title, p.id),
      public_url: null,
    };
  }

  private pageProperties(p: PageRec): Record<string, unknown> {
    const title = [richText(p.title)];
    if (p.row === undefined) return { title: { id: 'title', type: 'title', title } };
    const value = (name: string, type: string, v: unknown) => ({ id: PROPERTY_IDS[name], type, [type]: v });
    return {
      Name: value('Name', 'title', title),
      Status: value('Status', 'select', p.row.Status === null ? null : optionByName('select', p.row.Status)),
      Tags: value(
        'Tags',
        'multi_select',
        p.row.Tags.map((t) => optionByName('multi_select', t)),
      ),
      Owner: value(
        'Owner',
        'people',
        p.row.Owner.map((id) => this.data.user(id)).flatMap((u) => (u ? [this.user(u)] : [])),
      ),
      Due: value('Due', 'date', p.row.Due === null ? null : { start: p.row.Due, end: null, time_zone: null }),
      Done: value('Done', 'checkbox', p.row.Done),
      'Last edited': value('Last edited', 'last_edited_time', minuteIso(p.last_edited_time)),
      Created: value('Created', 'created_time', minuteIso(p.created_time)),
    };
  }

  dataSource(ds: DataSourceRec): Record<string, unknown> {
    const db = this.data.database(ds.databaseId) as DatabaseRec;
    return {
      object: 'data_source',
      id: ds.id,
      ...stamps(ds),
      cover: null,
      icon: null,
      title: [richText(ds.title)],
      description: [richText(ds.description)],
      is_inline: db.is_inline,
      properties: schemaProperties(),
      parent: { type: 'database_id', database_id: db.id },
      database_parent: { type: 'page_id', page_id: db.parentPageId },
      url: notionUrl('', ds.id),
      public_url: null,
      archived: ds.in_trash,
      in_trash: ds.in_trash,
    };
  }

  database(db: DatabaseRec, version: NotionVersion): Record<string, unknown> {
    const common = {
      object: 'database',
      id: db.id,
      ...stamps(db),
      cover: null,
      icon: null,
      title: [richText(db.title)],
      description: [],
      is_inline: db.is_inline,
      parent: { type: 'page_id', page_id: db.parentPageId },
      url: notionUrl('', db.id),
      public_url: null,
      archived: db.in_trash,
      in_trash: db.in_trash,
    };
    if (version === '2022-06-28') return { ...common, properties: schemaProperties() };
    return {
      ...common,
      is_locked: false,
      data_sources: db.dataSourceIds.map((id) => ({ id, name: this.data.dataSource(id)?.title ?? '' })),
    };
  }

  /** Any child of a page or block: a block record, a child page or a child database. */
  child(id: string, version: NotionVersion): Record<string, unknown> | undefined {
    const block = this.data.block(id);
    if (block !== undefined) return this.block(block);
    const page = this.data.page(id);
    if (page !== undefined)
      return this.wrap(
        id,
        this.page(page, version).parent as Record<string, unknown>,
        page,
        page.in_trash,
        'child_page',
        {
          title: page.title,
        },
      );
    const db = this.data.database(id);
    if (db !== undefined)
      return this.wrap(id, { type: 'page_id', page_id: db.parentPageId }, db, db.in_trash, 'child_database', {
        title: db.title,
      });
    return undefined;
  }

  block(b: BlockRec): Record<string, unknown> {
    const parent =
      b.parentType === 'page_id'
        ? { type: 'page_id', page_id: b.parentId }
        : { type: 'block_id', block_id: b.parentId };
    const content = b.file === undefined ? b.content : { ...b.content, file: this.signFile(b.file) };
    return this.wrap(b.id, parent, b, b.in_trash, b.type, content);
  }

  private wrap(
    id: string,
    parent: Record<string, unknown>,
    rec: { created_time: number; last_edited_time: number; created_by: string; last_edited_by: string },
    inTrash: boolean,
    type: string,
    content: unknown,
  ): Record<string, unknown> {
    return {
      object: 'block',
      id,
      parent,
      ...stamps(rec),
      has_children: this.liveChildren(id).length > 0,
      archived: inTrash,
      in_trash: inTrash,
      type,
      [type]: content,
    };
  }

  /** The children of a page or block that are not in the trash, in order. */
  liveChildren(id: string): string[] {
    return (this.data.children.get(id) ?? []).filter((child) => {
      const rec = this.data.block(child) ?? this.data.page(child) ?? this.data.database(child);
      return rec !== undefined && !rec.in_trash;
    });
  }

  comment(c: CommentRec): Record<string, unknown> {
    return {
      object: 'comment',
      id: c.id,
      parent: c.parent,
      discussion_id: c.discussion_id,
      created_time: minuteIso(c.created_time),
      last_edited_time: minuteIso(c.last_edited_time),
      created_by: partialUser(c.created_by),
      rich_text: [richText(c.text)],
    };
  }
}
