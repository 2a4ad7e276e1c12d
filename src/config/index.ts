import { isIP } from 'node:net';
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
  /**
   * CES_DATABASE_URL (`postgres://…`): use PostgreSQL instead of the SQLite file; CES_DATABASE_SCHEMA picks the
   * schema ces keeps its tables in (created if missing; default `public`); CES_DATABASE_POOL_SIZE the
   * connections this process opens at most.
   */
  database: { url: string; schema: string; poolSize: number } | null;
  /** Master keys (32 bytes each) from CES_MASTER_KEY, newest first; empty means "use <dataDir>/master.key". */
  masterKeys: Buffer[];
  tokenTtlSeconds: number;
  scopedTokenTtlSeconds: number;
  bodyLimitBytes: number;
  /**
   * CES_TRUST_PROXY: which proxies' X-Forwarded-For to believe for the client's address (the per-address token
   * limit keys on it): false (default), true (any), or a list of proxy addresses / CIDR ranges.
   */
  trustProxy: boolean | string[];
  upstreamOverrides: Record<string, string>;
  /**
   * CES_RATE_LIMIT_OVERRIDES: per connector type, the proactive limit to hold instead of the definition's
   * (`{"slack": {"requests": 100, "per_seconds": 60}}`, a plan with higher limits), or null for none.
   */
  rateLimitOverrides: Record<string, RateLimitSetting | null>;
  upstreamTimeoutMs: number;
  /** CES_EGRESS_ALLOW: private destinations the egress policy accepts (an on-premises GitHub Enterprise, …). */
  egressAllow: EgressAllowEntry[];
  /** The largest upstream answer one call may buffer (JSON bodies; downloads stream and are not capped). */
  upstreamMaxResponseBytes: number;
  /**
   * Upstream bytes all calls of this process may hold buffered at once, from the first byte read until the
   * reply carrying them is written. Default 32 MiB, one answer of the per-call cap at a time: each buffered
   * byte costs several more in memory (the text JSON.parse reads, the parsed values, and garbage the collector
   * frees late), measured by bench/upstream-memory.ts.
   */
  upstreamBufferBytes: number;
  /**
   * How long a call may queue for one of its connector's concurrency slots (then UPSTREAM_BUSY), and an
   * answer for room in the buffer budget (then SERVER_BUSY); both also end with the call's deadline.
   */
  upstreamQueueWaitMs: number;
  /** Context Store searches: each one's time budget, and the reader threads that run them. */
  search: { timeoutMs: number; threads: number };
  /** Per-organization limits; 0 turns a limit off. */
  limits: {
    workspacesPerOrganization: number;
    connectorsPerOrganization: number;
    /** Per organization: its own callers; its end users (widget tokens) together get a bucket of this rate too. */
    requestsPerSecond: number;
    /** Per widget token (one end user's connect page), and for all widget tokens of one workspace together. */
    endUserRequestsPerSecond: number;
    workspaceEndUserRequestsPerSecond: number;
    /** Failed token requests allowed per source address, and per client id, in a minute. */
    tokenFailuresPerAddress: number;
    tokenFailuresPerClient: number;
    /**
     * Open consent flows (begun, neither completed nor expired) one workspace, and one widget token, may hold:
     * each is a stored row, and a widget token is in an end user's hands.
     */
    openConsentsPerWorkspace: number;
    openConsentsPerWidgetToken: number;
  };
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  bootstrap: boolean;
  publicUrl: string | null;
  /** `ces mcp` (stdio): the application it acts as, and optionally the one workspace it is scoped to. */
  mcp: { clientId?: string; clientSecret?: string; organizationId?: string; workspace?: string };
  /**
   * CES_ROLE (or `ces serve --role`): `all` serves the API and runs the Context Store worker; `api` only the
   * API; `worker` only the worker (with /healthz on the port), so each can be scaled on its own.
   */
  role: 'all' | 'api' | 'worker';
  /**
   * CES_METRICS: serve GET /metrics (Prometheus text format); CES_METRICS_TOKEN: the bearer token it then
   * needs (null: the route is public, for a scraper on a private network).
   */
  metrics: { enabled: boolean; token: string | null };
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

/** One CES_EGRESS_ALLOW entry: a host name or IP literal (optionally with a port), or an address range. */
export interface RateLimitSetting {
  requests: number;
  per_seconds: number;
}

