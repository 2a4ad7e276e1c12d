import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import v8 from 'node:v8';
import Fastify from 'fastify';
import { buildApp } from './app.ts';
import { runCli, USAGE } from './cli/index.ts';
import { type Config, ConfigError, loadConfig } from './config/index.ts';
import { bootstrapFile, bootstrapIfEmpty } from './core/admin/bootstrap.ts';
import { buildDeps } from './deps.ts';
import { registerMetricsRoute } from './http/metrics.ts';
import { createLogger } from './logger.ts';

/**
 * A server's heap may grow to twice what survived the last full collection before the next one starts. V8's own
 * choice here was about 1.5×, which left less room than its young generation: during a backfill it started a
 * full collection every ~200 ms (70 per 300k records, 5–20 ms pauses each). With 2× they were 27, the server's
 * CPU per record 5–10% lower (bench/context-store.ts, alternating runs). A flag given to node itself
 * (NODE_OPTIONS or the command line) is left as it is.
 */
function tuneHeap() {
  const given = [...process.execArgv, process.env.NODE_OPTIONS ?? ''].some((a) =>
    /heap[-_]growing[-_]percent/.test(a),
  );
  if (!given) v8.setFlagsFromString('--heap-growing-percent=100');
}

async function serve(config: Config): Promise<void> {
  const started = performance.now();
  tuneHeap();
  const logger = createLogger(config.logLevel);
  const deps = await buildDeps(config, logger);
  if (deps.keyring.source === 'file')
    logger.info({ key_file: deps.keyring.file }, 'master key loaded from file');

  if (config.bootstrap) {
    const creds = await bootstrapIfEmpty(
      deps.store,
      deps.secrets.clientSecretPepper,
      config.dataDir,
      deps.now().toISOString(),
    );
    if (creds) {
      // Printed once on purpose (not through the logger): the operator needs these to get a first token.
      process.stdout.write(
        [
          '',
          'ces: first start — created an organization, its "default" workspace and an application.',
          `  organization_id: ${creds.organization_id}`,
          `  client_id:       ${creds.client_id}`,
          `  client_secret:   ${creds.client_secret}`,
          `Saved to ${bootstrapFile(config.dataDir)} (mode 0600). The secret is not shown again.`,
          '',
        ].join('\n'),
      );
    }
  }

  const server = config.role === 'worker' ? await healthOnly(deps) : await buildApp(deps);
  await server.listen({ host: config.host, port: config.port });
  if (config.sync.enabled && config.role !== 'api') await deps.worker.start();
  const address = server.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  logger.info(
    {
      url: `http://${config.host}:${port}`,
      role: config.role,
      // From serve() to listening, and from the process's start (performance's time origin), loading included.
      startup_ms: Math.round(performance.now() - started),
      since_process_start_ms: Math.round(performance.now()),
    },
    'ces listening',
  );

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    logger.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    try {
      await server.close();
      await deps.close();
    } finally {
      process.exit(0);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

/**
 * The worker role's only HTTP: `/healthz` (the store answers) for the orchestrator's probes, and `/metrics` with
 * CES_METRICS (the sync's metrics live in this process). Everything else is a 404 in the one error body.
 */
async function healthOnly(deps: Awaited<ReturnType<typeof buildDeps>>) {
  const app = Fastify({ logger: false });
  app.get('/healthz', async (_req, reply) => {
    await deps.store.ping();
    return reply.send({ status: 'ok', role: 'worker' });
  });
  if (deps.metrics) registerMetricsRoute(app, deps.metrics, deps.metricsToken ?? null);
  app.setNotFoundHandler((req, reply) =>
    reply.code(404).send({
      message:
        'This ces process runs the Context Store worker only (CES_ROLE=worker); the API is served by the api processes.',
      code: 'NOT_FOUND',
      request_id: req.id,
      errors: [],
    }),
  );
  return app;
}

/** `serve --role api|worker|all` sets CES_ROLE for this process. */
function serveRole(args: string[]): NodeJS.ProcessEnv {
  const { values } = parseArgs({ args, options: { role: { type: 'string' } }, strict: true });
  return values.role === undefined ? process.env : { ...process.env, CES_ROLE: values.role };
}

async function main(argv: string[]): Promise<number> {
  let config: Config;
  try {
    config = loadConfig(argv[0] === 'serve' ? serveRole(argv.slice(1)) : process.env);
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      return 2;
    }
    throw err;
  }
  const [command = 'serve'] = argv;
  if (command === 'help' || command === '--help' || command === '-h') {
    process.stdout.write(USAGE);
    return 0;
  }
  if (command === 'serve') {
    await serve(config);
    return -1; // keep running
  }
  return runCli(config, argv);
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code >= 0) process.exit(code);
  },
  (err: unknown) => {
    process.stderr.write(`ces: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  },
);
