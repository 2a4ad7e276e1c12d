// The connect page itself: its HTML (at /connect and at the consent flow's return, /connect/oauth-done), its one
// script and one style sheet, and an icon per connector type. Every byte is served by ces (no CDN); the page
// runs under a Content-Security-Policy that allows nothing but these files and the page's API.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Type } from 'typebox';
import { parseOrigin } from '../../../core/connect/origin.ts';
import { DomainError } from '../../../errors.ts';
import { packageFile } from '../../../source-path.ts';
import type { App, AppDeps } from '../../app-types.ts';
import { withErrors } from '../../schemas.ts';
import { DONE_PATH } from './api.ts';

const asset = (name: string) => readFileSync(packageFile(`src/web/${name}`), 'utf8');
const HTML = asset('connect.html');
const ASSETS: Record<string, { body: string; type: string }> = {
  'connect.js': { body: asset('connect.js'), type: 'text/javascript; charset=utf-8' },
  'connect.css': { body: asset('connect.css'), type: 'text/css; charset=utf-8' },
};

/**
 * Who may frame the page: the embedding origin the page is opened for (`?origin=`), or nobody. The source is
 * built from the strictly parsed origin, never from the query's text: anyone can write that query.
 */
function frameAncestors(origin: string | undefined): string {
  const parsed = origin === undefined ? undefined : parseOrigin(origin);
  return parsed !== undefined && 'origin' in parsed ? parsed.origin : "'none'";
}

const csp = (origin: string | undefined) =>
  [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "form-action 'self'",
    "base-uri 'none'",
    `frame-ancestors ${frameAncestors(origin)}`,
  ].join('; ');

/** A monogram: the name's initials on a colour derived from the type, so each type is told apart at a glance. */
export function monogram(name: string, seed: string): string {
  const initials = name
    .split(/[\s-]+/)
    .filter((w) => /^[A-Za-z0-9]/.test(w))
    .slice(0, 2)
    .map((w) => w[0]?.toUpperCase())
    .join('');
  const hue = createHash('sha256').update(seed).digest()[0]! * (360 / 256);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="48" height="48" viewBox="0 0 48 48" role="img" aria-label="${initials}"><rect width="48" height="48" rx="10" fill="hsl(${Math.round(hue)} 55% 32%)"/><text x="24" y="31" text-anchor="middle" font-family="system-ui, sans-serif" font-size="20" font-weight="600" fill="#fff">${initials}</text></svg>`;
}

const Query = Type.Object(
  {
    origin: Type.Optional(Type.String({ maxLength: 300 })),
    connector_id: Type.Optional(Type.String({ maxLength: 100 })),
    // The waiting page's nonce, carried through the consent flow (web/connect.js).
    nonce: Type.Optional(Type.String({ maxLength: 200 })),
    error: Type.Optional(Type.String({ maxLength: 200 })),
    error_description: Type.Optional(Type.String({ maxLength: 2000 })),
  },
  { additionalProperties: false },
);

export function register(app: App, deps: AppDeps) {
  const page = {
    // The page holds no data: it reads its widget token from the URL fragment and calls /connect/api with it.
    config: { auth: false },
    schema: { hide: true, querystring: Query, response: withErrors({ 200: Type.String() }) },
  };
  const serve = (origin: string | undefined) => ({
    'content-type': 'text/html; charset=utf-8',
    'content-security-policy': csp(origin),
    'cache-control': 'no-store',
    'referrer-policy': 'no-referrer',
    'x-content-type-options': 'nosniff',
  });
  app.get('/connect', page, async (request, reply) => reply.headers(serve(request.query.origin)).send(HTML));
  // After consent: a popup (or the page itself) lands here; it is never framed.
  app.get(DONE_PATH, page, async (_request, reply) => reply.headers(serve(undefined)).send(HTML));

  app.get(
    '/connect/assets/:name',
    {
      config: { auth: false },
      schema: {
        hide: true,
        params: Type.Object({ name: Type.String({ maxLength: 50 }) }, { additionalProperties: false }),
        response: withErrors({ 200: Type.String() }),
      },
    },
    async (request, reply) => {
      const file = ASSETS[request.params.name];
      if (!file) throw new DomainError('NOT_FOUND', `No asset ${request.params.name}.`);
      return reply
        .headers({
          'content-type': file.type,
          'cache-control': 'no-cache',
          'x-content-type-options': 'nosniff',
        })
        .send(file.body);
    },
  );

  app.get(
    '/connect/icons/:file',
    {
      config: { auth: false },
      schema: {
        hide: true,
        params: Type.Object({ file: Type.String({ maxLength: 60 }) }, { additionalProperties: false }),
        response: withErrors({ 200: Type.String() }),
      },
    },
    async (request, reply) => {
      const id = /^(.+)\.svg$/.exec(request.params.file)?.[1];
      const def = id !== undefined ? deps.registry.byId(id) : undefined;
      if (!def) throw new DomainError('NOT_FOUND', 'No such connector icon.');
      return reply
        .headers({
          'content-type': 'image/svg+xml',
          'cache-control': 'public, max-age=3600',
          'content-security-policy': "default-src 'none'",
          'x-content-type-options': 'nosniff',
        })
        .send(monogram(def.name, def.slug));
    },
  );
}
