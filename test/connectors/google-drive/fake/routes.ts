// The Google Drive fake's routes. Each names the method id of Drive's discovery document (drive.v3.json,
// reduced to test/reference/providers/google-drive.json) it follows; the contract holds every exchange to it.
import type { Answer, Route, RouteRequest } from '../../kit/index.ts';
import { CursorCodec, queryInputs } from '../../kit/paging.ts';
import { route } from '../../kit/route.ts';
import { type Dataset, type DriveFile, FOLDER, GOOGLE_DOC } from './dataset.ts';
import {
  EXPORT_TYPES,
  fieldsRequired,
  fileNotFound,
  googleError,
  invalidValue,
  notFound,
  renderComment,
  renderDrive,
  renderFile,
  renderPermission,
  renderReply,
  renderRevision,
  withFields,
} from './wire.ts';

export interface DriveCtx {
  data: Dataset;
  /** records per page when a request names no pageSize (tests shrink it; Drive's own defaults otherwise) */
  pageSize: number | undefined;
}

/** Drive's export cap (https://developers.google.com/drive/api/reference/rest/v3/files/export). */
export const EXPORT_LIMIT_BYTES = 10 * 1024 * 1024;

/** Page tokens with the look of Drive's (`~!!~…`), bound to the route and the request's other params. */
const tokens = new CursorCodec({
  wrap: (payload, mac) => `~!!~${payload}.${mac}`,
  unwrap: (cursor) => {
    const m = /^~!!~([^.]+)\.([^.]+)$/.exec(cursor);
    return m ? [m[1] as string, m[2] as string] : undefined;
  },
});

/** One page of `all` as Drive answers it: `{kind, nextPageToken?, [member]: items}`. */
function page<T>(
  req: RouteRequest,
  ctx: DriveCtx,
  all: readonly T[],
  kind: string,
  member: string,
  render: (item: T) => unknown,
  limits: { default: number; max: number },
): Answer | Record<string, unknown> {
  const raw = req.query.get('pageSize');
  let size = ctx.pageSize ?? limits.default;
  if (raw !== null) {
    size = Number(raw);
    if (!/^\d+$/.test(raw) || size < 1) return invalidValue('pageSize', raw);
    size = Math.min(size, limits.max);
  }
  const cursor = req.query.get('pageToken') ?? undefined;
  const at = tokens.page(all, {
    cursor,
    route: req.pathname,
    inputs: queryInputs(req.query, ['pageToken']),
    limit: size,
  });
  if (at === undefined) return invalidValue('pageToken', cursor ?? '');
  return { kind, ...(at.nextCursor ? { nextPageToken: at.nextCursor } : {}), [member]: at.items.map(render) };
}

const isAnswer = (v: Answer | Record<string, unknown>): v is Answer =>
  typeof (v as Answer).status === 'number' && 'body' in v;

/** A list answer narrowed by `fields` (Drive's default members otherwise). */
function listed(req: RouteRequest, body: Answer | Record<string, unknown>, fallback: string): Answer {
  return isAnswer(body) ? body : withFields(body, req.query.get('fields'), fallback);
}

const file = (ctx: DriveCtx, id: string): DriveFile | undefined => ctx.data.files.get(id);

type FileTest = (f: DriveFile) => boolean;

/** Drive's file query terms (https://developers.google.com/drive/api/guides/search-files) the fake knows. */
const TERMS: Array<[RegExp, (m: RegExpExecArray) => FileTest]> = [
  [/^'([^']+)' in parents$/, (m) => (f) => f.parents.includes(m[1] as string)],
  [/^trashed\s*=\s*(true|false)$/, (m) => (f) => f.trashed === (m[1] === 'true')],
  [/^mimeType\s*(=|!=)\s*'([^']+)'$/, (m) => (f) => (f.mimeType === m[2]) === (m[1] === '=')],
  [
    /^name\s+contains\s+'([^']*)'$/,
    (m) => (f) => f.name.toLowerCase().includes((m[1] as string).toLowerCase()),
  ],
  [/^modifiedTime\s*>\s*'([^']+)'$/, (m) => (f) => Date.parse(f.modifiedTime) > Date.parse(m[1] as string)],
];

