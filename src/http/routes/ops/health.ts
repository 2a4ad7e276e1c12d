import { Type } from 'typebox';
import type { App, AppDeps } from '../../app-types.ts';

export function register(app: App, deps: AppDeps) {
  app.get(
    '/healthz',
    {
      config: { auth: false },
      schema: {
        tags: ['Ops'],
        summary: 'Liveness',
        security: [],
        response: { 200: Type.Object({ status: Type.String() }) },
      },
    },
    async () => ({ status: 'ok' }),
  );
  app.get(
    '/readyz',
    {
      config: { auth: false },
      schema: {
        tags: ['Ops'],
        summary: 'Readiness: the store answers',
        security: [],
        response: {
          200: Type.Object({ status: Type.String() }),
          503: Type.Object({ status: Type.String() }),
        },
      },
    },
    async (_request, reply) => {
      try {
        await deps.ready();
        return { status: 'ready' };
      } catch {
        return reply.code(503).send({ status: 'unavailable' });
      }
    },
  );
  app.get('/api/v1/openapi.json', { config: { auth: false }, schema: { hide: true } }, async () =>
    app.swagger(),
  );
}
