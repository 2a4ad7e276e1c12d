// The write routes. They change dataset.ts's records, so later reads (and search / queries) see the change; a
// write stamps the record with the fake's clock (option `now`, default the real time), by the integration's bot.
//   POST   /v1/pages                  post-page             parent {page_id} | {data_source_id} | {database_id}
//   PATCH  /v1/pages/{page_id}        patch-page            properties, in_trash / archived, icon
//   PATCH  /v1/blocks/{id}/children   patch-block-children  children (≤ 100), after?; answers the new blocks
//   PATCH  /v1/blocks/{block_id}      update-a-block        the type's payload, in_trash / archived
//   DELETE /v1/blocks/{block_id}      delete-a-block        moves a block (or page, or database) to the trash
//   POST   /v1/comments               create-a-comment      parent {page_id | block_id} or discussion_id
// Page properties accepted on writes: the title, and on data-source rows Status (select by name), Tags
// (multi_select by names), Owner (people by ids), Due (date), Done (checkbox). Unknown ones are refused the
// way Notion refuses them ("<name> is not a property that exists.").
import { type Env, listAnswer, ok, type RouteRequest } from './context.ts';
import type { BlockRec, PageParent, PageRec, RowValues, Stamped } from './dataset.ts';
import { optionByName, PROPERTY_IDS } from './render.ts';
import {
  type Answer,
  invalid,
  isAnswer,
  normalizeId,
  notFound,
  richTextFromRequest,
  seededId,
} from './wire.ts';

const TEXT_BLOCKS = new Set([
  'paragraph',
  'heading_1',
  'heading_2',
  'heading_3',
  'bulleted_list_item',
  'numbered_list_item',
  'to_do',
  'toggle',
  'quote',
  'callout',
  'code',
]);
const EXTERNAL_FILE_BLOCKS = new Set(['image', 'file', 'pdf', 'video', 'audio']);

let counter = 0;
/** A fresh id for a created record (deterministic per fake process, unique across fakes). */
function newId(kind: string): string {
  counter += 1;
  return seededId('created', kind, counter, process.pid);
}

function stampsNow(env: Env): Stamped {
  const at = env.now();
  return {
    created_time: at,
    last_edited_time: at,
    created_by: env.data.bot.id,
    last_edited_by: env.data.bot.id,
  };
}

function touch(env: Env, rec: { last_edited_time: number; last_edited_by: string }): void {
  rec.last_edited_time = Math.max(env.now(), rec.last_edited_time);
  rec.last_edited_by = env.data.bot.id;
}

/** An edit of a block is an edit of the page it sits in (Notion bumps the page's last_edited_time too). */
function touchPageOf(env: Env, parentId: string): void {
  let id: string | undefined = parentId;
  for (let hops = 0; id !== undefined && hops < 50; hops++) {
    const page = env.data.page(id);
    if (page !== undefined) {
      touch(env, page);
      return;
    }
    id = env.data.block(id)?.parentId;
  }
}

function bool(body: Record<string, unknown>, key: string): boolean | undefined | Answer {
  const v = body[key];
  if (v === undefined) return undefined;
  return typeof v === 'boolean'
    ? v
    : invalid(
        `body failed validation: body.${key} should be a boolean, instead was \`${JSON.stringify(v)}\`.`,
      );
}

