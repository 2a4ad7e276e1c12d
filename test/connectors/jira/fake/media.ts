// Atlassian Media Services stand-in: where GET /rest/api/3/attachment/content/{id} (getAttachmentContent)
// redirects with a 303. The URL carries a short-lived signed token in its query, so this second server (on
// another origin) needs no Authorization header and never sees one from a well-behaved client: tests read
// `requests` to check. Paths: GET /file/{mediaId}/binary?token&client&dl=true&name. A single
// `Range: bytes=a-b` is honoured (206 + Content-Range; 416 when unsatisfiable).
import { createHmac } from 'node:crypto';
import { type RecordedRequest, type RecordingServer, startRecordingServer } from '../../kit/server.ts';
import type { AttachmentRec, Dataset } from './dataset.ts';
import { type Result, send } from './wire.ts';

const KEY = 'jira-fake-media-key';
const CLIENT = '1e7e3c1d-7f1b-4c5e-9a7e-5a3c8f0d2b10';
const LIFETIME_S = 600;

export interface MediaHost {
  origin: string;
  requests: RecordedRequest[];
  unhandled: RecordedRequest[];
  /** The signed download URL Jira redirects an attachment's content to. */
  urlFor(a: AttachmentRec): string;
  close(): Promise<void>;
}

function sign(mediaId: string, expires: number): string {
  const mac = createHmac('sha256', KEY).update(`${mediaId}\n${expires}`).digest('base64url');
  return `${Buffer.from(JSON.stringify({ exp: expires })).toString('base64url')}.${mac}`;
}

function verify(mediaId: string, token: string | null): boolean {
  if (!token) return false;
  const [payload] = token.split('.');
  try {
    const { exp } = JSON.parse(Buffer.from(payload ?? '', 'base64url').toString('utf8')) as { exp: number };
    return token === sign(mediaId, exp) && exp * 1000 > Date.now();
  } catch {
    return false;
  }
}

/** The bytes of a file, whole or the one range a `Range` header asks for. */
export function serveBytes(
  bytes: Buffer,
  mimeType: string,
  range: string | undefined,
  extra: Record<string, string> = {},
): Result {
  const headers = { 'content-type': mimeType, 'accept-ranges': 'bytes', ...extra };
  if (range === undefined || range === '') return { status: 200, headers, body: bytes };
  const m = /^bytes=(\d*)-(\d*)$/.exec(range.trim());
  if (!m || (m[1] === '' && m[2] === ''))
    return { status: 400, headers: { 'content-type': 'text/plain' }, body: 'Malformed Range header' };
  let start: number;
  let end: number;
  if (m[1] === '') {
    start = Math.max(0, bytes.length - Number(m[2]));
    end = bytes.length - 1;
  } else {
    start = Number(m[1]);
    end = m[2] === '' ? bytes.length - 1 : Math.min(Number(m[2]), bytes.length - 1);
  }
  if (start > end || start >= bytes.length)
    return { status: 416, headers: { 'content-range': `bytes */${bytes.length}` }, body: '' };
  return {
    status: 206,
    headers: { ...headers, 'content-range': `bytes ${start}-${end}/${bytes.length}` },
    body: bytes.subarray(start, end + 1),
  };
}

export async function startMediaHost(data: Dataset, responseDelayMs = 0): Promise<MediaHost> {
  let server: RecordingServer | undefined;
  server = await startRecordingServer(
    (_req, res, recorded) => {
      const url = new URL(recorded.path, 'http://media.invalid');
      const m = /^\/file\/([0-9a-f-]+)\/binary$/.exec(url.pathname);
      const file = m ? data.attachments.find((a) => a.mediaId === m[1]) : undefined;
      if (recorded.method !== 'GET' || !file) {
        server?.unhandled.push(recorded);
        send(res, {
          status: 404,
          body: { error: { code: 'FileNotFound', title: 'The file was not found' } },
        });
        return;
      }
      if (!verify(file.mediaId, url.searchParams.get('token'))) {
        send(res, {
          status: 401,
          body: { error: { code: 'Unauthorized', title: 'The token is missing, invalid or expired' } },
        });
        return;
      }
      const disposition = `attachment; filename="${file.filename}"`;
      send(
        res,
        serveBytes(file.bytes, file.mimeType, recorded.headers.range, { 'content-disposition': disposition }),
      );
    },
    undefined,
    { responseDelayMs },
  );
  const origin = server.origin;
  return {
    origin,
    requests: server.requests,
    unhandled: server.unhandled,
    urlFor(a) {
      const expires = Math.floor(Date.now() / 1000) + LIFETIME_S;
      const q = new URLSearchParams({
        token: sign(a.mediaId, expires),
        client: CLIENT,
        dl: 'true',
        name: a.filename,
      });
      return `${origin}/file/${a.mediaId}/binary?${q}`;
    },
    close: () => (server as RecordingServer).close(),
  };
}
