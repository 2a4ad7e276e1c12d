import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { type App, buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config/index.ts';
import { createApplication } from '../../src/core/admin/applications.ts';
import { type BootstrapCredentials, bootstrapIfEmpty } from '../../src/core/admin/bootstrap.ts';
import { createOrganization } from '../../src/core/admin/organizations.ts';
import { buildDeps, type Deps } from '../../src/deps.ts';
import { createLogger } from '../../src/logger.ts';

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

/** `options` go to buildDeps, e.g. a registry holding a test-only connector definition. */
export async function startHarness(
  env: Record<string, string> = {},
  options: Parameters<typeof buildDeps>[2] = {},
): Promise<Harness> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ces-test-'));
  const config = loadConfig({ CES_DATA_DIR: dataDir, CES_LOG_LEVEL: 'debug', ...env });
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
    close: async () => {
      await app.close();
      await deps.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
