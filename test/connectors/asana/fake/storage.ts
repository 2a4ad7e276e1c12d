// Asana's file storage: where an attachment's `download_url` points (getAttachment: "a temporary URL ... valid
// for a few minutes", an S3 pre-signed URL on asana-user-private-*.s3.amazonaws.com). Like S3, a URL here carries
// its authorisation in the query (X-Amz-Date + X-Amz-Expires + X-Amz-Signature), so this host never needs an
// Asana credential; S3 refuses a request that also brings an Authorization header ("Only one auth mechanism
// allowed", 400 InvalidArgument), so an Asana token sent here fails the download and shows in `requests`.
// It is a second real server, on another origin than the API's, and honours one `Range: bytes=a-b`.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { type RecordedRequest, type RecordingServer, send, startRecordingServer } from '../../kit/server.ts';
import type { Dataset } from './dataset.ts';

const KEY = 'asana-fake-storage-key';

export interface FileStorage {
  origin: string;
  requests: RecordedRequest[];
  unhandled: RecordedRequest[];
  /** A signed URL for a stored file, valid `lifetimeSeconds` from now. */
  sign(key: string): string;
  /** The exact bytes served for a file key. */
  bytesOf(key: string): Buffer;
  close(): Promise<void>;
}

const signature = (path: string, date: string, expires: string) =>
  createHmac('sha256', KEY).update(`${path}\n${date}\n${expires}`).digest('hex');

const xmlError = (code: string, message: string) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message><RequestId>FAKEASANA0001</RequestId></Error>`;

const TYPES: Record<string, string> = {
  pdf: 'application/pdf',
  png: 'image/png',
  mp4: 'video/mp4',
  txt: 'text/plain',
};

export async function startFileStorage(
  data: Dataset,
  lifetimeSeconds: number,
  now: () => number,
): Promise<FileStorage> {
  const cache = new Map<string, Buffer>();
  const bytesOf = (key: string): Buffer => {
    let bytes = cache.get(key);
    if (bytes === undefined) {
      const file = data.attachments.find((a) => a.key === key);
      bytes = Buffer.alloc(file?.size ?? 0);
      for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 31 + key.charCodeAt(i % key.length)) & 0xff;
      cache.set(key, bytes);
    }
    return bytes;
  };
  const server: RecordingServer = await startRecordingServer((_req, res, recorded) => {
    const url = new URL(recorded.path, 'http://storage.invalid');
    const xml = { 'content-type': 'application/xml' };
    if (recorded.method !== 'GET') {
      server.unhandled.push(recorded);
      send(
        res,
        405,
        xml,
        xmlError('MethodNotAllowed', 'The specified method is not allowed against this resource.'),
      );
      return;
    }
    if (recorded.headers.authorization !== undefined) {
      send(res, 400, xml, xmlError('InvalidArgument', 'Only one auth mechanism allowed'));
      return;
    }
    const q = url.searchParams;
    const date = q.get('X-Amz-Date') ?? '';
    const expires = q.get('X-Amz-Expires') ?? '';
    const given = Buffer.from(q.get('X-Amz-Signature') ?? '');
    const expected = Buffer.from(signature(url.pathname, date, expires));
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      send(
        res,
        403,
        xml,
        xmlError('SignatureDoesNotMatch', 'The request signature we calculated does not match.'),
      );
      return;
    }
    if (!(Number(date) + Number(expires) * 1000 > now())) {
      send(res, 403, xml, xmlError('AccessDenied', 'Request has expired'));
      return;
    }
    const key = decodeURIComponent(url.pathname.slice(1));
    const file = data.attachments.find((a) => a.key === key);
    if (file === undefined) {
      server.unhandled.push(recorded);
      send(res, 404, xml, xmlError('NoSuchKey', 'The specified key does not exist.'));
      return;
    }
    const bytes = bytesOf(key);
    const headers = {
      'content-type': TYPES[key.split('.').pop() ?? ''] ?? 'application/octet-stream',
      'accept-ranges': 'bytes',
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
  return {
    origin: server.origin,
    requests: server.requests,
    unhandled: server.unhandled,
    sign(key) {
      const path = `/${key.split('/').map(encodeURIComponent).join('/')}`;
      const date = String(now());
      const expires = String(lifetimeSeconds);
      const query = new URLSearchParams({
        'X-Amz-Algorithm': 'AWS4-HMAC-SHA256',
        'X-Amz-Date': date,
        'X-Amz-Expires': expires,
        'X-Amz-Signature': signature(path, date, expires),
        'X-Amz-SignedHeaders': 'host',
      });
      return `${server.origin}${path}?${query}`;
    },
    bytesOf,
    close: () => server.close(),
  };
}
