// Slack's private file host (files.slack.com in production), on the fake's own origin: `url_private` is
// /files-pri/<team>-<file>/<name> and `url_private_download` /files-pri/<team>-<file>/download/<name>.
// Like Slack's, it wants `Authorization: Bearer <token>` (a token with files:read); without one it redirects
// to the workspace's sign-in page (302, HTML "Found" body), which is what a client that forgot the header ends
// up downloading. Served bytes carry the file's mimetype, its exact length, and for the download URL an
// attachment Content-Disposition. GET and HEAD.
import type { RecordedRequest, Route, RouteRequest } from '../../kit/index.ts';
import type { Actor } from './context.ts';
import type { Dataset } from './dataset.ts';
import { TEAM } from './dataset.ts';
import type { Answer } from './wire.ts';

export const FILES_PREFIX = '/files-pri/';
const FILE = `${FILES_PREFIX}{team:[A-Z0-9]+}-{file:F[A-Z0-9]+}`;

/** The host's answer to a path or method it does not serve. */
export function fileNotFound(): Answer {
  return {
    status: 404,
    headers: { 'content-type': 'text/html; charset=utf-8' },
    body: '<html><body>Not Found</body></html>',
  };
}

/**
 * The sign-in page at `/` and the file host, as the kit's public routes: the host reads the Bearer token
 * itself (`actorOf`), and redirects to the sign-in page without one.
 */
export function fileRoutes(
  data: Dataset,
  actorOf: (recorded: RecordedRequest) => Actor | undefined,
): Route<undefined>[] {
  const serve = (download: boolean) => (req: RouteRequest) =>
    serveFile(data, req, download, actorOf(req.recorded));
  return [
    {
      method: 'GET',
      path: '/',
      operation: 'the workspace sign-in page (where url_private redirects without a token)',
      handle: signInPage,
    },
    ...['GET', 'HEAD'].flatMap((method) => [
      {
        method,
        path: `${FILE}/{name}`,
        operation: 'url_private (docs.slack.dev/messaging/working-with-files)',
        handle: serve(false),
      },
      {
        method,
        path: `${FILE}/download/{name}`,
        operation: 'url_private_download (docs.slack.dev/messaging/working-with-files)',
        handle: serve(true),
      },
    ]),
  ];
}

/** The sign-in page the host redirects to, served at `/`. */
function signInPage(): Answer {
  return {
    status: 200,
    headers: { 'content-type': 'text/html; charset=utf-8' },
    body: `<!DOCTYPE html><html lang="en-US"><head><title>Sign in | Slack</title></head><body><h1>Sign in to ${TEAM.name}</h1></body></html>`,
  };
}

/** The file's bytes, the redirect to sign in, or undefined for a file the host does not have. */
function serveFile(
  data: Dataset,
  req: RouteRequest,
  download: boolean,
  actor: Actor | undefined,
): Answer | undefined {
  const file = req.params.team === TEAM.id ? data.fileById(req.params.file ?? '') : undefined;
  if (file === undefined || req.params.name !== file.name) return undefined;
  if (actor === undefined || !actor.scopes.has('files:read')) {
    const location = `/?redir=${encodeURIComponent(req.pathname)}`;
    return {
      status: 302,
      headers: { location, 'content-type': 'text/html; charset=utf-8' },
      body: `<a href="${location}">Found</a>.`,
    };
  }
  const headers: Record<string, string> = {
    'content-type': file.mimetype,
    'cache-control': 'private, max-age=31536000',
  };
  if (download) headers['content-disposition'] = `attachment; filename="${file.name}"`;
  // For HEAD, node drops the body but keeps the content-length computed from it.
  return { status: 200, headers, body: file.bytes };
}

/** Deterministic content of a seeded file, shaped like its type. */
export function fileBytes(ext: string, i: number): Buffer {
  if (ext === 'txt') return Buffer.from(`Report ${i + 1}\n${'All systems nominal.\n'.repeat(20 + i)}`);
  if (ext === 'csv') {
    const rows = Array.from({ length: 30 + i }, (_, r) => `${r + 1},metric-${r},${(r * 37 + i) % 100}`);
    return Buffer.from(`id,name,value\n${rows.join('\n')}\n`);
  }
  if (ext === 'json') return Buffer.from(JSON.stringify({ report: i + 1, items: [1, 2, 3] }, null, 2));
  if (ext === 'pdf') return Buffer.from(`%PDF-1.4\n% report ${i + 1}\n${'0'.repeat(512)}\n%%EOF\n`, 'latin1');
  // A 1x1 PNG with a trailing chunk of padding so files differ.
  const png = Buffer.from(
    '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a5c1d9bb0000000049454e44ae426082',
    'hex',
  );
  return Buffer.concat([png, Buffer.alloc(i * 16, i)]);
}
