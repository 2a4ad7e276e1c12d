import type { Logger } from 'pino';
import type { Config } from './config/index.ts';
import { DefinitionRegistry } from './connectors/registry.ts';
import { ConnectorRuntime } from './connectors/runtime/executor.ts';
import { definitionLayouts } from './context-store/layout.ts';
import { loadServerSecrets } from './core/admin/server-secrets.ts';
import { RequestRates } from './core/request-rates.ts';
import { SyncWorker } from './core/sync/worker.ts';
import { TokenAttemptLimiter } from './core/tokens/attempt-limiter.ts';
import type { AppDeps } from './http/app-types.ts';
import { TRANSPORT_ERRORS } from './http/errors.ts';
import type { Metrics } from './metrics/index.ts';
import { type Keyring, loadKeyring } from './security/keyring.ts';
import { TokenService } from './security/tokens.ts';
import { Vault } from './security/vault.ts';
import { openStore } from './store/open.ts';
import type { Store } from './store/port.ts';

export interface Deps extends AppDeps {
  config: Config;
  keyring: Keyring;
  logger: Logger;
  /** Started by `serve` (config.sync.enabled); stopped by close(). */
  worker: SyncWorker;
  close(): Promise<void>;
}

/** Fails start-up with a clear message when the configured master keys cannot read the stored secrets. */
async function assertKeysMatch(store: Store, keyring: Keyring): Promise<void> {
  const known = new Set(keyring.keys.map((k) => k.id));
  const missing = new Set<string>();
  for (const row of await store.serverSecrets.list()) if (!known.has(row.key_id)) missing.add(row.key_id);
  if (missing.size > 0) {
    throw new Error(
      `The stored secrets were encrypted with master key(s) ${[...missing].join(', ')}, which the configuration ` +
        `does not provide (configured: ${[...known].join(', ')}; source: ${keyring.source}). ` +
        'Set CES_MASTER_KEY or restore the data directory’s master.key.',
    );
  }
}

/** The one composition root. */
export async function buildDeps(
  config: Config,
  logger: Logger,
  options: { now?: () => Date; registry?: DefinitionRegistry } = {},
): Promise<Deps> {
  const now = options.now ?? (() => new Date());
  const keyring = loadKeyring(config.masterKeys, config.dataDir);
  const vault = new Vault(keyring.keys);
  const { store, applied } = await openStore(config, {
    onChangeFeed: (listening, reason) => {
      if (listening) logger.info('listening for other processes’ changes again');
      else
        logger.warn(
          { reason },
          'not listening for other processes’ changes: connectors and applications are read from the database at every call until the connection is back (retried every 2 s)',
        );
    },
  });
  try {
    if (applied.length > 0) logger.info({ migrations: applied }, 'applied database migrations');
    await assertKeysMatch(store, keyring);
    const secrets = await loadServerSecrets(store, vault, now().toISOString());
    const tokens = new TokenService(secrets.jwtSigningKey, {
      application: config.tokenTtlSeconds,
      scoped: config.scopedTokenTtlSeconds,
    });
    const registry = options.registry ?? DefinitionRegistry.default();
    // One registry per process (per deps in tests); its Context Store gauges read the store at scrape time.
    // Loaded only when wanted: prom-client is a noticeable part of start-up.
    const metrics: Metrics | null = config.metrics.enabled
      ? new (await import('./metrics/index.ts')).Metrics({
          stats: (at) => store.contextStore.stats(at),
          now,
          onError: (err) => logger.warn({ err }, 'metrics: reading the context store stats failed'),
        })
      : null;
    const runtime = new ConnectorRuntime({
      cursorKey: secrets.cursorKey,
      upstreamOverrides: config.upstreamOverrides,
      rateLimitOverrides: config.rateLimitOverrides,
      egressAllow: config.egressAllow,
      timeoutMs: config.upstreamTimeoutMs,
      maxResponseBytes: config.upstreamMaxResponseBytes,
      bufferBudgetBytes: config.upstreamBufferBytes,
      queueWaitMs: config.upstreamQueueWaitMs,
      userAgent: 'ces/0.1',
      ...(store.rateBuckets ? { rateBuckets: store.rateBuckets } : {}),
      ...(store.concurrencySlots ? { sharedSlots: store.concurrencySlots } : {}),
      ...(metrics ? { observer: metrics.runtime } : {}),
    });
    const { rebuilt } = await store.contextStore.ensureLayouts(
      registry.all().flatMap((def) => definitionLayouts(def)),
      now().toISOString(),
    );
    if (rebuilt.length > 0)
      logger.info({ tables: rebuilt }, 'context store: index layout changed; re-syncing');
    const worker = new SyncWorker(
      { store, registry, runtime, vault, now, logger, observer: metrics?.contextStore },
      {
        concurrency: config.sync.concurrency,
        intervalMs: config.sync.intervalSeconds * 1000,
        fullIntervalMs: config.sync.fullIntervalSeconds * 1000,
        pollMs: config.sync.pollMs,
        leaseMs: config.sync.leaseSeconds * 1000,
      },
    );
    return {
      config,
      keyring,
      logger,
      store,
      vault,
      secrets,
      tokens,
      registry,
      runtime,
      now,
      worker,
      syncs: worker,
      bodyLimitBytes: config.bodyLimitBytes,
      trustProxy: config.trustProxy,
      publicUrl: config.publicUrl,
      metrics,
      metricsToken: config.metrics.token,
      contextStoreObserver: metrics?.contextStore,
      transportErrors: TRANSPORT_ERRORS,
      quotas: {
        workspacesPerOrganization: config.limits.workspacesPerOrganization,
        connectorsPerOrganization: config.limits.connectorsPerOrganization,
      },
      openConsents: {
        perWorkspace: config.limits.openConsentsPerWorkspace,
        perWidgetToken: config.limits.openConsentsPerWidgetToken,
      },
      requestRates: new RequestRates(
        {
          organization: config.limits.requestsPerSecond,
          endUser: config.limits.endUserRequestsPerSecond,
          workspaceEndUsers: config.limits.workspaceEndUserRequestsPerSecond,
        },
        () => now().getTime(),
      ),
      tokenAttempts: new TokenAttemptLimiter(
        {
          perAddress: config.limits.tokenFailuresPerAddress,
          perClient: config.limits.tokenFailuresPerClient,
        },
        () => now().getTime(),
      ),
      ready: () => store.ping(),
      close: async () => {
        await worker.stop();
        await runtime.close();
        await store.close();
      },
    };
  } catch (err) {
    await store.close();
    throw err;
  }
}