/** Applies `properties` of a request to a page; an Answer when one is refused (nothing is changed then). */
function applyProperties(page: PageRec, raw: unknown): Answer | undefined {
  if (raw === undefined) return undefined;
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    return invalid('body failed validation: body.properties should be an object.');
  let title = page.title;
  const row: RowValues | undefined = page.row ? { ...page.row } : undefined;
  for (const [key, value] of Object.entries(raw as Record<string, unknown>)) {
    const name = Object.keys(PROPERTY_IDS).find((n) => n === key || PROPERTY_IDS[n] === key);
    const isTitle = key === 'title' || name === 'Name';
    if (!isTitle && (row === undefined || name === undefined || name === 'Last edited' || name === 'Created'))
      return invalid(`${key} is not a property that exists.`);
    const v = value as Record<string, unknown> | unknown[] | null;
    if (isTitle) {
      const rich = richTextFromRequest(Array.isArray(v) ? v : (v as { title?: unknown } | null)?.title);
      if (rich === undefined)
        return invalid(
          `body failed validation: body.properties.${key}.title should be an array of rich text.`,
        );
      title = rich.map((r) => r.plain_text).join('');
      continue;
    }
    const obj = (v ?? {}) as Record<string, unknown>;
    const r = row as RowValues;
    if (name === 'Status') {
      const sel = obj.select as { name?: unknown } | null | undefined;
      if (sel === null) r.Status = null;
      else if (typeof sel?.name === 'string' && optionByName('select', sel.name)) r.Status = sel.name;
      else
        return invalid(
          `body failed validation: body.properties.${key}.select.name should be an existing option.`,
        );
    } else if (name === 'Tags') {
      const list = obj.multi_select;
      if (
        !Array.isArray(list) ||
        !list.every((o) => typeof o?.name === 'string' && optionByName('multi_select', o.name))
      )
        return invalid(
          `body failed validation: body.properties.${key}.multi_select should be a list of existing options.`,
        );
      r.Tags = list.map((o) => o.name as string);
    } else if (name === 'Owner') {
      const list = obj.people;
      const ids = Array.isArray(list) ? list.map((u) => normalizeId(String(u?.id ?? ''))) : [];
      if (!Array.isArray(list) || ids.some((id) => id === undefined))
        return invalid(`body failed validation: body.properties.${key}.people should be a list of users.`);
      r.Owner = ids as string[];
    } else if (name === 'Due') {
      const date = obj.date as { start?: unknown } | null | undefined;
      if (date === null) r.Due = null;
      else if (typeof date?.start === 'string' && !Number.isNaN(Date.parse(date.start))) r.Due = date.start;
      else
        return invalid(
          `body failed validation: body.properties.${key}.date.start should be an ISO 8601 date.`,
        );
    } else if (name === 'Done') {
      if (typeof obj.checkbox !== 'boolean')
        return invalid(`body failed validation: body.properties.${key}.checkbox should be a boolean.`);
      r.Done = obj.checkbox;
    }
  }
  page.title = title;
  if (row !== undefined) page.row = row;
  return undefined;
}

export function createPage(env: Env, req: RouteRequest): Answer {
  const { data } = env;
  const parentReq = req.body.parent as Record<string, unknown> | undefined;
  if (typeof parentReq !== 'object' || parentReq === null)
    return invalid('body failed validation: body.parent should be defined, instead was `undefined`.');
  if (req.body.properties === undefined)
    return invalid('body failed validation: body.properties should be defined, instead was `undefined`.');
  let parent: PageParent;
  const ref = (key: string) =>
    typeof parentReq[key] === 'string' ? normalizeId(parentReq[key] as string) : undefined;
  if (parentReq.page_id !== undefined) {
    const id = ref('page_id');
    if (id === undefined || data.page(id) === undefined) return notFound('page', String(parentReq.page_id));
    parent = { type: 'page_id', page_id: id };
  } else if (parentReq.data_source_id !== undefined && req.version !== '2022-06-28') {
    const id = ref('data_source_id');
    if (id === undefined || data.dataSource(id) === undefined)
      return notFound('data source', String(parentReq.data_source_id));
    parent = { type: 'data_source_id', data_source_id: id };
  } else if (parentReq.database_id !== undefined) {
    const id = ref('database_id');
    const db = id === undefined ? undefined : data.database(id);
    if (db === undefined) return notFound('database', String(parentReq.database_id));
    if (db.dataSourceIds.length !== 1)
      return invalid(`Database with ID ${db.id} has multiple data sources; use a data_source_id parent.`);
    parent = { type: 'data_source_id', data_source_id: db.dataSourceIds[0] as string };
  } else
    return invalid('body failed validation: body.parent should be a page_id, data_source_id or database_id.');

  const page: PageRec = {
    id: newId('page'),
    parent,
    title: '',
    icon: null,
    in_trash: false,
    ...stampsNow(env),
  };
  if (parent.type === 'data_source_id')
    page.row = { Status: null, Tags: [], Owner: [], Due: null, Done: false };
  const refused = applyProperties(page, req.body.properties);
  if (refused) return refused;
  const icon = (req.body.icon as { emoji?: unknown } | undefined)?.emoji;
  if (typeof icon === 'string') page.icon = icon;
  const children = req.body.children === undefined ? [] : req.body.children;
  const blocks = buildBlocks(env, page.id, 'page_id', children);
  if (isAnswer(blocks)) return blocks;
  data.pages.push(page);
  if (parent.type === 'page_id') {
    data.childrenOf(parent.page_id).push(page.id);
    touch(env, data.page(parent.page_id) as PageRec);
  }
  for (const b of blocks) data.addBlock(b);
  return ok(env.render.page(page, req.version));
}

