// Slack's private file host (files.slack.com in production), on the fake's own origin: `url_private` is
// /files-pri/<team>-<file>/<name> and `url_private_download` /files-pri/<team>-<file>/download/<name>.
// Like Slack's, it wants `Authorization: Bearer <token>` (a token with files:read); without one it redirects
// to the workspace's sign-in page (302, HTML "Found" body), which is what a client that forgot the header ends
// up downloading. Served bytes carry the file's mimetype, its exact length, and for the download URL an
// attachment Content-Disposition. GET and HEAD.
import type { Actor } from './context.ts';
import type { Dataset } from './dataset.ts';
import { TEAM } from './dataset.ts';
import type { Answer } from './wire.ts';

const PATH = /^\/files-pri\/([A-Z0-9]+)-(F[A-Z0-9]+)\/(download\/)?([^/]+)$/;

export function isFilePath(pathname: string): boolean {
  return pathname.startsWith('/files-pri/');
}

/** The sign-in page the host redirects to, served at `/`. */
export function signInPage(): Answer {
  return {
    status: 200,
    headers: { 'content-type': 'text/html; charset=utf-8' },
    body: `<!DOCTYPE html><html lang="en-US"><head><title>Sign in | Slack</title></head><body><h1>Sign in to ${TEAM.name}</h1></body></html>`,
  };
}

export function serveFile(
  data: Dataset,
  method: string,
  url: URL,
  actor: Actor | undefined,
): { answer: Answer; handled: boolean } {
  const m = PATH.exec(url.pathname);
  const file = m && m[1] === TEAM.id ? data.fileById(m[2] as string) : undefined;
  if (
    (method !== 'GET' && method !== 'HEAD') ||
    !m ||
    file === undefined ||
    decodeURIComponent(m[4] as string) !== file.name
  ) {
    return {
      handled: false,
      answer: {
        status: 404,
        headers: { 'content-type': 'text/html; charset=utf-8' },
        body: '<html><body>Not Found</body></html>',
      },
    };
  }
  if (actor === undefined || !actor.scopes.has('files:read')) {
    const location = `/?redir=${encodeURIComponent(url.pathname)}`;
    return {
      handled: true,
      answer: {
        status: 302,
        headers: { location, 'content-type': 'text/html; charset=utf-8' },
        body: `<a href="${location}">Found</a>.`,
      },
    };
  }
  const headers: Record<string, string> = {
    'content-type': file.mimetype,
    'cache-control': 'private, max-age=31536000',
  };
  if (m[3] !== undefined) headers['content-disposition'] = `attachment; filename="${file.name}"`;
  // For HEAD, node drops the body but keeps the content-length computed from it.
  return { handled: true, answer: { status: 200, headers, body: file.bytes } };
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
