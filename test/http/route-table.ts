import { buildApp } from '../../src/app.ts';
import type { Deps } from '../../src/deps.ts';
import type { RouteInfo } from './assertions.ts';

export interface AppRoute extends RouteInfo {
  /** Top-level members of the body and querystring schemas, when the route declares them. */
  bodyFields: string[];
  queryFields: string[];
  headerFields: string[];
}

const members = (schema: unknown): string[] =>
  Object.keys((schema as { properties?: Record<string, unknown> } | undefined)?.properties ?? {});

/**
 * Every route of the real app, plugin routes (the docs UI) included, with whether it needs a token, as the app
 * itself decides it. Sweeps built on this cover a route added later, wherever it is added.
 */
export async function appRoutes(deps: Deps): Promise<AppRoute[]> {
  const routes: AppRoute[] = [];
  const app = await buildApp(deps, {
    onRoute: (r) => {
      const methods = Array.isArray(r.method) ? r.method : [r.method];
      const schema = r.schema as { body?: unknown; querystring?: unknown; headers?: unknown } | undefined;
      for (const method of methods) {
        if (method === 'HEAD') continue;
        routes.push({
          method,
          url: r.url,
          auth: (r.config as { auth?: boolean | 'widget' } | undefined)?.auth !== false,
          widget: (r.config as { auth?: boolean | 'widget' } | undefined)?.auth === 'widget',
          bodyFields: members(schema?.body),
          queryFields: members(schema?.querystring),
          headerFields: members(schema?.headers),
        });
      }
    },
  });
  await app.ready();
  await app.close();
  return routes;
}