export function updatePage(env: Env, req: RouteRequest, [id]: string[]): Answer {
  const page = env.data.page(id as string);
  if (page === undefined) return notFound('page', id as string);
  const trash = bool(req.body, 'in_trash');
  const archived = bool(req.body, 'archived');
  if (isAnswer(trash)) return trash;
  if (isAnswer(archived)) return archived;
  const draft: PageRec = { ...page, ...(page.row ? { row: { ...page.row } } : {}) };
  const refused = applyProperties(draft, req.body.properties);
  if (refused) return refused;
  const icon = req.body.icon as { emoji?: unknown } | null | undefined;
  if (icon === null) draft.icon = null;
  else if (icon !== undefined) {
    if (typeof icon.emoji !== 'string')
      return invalid('body failed validation: body.icon.emoji should be a string.');
    draft.icon = icon.emoji;
  }
  if (trash !== undefined || archived !== undefined) draft.in_trash = (trash ?? archived) as boolean;
  Object.assign(page, draft);
  touch(env, page);
  return ok(env.render.page(page, req.version));
}

/** Block records from a request's `children` (text blocks and external files; one level of nested children). */
function buildBlocks(
  env: Env,
  parentId: string,
  parentType: 'page_id' | 'block_id',
  raw: unknown,
  depth = 0,
): Array<Omit<BlockRec, 'in_trash'>> | Answer {
  if (!Array.isArray(raw)) return invalid('body failed validation: body.children should be an array.');
  if (raw.length > 100)
    return invalid(
      `body failed validation: body.children.length should be ≤ \`100\`, instead was \`${raw.length}\`.`,
    );
  const out: Array<Omit<BlockRec, 'in_trash'>> = [];
  for (const [i, item] of raw.entries()) {
    const req = (item ?? {}) as Record<string, unknown>;
    const type =
      typeof req.type === 'string' ? req.type : Object.keys(req).find((k) => k !== 'object' && k !== 'type');
    const payload = type === undefined ? undefined : (req[type] as Record<string, unknown> | undefined);
    const content = type === undefined ? undefined : blockContent(type, payload);
    if (type === undefined || content === undefined)
      return invalid(`body failed validation: body.children[${i}] should be a supported block object.`);
    const id = newId('block');
    out.push({ id, parentId, parentType, type, content, ...stampsNow(env) });
    const nested = payload?.children;
    if (nested !== undefined) {
      if (depth >= 1)
        return invalid(`body failed validation: body.children[${i}] nests children too deeply.`);
      const kids = buildBlocks(env, id, 'block_id', nested, depth + 1);
      if (isAnswer(kids)) return kids;
      out.push(...kids);
    }
  }
  return out;
}

function blockContent(
  type: string,
  payload: Record<string, unknown> | undefined,
): Record<string, unknown> | undefined {
  if (typeof payload !== 'object' || payload === null) return undefined;
  if (EXTERNAL_FILE_BLOCKS.has(type)) {
    const url = (payload.external as { url?: unknown } | undefined)?.url;
    if (typeof url !== 'string') return undefined;
    return { caption: richTextFromRequest(payload.caption ?? []) ?? [], type: 'external', external: { url } };
  }
  if (!TEXT_BLOCKS.has(type)) return undefined;
  const rich = richTextFromRequest(payload.rich_text ?? []);
  if (rich === undefined) return undefined;
  const color = typeof payload.color === 'string' ? payload.color : 'default';
  if (type === 'code')
    return {
      caption: [],
      rich_text: rich,
      language: typeof payload.language === 'string' ? payload.language : 'plain text',
    };
  if (type === 'to_do') return { rich_text: rich, checked: payload.checked === true, color };
  if (type.startsWith('heading_'))
    return { rich_text: rich, is_toggleable: payload.is_toggleable === true, color };
  return { rich_text: rich, color };
}

export function appendChildren(env: Env, req: RouteRequest, [id]: string[]): Answer {
  const { data } = env;
  const page = data.page(id as string);
  const block = data.block(id as string);
  if (page === undefined && block === undefined) return notFound('block', id as string);
  const after = req.body.after === undefined ? undefined : normalizeId(String(req.body.after));
  if (req.body.after !== undefined && (after === undefined || !data.childrenOf(id as string).includes(after)))
    return invalid(`body failed validation: body.after should be the id of a child of ${id}.`);
  const blocks = buildBlocks(env, id as string, page ? 'page_id' : 'block_id', req.body.children);
  if (isAnswer(blocks)) return blocks;
  let anchor = after;
  const added: BlockRec[] = [];
  for (const b of blocks) {
    const rec = data.addBlock(b, b.parentId === id ? anchor : undefined);
    if (b.parentId === id) {
      anchor = after === undefined ? undefined : rec.id;
      added.push(rec);
    }
  }
  touch(env, (page ?? block) as PageRec | BlockRec);
  touchPageOf(env, id as string);
  return listAnswer(env, { page_size: 100 }, added, 'block', (b) => env.render.block(b));
}