/** A query of terms joined by `and`; undefined when a term is not one the fake knows (Google: 400 invalid q). */
function fileQuery(q: string): FileTest | undefined {
  const tests: FileTest[] = [];
  for (const term of q.split(/\s+and\s+/i)) {
    const t = term.trim();
    const known = TERMS.map(([re, make]) => {
      const m = re.exec(t);
      return m ? make(m) : undefined;
    }).find((test) => test !== undefined);
    if (known === undefined) return undefined;
    tests.push(known);
  }
  return (f) => tests.every((test) => test(f));
}

function listFiles(req: RouteRequest, ctx: DriveCtx): Answer {
  const q = req.query.get('q');
  const keep = q === null ? () => true : fileQuery(q);
  if (keep === undefined) return invalidValue('q', q ?? '');
  let all = [...ctx.data.files.values()].filter(keep);
  const order = req.query.get('orderBy');
  if (order !== null) {
    const m = /^(createdTime|modifiedTime|name)( desc)?$/.exec(order);
    if (m === null) return invalidValue('orderBy', order);
    const key = m[1] as 'createdTime' | 'modifiedTime' | 'name';
    all = all.sort((a, b) => (a[key] < b[key] ? -1 : a[key] > b[key] ? 1 : a.id < b.id ? -1 : 1));
    if (m[2]) all.reverse();
  }
  const body = page(req, ctx, all, 'drive#fileList', 'files', (f) => renderFile(ctx.data, f), {
    default: 100,
    max: 1000,
  });
  if (!isAnswer(body)) body.incompleteSearch = false;
  return listed(req, body, 'nextPageToken,kind,incompleteSearch,files(kind,id,name,mimeType)');
}

/** files.get with alt=media (https://developers.google.com/drive/api/guides/manage-downloads): the bytes. */
function media(req: RouteRequest, f: DriveFile): Answer {
  if (f.content === undefined)
    return googleError(403, {
      reason: 'fileNotDownloadable',
      message: 'Only files with binary content can be downloaded. Use Export with Docs Editors files.',
      location: 'alt',
      locationType: 'parameter',
    });
  const headers: Record<string, string> = {
    'content-type': f.mimeType,
    'content-disposition': `attachment; filename="${f.name}"`,
    'accept-ranges': 'bytes',
  };
  const range = /^bytes=(\d+)-(\d*)$/.exec(String(req.recorded.headers.range ?? ''));
  if (range) {
    const start = Number(range[1]);
    const end = Math.min(range[2] ? Number(range[2]) : f.content.length - 1, f.content.length - 1);
    if (start > end)
      return { status: 416, headers: { 'content-range': `bytes */${f.content.length}` }, body: '' };
    return {
      status: 206,
      headers: { ...headers, 'content-range': `bytes ${start}-${end}/${f.content.length}` },
      body: f.content.subarray(start, end + 1),
    };
  }
  return { status: 200, headers, body: f.content };
}

function exportFile(req: RouteRequest, ctx: DriveCtx): Answer {
  const f = file(ctx, req.params.fileId as string);
  if (f === undefined) return fileNotFound(req.params.fileId as string);
  const type = req.query.get('mimeType');
  if (type === null)
    return googleError(400, {
      reason: 'required',
      message: 'Required parameter: mimeType',
      location: 'mimeType',
      locationType: 'parameter',
    });
  if (f.mimeType !== GOOGLE_DOC)
    return googleError(403, {
      reason: 'fileNotExportable',
      message: 'Export only supports Docs Editors files.',
    });
  if (!EXPORT_TYPES.includes(type))
    return googleError(400, {
      reason: 'badRequest',
      message: 'The requested conversion is not supported.',
      location: 'convertTo',
      locationType: 'parameter',
    });
  if ((f.exportSize ?? 0) > EXPORT_LIMIT_BYTES)
    return googleError(403, {
      reason: 'exportSizeLimitExceeded',
      message: 'This file is too large to be exported.',
    });
  const text = f.text ?? '';
  const body =
    type === 'application/pdf'
      ? Buffer.from(`%PDF-1.4\n% ${f.name}\n${text}\n%%EOF\n`)
      : type === 'text/html'
        ? Buffer.from(`<html><body><p>${text}</p></body></html>`)
        : Buffer.from(text);
  return { status: 200, headers: { 'content-type': type }, body };
}