export type EgressAllowEntry =
  | { kind: 'host'; host: string; port?: number }
  | { kind: 'cidr'; address: string; prefix: number; family: 4 | 6 };

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

  let database: Config['database'] = null;
  const databaseUrl = env.CES_DATABASE_URL;
  if (databaseUrl) {
    const schema = env.CES_DATABASE_SCHEMA || 'public';
    if (!/^postgres(ql)?:\/\//.test(databaseUrl)) {
      problems.push('CES_DATABASE_URL must be a postgres:// or postgresql:// URL');
    } else if (!/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) {
      problems.push(
        `CES_DATABASE_SCHEMA must be a lower-case SQL name (letters, digits, _; got ${JSON.stringify(schema)})`,
      );
    } else {
      database = { url: databaseUrl, schema, poolSize: int('CES_DATABASE_POOL_SIZE', 10, 2, 200) };
    }
  } else if (env.CES_DATABASE_SCHEMA) {
    problems.push('CES_DATABASE_SCHEMA needs CES_DATABASE_URL');
  }

  const role = (env.CES_ROLE || 'all') as Config['role'];
  if (!['all', 'api', 'worker'].includes(role)) {
    problems.push(`CES_ROLE must be all, api or worker (got ${JSON.stringify(env.CES_ROLE)})`);
  }

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

  const rateLimitOverrides: Record<string, RateLimitSetting | null> = {};
  if (env.CES_RATE_LIMIT_OVERRIDES) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(env.CES_RATE_LIMIT_OVERRIDES);
    } catch {
      parsed = undefined;
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      problems.push(
        'CES_RATE_LIMIT_OVERRIDES must be a JSON object mapping connector slug to {requests, per_seconds} or null',
      );
    } else {
      for (const [slug, limit] of Object.entries(parsed)) {
        const l = limit as { requests?: unknown; per_seconds?: unknown } | null;
        if (l === null) rateLimitOverrides[slug] = null;
        else if (
          typeof l === 'object' &&
          Number.isInteger(l.requests) &&
          (l.requests as number) >= 1 &&
          typeof l.per_seconds === 'number' &&
          l.per_seconds > 0 &&
          l.per_seconds <= 86_400
        )
          rateLimitOverrides[slug] = { requests: l.requests as number, per_seconds: l.per_seconds };
        else
          problems.push(
            `CES_RATE_LIMIT_OVERRIDES.${slug} must be null or {requests: integer >= 1, per_seconds: 0 < number <= 86400}`,
          );
      }
    }
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

  const trustProxy = parseTrustProxy(env.CES_TRUST_PROXY ?? '', problems);
  const egressAllow = parseEgressAllow(env.CES_EGRESS_ALLOW ?? '', problems);

  const logLevel = (env.CES_LOG_LEVEL || 'info') as Config['logLevel'];
  if (!LOG_LEVELS.includes(logLevel)) problems.push(`CES_LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}`);

  const metricsEnabled = bool('CES_METRICS', false);
  const metricsToken = env.CES_METRICS_TOKEN || null;
  if (metricsToken !== null && !metricsEnabled) problems.push('CES_METRICS_TOKEN needs CES_METRICS=true');
  else if (metricsToken !== null && !/^[\x21-\x7e]{16,}$/.test(metricsToken))
    problems.push('CES_METRICS_TOKEN must be at least 16 printable characters without spaces');

  const publicUrl = env.CES_PUBLIC_URL ? env.CES_PUBLIC_URL.replace(/\/+$/, '') : null;
  if (publicUrl !== null && !/^https?:\/\//.test(publicUrl))
    problems.push('CES_PUBLIC_URL must be an http(s) URL');

  const config: Config = {
    host: env.CES_HOST || '127.0.0.1',
    port: int('CES_PORT', 8080, 0, 65535),
    dataDir,
    databaseFile,
    database,
    role: ['all', 'api', 'worker'].includes(role) ? role : 'all',
    masterKeys,
    tokenTtlSeconds: int('CES_TOKEN_TTL_SECONDS', 900, 30, 86_400),
    scopedTokenTtlSeconds: int('CES_SCOPED_TOKEN_TTL_SECONDS', 1200, 30, 86_400),
    bodyLimitBytes: int('CES_BODY_LIMIT_BYTES', 1_048_576, 1024, 104_857_600),
    trustProxy,
    upstreamOverrides,
    rateLimitOverrides,
    upstreamTimeoutMs: int('CES_UPSTREAM_TIMEOUT_MS', 30_000, 100, 600_000),
    egressAllow,
    upstreamMaxResponseBytes: int('CES_UPSTREAM_MAX_RESPONSE_BYTES', 33_554_432, 1024, 1_073_741_824),
    upstreamBufferBytes: int('CES_UPSTREAM_BUFFER_BYTES', 33_554_432, 1024, 17_179_869_184),
    upstreamQueueWaitMs: int('CES_UPSTREAM_QUEUE_WAIT_MS', 5000, 0, 600_000),
    search: {
      timeoutMs: int('CES_SEARCH_TIMEOUT_MS', 2000, 10, 600_000),
      threads: int('CES_SEARCH_THREADS', 2, 1, 64),
    },
    limits: {
      workspacesPerOrganization: int('CES_MAX_WORKSPACES_PER_ORGANIZATION', 1000, 0, 10_000_000),
      connectorsPerOrganization: int('CES_MAX_CONNECTORS_PER_ORGANIZATION', 10_000, 0, 100_000_000),
      requestsPerSecond: int('CES_MAX_REQUESTS_PER_SECOND', 1000, 0, 10_000_000),
      endUserRequestsPerSecond: int('CES_MAX_END_USER_REQUESTS_PER_SECOND', 10, 0, 10_000_000),
      workspaceEndUserRequestsPerSecond: int(
        'CES_MAX_WORKSPACE_END_USER_REQUESTS_PER_SECOND',
        50,
        0,
        10_000_000,
      ),
      tokenFailuresPerAddress: int('CES_TOKEN_FAILURES_PER_ADDRESS', 20, 0, 1_000_000),
      tokenFailuresPerClient: int('CES_TOKEN_FAILURES_PER_CLIENT', 100, 0, 1_000_000),
      openConsentsPerWorkspace: int('CES_MAX_OPEN_CONSENTS_PER_WORKSPACE', 100, 0, 1_000_000),
      openConsentsPerWidgetToken: int('CES_MAX_OPEN_CONSENTS_PER_WIDGET_TOKEN', 10, 0, 1_000_000),
    },
    logLevel,
    bootstrap: bool('CES_BOOTSTRAP', true),
    metrics: { enabled: metricsEnabled, token: metricsToken },
    publicUrl,
    mcp: {
      ...(env.CES_MCP_CLIENT_ID ? { clientId: env.CES_MCP_CLIENT_ID } : {}),
      ...(env.CES_MCP_CLIENT_SECRET ? { clientSecret: env.CES_MCP_CLIENT_SECRET } : {}),
      ...(env.CES_MCP_ORGANIZATION_ID ? { organizationId: env.CES_MCP_ORGANIZATION_ID } : {}),
      ...(env.CES_MCP_WORKSPACE ? { workspace: env.CES_MCP_WORKSPACE } : {}),
    },
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

/**
 * `host`, `host:port`, `[v6]:port`, an IP literal, or `address/prefix`, comma-separated. Host names compare
 * lower-case and exactly (no wildcards): an operator names each private host it trusts.
 */
const HOST_NAME =
  /^[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;

function parseEgressAllow(raw: string, problems: string[]): EgressAllowEntry[] {
  const out: EgressAllowEntry[] = [];
  for (const part of raw.split(',').map((p) => p.trim())) {
    if (part === '') continue;
    const bad = (why: string) => problems.push(`CES_EGRESS_ALLOW entry ${JSON.stringify(part)}: ${why}`);
    if (part.includes('/')) {
      const [address = '', prefixText = ''] = part.split('/');
      const family = isIP(address);
      const prefix = Number(prefixText);
      if (family === 0) bad('not an IP address before the /');
      else if (!/^\d+$/.test(prefixText) || prefix > (family === 4 ? 32 : 128))
        bad(`the prefix must be 0 to ${family === 4 ? 32 : 128}`);
      else out.push({ kind: 'cidr', address: address.toLowerCase(), prefix, family: family as 4 | 6 });
      continue;
    }
    let host = part;
    let portText: string | undefined;
    const bracketed = /^\[([^\]]+)\](?::(.*))?$/.exec(part);
    if (bracketed) [, host = '', portText] = bracketed;
    else if (isIP(part) !== 6 && part.includes(':'))
      [host = '', portText] = [part.slice(0, part.lastIndexOf(':')), part.slice(part.lastIndexOf(':') + 1)];
    const port = portText === undefined ? undefined : Number(portText);
    if (portText !== undefined && (!/^\d{1,5}$/.test(portText) || port === 0 || (port ?? 0) > 65535))
      bad('the port must be 1 to 65535');
    else if (bracketed && isIP(host) !== 6) bad('only an IPv6 address goes in brackets');
    else if (isIP(host) === 0 && !HOST_NAME.test(host)) bad('not a host name, IP address, host:port or CIDR');
    else out.push({ kind: 'host', host: host.toLowerCase(), ...(port === undefined ? {} : { port }) });
  }
  return out;
}

function parseTrustProxy(raw: string, problems: string[]): boolean | string[] {
  const value = raw.trim().toLowerCase();
  if (value === '' || value === 'false') return false;
  if (value === 'true') return true;
  const entries = value.split(',').map((p) => p.trim());
  const bad = entries.filter((e) => {
    const [address = '', prefix] = e.split('/');
    const family = isIP(address);
    if (family === 0) return true;
    return prefix !== undefined && !(/^\d+$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128));
  });
  if (bad.length > 0) {
    problems.push(
      `CES_TRUST_PROXY must be true, false or comma-separated proxy addresses/CIDRs (bad: ${bad.map((b) => JSON.stringify(b)).join(', ')})`,
    );
    return false;
  }
  return entries;
}
