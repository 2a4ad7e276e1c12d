// A GitHub REST fake whose issue list is one very large page, for the upstream-memory benchmark: it stands for a
// provider (or a host a tenant pointed `api_url` at) answering far more than a page should hold. Run as a script
// it prints `{"url": …}` as its first stdout line, like bench/fake-github.ts.
//
// Routes (docs.github.com):
//   GET /user                     "Get the authenticated user" (the connector's credential check)
//   GET /repos/bench/big/issues   "List repository issues", except that it ignores per_page and paging: every
//                                 request gets the same JSON array of about BENCH_BODY_BYTES (default 30 000 000)
//                                 bytes of issues rendered as bench/fake-bulk-github.ts renders them (so each item
//                                 has GitHub's shape), with Content-Length, or chunked when BENCH_CHUNKED=1
//   anything else                 GitHub's 404 body
// Only the fake's default token is accepted (401 "Bad credentials" otherwise).
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Dataset } from '../test/connectors/github/fake/dataset.ts';
import { GITHUB_FAKE_DEFAULT_TOKEN } from '../test/connectors/github/fake/index.ts';
import * as render from '../test/connectors/github/fake/render.ts';
import { errorBody } from '../test/connectors/github/fake/wire.ts';
import { bulkIssue, Renderer } from './fake-bulk-github.ts';

const TARGET = Number(process.env.BENCH_BODY_BYTES ?? 30_000_000);
const CHUNKED = process.env.BENCH_CHUNKED === '1';
/** The issue numbering of a repository this size: only affects dates, never the page's length. */
const TOTAL = 1_000_000;

function page(renderer: Renderer): Buffer {
  const items: string[] = [];
  let size = 2;
  for (let i = 0; size < TARGET; i++) {
    const item = renderer.issueJson(bulkIssue(i, TOTAL));
    items.push(item);
    size += item.length + 1;
  }
  return Buffer.from(`[${items.join(',')}]`);
}

function send(res: ServerResponse, status: number, body: Buffer | string, chunked = false) {
  const headers: Record<string, string> = { 'content-type': 'application/json; charset=utf-8' };
  if (!chunked) headers['content-length'] = String(Buffer.byteLength(body));
  res.writeHead(status, headers);
  res.end(body);
}

let issues: Buffer = Buffer.alloc(0);
let user = '';
const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    if (req.headers.authorization !== `Bearer ${GITHUB_FAKE_DEFAULT_TOKEN}`)
      return send(res, 401, JSON.stringify(errorBody(401, 'Bad credentials')));
    const path = (req.url ?? '/').split('?')[0];
    if (req.method === 'GET' && path === '/user') return send(res, 200, user);
    if (req.method === 'GET' && path === '/repos/bench/big/issues') return send(res, 200, issues, CHUNKED);
    send(res, 404, JSON.stringify(errorBody(404, 'Not Found')));
  });
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
const renderer = new Renderer(url);
issues = page(renderer);
const viewerData = new Dataset();
const ctx = { api: url, account: (login: string) => viewerData.account(login), authenticated: true };
user = JSON.stringify(
  render.authenticatedUser(ctx, viewerData.viewer, viewerData.reposOf(viewerData.viewer)),
);
process.stdout.write(`${JSON.stringify({ url, bytes: issues.length })}\n`);
process.on('SIGTERM', () => {
  server.close(() => process.exit(0));
  server.closeAllConnections();
});
