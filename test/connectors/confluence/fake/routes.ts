// The fake's routes, each naming the operationId of Atlassian's description it follows (v2: confluence-v2.json,
// v1: confluence-v1.json; facts in test/reference/providers/confluence.json). Paths are as a client sends them,
// below the site's origin.
import type { Answer, Route, RouteRequest } from '../../kit/index.ts';
import { type CursorCodec, queryInputs } from '../../kit/paging.ts';
import { route } from '../../kit/route.ts';
import type { ContentRec, Dataset, SpaceRec, UserRec } from './dataset.ts';
import type { Renderer } from './render.ts';
import { boolParam, intParam, listParam, V1, V2, v1Error, v2Error, WIKI } from './wire.ts';

export interface Ctx {
  /** the account's audit log access (the Confluence Administrator global permission) */
  admin: boolean;
  user: UserRec;
}

export interface Env {
  data: Dataset;
  render: Renderer;
  cursors: CursorCodec;
  now: () => number;
  /** the most records a v1 list answers per page, whatever `limit` asks ("fixed system limits") */
  v1PageCap: number;
  mediaUrl(attachmentId: string): string | undefined;
}

const ok = (body: unknown, headers?: Record<string, string>): Answer => ({
  status: 200,
  body,
  ...(headers ? { headers } : {}),
});

/** One page of a v2 list: `results`, `_links.next` (relative, with the cursor) and the same in a Link header. */
function v2Page<T>(
  env: Env,
  req: RouteRequest,
  all: readonly T[],
  render: (t: T) => unknown,
  max = 250,
): Answer {
  const limit = intParam(req.query, 'limit') ?? 25;
  if (limit === 'invalid' || limit < 1 || limit > max)
    return v2Error(400, `limit must be between 1 and ${max}`);
  const cursor = req.query.get('cursor') ?? undefined;
  const page = env.cursors.page(all, { cursor, route: req.pathname, inputs: queryInputs(req.query), limit });
  if (page === undefined) return v2Error(400, 'Invalid cursor');
  const links: Record<string, string> = { base: env.render.base() };
  const headers: Record<string, string> = {};
  if (page.nextCursor !== undefined) {
    const q = new URLSearchParams(req.query);
    q.set('cursor', page.nextCursor);
    links.next = `${req.pathname}?${q}`;
    headers.link = `<${links.next}>; rel="next", <${links.base}>; rel="base"`;
  }
  return ok({ results: page.items.map(render), _links: links }, headers);
}

/** Ids of a v2 filter (`id`, `space-id`): numbers, comma-separated; undefined when absent, null when invalid. */
function ids(query: URLSearchParams, name: string): Set<string> | undefined | null {
  const values = listParam(query, name);
  if (values.length === 0) return undefined;
  return values.every((v) => /^\d+$/.test(v)) ? new Set(values) : null;
}

const CONTENT_SORTS: Record<string, (a: ContentRec, b: ContentRec) => number> = {
  id: (a, b) => Number(a.id) - Number(b.id),
  'created-date': (a, b) => a.createdAt - b.createdAt || Number(a.id) - Number(b.id),
  'modified-date': (a, b) => a.version.createdAt - b.version.createdAt || Number(a.id) - Number(b.id),
  title: (a, b) => a.title.localeCompare(b.title) || Number(a.id) - Number(b.id),
};

function sorter<T>(
  sorts: Record<string, (a: T, b: T) => number>,
  raw: string | null,
  allowed: readonly string[],
) {
  const key = raw ?? 'id';
  const base = key.replace(/^-/, '');
  if (!allowed.includes(base) || sorts[base] === undefined) return undefined;
  const cmp = sorts[base];
  return key.startsWith('-') ? (a: T, b: T) => cmp(b, a) : cmp;
}

/** getPages / getBlogPosts */
function listContent(env: Env, req: RouteRequest, kind: ContentRec['kind']): Answer {
  const q = req.query;
  const idSet = ids(q, 'id');
  const spaces = ids(q, 'space-id');
  if (idSet === null || spaces === null) return v2Error(400, 'ids must be numbers');
  const states =
    kind === 'page' ? ['current', 'archived', 'deleted', 'trashed'] : ['current', 'deleted', 'trashed'];
  const status = listParam(q, 'status');
  if (status.some((s) => !states.includes(s)))
    return v2Error(400, `status must be one of ${states.join(', ')}`);
  const wanted = status.length > 0 ? status : kind === 'page' ? ['current', 'archived'] : ['current'];
  const sorts =
    kind === 'page'
      ? ['id', 'created-date', 'modified-date', 'title']
      : ['id', 'created-date', 'modified-date'];
  const cmp = sorter(CONTENT_SORTS, q.get('sort'), sorts);
  if (cmp === undefined) return v2Error(400, 'Invalid sort');
  const format = q.get('body-format');
  if (format !== null && format !== 'storage' && format !== 'atlas_doc_format')
    return v2Error(400, 'body-format must be storage or atlas_doc_format');
  const title = q.get('title');
  const all = env.data.content
    .filter((c) => c.kind === kind && wanted.includes(c.status))
    .filter(
      (c) => (idSet === undefined || idSet.has(c.id)) && (spaces === undefined || spaces.has(c.spaceId)),
    )
    .filter((c) => title === null || c.title === title)
    .sort(cmp);
  return v2Page(env, req, all, (c) => env.render.content(c, format, false));
}