export function updateBlock(env: Env, req: RouteRequest, [id]: string[]): Answer {
  const block = env.data.block(id as string);
  if (block === undefined) return deleteOrRestoreOther(env, req, id as string);
  const trash = bool(req.body, 'in_trash');
  const archived = bool(req.body, 'archived');
  if (isAnswer(trash)) return trash;
  if (isAnswer(archived)) return archived;
  const other = Object.keys(req.body).find((k) => k !== 'in_trash' && k !== 'archived' && k !== 'type');
  if (other !== undefined) {
    if (other !== block.type)
      return invalid(
        `body failed validation: Block type ${other} does not match existing block type ${block.type}.`,
      );
    const patch = req.body[other] as Record<string, unknown> | null;
    if (typeof patch !== 'object' || patch === null)
      return invalid(`body failed validation: body.${other} should be an object.`);
    const next = { ...block.content };
    if (patch.rich_text !== undefined) {
      const rich = richTextFromRequest(patch.rich_text);
      if (rich === undefined || !('rich_text' in next))
        return invalid(`body failed validation: body.${other}.rich_text should be an array of rich text.`);
      next.rich_text = rich;
    }
    if (patch.checked !== undefined) {
      if (typeof patch.checked !== 'boolean' || block.type !== 'to_do')
        return invalid(`body failed validation: body.${other}.checked should not be present.`);
      next.checked = patch.checked;
    }
    if (typeof patch.color === 'string' && 'color' in next) next.color = patch.color;
    if (typeof patch.language === 'string' && block.type === 'code') next.language = patch.language;
    block.content = next;
  }
  if (trash !== undefined || archived !== undefined) block.in_trash = (trash ?? archived) as boolean;
  touch(env, block);
  touchPageOf(env, block.parentId);
  return ok(env.render.block(block));
}

export function deleteBlock(env: Env, req: RouteRequest, [id]: string[]): Answer {
  const block = env.data.block(id as string);
  if (block === undefined)
    return deleteOrRestoreOther(env, { ...req, body: { in_trash: true } }, id as string);
  block.in_trash = true;
  touch(env, block);
  touchPageOf(env, block.parentId);
  return ok(env.render.block(block));
}

/** A page or database addressed as a block: only moving it to (or out of) the trash. */
function deleteOrRestoreOther(env: Env, req: RouteRequest, id: string): Answer {
  const rec = env.data.page(id) ?? env.data.database(id);
  if (rec === undefined) return notFound('block', id);
  const trash = bool(req.body, 'in_trash') ?? bool(req.body, 'archived');
  if (isAnswer(trash)) return trash;
  if (trash !== undefined) rec.in_trash = trash;
  touch(env, rec);
  return ok(env.render.child(id, req.version) as Record<string, unknown>);
}

export function createComment(env: Env, req: RouteRequest): Answer {
  const { data } = env;
  const rich = richTextFromRequest(req.body.rich_text);
  if (rich === undefined || rich.length === 0)
    return invalid('body failed validation: body.rich_text should be a non-empty array of rich text.');
  const parentReq = req.body.parent as { page_id?: unknown; block_id?: unknown } | undefined;
  let parent: { type: 'page_id'; page_id: string } | { type: 'block_id'; block_id: string };
  let discussion: string;
  if (typeof req.body.discussion_id === 'string') {
    const id = normalizeId(req.body.discussion_id);
    const first = data.comments.find((c) => c.discussion_id === id);
    if (first === undefined) return notFound('discussion', req.body.discussion_id);
    parent = first.parent;
    discussion = first.discussion_id;
  } else if (typeof parentReq?.page_id === 'string' || typeof parentReq?.block_id === 'string') {
    const isPage = typeof parentReq.page_id === 'string';
    const id = normalizeId(String(isPage ? parentReq.page_id : parentReq.block_id));
    if (id === undefined || (isPage ? data.page(id) : data.block(id)) === undefined)
      return notFound(isPage ? 'page' : 'block', String(isPage ? parentReq.page_id : parentReq.block_id));
    parent = isPage ? { type: 'page_id', page_id: id } : { type: 'block_id', block_id: id };
    discussion = newId('discussion');
  } else return invalid('body failed validation: body.parent or body.discussion_id should be defined.');
  const at = env.now();
  const comment = {
    id: newId('comment'),
    parent,
    discussion_id: discussion,
    created_time: at,
    last_edited_time: at,
    created_by: data.bot.id,
    text: rich.map((r) => r.plain_text).join(''),
  };
  data.comments.push(comment);
  return ok(env.render.comment(comment));
}
