import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyInstance, type RouteOptions } from 'fastify';
import type { App, AppDeps } from './http/app-types.ts';
import { installAuth } from './http/auth.ts';
import { installErrorHandling } from './http/errors.ts';
import { installIgnoredMembers } from './http/ignored-members.ts';
import { installJsonBodyParser } from './http/json-body.ts';
import { LazySchemas } from './http/lazy-schemas.ts';
import { installHttpMetrics, registerMetricsRoute } from './http/metrics.ts';
import {
  clientErrorHandler,
  frameworkErrorHandler,
  installRequestGuards,
  installServerGuards,
  MAX_PARAM_LENGTH,
} from './http/protocol-errors.ts';
import { newRequestId, REQUEST_ID_HEADER } from './http/request-id.ts';
import { registerRoutes } from './http/routes/index.ts';
import { ErrorBodySchema } from './http/schemas.ts';
import { validatorCompiler } from './http/validation.ts';
import { lazyChildLogger, requestLogger } from './logger.ts';

/** Where the interactive API reference is served; its routes are public, like the OpenAPI document. */
const DOCS_PREFIX = '/docs';

/**
 * Builds the HTTP app from explicit dependencies; no listen(), no process.env. `observe.onRoute` sees every
 * route as it is added, plugin routes included (the auth test sweeps the real route table with it).
 */
export async function buildApp(
  deps: AppDeps,
  observe: { onRoute?: (route: RouteOptions) => void } = {},
): Promise<App> {
  const schemas = new LazySchemas();
  const app = Fastify({
    schemaController: { compilersFactory: { buildSerializer: schemas.serializers() } },
    loggerInstance: requestLogger(deps.logger),
    childLoggerFactory: lazyChildLogger,
    bodyLimit: deps.bodyLimitBytes,
    genReqId: newRequestId,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: MAX_PARAM_LENGTH },
    // Every malformed request gets the one error body: Node's parser errors, the router's, a missing Host.
    clientErrorHandler: clientErrorHandler(deps.logger),
    frameworkErrors: frameworkErrorHandler,
    http: { requireHostHeader: false },
    // Behind a proxy the operator names it (CES_TRUST_PROXY); X-Forwarded-* is never trusted by default, or any
    // client could choose the address the per-address token limit counts it under.
    trustProxy: deps.trustProxy,
  }).withTypeProvider<TypeBoxTypeProvider>() as unknown as App;
  installServerGuards(app.server, deps.logger);

  // An API description holds no tenant data, and SDK generators and agents read it before they have a token.
  app.addHook('onRoute', (route) => {
    if (route.url === DOCS_PREFIX || route.url.startsWith(`${DOCS_PREFIX}/`))
      route.config = { ...route.config, auth: false };
  });
  if (observe.onRoute) app.addHook('onRoute', observe.onRoute);

  app.setValidatorCompiler(schemas.validators(validatorCompiler));
  app.decorate('lazySchemas', schemas);
  app.addHook('onListen', async () =>
    schemas.warm((err) => deps.logger.error({ err }, 'a route schema does not compile'), 250),
  );
  app.addHook('onClose', async () => schemas.stop());
  // The API speaks JSON only; without this a text/plain body would reach validation as a string.
  app.removeContentTypeParser(['text/plain']);
  installJsonBodyParser(app as unknown as FastifyInstance);
  installIgnoredMembers(app as unknown as FastifyInstance);
  installRequestGuards(app as unknown as FastifyInstance);
  app.addSchema(ErrorBodySchema);
  // Callback style, as the request guards: an async hook costs a promise and a microtask turn per request.
  app.addHook('onSend', (request, reply, payload, done) => {
    reply.header(REQUEST_ID_HEADER, request.id);
    done(null, payload);
  });
  if (deps.metrics) installHttpMetrics(app as unknown as FastifyInstance, deps.metrics);

  await app.register(swagger, {
    // Shared schemas keep their $id as their component name (ApiErrorResponse, as in the reference spec).
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => String(json.$id ?? `def-${i}`) },
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'ces — Connector Execution Service',
        version: '0.1.0',
        description:
          'Stores end users’ credentials for third-party APIs as connectors and runs entity/action operations against them.',
      },
      components: {
        securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      },
      security: [{ bearerAuth: [] }],
    },
  });
  await app.register(swaggerUi, { routePrefix: DOCS_PREFIX, uiConfig: { docExpansion: 'list' } });

  installErrorHandling(app as unknown as FastifyInstance);
  installAuth(app as unknown as FastifyInstance, deps);
  registerRoutes(app, deps);
  if (deps.metrics)
    registerMetricsRoute(app as unknown as FastifyInstance, deps.metrics, deps.metricsToken ?? null);
  return app;
}
