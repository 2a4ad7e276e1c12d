// A GitHub-shaped upstream whose issue lists are as large as a test asks, for the buffer budget and the per-call
// cap: it stands for a provider (or a host a tenant pointed `api_url` at) answering far more than a page should
// hold. A real node:http server on 127.0.0.1:0, recording every request.
//
// Routes (docs.github.com):
//   GET /user                     "Get the authenticated user" (the connector's credential check): a minimal user
//   GET /repos/{owner}/{repo}/issues   "List repository issues": the next scripted answer, a JSON array of issue
//                                 objects (id, number, state, title, body) padded to the scripted size
//   anything else, or an issue list with nothing scripted: GitHub's 404 body, recorded in `unhandled`
import type { ServerResponse } from 'node:http';
import { type RecordedRequest, startRecordingServer } from '../../connectors/kit/server.ts';

export interface LargeAnswer {
  /** Length of the JSON body in bytes (at least this; the last issue is padded to reach it exactly). */
  bytes: number;
  /** Send `Content-Length` (default); false sends the body chunked. */
  contentLength?: boolean;
  /** `Content-Length` to declare instead of the real length (with `holdAfter: 0`, nothing is ever sent). */
  declaredLength?: number;
  /** Send the headers and this many body bytes, then wait for `release()` before sending the rest. */
  holdAfter?: number;
}

export interface LargeAnswersFake {
  url: string;
  requests: RecordedRequest[];
  unhandled: RecordedRequest[];
  /** Queues answers for the next issue-list requests, in order. */
  script(answer: LargeAnswer, times?: number): void;
  /** Answers currently held after their first bytes. */
  readonly holding: number;
  /** Sends the rest of every held answer (a client that went away is skipped). */
  release(): void;
  close(): Promise<void>;
}

const ISSUES = /^\/repos\/[^/]+\/[^/]+\/issues(\?|$)/;

/** A JSON array of issues exactly `bytes` long (at least 100). */
export function issuesBody(bytes: number): Buffer {
  const issue = (n: number, pad: number) =>
    `{"id":${1000 + n},"number":${n},"state":"open","title":"Issue ${n}","body":"${'x'.repeat(pad)}"}`;
  const items: string[] = [];
  let size = 2;
  for (let n = 1; size < bytes; n++) {
    const bare = issue(n, 0).length + (items.length > 0 ? 1 : 0);
    const left = bytes - size - bare;
    // Issues of about 1 KB; the last one takes exactly what is left.
    const text = issue(n, left <= 2000 ? left : 1000);
    size += text.length + (items.length > 0 ? 1 : 0);
    items.push(text);
  }
  const body = Buffer.from(`[${items.join(',')}]`);
  if (body.length !== bytes) throw new Error(`issuesBody: built ${body.length} bytes, wanted ${bytes}`);
  return body;
}

export async function startLargeAnswersFake(): Promise<LargeAnswersFake> {
  const queue: LargeAnswer[] = [];
  const held: Array<{ res: ServerResponse; rest: Buffer }> = [];
  const log = { requests: [] as RecordedRequest[], unhandled: [] as RecordedRequest[] };
  const json = (res: ServerResponse, status: number, body: unknown) => {
    const text = JSON.stringify(body);
    res.writeHead(status, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': String(Buffer.byteLength(text)),
    });
    res.end(text);
  };
  const server = await startRecordingServer((req, res, recorded) => {
    if (req.method === 'GET' && recorded.path === '/user') {
      json(res, 200, { login: 'octocat', id: 1, type: 'User', site_admin: false });
      return;
    }
    const answer = req.method === 'GET' && ISSUES.test(recorded.path) ? queue.shift() : undefined;
    if (!answer) {
      log.unhandled.push(recorded);
      json(res, 404, { message: 'Not Found', documentation_url: 'https://docs.github.com/rest' });
      return;
    }
    const body = issuesBody(answer.bytes);
    const headers: Record<string, string> = { 'content-type': 'application/json; charset=utf-8' };
    if (answer.contentLength !== false)
      headers['content-length'] = String(answer.declaredLength ?? body.length);
    res.writeHead(200, headers);
    if (answer.holdAfter === undefined) {
      res.end(body);
      return;
    }
    res.write(body.subarray(0, answer.holdAfter));
    // ces hanging up on a held answer (it refused it) is expected; the socket error must not crash the fake.
    res.on('error', () => {});
    held.push({ res, rest: body.subarray(answer.holdAfter) });
  }, log);
  return {
    url: server.origin,
    requests: server.requests,
    unhandled: server.unhandled,
    script(answer, times = 1) {
      for (let i = 0; i < times; i++) queue.push(answer);
    },
    get holding() {
      return held.length;
    },
    release() {
      for (const { res, rest } of held.splice(0)) if (!res.destroyed) res.end(rest);
    },
    close: () => server.close(),
  };
}
