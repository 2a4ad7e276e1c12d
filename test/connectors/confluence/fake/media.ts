// Atlassian Media Services stand-in: where a site's /wiki/download/attachments/... answers 302 (what Cloud sites
// do for an attachment's downloadLink). The URL carries a short-lived signed token in its query, so this second
// server, on another origin, needs no Authorization header and never sees one from a well-behaved client: tests
// read `requests` to check. Path: GET /file/{fileId}/binary?token&client&dl=true&name. A single
// `Range: bytes=a-b` is honoured (206 + Content-Range; 416 when unsatisfiable). Files are streamed in chunks.
import { createHmac } from 'node:crypto';
import { type RecordedRequest, type RecordingServer, startRecordingServer } from '../../kit/server.ts';
import type { AttachmentRec, Dataset } from './dataset.ts';
import { send } from './wire.ts';

const KEY = 'confluence-fake-media-key';
const CLIENT = '3b1e2c4d-8f0a-4a6b-9c7d-1e2f3a4b5c6d';
const LIFETIME_S = 600;

export interface MediaHost {
  origin: string;
  requests: RecordedRequest[];
  unhandled: RecordedRequest[];
  /** The signed URL the site redirects an attachment's download to. */
  urlFor(a: AttachmentRec): string;
  close(): Promise<void>;
}

function sign(fileId: string, expires: number): string {
  const mac = createHmac('sha256', KEY).update(`${fileId}\n${expires}`).digest('base64url');
  return `${Buffer.from(JSON.stringify({ exp: expires })).toString('base64url')}.${mac}`;
}

function verify(fileId: string, token: string | null): boolean {
  if (!token) return false;
  try {
    const { exp } = JSON.parse(Buffer.from(token.split('.')[0] ?? '', 'base64url').toString('utf8')) as {
      exp: number;
    };
    return token === sign(fileId, exp) && exp * 1000 > Date.now();
  } catch {
    return false;
  }
}

function range(
  header: string | undefined,
  size: number,
): { start: number; end: number } | 'bad' | 'unsatisfiable' | undefined {
  if (header === undefined || header === '') return undefined;
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (m[1] === '' && m[2] === '')) return 'bad';
  const start = m[1] === '' ? Math.max(0, size - Number(m[2])) : Number(m[1]);
  const end = m[1] === '' || m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  return start > end || start >= size ? 'unsatisfiable' : { start, end };
}

export async function startMediaHost(data: Dataset): Promise<MediaHost> {
  let server: RecordingServer | undefined;
  server = await startRecordingServer((_req, res, recorded) => {
    const url = new URL(recorded.path, 'http://media.invalid');
    const m = /^\/file\/([0-9a-f-]+)\/binary$/.exec(url.pathname);
    const file = m ? data.attachments.find((a) => a.fileId === m[1]) : undefined;
    if (recorded.method !== 'GET' || !file) {
      server?.unhandled.push(recorded);
      send(res, { status: 404, body: { error: { code: 'FileNotFound', title: 'The file was not found' } } });
      return;
    }
    if (!verify(file.fileId, url.searchParams.get('token'))) {
      send(res, {
        status: 401,
        body: { error: { code: 'Unauthorized', title: 'The token is missing, invalid or expired' } },
      });
      return;
    }
    const r = range(recorded.headers.range, file.bytes.length);
    if (r === 'bad') {
      send(res, { status: 400, headers: { 'content-type': 'text/plain' }, body: 'Malformed Range header' });
      return;
    }
    if (r === 'unsatisfiable') {
      send(res, { status: 416, headers: { 'content-range': `bytes */${file.bytes.length}` }, body: '' });
      return;
    }
    const bytes = r === undefined ? file.bytes : file.bytes.subarray(r.start, r.end + 1);
    res.writeHead(r === undefined ? 200 : 206, {
      'content-type': file.mediaType,
      'content-length': String(bytes.length),
      'accept-ranges': 'bytes',
      'content-disposition': `attachment; filename="${file.title}"`,
      ...(r === undefined ? {} : { 'content-range': `bytes ${r.start}-${r.end}/${file.bytes.length}` }),
    });
    // In 1 MiB chunks, so a large file reaches the client as a stream, as it would from the media host.
    const CHUNK = 1 << 20;
    let at = 0;
    const pump = () => {
      while (at < bytes.length) {
        const chunk = bytes.subarray(at, at + CHUNK);
        at += chunk.length;
        if (!res.write(chunk)) {
          res.once('drain', pump);
          return;
        }
      }
      res.end();
    };
    pump();
  });
  const origin = server.origin;
  return {
    origin,
    requests: server.requests,
    unhandled: server.unhandled,
    urlFor(a) {
      const expires = Math.floor(Date.now() / 1000) + LIFETIME_S;
      const q = new URLSearchParams({
        token: sign(a.fileId, expires),
        client: CLIENT,
        dl: 'true',
        name: a.title,
      });
      return `${origin}/file/${a.fileId}/binary?${q}`;
    },
    close: () => (server as RecordingServer).close(),
  };
}
