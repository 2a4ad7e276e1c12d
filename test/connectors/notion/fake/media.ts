// Notion's file storage: where the `file.url` of a hosted file block points (Notion reference "File object":
// files Notion hosts come as `{type: "file", file: {url, expiry_time}}`, an authenticated S3 URL valid for an
// hour). Like those S3 pre-signed URLs, a URL here carries its own authorisation in the query
// (X-Amz-Date + X-Amz-Expires + X-Amz-Signature), so this host needs (and should never see) the API's bearer
// token: tests read `requests` to check that no Authorization header arrived. It is a second real server, on an
// origin other than the API's. It answers like S3: 403 XML `AccessDenied` ("Request has expired") past the
// expiry, 403 `SignatureDoesNotMatch` for a forged or altered URL, 404 `NoSuchKey` for an unknown object, and
// honours a single `Range: bytes=a-b` (206 + Content-Range, 416 when unsatisfiable).
import { createHmac } from 'node:crypto';
import { type RecordedRequest, type RecordingServer, send, startRecordingServer } from '../../kit/server.ts';
import type { Dataset, FileRef } from './dataset.ts';
import { safeEqual } from './wire.ts';

const KEY = 'notion-fake-file-host-key';
const CREDENTIAL = 'ASIAFAKENOTIONFILES01/20240101/us-west-2/s3/aws4_request';

export interface MediaHost {
  origin: string;
  requests: RecordedRequest[];
  unhandled: RecordedRequest[];
  /** A signed URL for a hosted file, valid `lifetimeSeconds` from now, and its expiry (ISO). */
  sign(file: FileRef): { url: string; expiry_time: string };
  /** The exact bytes served for a file key. */
  bytesOf(key: string): Buffer;
  close(): Promise<void>;
}

function signature(path: string, amzDate: string, expires: string): string {
  return createHmac('sha256', KEY).update(`${path}\n${amzDate}\n${expires}`).digest('hex');
}

/** 20240101T000000Z ↔ ms */
function amzDate(ms: number): string {
  return new Date(ms)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
}
function parseAmzDate(raw: string): number {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(raw);
  return m ? Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!) : Number.NaN;
}

/** Deterministic content per file key, with a header matching its kind. */
export function fileBytes(key: string): Buffer {
  const head = key.endsWith('.png')
    ? Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
    : key.endsWith('.pdf')
      ? Buffer.from('%PDF-1.7\n', 'latin1')
      : Buffer.from('notes\n', 'latin1');
  const body = Buffer.alloc(3000);
  for (let i = 0; i < body.length; i++) body[i] = (i * 13 + key.charCodeAt(i % key.length)) & 0xff;
  return Buffer.concat([head, body]);
}

function s3Error(code: string, message: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message><RequestId>FAKE0000NOTION</RequestId></Error>`;
}

export async function startMediaHost(
  data: Dataset,
  lifetimeSeconds: number,
  now: () => number = Date.now,
): Promise<MediaHost> {
  const known = (key: string) => [...data.blocks.values()].find((b) => b.file?.key === key)?.file;
  let server: RecordingServer | undefined;
  server = await startRecordingServer((_req, res, recorded) => {
    const url = new URL(recorded.path, 'http://files.invalid');
    const xml = { 'content-type': 'application/xml' };
    if (recorded.method !== 'GET' && recorded.method !== 'HEAD') {
      server?.unhandled.push(recorded);
      send(
        res,
        405,
        xml,
        s3Error('MethodNotAllowed', 'The specified method is not allowed against this resource.'),
      );
      return;
    }
    const q = url.searchParams;
    const date = q.get('X-Amz-Date') ?? '';
    const expires = q.get('X-Amz-Expires') ?? '';
    const sig = q.get('X-Amz-Signature') ?? '';
    if (!date || !expires || !sig) {
      send(res, 403, xml, s3Error('AccessDenied', 'Access Denied'));
      return;
    }
    if (!safeEqual(sig, signature(url.pathname, date, expires))) {
      send(
        res,
        403,
        xml,
        s3Error(
          'SignatureDoesNotMatch',
          'The request signature we calculated does not match the signature you provided.',
        ),
      );
      return;
    }
    if (!(parseAmzDate(date) + Number(expires) * 1000 > now())) {
      send(res, 403, xml, s3Error('AccessDenied', 'Request has expired'));
      return;
    }
    const key = decodeURIComponent(url.pathname.slice(1));
    const file = known(key);
    if (file === undefined) {
      server?.unhandled.push(recorded);
      send(res, 404, xml, s3Error('NoSuchKey', 'The specified key does not exist.'));
      return;
    }
    const bytes = fileBytes(key);
    const headers = {
      'content-type': file.contentType,
      'accept-ranges': 'bytes',
      'content-disposition': `inline; filename="${file.name}"`,
    };
    const range = /^bytes=(\d+)-(\d*)$/.exec(String(recorded.headers.range ?? ''));
    if (range) {
      const start = Number(range[1]);
      const end = range[2] ? Math.min(Number(range[2]), bytes.length - 1) : bytes.length - 1;
      if (start > end) {
        send(res, 416, { 'content-range': `bytes */${bytes.length}` }, '');
        return;
      }
      send(
        res,
        206,
        { ...headers, 'content-range': `bytes ${start}-${end}/${bytes.length}` },
        bytes.subarray(start, end + 1),
      );
      return;
    }
    send(res, 200, headers, bytes);
  });
  const origin = server.origin;
  return {
    origin,
    requests: server.requests,
    unhandled: server.unhandled,
    sign(file) {
      const path = `/${file.key.split('/').map(encodeURIComponent).join('/')}`;
      const at = Math.floor(now() / 1000) * 1000;
      const date = amzDate(at);
      const expires = String(lifetimeSeconds);
      const query = new URLSearchParams({
        'X-Amz-Algorithm': 'AWS4-HMAC-SHA256',
        'X-Amz-Content-Sha256': 'UNSIGNED-PAYLOAD',
        'X-Amz-Credential': CREDENTIAL,
        'X-Amz-Date': date,
        'X-Amz-Expires': expires,
        'X-Amz-Signature': signature(path, date, expires),
        'X-Amz-SignedHeaders': 'host',
        'x-id': 'GetObject',
      });
      return {
        url: `${origin}${path}?${query}`,
        expiry_time: new Date(at + lifetimeSeconds * 1000).toISOString(),
      };
    },
    bytesOf: fileBytes,
    close: () => (server as RecordingServer).close(),
  };
}
