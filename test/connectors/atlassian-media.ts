// Atlassian Media Services stand-in, shared by the Jira and Confluence fakes: the host a site redirects an
// attachment's download to (Jira's getAttachmentContent with a 303, a Confluence downloadLink with a 302). The URL
// carries a short-lived signed token in its query, so this server, on another origin, needs no Authorization
// header and never sees one from a well-behaved client: tests read `requests` to check.
// Path: GET /file/{id}/binary?token&client&dl=true&name. A single `Range: bytes=a-b` is honoured (206 +
// Content-Range; 416 when unsatisfiable).
import { createHmac } from 'node:crypto';
import { type Answer, sendJson } from './kit/index.ts';
import { type RecordedRequest, type RecordingServer, startRecordingServer } from './kit/server.ts';

const LIFETIME_S = 600;

/** What the media host serves of one attachment. */
export interface MediaFile {
  id: string;
  bytes: Buffer;
  mimeType: string;
  filename: string;
}

export interface MediaHost<F> {
  origin: string;
  requests: RecordedRequest[];
  unhandled: RecordedRequest[];
  /** The signed URL the site redirects an attachment's download to. */
  urlFor(file: F): string;
  close(): Promise<void>;
}

/** The bytes of a file, whole or the one range a `Range` header asks for. */
export function serveBytes(
  bytes: Buffer,
  mimeType: string,
  range: string | undefined,
  extra: Record<string, string> = {},
): Answer {
  const headers = { 'content-type': mimeType, 'accept-ranges': 'bytes', ...extra };
  if (range === undefined || range === '') return { status: 200, headers, body: bytes };
  const m = /^bytes=(\d*)-(\d*)$/.exec(range.trim());
  if (!m || (m[1] === '' && m[2] === ''))
    return { status: 400, headers: { 'content-type': 'text/plain' }, body: 'Malformed Range header' };
  const start = m[1] === '' ? Math.max(0, bytes.length - Number(m[2])) : Number(m[1]);
  const end = m[1] === '' || m[2] === '' ? bytes.length - 1 : Math.min(Number(m[2]), bytes.length - 1);
  if (start > end || start >= bytes.length)
    return { status: 416, headers: { 'content-range': `bytes */${bytes.length}` }, body: '' };
  return {
    status: 206,
    headers: { ...headers, 'content-range': `bytes ${start}-${end}/${bytes.length}` },
    body: bytes.subarray(start, end + 1),
  };
}

const json = { 'content-type': 'application/json;charset=UTF-8' };

/**
 * `find` looks a file up by the id in its URL, `of` says what a fake's attachment record serves; `key` signs the
 * tokens and `client` is the client id the URLs name (each fake its own).
 */
export async function startMediaHost<F>(opts: {
  find(id: string): MediaFile | undefined;
  of(file: F): MediaFile;
  key: string;
  client: string;
  responseDelayMs?: number;
}): Promise<MediaHost<F>> {
  const sign = (id: string, expires: number) => {
    const mac = createHmac('sha256', opts.key).update(`${id}\n${expires}`).digest('base64url');
    return `${Buffer.from(JSON.stringify({ exp: expires })).toString('base64url')}.${mac}`;
  };
  const verify = (id: string, token: string | null) => {
    if (!token) return false;
    try {
      const payload = token.split('.')[0] ?? '';
      const { exp } = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { exp: number };
      return token === sign(id, exp) && exp * 1000 > Date.now();
    } catch {
      return false;
    }
  };
  let server: RecordingServer | undefined;
  server = await startRecordingServer(
    (_req, res, recorded) => {
      const url = new URL(recorded.path, 'http://media.invalid');
      const m = /^\/file\/([0-9a-f-]+)\/binary$/.exec(url.pathname);
      const file = m ? opts.find(m[1] as string) : undefined;
      if (recorded.method !== 'GET' || !file) {
        server?.unhandled.push(recorded);
        sendJson(res, {
          status: 404,
          headers: json,
          body: { error: { code: 'FileNotFound', title: 'The file was not found' } },
        });
        return;
      }
      if (!verify(file.id, url.searchParams.get('token'))) {
        sendJson(res, {
          status: 401,
          headers: json,
          body: { error: { code: 'Unauthorized', title: 'The token is missing, invalid or expired' } },
        });
        return;
      }
      const disposition = `attachment; filename="${file.filename}"`;
      sendJson(
        res,
        serveBytes(file.bytes, file.mimeType, recorded.headers.range, { 'content-disposition': disposition }),
      );
    },
    undefined,
    { responseDelayMs: opts.responseDelayMs ?? 0 },
  );
  const origin = server.origin;
  return {
    origin,
    requests: server.requests,
    unhandled: server.unhandled,
    urlFor(a) {
      const file = opts.of(a);
      const expires = Math.floor(Date.now() / 1000) + LIFETIME_S;
      const q = new URLSearchParams({
        token: sign(file.id, expires),
        client: opts.client,
        dl: 'true',
        name: file.filename,
      });
      return `${origin}/file/${file.id}/binary?${q}`;
    },
    close: () => (server as RecordingServer).close(),
  };
}