const SINGLE_FORMATS = [
  'storage',
  'atlas_doc_format',
  'view',
  'export_view',
  'anonymous_export_view',
  'styled_view',
  'editor',
];

/** getPageById / getBlogPostById */
function getContent(env: Env, req: RouteRequest, kind: ContentRec['kind']): Answer {
  const id = req.params.id ?? '';
  if (!/^\d+$/.test(id)) return v2Error(400, 'id must be a number');
  const rec = env.data.find(kind, id);
  const status = listParam(req.query, 'status');
  const version = intParam(req.query, 'version');
  if (version === 'invalid') return v2Error(400, 'version must be a number');
  if (
    !rec ||
    (status.length > 0 && !status.includes(rec.status)) ||
    (version !== undefined && version > rec.version.number)
  )
    return v2Error(404);
  const format = req.query.get('body-format');
  if (format !== null && !SINGLE_FORMATS.includes(format)) return v2Error(400, 'Invalid body-format');
  const out = env.render.content(rec, format, true);
  // An earlier version is answered with its number; the fake keeps only the current text.
  return ok(version === undefined ? out : { ...out, version: { ...out.version, number: version } });
}

/** createPage */
function createPage(env: Env, req: RouteRequest, ctx: Ctx): Answer {
  const body = req.json;
  if (body === undefined || body === 'invalid') return v2Error(400, 'Invalid request body');
  const spaceId = body.spaceId;
  if (typeof spaceId !== 'string' || spaceId === '') return v2Error(400, 'spaceId is required');
  const space = env.data.space(spaceId);
  if (!space) return v2Error(404, `No space with id ${spaceId}`);
  const status = body.status ?? 'current';
  if (status !== 'current' && status !== 'draft') return v2Error(400, 'status must be current or draft');
  const title = body.title;
  if (status === 'current' && (typeof title !== 'string' || title.trim() === ''))
    return v2Error(400, 'A published page needs a title');
  if (
    typeof title === 'string' &&
    env.data.content.some(
      (c) => c.kind === 'page' && c.spaceId === space.id && c.title === title && c.status === 'current',
    )
  )
    return v2Error(400, 'A page with this title already exists in this space');
  let parentId: string | null = boolParam(req.query, 'root-level') ? null : space.homepageId;
  if (typeof body.parentId === 'string') {
    const parent = env.data.find('page', body.parentId);
    if (!parent || parent.spaceId !== space.id)
      return v2Error(404, `No parent page with id ${body.parentId}`);
    parentId = parent.id;
  }
  const content = body.body as { representation?: unknown; value?: unknown } | undefined;
  if (
    content !== undefined &&
    (typeof content !== 'object' || content === null || typeof content.value !== 'string')
  )
    return v2Error(400, 'body must be {representation, value}');
  const rec = env.data.addContent(
    'page',
    space,
    parentId,
    typeof title === 'string' ? title : '',
    env.now(),
    ctx.user.accountId,
    typeof content?.value === 'string' ? content.value : '',
    status,
  );
  return ok(env.render.content(rec, 'storage', true));
}

