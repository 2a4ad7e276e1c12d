import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { CoreDeps, RequestContext } from '../core/context.ts';
import { DomainError } from '../core/errors.ts';
import { authenticate } from '../core/tokens/authenticate.ts';
import { OrganizationRateLimiter } from './rate-limit.ts';

declare module 'fastify' {
  interface FastifyRequest {
    ctx: RequestContext | undefined;
  }
  interface FastifyContextConfig {
    /** false marks a public route (token endpoint, health, docs). Everything else needs a bearer token. */
    auth?: boolean;
  }
}

/**
 * Authentication runs before the body is parsed: an anonymous caller learns nothing about validation. Every
 * route needs a bearer token unless it is marked `auth: false`; unknown routes answer 404 either way. The
 * organization's request rate is counted right after, so one tenant's burst cannot starve the others.
 */
export function installAuth(
  app: FastifyInstance,
  deps: Pick<CoreDeps, 'tokens' | 'store' | 'now'> & { requestsPerSecond: number },
): void {
  const limiter = new OrganizationRateLimiter(deps.requestsPerSecond, () => deps.now().getTime());
  app.decorateRequest('ctx', undefined);
  app.addHook('onRequest', async (request) => {
    if (request.routeOptions.url === undefined || request.routeOptions.config.auth === false) return;
    request.ctx = await authenticate(deps, request.headers.authorization);
    const wait = limiter.take(request.ctx.organizationId);
    if (wait > 0) {
      throw new DomainError(
        'RATE_LIMITED',
        `This organization sent more than ${deps.requestsPerSecond} requests per second (CES_MAX_REQUESTS_PER_SECOND); retry in ${wait} s.`,
        { retryAfter: wait },
      );
    }
  });
}

export function ctxOf(request: FastifyRequest): RequestContext {
  if (!request.ctx) throw new DomainError('UNAUTHENTICATED', 'Authentication required.');
  return request.ctx;
}
