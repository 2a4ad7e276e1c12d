import { randomBytes } from 'node:crypto';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { CoreDeps } from './core/context.ts';
import { installAuth } from './http/auth.ts';
import { installErrorHandling } from './http/errors.ts';
import { registerRoutes } from './http/routes/index.ts';
import { ErrorBodySchema } from './http/schemas.ts';
import { validatorCompiler } from './http/validation.ts';

export interface AppDeps extends CoreDeps {
  logger: FastifyBaseLogger;
  bodyLimitBytes: number;
  /** Readiness: resolves when the store answers. */
  ready: () => Promise<void>;
}

export type App = FastifyInstance<
  import('node:http').Server,
  import('node:http').IncomingMessage,
  import('node:http').ServerResponse,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;

/** Builds the HTTP app from explicit dependencies; no listen(), no process.env. */
export async function buildApp(deps: AppDeps): Promise<App> {
  const app = Fastify({
    loggerInstance: deps.logger,
    bodyLimit: deps.bodyLimitBytes,
    genReqId: () => `req_${randomBytes(12).toString('base64url')}`,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
    // Behind a proxy the operator sets this explicitly; never trust X-Forwarded-* by default.
    trustProxy: false,
  }).withTypeProvider<TypeBoxTypeProvider>() as unknown as App;

  app.setValidatorCompiler(validatorCompiler);
  // The API speaks JSON only; without this a text/plain body would reach validation as a string.
  app.removeContentTypeParser(['text/plain']);
  app.addSchema(ErrorBodySchema);
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });

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
  await app.register(swaggerUi, { routePrefix: '/docs', uiConfig: { docExpansion: 'list' } });

  installErrorHandling(app as unknown as FastifyInstance);
  installAuth(app as unknown as FastifyInstance, deps);
  registerRoutes(app, deps);
  return app;
}
