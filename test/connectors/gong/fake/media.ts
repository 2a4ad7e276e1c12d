// Gong's media storage: the host the `media.audioUrl` / `media.videoUrl` of POST /v2/calls/extensive point to
// ("exposedFields.media: true", reference page retrieve-detailed-call-data-by-various-filters-v2callsextensive-2).
// The URLs are signed and short-lived and carry their own authorisation in the query, so this server refuses a
// request without a valid signature and never needs (nor should see) the API's credentials: tests read
// `requests` to check that no Authorization header arrived. It is a second real server, so its origin differs
// from the API's. Files honour a single `Range: bytes=a-b` (206 + Content-Range, 416 when unsatisfiable).
import { createHmac } from 'node:crypto';
import { type RecordedRequest, type RecordingServer, send, startRecordingServer } from '../../kit/server.ts';
import type { CallRecord, Dataset } from './dataset.ts';

const KEY = 'gong-fake-media-key';
const LIFETIME_S = 3600;

export interface MediaHost {
  origin: string;
  requests: RecordedRequest[];
  unhandled: RecordedRequest[];
  /** The signed URL Gong hands out for a call's recording. */
  urlFor(call: CallRecord, kind: 'audio' | 'video'): string;
  /** The exact bytes served for a call's recording. */
  bytesOf(callId: string, kind: 'audio' | 'video'): Buffer;
  close(): Promise<void>;
}

function sign(path: string, expires: number): string {
  return createHmac('sha256', KEY).update(`${path}\n${expires}`).digest('base64url');
}

/** Deterministic content per call and kind, large enough that ranges are meaningful. */
export function mediaBytes(callId: string, kind: 'audio' | 'video'): Buffer {
  const head = Buffer.from(
    kind === 'audio' ? 'ID3\u0004\u0000' : '\u0000\u0000\u0000\u0018ftypmp42',
    'latin1',
  );
  const body = Buffer.alloc(4096);
  for (let i = 0; i < body.length; i++) body[i] = (i * 31 + callId.charCodeAt(i % callId.length)) & 0xff;
  return Buffer.concat([head, body]);
}

export async function startMediaHost(data: Dataset): Promise<MediaHost> {
  let server: RecordingServer | undefined;
  server = await startRecordingServer((_req, res, recorded) => {
    const url = new URL(recorded.path, 'http://media.invalid');
    const m = /^\/calls\/([0-9]+)\/(audio|video)\.(mp3|mp4)$/.exec(url.pathname);
    const expires = Number(url.searchParams.get('Expires'));
    const call = m ? data.callById(m[1] as string) : undefined;
    const kind = m?.[2] as 'audio' | 'video' | undefined;
    if (recorded.method !== 'GET' || !call || !kind || (kind === 'video' && call.media !== 'Video')) {
      server?.unhandled.push(recorded);
      send(res, 404, { 'content-type': 'application/xml' }, '<Error><Code>NoSuchKey</Code></Error>');
      return;
    }
    if (url.searchParams.get('Signature') !== sign(url.pathname, expires) || !(expires * 1000 > Date.now())) {
      send(res, 403, { 'content-type': 'application/xml' }, '<Error><Code>AccessDenied</Code></Error>');
      return;
    }
    const bytes = mediaBytes(call.id, kind);
    const type = kind === 'audio' ? 'audio/mpeg' : 'video/mp4';
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
        {
          'content-type': type,
          'accept-ranges': 'bytes',
          'content-range': `bytes ${start}-${end}/${bytes.length}`,
        },
        bytes.subarray(start, end + 1),
      );
      return;
    }
    send(res, 200, { 'content-type': type, 'accept-ranges': 'bytes' }, bytes);
  });
  const origin = server.origin;
  return {
    origin,
    requests: server.requests,
    unhandled: server.unhandled,
    urlFor(call, kind) {
      const path = `/calls/${call.id}/${kind}.${kind === 'audio' ? 'mp3' : 'mp4'}`;
      const expires = Math.floor(Date.now() / 1000) + LIFETIME_S;
      return `${origin}${path}?Expires=${expires}&Signature=${sign(path, expires)}`;
    },
    bytesOf: mediaBytes,
    close: () => (server as RecordingServer).close(),
  };
}
