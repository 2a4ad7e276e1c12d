import type { FastifyInstance, FastifyRequest } from 'fastify';
import { authenticateWidget, type Widget } from '../core/connect/widget.ts';
import type { CoreDeps, RequestContext } from '../core/context.ts';
import { DomainError } from '../core/errors.ts';
import { authenticate } from '../core/tokens/authenticate.ts';
import { OrganizationRateLimiter } from './rate-limit.ts';

declare module 'fastify' {
  interface FastifyRequest {
    ctx: RequestContext | undefined;
    /** Set on the connect page's API routes: the widget token's claims. */
    widget: Widget | undefined;
  }
  interface FastifyContextConfig {
    /**
     * false marks a public route (token endpoint, health, docs); 'widget' a route of the connect page, which
     * takes a widget token and no other. Everything else needs an application or scoped token.
     */
    auth?: boolean | 'widget';
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
  app.decorateRequest('widget', undefined);
  app.addHook('onRequest', async (request) => {
    const mode = request.routeOptions.config.auth;
    if (request.routeOptions.url === undefined || mode === false) return;
    if (mode === 'widget') {
      const { ctx, widget } = await authenticateWidget(deps, request.headers.authorization);
      request.ctx = ctx;
      request.widget = widget;
    } else {
      request.ctx = await authenticate(deps, request.headers.authorization);
    }
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

export function widgetOf(request: FastifyRequest): { ctx: RequestContext; widget: Widget } {
  if (!request.ctx || !request.widget) throw new DomainError('UNAUTHENTICATED', 'Authentication required.');
  return { ctx: request.ctx, widget: request.widget };
}

export function ctxOf(request: FastifyRequest): RequestContext {
  if (!request.ctx) throw new DomainError('UNAUTHENTICATED', 'Authentication required.');
  return request.ctx;
}
