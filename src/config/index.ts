import path from 'node:path';

/**
 * The only reader of process.env. Everything is parsed once; a bad environment fails start-up with one message
 * listing every bad variable, so an operator fixes them all in one go.
 */
export interface Config {
  host: string;
  port: number;
  dataDir: string;
  databaseFile: string;
  /** Master keys (32 bytes each) from CES_MASTER_KEY, newest first; empty means "use <dataDir>/master.key". */
  masterKeys: Buffer[];
  tokenTtlSeconds: number;
  scopedTokenTtlSeconds: number;
  bodyLimitBytes: number;
  upstreamOverrides: Record<string, string>;
  upstreamTimeoutMs: number;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  bootstrap: boolean;
  publicUrl: string | null;
  /** The Context Store worker of this process. */
  sync: {
    enabled: boolean;
    concurrency: number;
    intervalSeconds: number;
    fullIntervalSeconds: number;
    pollMs: number;
    leaseSeconds: number;
  };
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

export function loadConfig(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): Config {
  const problems: string[] = [];

  const int = (name: string, fallback: number, min: number, max: number): number => {
    const raw = env[name];
    if (raw === undefined || raw === '') return fallback;
    const value = Number(raw);
    if (!Number.isInteger(value) || value < min || value > max) {
      problems.push(`${name} must be an integer from ${min} to ${max} (got ${JSON.stringify(raw)})`);
      return fallback;
    }
    return value;
  };
  const bool = (name: string, fallback: boolean): boolean => {
    const raw = env[name];
    if (raw === undefined || raw === '') return fallback;
    if (['1', 'true', 'yes', 'on'].includes(raw.toLowerCase())) return true;
    if (['0', 'false', 'no', 'off'].includes(raw.toLowerCase())) return false;
    problems.push(`${name} must be true or false (got ${JSON.stringify(raw)})`);
    return fallback;
  };

  const dataDir = path.resolve(cwd, env.CES_DATA_DIR || './data');
  const databaseFile = env.CES_DATABASE_FILE
    ? path.resolve(cwd, env.CES_DATABASE_FILE)
    : path.join(dataDir, 'ces.db');

  const masterKeys: Buffer[] = [];
  if (env.CES_MASTER_KEY) {
    // Comma-separated so a rotation can name the new key first and keep the old ones readable.
    env.CES_MASTER_KEY.split(',').forEach((part, i) => {
      const key = Buffer.from(part.trim(), 'base64');
      if (key.length !== 32) {
        problems.push(
          `CES_MASTER_KEY entry ${i + 1} must be 32 bytes encoded as base64 (got ${key.length} bytes)`,
        );
      } else {
        masterKeys.push(key);
      }
    });
  }

  let upstreamOverrides: Record<string, string> = {};
  if (env.CES_UPSTREAM_OVERRIDES) {
    try {
      const parsed: unknown = JSON.parse(env.CES_UPSTREAM_OVERRIDES);
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
        throw new Error('not an object');
      for (const [slug, url] of Object.entries(parsed)) {
        if (typeof url !== 'string' || !/^https?:\/\//.test(url)) {
          problems.push(`CES_UPSTREAM_OVERRIDES.${slug} must be an http(s) URL`);
          continue;
        }
        upstreamOverrides[slug] = url.replace(/\/+$/, '');
      }
    } catch {
      problems.push('CES_UPSTREAM_OVERRIDES must be a JSON object mapping connector slug to base URL');
      upstreamOverrides = {};
    }
  }

  const logLevel = (env.CES_LOG_LEVEL || 'info') as Config['logLevel'];
  if (!LOG_LEVELS.includes(logLevel)) problems.push(`CES_LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}`);

  const publicUrl = env.CES_PUBLIC_URL ? env.CES_PUBLIC_URL.replace(/\/+$/, '') : null;
  if (publicUrl !== null && !/^https?:\/\//.test(publicUrl))
    problems.push('CES_PUBLIC_URL must be an http(s) URL');

  const config: Config = {
    host: env.CES_HOST || '127.0.0.1',
    port: int('CES_PORT', 8080, 0, 65535),
    dataDir,
    databaseFile,
    masterKeys,
    tokenTtlSeconds: int('CES_TOKEN_TTL_SECONDS', 900, 30, 86_400),
    scopedTokenTtlSeconds: int('CES_SCOPED_TOKEN_TTL_SECONDS', 1200, 30, 86_400),
    bodyLimitBytes: int('CES_BODY_LIMIT_BYTES', 1_048_576, 1024, 104_857_600),
    upstreamOverrides,
    upstreamTimeoutMs: int('CES_UPSTREAM_TIMEOUT_MS', 30_000, 100, 600_000),
    logLevel,
    bootstrap: bool('CES_BOOTSTRAP', true),
    publicUrl,
    sync: {
      enabled: bool('CES_SYNC_ENABLED', true),
      concurrency: int('CES_SYNC_CONCURRENCY', 4, 1, 64),
      intervalSeconds: int('CES_SYNC_INTERVAL_SECONDS', 3600, 1, 604_800),
      fullIntervalSeconds: int('CES_SYNC_FULL_INTERVAL_SECONDS', 86_400, 1, 2_592_000),
      pollMs: int('CES_SYNC_POLL_MS', 1000, 10, 60_000),
      leaseSeconds: int('CES_SYNC_LEASE_SECONDS', 120, 2, 3600),
    },
  };
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}
