import type { FastifyInstance, FastifyRequest } from 'fastify';
import { authenticateWidget, type Widget } from '../core/connect/widget.ts';
import type { CoreDeps, RequestContext } from '../core/context.ts';
import { authenticate, authenticateKept } from '../core/tokens/authenticate.ts';
import { DomainError } from '../errors.ts';

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
 * request rate is counted right after (core/request-rates.ts), so one tenant's burst cannot starve the others:
 * an application or scoped token's request against its organization's bucket, a widget token's against the
 * end users' buckets, never the organization's own.
 */
export function installAuth(
  app: FastifyInstance,
  deps: Pick<CoreDeps, 'tokens' | 'store' | 'requestRates'>,
): void {
  const rates = deps.requestRates;
  app.decorateRequest('ctx', undefined);
  app.decorateRequest('widget', undefined);
  // Callback style: a caller whose token and application are in memory already (nearly every request) is let
  // through without a promise: one microtask instead of an async function's and its awaits'. Never sooner than
  // a microtask: by then Node's HTTP parser has read the rest of what came with the request, so bytes that
  // break HTTP framing (a bad chunk) are answered 400 BAD_REQUEST before a route's own checks could answer
  // (415 for a missing content type).
  app.addHook('onRequest', (request, _reply, done) => {
    const mode = request.routeOptions.config.auth;
    if (request.routeOptions.url === undefined || mode === false) return queueMicrotask(() => done());
    const admit = (ctx: RequestContext) => {
      request.ctx = ctx;
      const refused = rates.organization(ctx.organizationId);
      if (refused) done(refused);
      else done();
    };
    const authorization = request.headers.authorization;
    try {
      if (mode === 'widget') {
        authenticateWidget(deps, authorization).then(({ ctx, widget }) => {
          request.ctx = ctx;
          request.widget = widget;
          const refused = rates.endUser({
            organizationId: widget.organizationId,
            workspaceId: widget.workspaceId,
            tokenId: widget.tokenId,
          });
          if (refused) done(refused);
          else done();
        }, done);
        return;
      }
      const kept = authenticateKept(deps, authorization);
      if (kept) return queueMicrotask(() => admit(kept));
      authenticate(deps, authorization).then(admit, done);
    } catch (err) {
      queueMicrotask(() => done(err as Error));
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
