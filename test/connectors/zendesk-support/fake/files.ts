// Attachment bytes. An attachment's `content_url` is on the account's own host
// (`/attachments/token/{token}/?name={file_name}`) and answers with a 302 to a signed URL on Zendesk's storage
// host (zdusercontent.com), which serves the file with Content-Type and Content-Disposition. "Working with url
// properties" (documentation/api-basics/best-practices/working-with-url-properties) warns that these files may
// be hosted elsewhere and must not be sent Zendesk credentials; the storage path here needs none (the signature
// in its query authorises it), so a test can check that a client sent no Authorization header there.
// The storage host is modelled as a second path on the fake: /_zdusercontent/attachment/{account}/{token}.
// It honours a single `Range: bytes=...` (206 + Content-Range, 416 when unsatisfiable).
import { createHmac } from 'node:crypto';
import type { Dataset } from './dataset.ts';

export const STORAGE_PREFIX = '/_zdusercontent';
const ACCOUNT_ID = '10203040';
const SIGNING_KEY = 'zendesk-fake-storage-key';

export interface FileResult {
  status: number;
  headers: Record<string, string>;
  body: string | Buffer;
}

const html = (status: number, text: string): FileResult => ({
  status,
  headers: { 'content-type': 'text/html; charset=utf-8' },
  body: `<html><body>${text}</body></html>`,
});

function sign(token: string): string {
  return createHmac('sha256', SIGNING_KEY).update(token).digest('base64url');
}

/** `/attachments/token/{token}/` on the account host: the redirect to storage. Undefined = not this route. */
export function contentRoute(origin: string, pathname: string, data: Dataset): FileResult | undefined {
  const m = /^\/attachments\/token\/([A-Za-z0-9_-]+)\/?$/.exec(pathname);
  if (m === null) return undefined;
  const attachment = data.attachmentByToken(m[1] as string);
  if (attachment === undefined) return html(404, 'The page you were looking for doesn&#39;t exist.');
  const location = `${origin}${STORAGE_PREFIX}/attachment/${ACCOUNT_ID}/${attachment.token}?token=${sign(attachment.token)}`;
  return {
    status: 302,
    headers: { location, 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-cache' },
    body: `<html><body>You are being <a href="${location}">redirected</a>.</body></html>`,
  };
}

/** The storage host: the bytes, for a valid signature only. Undefined = not this route. */
export function storageRoute(
  pathname: string,
  query: URLSearchParams,
  range: string | undefined,
  data: Dataset,
): FileResult | undefined {
  const m = new RegExp(`^${STORAGE_PREFIX}/attachment/${ACCOUNT_ID}/([A-Za-z0-9_-]+)$`).exec(pathname);
  if (m === null) return undefined;
  const token = m[1] as string;
  const attachment = data.attachmentByToken(token);
  if (attachment === undefined || query.get('token') !== sign(token)) return html(403, 'Access denied');
  return serveBytes(attachment.bytes, attachment.contentType, attachment.fileName, range);
}

/** A file with Content-Type, Content-Disposition and a single `Range: bytes=...` honoured (206/416). */
export function serveBytes(
  bytes: Buffer,
  contentType: string,
  fileName: string,
  range: string | undefined,
): FileResult {
  const headers: Record<string, string> = {
    'content-type': contentType,
    'content-disposition': `attachment; filename="${fileName.replace(/["\\]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(fileName)}`,
    'accept-ranges': 'bytes',
    'cache-control': 'private, max-age=0',
  };
  if (range === undefined) return { status: 200, headers, body: bytes };
  const r = /^bytes=(\d*)-(\d*)$/.exec(range.trim());
  let start = r?.[1] ? Number(r[1]) : undefined;
  let end = r?.[2] ? Number(r[2]) : undefined;
  if (r === null || (start === undefined && end === undefined)) return { status: 200, headers, body: bytes };
  if (start === undefined) {
    start = Math.max(0, bytes.length - (end as number));
    end = bytes.length - 1;
  } else end = Math.min(end ?? bytes.length - 1, bytes.length - 1);
  if (start >= bytes.length || start > end) {
    return { status: 416, headers: { ...headers, 'content-range': `bytes */${bytes.length}` }, body: '' };
  }
  return {
    status: 206,
    headers: { ...headers, 'content-range': `bytes ${start}-${end}/${bytes.length}` },
    body: bytes.subarray(start, end + 1),
  };
}