/** Members files.create and files.update write (https://developers.google.com/drive/api/reference/rest/v3/files). */
function writable(json: Record<string, unknown>): Partial<DriveFile> {
  const out: Partial<DriveFile> = {};
  for (const key of ['name', 'mimeType', 'description'] as const)
    if (typeof json[key] === 'string') out[key] = json[key] as string;
  for (const key of ['starred', 'trashed'] as const)
    if (typeof json[key] === 'boolean') out[key] = json[key] as boolean;
  for (const key of ['properties', 'appProperties'] as const)
    if (typeof json[key] === 'object' && json[key] !== null) out[key] = json[key] as Record<string, string>;
  return out;
}

function createFile(req: RouteRequest, ctx: DriveCtx): Answer {
  const json = req.json === undefined ? {} : req.json;
  if (json === 'invalid') return googleError(400, { reason: 'parseError', message: 'Parse Error' });
  const parents = Array.isArray(json.parents) ? json.parents.map(String) : [ctx.data.rootId];
  for (const parent of parents) {
    const folder = ctx.data.files.get(parent);
    if (parent !== ctx.data.rootId && folder?.mimeType !== FOLDER) return fileNotFound(parent);
  }
  const created = ctx.data.newFile({
    ...writable(json),
    parents,
    ...(json.mimeType === GOOGLE_DOC ? { text: '' } : {}),
  });
  if (created.mimeType !== FOLDER && created.mimeType !== GOOGLE_DOC) created.content = Buffer.alloc(0);
  return withFields(renderFile(ctx.data, created), req.query.get('fields'), 'kind,id,name,mimeType');
}

/**
 * files.create on the upload URI (https://developers.google.com/drive/api/guides/manage-uploads#multipart):
 * uploadType=multipart and a multipart/related body, the JSON metadata then the content under its type.
 */
function uploadFile(req: RouteRequest, ctx: DriveCtx): Answer {
  if (req.query.get('uploadType') !== 'multipart')
    return invalidValue('uploadType', req.query.get('uploadType') ?? '');
  const type = String(req.recorded.headers['content-type'] ?? '');
  const boundary = /^multipart\/related;\s*boundary=("?)([^";]+)\1$/i.exec(type)?.[2];
  if (boundary === undefined)
    return googleError(400, { reason: 'badContent', message: 'Media type multipart/related is required.' });
  const parts = req.recorded.body
    .split(`--${boundary}`)
    .slice(1, -1)
    .map((part) => {
      const at = part.indexOf('\r\n\r\n');
      const head = part.slice(0, at);
      return { type: /content-type:\s*([^\r\n;]+)/i.exec(head)?.[1]?.trim(), body: part.slice(at + 4, -2) };
    });
  const [meta, media] = parts;
  if (parts.length !== 2 || meta?.type !== 'application/json' || media?.type === undefined)
    return googleError(400, { reason: 'badContent', message: 'Malformed multipart body.' });
  let json: Record<string, unknown>;
  try {
    json = JSON.parse(meta.body);
  } catch {
    return googleError(400, { reason: 'parseError', message: 'Parse Error' });
  }
  const parents = Array.isArray(json.parents) ? json.parents.map(String) : [ctx.data.rootId];
  for (const parent of parents)
    if (parent !== ctx.data.rootId && ctx.data.files.get(parent)?.mimeType !== FOLDER)
      return fileNotFound(parent);
  const created = ctx.data.newFile({ mimeType: media.type, ...writable(json), parents });
  created.content = Buffer.from(media.body, 'utf8');
  return withFields(renderFile(ctx.data, created), req.query.get('fields'), 'kind,id,name,mimeType');
}

