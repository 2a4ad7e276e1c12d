/**
 * The types the HTTP layer is built around: the app its routes register on, and what the app is built from.
 * They live here, not in src/app.ts, so that the routes import nothing of the composition that builds them.
 */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { CoreDeps } from '../core/context.ts';
import type { Metrics } from '../metrics/index.ts';

export interface AppDeps extends CoreDeps {
  logger: FastifyBaseLogger;
  bodyLimitBytes: number;
  /** Whose X-Forwarded-For to believe (config CES_TRUST_PROXY); false: the socket's peer is the client. */
  trustProxy: boolean | string[];
  /** Readiness: resolves when the store answers. */
  ready: () => Promise<void>;
  /**
   * How browsers and providers reach this server (CES_PUBLIC_URL), for URLs ces hands out: the consent flow's
   * callback, the connect page. Unset: the scheme and host of the request being answered.
   */
  publicUrl?: string | null;
  /** CES_METRICS: this process's metrics, served at GET /metrics; absent or null: no metrics, no route. */
  metrics?: Metrics | null;
  /** CES_METRICS_TOKEN: the bearer token GET /metrics then needs; null: none. */
  metricsToken?: string | null;
}

export type App = FastifyInstance<
  import('node:http').Server,
  import('node:http').IncomingMessage,
  import('node:http').ServerResponse,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;