export function routes(env: Env): Route<Ctx>[] {
  const { data, render } = env;
  return [
    route('GET', `${V2}/pages`, 'getPages', (req) => listContent(env, req, 'page')),
    route('GET', `${V2}/pages/{id}`, 'getPageById', (req) => getContent(env, req, 'page')),
    route('POST', `${V2}/pages`, 'createPage', (req, ctx) => createPage(env, req, ctx)),
    route('GET', `${V2}/blogposts`, 'getBlogPosts', (req) => listContent(env, req, 'blogpost')),
    route('GET', `${V2}/blogposts/{id}`, 'getBlogPostById', (req) => getContent(env, req, 'blogpost')),

    route('GET', `${V2}/spaces`, 'getSpaces', (req) => {
      const q = req.query;
      const idSet = ids(q, 'ids');
      if (idSet === null) return v2Error(400, 'ids must be numbers');
      const keys = listParam(q, 'keys');
      const labels = listParam(q, 'labels');
      const type = q.get('type');
      const status = q.get('status');
      const format = q.get('description-format');
      if (format !== null && format !== 'plain' && format !== 'view')
        return v2Error(400, 'Invalid description-format');
      const cmp = sorter<SpaceRec>(
        {
          id: (a, b) => Number(a.id) - Number(b.id),
          key: (a, b) => a.key.localeCompare(b.key),
          name: (a, b) => a.name.localeCompare(b.name),
        },
        q.get('sort'),
        ['id', 'key', 'name'],
      );
      if (cmp === undefined) return v2Error(400, 'Invalid sort');
      const all = data.spaces
        .filter(
          (s) => (idSet === undefined || idSet.has(s.id)) && (keys.length === 0 || keys.includes(s.key)),
        )
        .filter((s) => (type === null || s.type === type) && (status === null || s.status === status))
        .filter((s) => labels.length === 0 || labels.some((l) => s.labels.includes(l)))
        .sort(cmp);
      return v2Page(env, req, all, (s) => render.space(s, format, false));
    }),
    route('GET', `${V2}/spaces/{id}`, 'getSpaceById', (req) => {
      const id = req.params.id ?? '';
      if (!/^\d+$/.test(id)) return v2Error(400, 'id must be a number');
      const space = data.space(id);
      if (!space) return v2Error(404);
      const format = req.query.get('description-format');
      if (format !== null && format !== 'plain' && format !== 'view')
        return v2Error(400, 'Invalid description-format');
      return ok(render.space(space, format, true));
    }),

    route('GET', `${V2}/attachments/{id}`, 'getAttachmentById', (req) => {
      const m = /^(?:att)?(\d+)$/.exec(req.params.id ?? '');
      if (!m) return v2Error(400, 'Invalid attachment id');
      const att = data.attachments.find((a) => a.id === `att${m[1]}`);
      const version = intParam(req.query, 'version');
      if (version === 'invalid') return v2Error(400, 'version must be a number');
      if (!att || (version !== undefined && version > att.version.number)) return v2Error(404);
      return ok(render.attachment(att));
    }),
    // Not an operation of the REST API: the site's download servlet the v2 downloadLink points at (relative to
    // _links.base). It checks the credential and redirects to the media host with a signed URL.
    route(
      'GET',
      `${WIKI}/download/attachments/{pageId}/{filename}`,
      'downloadLink of getAttachmentById',
      (req): Answer => {
        const att = data.attachments.find(
          (a) => a.pageId === req.params.pageId && a.title === req.params.filename,
        );
        const location = att === undefined ? undefined : env.mediaUrl(att.id);
        if (location === undefined)
          return { status: 404, headers: { 'content-type': 'text/plain' }, body: 'Not Found' };
        return { status: 302, headers: { location }, body: '' };
      },
    ),

    route('GET', `${V1}/user/current`, 'getCurrentUser', (_req, ctx) => ok(render.currentUser(ctx.user))),
    route('GET', `${V1}/group`, 'getGroups', (req) => {
      const access = req.query.get('accessType');
      if (access !== null && !['user', 'admin', 'site-admin'].includes(access))
        return v1Error(400, 'accessType must be user, admin or site-admin');
      const all = data.groups.filter((g) =>
        access === 'admin'
          ? g.name.includes('administrators')
          : access === 'site-admin'
            ? g.name === 'site-admins'
            : true,
      );
      return v1Page(env, req, all, (g) => render.group(g), 200);
    }),
    route('GET', `${V1}/audit`, 'getAuditRecords', (req, ctx) => {
      if (!ctx.admin) return v1Error(403, 'Only Confluence administrators can view the audit log.');
      const from = intParam(req.query, 'startDate');
      const to = intParam(req.query, 'endDate');
      if (from === 'invalid' || to === 'invalid')
        return v1Error(400, 'startDate and endDate must be timestamps');
      const text = req.query.get('searchString')?.toLowerCase();
      const all = data.audit.filter(
        (a) =>
          (from === undefined || a.creationDate >= from) &&
          (to === undefined || a.creationDate <= to) &&
          (text === undefined ||
            [a.summary, a.description, a.category, a.object.name].some((v) =>
              v.toLowerCase().includes(text),
            )),
      );
      return v1Page(env, req, all, (a) => render.audit(a), 1000);
    }),
  ];
}

/** One page of a v1 list: `{results, start, limit, size, _links}`, `next` relative to `_links.base`. */
function v1Page<T>(
  env: Env,
  req: RouteRequest,
  all: readonly T[],
  render: (t: T) => unknown,
  fallback: number,
): Answer {
  const start = intParam(req.query, 'start') ?? 0;
  const asked = intParam(req.query, 'limit') ?? fallback;
  if (start === 'invalid' || asked === 'invalid') return v1Error(400, 'start and limit must be numbers');
  const limit = Math.min(asked, env.v1PageCap);
  const items = all.slice(start, start + limit);
  const path = req.pathname.slice(WIKI.length);
  const links: Record<string, string> = {
    base: env.render.base(),
    context: WIKI,
    self: `${env.render.base()}${path}`,
  };
  if (start + items.length < all.length && items.length > 0)
    links.next = `${path}?next=true&limit=${limit}&start=${start + items.length}`;
  return ok({ results: items.map(render), start, limit, size: items.length, _links: links });
}