function updateFile(req: RouteRequest, ctx: DriveCtx): Answer {
  const f = file(ctx, req.params.fileId as string);
  if (f === undefined) return fileNotFound(req.params.fileId as string);
  const json = req.json === undefined ? {} : req.json;
  if (json === 'invalid') return googleError(400, { reason: 'parseError', message: 'Parse Error' });
  const add = req.query.get('addParents')?.split(',').filter(Boolean) ?? [];
  const remove = req.query.get('removeParents')?.split(',').filter(Boolean) ?? [];
  for (const parent of add)
    if (parent !== ctx.data.rootId && ctx.data.files.get(parent)?.mimeType !== FOLDER)
      return fileNotFound(parent);
  Object.assign(f, writable(json));
  f.parents = [...f.parents.filter((p) => !remove.includes(p)), ...add.filter((p) => !f.parents.includes(p))];
  f.modifiedTime = ctx.data.tick();
  f.version += 1;
  ctx.data.record(f.id, f.modifiedTime, false);
  return withFields(renderFile(ctx.data, f), req.query.get('fields'), 'kind,id,name,mimeType');
}

function deleteFile(req: RouteRequest, ctx: DriveCtx): Answer {
  const id = req.params.fileId as string;
  if (!ctx.data.files.delete(id)) return fileNotFound(id);
  ctx.data.record(id, ctx.data.tick(), true);
  return { status: 204, body: undefined };
}

/** A `driveId` naming no shared drive of the user. */
function unknownDrive(req: RouteRequest, ctx: DriveCtx): Answer | undefined {
  const id = req.query.get('driveId');
  if (id === null || ctx.data.drives.some((d) => d.id === id)) return undefined;
  return notFound('Shared drive', id, 'driveId');
}

function listChanges(req: RouteRequest, ctx: DriveCtx): Answer {
  const unknown = unknownDrive(req, ctx);
  if (unknown) return unknown;
  const token = req.query.get('pageToken');
  if (token === null)
    return googleError(400, {
      reason: 'required',
      message: 'Required parameter: pageToken',
      location: 'pageToken',
      locationType: 'parameter',
    });
  const start = Number(token);
  if (!/^\d+$/.test(token) || start < 1 || start > ctx.data.changes.length + 1)
    return invalidValue('pageToken', token);
  const raw = req.query.get('pageSize');
  const size = Math.min(raw === null ? (ctx.pageSize ?? 100) : Number(raw), 1000);
  if (!(size >= 1)) return invalidValue('pageSize', raw ?? '');
  const includeRemoved = req.query.get('includeRemoved') !== 'false';
  const after = ctx.data.changes.slice(start - 1);
  const items = after.filter((c) => includeRemoved || !c.removed).slice(0, size);
  const last = items.at(-1);
  const nextSeq = last === undefined ? ctx.data.changes.length + 1 : last.seq + 1;
  const end = nextSeq > ctx.data.changes.length;
  return {
    status: 200,
    body: {
      kind: 'drive#changeList',
      ...(end ? { newStartPageToken: String(nextSeq) } : { nextPageToken: String(nextSeq) }),
      changes: items.map((c) => {
        const f = c.removed ? undefined : ctx.data.files.get(c.fileId);
        return {
          kind: 'drive#change',
          changeType: 'file',
          time: c.time,
          removed: f === undefined,
          fileId: c.fileId,
          ...(f === undefined ? {} : { file: renderFile(ctx.data, f) }),
        };
      }),
    },
  };
}

