// Attachment bytes. An attachment's `content_url` is on the account's own host
// (`/attachments/token/{token}/?name={file_name}`) and answers with a 302 to a signed URL on Zendesk's storage
// host (zdusercontent.com), which serves the file with Content-Type and Content-Disposition. "Working with url
// properties" (documentation/api-basics/best-practices/working-with-url-properties) warns that these files may
// be hosted elsewhere and must not be sent Zendesk credentials; the storage path here needs none (the signature
// in its query authorises it), so a test can check that a client sent no Authorization header there.
// The storage host is modelled as a second path on the fake: /_zdusercontent/attachment/{account}/{token}.
// It honours a single `Range: bytes=...` (206 + Content-Range, 416 when unsatisfiable).
import { createHmac } from 'node:crypto';
import type { Answer, Route } from '../../kit/index.ts';
import { route } from '../../kit/route.ts';
import { articleFiles } from './admin-data.ts';
import type { Dataset } from './dataset.ts';

const STORAGE_PREFIX = '/_zdusercontent';
const ACCOUNT_ID = '10203040';
const SIGNING_KEY = 'zendesk-fake-storage-key';

const html = (status: number, text: string): Answer => ({
  status,
  headers: { 'content-type': 'text/html; charset=utf-8' },
  body: `<html><body>${text}</body></html>`,
});

function sign(token: string): string {
  return createHmac('sha256', SIGNING_KEY).update(token).digest('base64url');
}

/**
 * The hosts behind url properties, which take no credential: the account host's content_url (a redirect to
 * storage), the storage host (the bytes, for a valid signature only) and a published Help Center article's
 * attachment (public). `bare` marks their answers, which carry none of the API's headers.
 */
export function fileRoutes(
  data: Dataset,
  origin: () => string,
  bare: (a: Answer) => Answer,
): Route<unknown>[] {
  const range = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);
  const content = route(
    'GET',
    '/attachments/token/{token}',
    'content_url (Working with url properties)',
    (req) => {
      const attachment = data.attachmentByToken(req.params.token as string);
      if (attachment === undefined)
        return bare(html(404, 'The page you were looking for doesn&#39;t exist.'));
      const location = `${origin()}${STORAGE_PREFIX}/attachment/${ACCOUNT_ID}/${attachment.token}?token=${sign(attachment.token)}`;
      return bare({
        status: 302,
        headers: { location, 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-cache' },
        body: `<html><body>You are being <a href="${location}">redirected</a>.</body></html>`,
      });
    },
  );
  return [
    content,
    { ...content, path: '/attachments/token/{token}/' },
    route('GET', `${STORAGE_PREFIX}/attachment/${ACCOUNT_ID}/{token}`, 'zdusercontent.com storage', (req) => {
      const token = req.params.token as string;
      const attachment = data.attachmentByToken(token);
      if (attachment === undefined || req.query.get('token') !== sign(token))
        return bare(html(403, 'Access denied'));
      const { bytes, contentType, fileName } = attachment;
      return bare(serveBytes(bytes, contentType, fileName, range(req.recorded.headers.range)));
    }),
    route(
      'GET',
      '/hc/article_attachments/{id}/{name}',
      'Help Center article attachment content_url',
      (req) => {
        const f = articleFiles().find(
          (x) => x.id === Number(req.params.id) && x.fileName === req.params.name,
        );
        if (f === undefined) return bare(html(404, 'Not found'));
        return bare(serveBytes(f.bytes, f.contentType, f.fileName, range(req.recorded.headers.range)));
      },
    ),
  ];
}

/** A file with Content-Type, Content-Disposition and a single `Range: bytes=...` honoured (206/416). */
export function serveBytes(
  bytes: Buffer,
  contentType: string,
  fileName: string,
  range: string | undefined,
): Answer {
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
