/**
 * `GET /metrics` (Prometheus text format) and the count of every HTTP request, both only with CES_METRICS.
 * The route is public unless CES_METRICS_TOKEN is set; then it takes `Authorization: Bearer <that token>`,
 * compared in constant time.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Metrics } from '../metrics/index.ts';
import { UNMATCHED_ROUTE } from '../metrics/labels.ts';
import { sendError } from './errors.ts';

/**
 * Counts every answered request by method, route pattern and status. Installed before any route is added,
 * so plugin routes (the docs) are counted too.
 */
export function installHttpMetrics(app: FastifyInstance, metrics: Metrics): void {
  app.addHook('onResponse', (request, reply, done) => {
    // The pattern the router matched, never the path asked for: ids must not become labels.
    metrics.httpRequest(
      request.method,
      request.routeOptions.url ?? UNMATCHED_ROUTE,
      reply.statusCode,
      reply.elapsedTime / 1000,
    );
    done();
  });
}

const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();

export function registerMetricsRoute(app: FastifyInstance, metrics: Metrics, token: string | null): void {
  const expected = token === null ? null : digest(token);
  app.get('/metrics', { config: { auth: false }, schema: { hide: true } }, async (request, reply) => {
    if (expected && !presents(request.headers.authorization, expected)) {
      reply.header('www-authenticate', 'Bearer');
      return sendError(reply, 401, {
        code: 'UNAUTHENTICATED',
        message: 'GET /metrics needs Authorization: Bearer <CES_METRICS_TOKEN>.',
        errors: [],
      });
    }
    const text = await metrics.scrape();
    return reply.type(metrics.contentType).send(text);
  });
}

/** Whether the header carries the token: digests compared, so neither the time nor a length tells a prefix. */
function presents(header: string | undefined, expected: Buffer): boolean {
  const match = /^Bearer +(\S+) *$/i.exec(header ?? '');
  return match !== null && timingSafeEqual(digest(match[1] ?? ''), expected);
}
