import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { CoreDeps, RequestContext } from '../core/context.ts';
import { DomainError } from '../core/errors.ts';
import { authenticate } from '../core/tokens/authenticate.ts';

declare module 'fastify' {
  interface FastifyRequest {
    ctx: RequestContext | undefined;
  }
  interface FastifyContextConfig {
    /** false marks a public route (token endpoint, health, docs). Everything else needs a bearer token. */
    auth?: boolean;
  }
}

/** Authentication runs before the body is parsed: an anonymous caller learns nothing about validation. */
export function installAuth(app: FastifyInstance, deps: Pick<CoreDeps, 'tokens' | 'store'>): void {
  app.decorateRequest('ctx', undefined);
  app.addHook('onRequest', async (request) => {
    const url = request.routeOptions.url;
    // Docs UI assets and unknown routes are not API operations; every /api/v1 route is private unless marked.
    if (!url?.startsWith('/api/v1/') || request.routeOptions.config.auth === false) return;
    request.ctx = await authenticate(deps, request.headers.authorization);
  });
}

export function ctxOf(request: FastifyRequest): RequestContext {
  if (!request.ctx) throw new DomainError('UNAUTHENTICATED', 'Authentication required.');
  return request.ctx;
}
