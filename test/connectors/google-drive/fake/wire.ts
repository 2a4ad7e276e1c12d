// The Google Drive fake's wire conventions: Google's error body
// (https://developers.google.com/drive/api/guides/handle-errors), the `fields` partial-response selector
// (https://developers.google.com/drive/api/guides/fields-parameter), and records rendered as the discovery
// document's schemas type them (int64 members such as `size` and `version` are strings on the wire).
import type { Answer } from '../../kit/index.ts';
import type {
  Dataset,
  DriveComment,
  DriveFile,
  DrivePermission,
  DriveReply,
  DriveRevision,
  SharedDrive,
} from './dataset.ts';
import { FOLDER, GOOGLE_DOC, md5 } from './dataset.ts';

export interface GoogleError {
  reason: string;
  message: string;
  location?: string;
  locationType?: 'parameter' | 'header';
}

/** `{error: {code, message, errors: [{domain, reason, message, location?, locationType?}]}}` */
export function googleError(status: number, e: GoogleError, domain = 'global'): Answer {
  return {
    status,
    body: { error: { code: status, message: e.message, errors: [{ domain, ...e }] } },
  };
}

export const unauthorized = () =>
  googleError(401, {
    reason: 'authError',
    message: 'Invalid Credentials',
    location: 'Authorization',
    locationType: 'header',
  });
export const fileNotFound = (id: string) =>
  googleError(404, {
    reason: 'notFound',
    message: `File not found: ${id}.`,
    location: 'fileId',
    locationType: 'parameter',
  });
export const notFound = (what: string, id: string, location: string) =>
  googleError(404, {
    reason: 'notFound',
    message: `${what} not found: ${id}.`,
    location,
    locationType: 'parameter',
  });
export const invalidValue = (location: string, _value: string) =>
  googleError(400, { reason: 'invalid', message: `Invalid Value`, location, locationType: 'parameter' });
export const fieldsRequired = () =>
  googleError(400, {
    reason: 'required',
    message: "The 'fields' parameter is required for this method.",
    location: 'fields',
    locationType: 'parameter',
  });
export const userRateLimited = () =>
  googleError(403, { reason: 'userRateLimitExceeded', message: 'User Rate Limit Exceeded' }, 'usageLimits');

/** The default body of a status (injected faults without a body). */
export function errorFor(status: number): unknown {
  const reasons: Record<number, GoogleError> = {
    400: { reason: 'badRequest', message: 'Bad Request' },
    401: { reason: 'authError', message: 'Invalid Credentials' },
    403: { reason: 'forbidden', message: 'Forbidden' },
    404: { reason: 'notFound', message: 'Not Found' },
    429: { reason: 'rateLimitExceeded', message: 'Rate Limit Exceeded' },
    500: { reason: 'backendError', message: 'Backend Error' },
    503: { reason: 'backendError', message: 'Service Unavailable' },
  };
  return googleError(status, reasons[status] ?? { reason: 'backendError', message: 'Backend Error' }).body;
}

/** A parsed `fields` selector: member -> its own selector (`true` = the whole member). */
type Selection = Map<string, Selection | true>;

/** `nextPageToken,files(id,name,owners/emailAddress)`; undefined when malformed. */
export function parseFields(text: string): Selection | '*' | undefined {
  if (text.trim() === '*') return '*';
  let i = 0;
  const list = (): Selection | undefined => {
    const out: Selection = new Map();
    while (i < text.length) {
      const start = i;
      while (i < text.length && !',()/'.includes(text[i] as string)) i += 1;
      const name = text.slice(start, i).trim();
      if (name === '') return undefined;
      let sub: Selection | true = true;
      if (text[i] === '(') {
        i += 1;
        const inner = list();
        if (inner === undefined || text[i] !== ')') return undefined;
        i += 1;
        sub = inner;
      } else if (text[i] === '/') {
        i += 1;
        const start2 = i;
        let depth = 0;
        while (i < text.length && (depth > 0 || (text[i] !== ',' && text[i] !== ')'))) {
          if (text[i] === '(') depth += 1;
          if (text[i] === ')') depth -= 1;
          i += 1;
        }
        const nested = parseFields(text.slice(start2, i));
        if (nested === undefined) return undefined;
        sub = nested === '*' ? true : nested;
      }
      out.set(name, name === '*' ? true : sub);
      if (text[i] === ',') i += 1;
      else break;
    }
    return out;
  };
  const parsed = list();
  return parsed !== undefined && i === text.length ? parsed : undefined;
}

/** `value` narrowed to `selection` (arrays element by element; `*` keeps every member). */
export function select(value: unknown, selection: Selection | '*'): unknown {
  if (selection === '*') return value;
  if (Array.isArray(value)) return value.map((item) => select(item, selection));
  if (typeof value !== 'object' || value === null) return value;
  if (selection.get('*') === true) return value;
  const out: Record<string, unknown> = {};
  for (const [name, sub] of selection) {
    const member = (value as Record<string, unknown>)[name];
    if (member !== undefined) out[name] = sub === true ? member : select(member, sub);
  }
  return out;
}

