import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config/index.ts';
import { createApplication } from '../../src/core/admin/applications.ts';
import { type BootstrapCredentials, bootstrapIfEmpty } from '../../src/core/admin/bootstrap.ts';
import { createOrganization } from '../../src/core/admin/organizations.ts';
import { buildDeps, type Deps } from '../../src/deps.ts';
import type { App } from '../../src/http/app-types.ts';
import { createLogger } from '../../src/logger.ts';
import { withoutRateLimits } from './rate-limits.ts';

export interface Harness {
  app: App;
  deps: Deps;
  dataDir: string;
  boot: BootstrapCredentials;
  /** Everything the service logged, as raw text. */
  logs: () => string;
  /** A fresh application token for the bootstrap organization. */
  token: () => Promise<string>;
  /** Another organization with its own application and token, for tenant-isolation tests. */
  otherOrg: () => Promise<{ organizationId: string; token: string; clientId: string; clientSecret: string }>;
  inject: (opts: InjectOptions) => Promise<InjectResult>;
  /**
   * Everything the store holds, as bytes: the SQLite file with its WAL and shared memory, or on PostgreSQL the
   * text of every row of every table in the harness's schema. For checks that no secret is stored in clear.
   */
  storedBytes: () => Promise<Buffer>;
  /**
   * A read of the store's tables straight from the database, as an operator would (`?` placeholders; on
   * PostgreSQL in the harness's schema). Which database the harness runs on: `h.database`.
   */
  query: (sql: string, ...params: unknown[]) => Promise<Record<string, unknown>[]>;
  database: 'sqlite' | 'postgres';
  close: () => Promise<void>;
}

export interface InjectOptions {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';
  url: string;
  token?: string;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface InjectResult {
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: string;
  /** The body's exact bytes (binary downloads). */
  raw: Buffer;
  // biome-ignore lint/suspicious/noExplicitAny: test convenience
  json: any;
}

/**
 * With CES_TEST_DATABASE_URL set (`npm test` sets it for its PostgreSQL pass), each harness keeps its store in
 * a fresh schema of that database, dropped on close; a test that sets its own database settings keeps them.
 */
function testSchema(env: Record<string, string>):
  | {
      url: string;
      schema: string;
      drop(): Promise<unknown>;
      rows(): Promise<Buffer>;
      query(text: string, params: unknown[]): Promise<Record<string, unknown>[]>;
    }
  | undefined {
  const url = process.env.CES_TEST_DATABASE_URL;
  if (!url || env.CES_DATABASE_URL || env.CES_DATABASE_FILE) return undefined;
  const schema = `h_${process.pid}_${randomBytes(4).toString('hex')}`;
  return {
    url,
    schema,
    query: (text, params) =>
      withClient(url, async (client) => {
        let n = 0;
        await client.query(`SET search_path TO ${schema}`);
        return (
          await client.query(
            text.replace(/\?/g, () => `$${++n}`),
            params,
          )
        ).rows;
      }),
    drop: () => withClient(url, (client) => client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`)),
    rows: () =>
      withClient(url, async (client) => {
        const tables = await client.query<{ name: string }>(
          'SELECT table_name AS name FROM information_schema.tables WHERE table_schema = $1',
          [schema],
        );
        const texts: string[] = [];
        for (const { name } of tables.rows) {
          const rows = await client.query<{ row: string }>(
            `SELECT row_to_json(t)::text AS row FROM ${schema}."${name.replaceAll('"', '""')}" t`,
          );
          for (const r of rows.rows) texts.push(r.row);
        }
        return Buffer.from(texts.join('\n'));
      }),
  };
}

/** JSONB as its text and 64-bit integers as numbers, as the SQLite file gives them. */
const SQLITE_LIKE_TYPES = {
  getTypeParser: (oid: number, format?: 'text' | 'binary') =>
    oid === 3802
      ? (v: string) => v
      : oid === 20
        ? (v: string) => Number(v)
        : pg.types.getTypeParser(oid, format),
};

async function withClient<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url, types: SQLITE_LIKE_TYPES });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** `options` go to buildDeps, e.g. a registry holding a test-only connector definition. */
export async function startHarness(
  env: Record<string, string> = {},
  options: Parameters<typeof buildDeps>[2] = {},
): Promise<Harness> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ces-test-'));
  const pgSchema = testSchema(env);
  const config = loadConfig(
    withoutRateLimits({
      CES_DATA_DIR: dataDir,
      CES_LOG_LEVEL: 'debug',
      ...(pgSchema ? { CES_DATABASE_URL: pgSchema.url, CES_DATABASE_SCHEMA: pgSchema.schema } : {}),
      ...env,
    }),
  );
  const chunks: string[] = [];
  const sink = new Writable({
    write(chunk, _enc, cb) {
      chunks.push(String(chunk));
      cb();
    },
  });
  const logger = createLogger(config.logLevel, sink);
  const deps = await buildDeps(config, logger, options);
  const boot = await bootstrapIfEmpty(
    deps.store,
    deps.secrets.clientSecretPepper,
    dataDir,
    new Date().toISOString(),
  );
  if (!boot) throw new Error('expected an empty data dir');
  const app = await buildApp(deps);
  await app.ready();

  const inject = async (opts: InjectOptions): Promise<InjectResult> => {
    const headers: Record<string, string> = { ...(opts.headers ?? {}) };
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    if (opts.body !== undefined && !headers['content-type']) headers['content-type'] = 'application/json';
    const res = await app.inject({
      method: opts.method,
      url: opts.url,
      headers,
      ...(opts.body !== undefined
        ? { payload: typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body) }
        : {}),
    });
    let json: unknown;
    try {
      json = res.body ? JSON.parse(res.body) : undefined;
    } catch {
      json = undefined;
    }
    return { status: res.statusCode, headers: res.headers, body: res.body, raw: res.rawPayload, json };
  };

  const tokenFor = async (clientId: string, clientSecret: string) => {
    const res = await inject({
      method: 'POST',
      url: '/api/v1/account/applications/token',
      body: { client_id: clientId, client_secret: clientSecret },
    });
    if (res.status !== 200) throw new Error(`token request failed: ${res.status} ${res.body}`);
    return res.json.access_token as string;
  };

  return {
    app,
    deps,
    dataDir,
    boot,
    logs: () => chunks.join(''),
    token: () => tokenFor(boot.client_id, boot.client_secret),
    otherOrg: async () => {
      const now = new Date().toISOString();
      const { organization } = await createOrganization(deps.store, { name: 'Other org', now });
      const created = await createApplication(deps.store, deps.secrets.clientSecretPepper, {
        name: 'other',
        organizationIds: [organization.id],
        now,
      });
      return {
        organizationId: organization.id,
        token: await tokenFor(created.client_id, created.client_secret),
        clientId: created.client_id,
        clientSecret: created.client_secret,
      };
    },
    inject,
    database: pgSchema ? 'postgres' : 'sqlite',
    query: async (text, ...params) => {
      if (pgSchema) return pgSchema.query(text, params);
      const db = new BetterSqlite3(config.databaseFile, { readonly: true });
      try {
        return db.prepare(text).all(...params) as Record<string, unknown>[];
      } finally {
        db.close();
      }
    },
    storedBytes: async () => {
      if (pgSchema) return pgSchema.rows();
      const file = config.databaseFile;
      const parts = [file, `${file}-wal`, `${file}-shm`].filter((f) => fs.existsSync(f));
      return Buffer.concat(parts.map((f) => fs.readFileSync(f)));
    },
    close: async () => {
      await app.close();
      await deps.close();
      await pgSchema?.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