function commentOf(req: RouteRequest, ctx: DriveCtx) {
  const f = file(ctx, req.params.fileId as string);
  if (f === undefined) return fileNotFound(req.params.fileId as string);
  const comment = ctx.data.comments.find((c) => c.fileId === f.id && c.id === req.params.commentId);
  return comment ?? notFound('Comment', req.params.commentId as string, 'commentId');
}

/** Comments and replies answer nothing without `fields` (their reference pages: "fields is required"). */
const needsFields = (req: RouteRequest) => (req.query.get('fields') === null ? fieldsRequired() : undefined);

export const ROUTES: Route<DriveCtx>[] = [
  route(
    'GET',
    '/drive/v3/about',
    'drive.about.get',
    (req, ctx) =>
      needsFields(req) ??
      withFields(
        {
          kind: 'drive#about',
          user: { ...ctx.data.me },
          storageQuota: {
            limit: '16106127360',
            usage: '14680064',
            usageInDrive: '14680064',
            usageInDriveTrash: '0',
          },
          exportFormats: { [GOOGLE_DOC]: EXPORT_TYPES },
          maxUploadSize: '5242880000000',
          appInstalled: false,
          canCreateDrives: true,
        },
        req.query.get('fields'),
        '*',
      ),
  ),
  route(
    'GET',
    '/drive/v3/changes/startPageToken',
    'drive.changes.getStartPageToken',
    (req, ctx) =>
      unknownDrive(req, ctx) ?? {
        status: 200,
        body: { kind: 'drive#startPageToken', startPageToken: ctx.data.startPageToken() },
      },
  ),
  route('GET', '/drive/v3/changes', 'drive.changes.list', listChanges),
  route('GET', '/drive/v3/files', 'drive.files.list', listFiles),
  route('POST', '/drive/v3/files', 'drive.files.create', createFile),
  route('POST', '/upload/drive/v3/files', 'drive.files.create', uploadFile),
  route('GET', '/drive/v3/files/{fileId}', 'drive.files.get', (req, ctx) => {
    const f = file(ctx, req.params.fileId as string);
    if (f === undefined) return fileNotFound(req.params.fileId as string);
    if (req.query.get('alt') === 'media') return media(req, f);
    return withFields(renderFile(ctx.data, f), req.query.get('fields'), 'kind,id,name,mimeType');
  }),
  route('PATCH', '/drive/v3/files/{fileId}', 'drive.files.update', updateFile),
  route('DELETE', '/drive/v3/files/{fileId}', 'drive.files.delete', deleteFile),
  route('GET', '/drive/v3/files/{fileId}/export', 'drive.files.export', exportFile),
  route('GET', '/drive/v3/files/{fileId}/comments', 'drive.comments.list', (req, ctx) => {
    const f = file(ctx, req.params.fileId as string);
    if (f === undefined) return fileNotFound(req.params.fileId as string);
    const missing = needsFields(req);
    if (missing) return missing;
    const since = req.query.get('startModifiedTime');
    if (since !== null && Number.isNaN(Date.parse(since))) return invalidValue('startModifiedTime', since);
    const deleted = req.query.get('includeDeleted') === 'true';
    const all = ctx.data.comments.filter(
      (c) =>
        c.fileId === f.id &&
        (deleted || !c.deleted) &&
        (since === null || c.modifiedTime >= new Date(since).toISOString()),
    );
    return listed(
      req,
      page(req, ctx, all, 'drive#commentList', 'comments', renderComment, { default: 20, max: 100 }),
      '*',
    );
  }),
  route('GET', '/drive/v3/files/{fileId}/comments/{commentId}', 'drive.comments.get', (req, ctx) => {
    const c = commentOf(req, ctx);
    if ('status' in c) return c;
    return needsFields(req) ?? withFields(renderComment(c), req.query.get('fields'), '*');
  }),
  route('GET', '/drive/v3/files/{fileId}/comments/{commentId}/replies', 'drive.replies.list', (req, ctx) => {
    const c = commentOf(req, ctx);
    if ('status' in c) return c;
    const missing = needsFields(req);
    if (missing) return missing;
    return listed(
      req,
      page(req, ctx, c.replies, 'drive#replyList', 'replies', renderReply, { default: 20, max: 100 }),
      '*',
    );
  }),
  route(
    'GET',
    '/drive/v3/files/{fileId}/comments/{commentId}/replies/{replyId}',
    'drive.replies.get',
    (req, ctx) => {
      const c = commentOf(req, ctx);
      if ('status' in c) return c;
      const reply = c.replies.find((r) => r.id === req.params.replyId);
      if (reply === undefined) return notFound('Reply', req.params.replyId as string, 'replyId');
      return needsFields(req) ?? withFields(renderReply(reply), req.query.get('fields'), '*');
    },
  ),
  route('GET', '/drive/v3/drives', 'drive.drives.list', (req, ctx) => {
    const q = req.query.get('q');
    let all = ctx.data.drives;
    if (q !== null) {
      const m = /^name\s+contains\s+'([^']*)'$/.exec(q.trim());
      if (m === null) return invalidValue('q', q);
      all = all.filter((d) => d.name.toLowerCase().includes((m[1] as string).toLowerCase()));
    }
    return listed(
      req,
      page(req, ctx, all, 'drive#driveList', 'drives', renderDrive, { default: 10, max: 100 }),
      '*',
    );
  }),
  route('GET', '/drive/v3/drives/{driveId}', 'drive.drives.get', (req, ctx) => {
    const d = ctx.data.drives.find((x) => x.id === req.params.driveId);
    return d
      ? { status: 200, body: renderDrive(d) }
      : notFound('Shared drive', req.params.driveId as string, 'driveId');
  }),
  route('GET', '/drive/v3/files/{fileId}/permissions', 'drive.permissions.list', (req, ctx) => {
    const all = ctx.data.permissions.get(req.params.fileId as string);
    if (all === undefined) return fileNotFound(req.params.fileId as string);
    // Without pageSize every permission comes in one page (the reference's pageSize: "all when not set").
    const limits = {
      default: req.query.get('pageSize') === null && ctx.pageSize === undefined ? all.length || 1 : 100,
      max: 100,
    };
    return listed(
      req,
      page(req, ctx, all, 'drive#permissionList', 'permissions', renderPermission, limits),
      '*',
    );
  }),
  route('GET', '/drive/v3/files/{fileId}/permissions/{permissionId}', 'drive.permissions.get', (req, ctx) => {
    const all = ctx.data.permissions.get(req.params.fileId as string);
    if (all === undefined) return fileNotFound(req.params.fileId as string);
    const p = all.find((x) => x.id === req.params.permissionId);
    return p
      ? { status: 200, body: renderPermission(p) }
      : notFound('Permission', req.params.permissionId as string, 'permissionId');
  }),
  route('GET', '/drive/v3/files/{fileId}/revisions', 'drive.revisions.list', (req, ctx) => {
    const f = file(ctx, req.params.fileId as string);
    if (f === undefined) return fileNotFound(req.params.fileId as string);
    const all = ctx.data.revisions.filter((r) => r.fileId === f.id);
    return listed(
      req,
      page(req, ctx, all, 'drive#revisionList', 'revisions', renderRevision, { default: 200, max: 1000 }),
      '*',
    );
  }),
  route('GET', '/drive/v3/files/{fileId}/revisions/{revisionId}', 'drive.revisions.get', (req, ctx) => {
    const r = ctx.data.revisions.find(
      (x) => x.fileId === req.params.fileId && x.id === req.params.revisionId,
    );
    if (r === undefined)
      return file(ctx, req.params.fileId as string) === undefined
        ? fileNotFound(req.params.fileId as string)
        : notFound('Revision', req.params.revisionId as string, 'revisionId');
    return { status: 200, body: renderRevision(r) };
  }),
];