/** The answer narrowed by the request's `fields`, or `fallback` (Drive's default members) without one. */
export function withFields(body: Record<string, unknown>, fields: string | null, fallback: string): Answer {
  const selection = parseFields(fields ?? fallback);
  if (selection === undefined) return invalidValue('fields', fields ?? '');
  return { status: 200, body: select(body, selection) };
}

export function renderFile(data: Dataset, f: DriveFile): Record<string, unknown> {
  const out: Record<string, unknown> = {
    kind: 'drive#file',
    id: f.id,
    name: f.name,
    mimeType: f.mimeType,
    parents: f.parents,
    starred: f.starred,
    trashed: f.trashed,
    explicitlyTrashed: f.trashed,
    spaces: ['drive'],
    version: String(f.version),
    webViewLink: `https://drive.google.com/file/d/${f.id}/view?usp=drivesdk`,
    iconLink: `https://drive-thirdparty.googleusercontent.com/16/type/${f.mimeType}`,
    createdTime: f.createdTime,
    modifiedTime: f.modifiedTime,
    viewedByMe: true,
    owners: [data.me],
    lastModifyingUser: data.me,
    shared: (data.permissions.get(f.id)?.length ?? 1) > 1,
    ownedByMe: true,
    capabilities: { canEdit: true, canComment: true, canDownload: true, canTrash: true, canDelete: true },
    permissionIds: (data.permissions.get(f.id) ?? []).map((p) => p.id),
  };
  if (f.description !== undefined) out.description = f.description;
  if (f.properties !== undefined) out.properties = f.properties;
  if (f.appProperties !== undefined) out.appProperties = f.appProperties;
  if (f.driveId !== undefined) out.driveId = f.driveId;
  if (f.content !== undefined) {
    const dot = f.name.lastIndexOf('.');
    out.size = String(f.content.length);
    out.quotaBytesUsed = String(f.content.length);
    out.md5Checksum = md5(f.content);
    out.originalFilename = f.name;
    if (dot > 0) {
      out.fileExtension = f.name.slice(dot + 1);
      out.fullFileExtension = f.name.slice(dot + 1);
    }
    out.headRevisionId = data.revisions.filter((r) => r.fileId === f.id).at(-1)?.id;
    out.webContentLink = `https://drive.google.com/uc?id=${f.id}&export=download`;
  } else if (f.mimeType !== FOLDER) {
    out.quotaBytesUsed = '0';
    if (f.mimeType === GOOGLE_DOC)
      out.exportLinks = Object.fromEntries(
        EXPORT_TYPES.map((t) => [
          t,
          `https://docs.google.com/feeds/download/documents/export/Export?id=${f.id}&exportFormat=${t.split('/')[1]}`,
        ]),
      );
  }
  return out;
}

/** The formats a Google Doc exports to (about.get's exportFormats for documents, abridged). */
export const EXPORT_TYPES = ['text/plain', 'application/pdf', 'text/html'];

export const renderReply = (r: DriveReply) => ({
  kind: 'drive#reply',
  id: r.id,
  createdTime: r.createdTime,
  modifiedTime: r.modifiedTime,
  author: {
    kind: 'drive#user',
    displayName: r.author.displayName,
    photoLink: r.author.photoLink,
    me: r.author.me,
  },
  deleted: r.deleted,
  htmlContent: r.content,
  content: r.content,
});

export const renderComment = (c: DriveComment) => ({
  kind: 'drive#comment',
  id: c.id,
  createdTime: c.createdTime,
  modifiedTime: c.modifiedTime,
  author: {
    kind: 'drive#user',
    displayName: c.author.displayName,
    photoLink: c.author.photoLink,
    me: c.author.me,
  },
  htmlContent: c.content,
  content: c.content,
  deleted: c.deleted,
  resolved: c.resolved,
  replies: c.replies.map(renderReply),
});

export const renderPermission = (p: DrivePermission) => ({ kind: 'drive#permission', ...p });

export const renderRevision = (r: DriveRevision) => ({
  kind: 'drive#revision',
  id: r.id,
  mimeType: r.mimeType,
  modifiedTime: r.modifiedTime,
  keepForever: false,
  originalFilename: 'revision',
  size: String(r.size),
  md5Checksum: r.md5,
});

export const renderDrive = (d: SharedDrive) => ({
  kind: 'drive#drive',
  id: d.id,
  name: d.name,
  createdTime: d.createdTime,
  hidden: d.hidden,
  colorRgb: '#4986e7',
  capabilities: { canAddChildren: true, canListChildren: true, canManageMembers: false },
  restrictions: { adminManagedRestrictions: false, domainUsersOnly: false, driveMembersOnly: false },
});
