import type { Logger } from 'pino';
import type { AppDeps } from './app.ts';
import type { Config } from './config/index.ts';
import { DefinitionRegistry } from './connectors/registry.ts';
import { ConnectorRuntime } from './connectors/runtime/executor.ts';
import { type Keyring, loadKeyring } from './security/keyring.ts';
import { loadServerSecrets } from './security/server-secrets.ts';
import { TokenService } from './security/tokens.ts';
import { Vault } from './security/vault.ts';
import type { Store } from './store/port.ts';
import { openSqliteStore } from './store/sqlite/index.ts';

export interface Deps extends AppDeps {
  config: Config;
  keyring: Keyring;
  logger: Logger;
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
  const { store, applied } = await openSqliteStore({ file: config.databaseFile, migrate: true });
  try {
    if (applied.length > 0) logger.info({ migrations: applied }, 'applied database migrations');
    await assertKeysMatch(store, keyring);
    const secrets = await loadServerSecrets(store, vault, now().toISOString());
    const tokens = new TokenService(secrets.jwtSigningKey, {
      application: config.tokenTtlSeconds,
      scoped: config.scopedTokenTtlSeconds,
    });
    const registry = options.registry ?? DefinitionRegistry.default();
    const runtime = new ConnectorRuntime({
      cursorKey: secrets.cursorKey,
      upstreamOverrides: config.upstreamOverrides,
      timeoutMs: config.upstreamTimeoutMs,
      userAgent: 'ces/0.1',
    });
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
      bodyLimitBytes: config.bodyLimitBytes,
      ready: () => store.ping(),
      close: async () => {
        await runtime.close();
        await store.close();
      },
    };
  } catch (err) {
    await store.close();
    throw err;
  }
}
