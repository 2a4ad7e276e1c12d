import { randomBytes } from 'node:crypto';
import { type ParseArgsConfig, parseArgs } from 'node:util';
import pino from 'pino';
import type { Config } from '../config/index.ts';
import {
  addAccountToOrganization,
  changeRedirectUrls,
  createApplication,
} from '../core/admin/applications.ts';
import { createOrganization } from '../core/admin/organizations.ts';
import { rotateKeys } from '../core/admin/rotate-keys.ts';
import { buildDeps } from '../deps.ts';
import { createLogger } from '../logger.ts';
import { loadKeyring, masterKey, writeKeyFile } from '../security/keyring.ts';
import { openStore } from '../store/open.ts';

export const USAGE = `Usage: ces <command>

  serve                                   start the HTTP service (default)
  migrate                                 apply pending database migrations and exit
  orgs create --name NAME                 create an organization (with its 'default' workspace)
  orgs list                               list organizations
  apps create --name NAME --org ORG_ID [--org ORG_ID …] [--account ACCOUNT_ID]
                                          create an application; prints client_id and client_secret once
  apps add-org --client-id ID --org ORG_ID
                                          make an application's account a member of another organization
  apps list --org ORG_ID                  list an organization's applications (never secrets)
  apps revoke --org ORG_ID CLIENT_ID|APP_ID
                                          revoke an application; its tokens stop working at once
  apps redirect-urls --client-id ID [--add URL …] [--remove URL …]
                                          where the application's consent flows may send end users back to
  mcp                                     the MCP server over stdio (CES_MCP_CLIENT_ID, CES_MCP_CLIENT_SECRET,
                                          optional CES_MCP_WORKSPACE; logs on stderr)
  keys rotate                             re-encrypt every stored secret under a new master key
`;

const print = (value: unknown) => process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);

function flags(args: string[], options: NonNullable<ParseArgsConfig['options']>) {
  return parseArgs({ args, options, allowPositionals: true, strict: true });
}

function required(value: unknown, name: string): string {
  if (typeof value !== 'string' || value === '') throw new Error(`--${name} is required\n\n${USAGE}`);
  return value;
}

/** Runs one admin command against the data dir; returns the process exit code. */
export async function runCli(config: Config, argv: string[]): Promise<number> {
  const [group, verb, ...rest] = argv;
  const logger = createLogger(config.logLevel === 'info' ? 'warn' : config.logLevel);
  const now = new Date().toISOString();

  if (group === 'migrate') {
    const { store, applied } = await openStore(config);
    await store.close();
    print({ applied });
    return 0;
  }

  if (group === 'keys' && verb === 'rotate') {
    const keyring = loadKeyring(config.masterKeys, config.dataDir);
    const { store } = await openStore(config);
    try {
      if (keyring.source === 'file' && keyring.file) {
        const fresh = masterKey(randomBytes(32));
        // Write the new key beside the old ones first: a crash mid-way leaves every key still readable.
        writeKeyFile(keyring.file, [fresh, ...keyring.keys]);
        const result = await rotateKeys(store, keyring.keys, fresh);
        writeKeyFile(keyring.file, [fresh]);
        print({ ...result, retired_key_ids: keyring.keys.map((k) => k.id), key_file: keyring.file });
      } else {
        const [active, ...older] = keyring.keys;
        if (!active) throw new Error('no master key configured');
        const result = await rotateKeys(store, older, active);
        print({
          ...result,
          note: 'Every secret now uses the first key of CES_MASTER_KEY; the other keys can be removed from it.',
          retired_key_ids: older.map((k) => k.id),
        });
      }
      return 0;
    } finally {
      await store.close();
    }
  }

  if (group === 'mcp') {
    // stdout is the protocol's: every log line goes to stderr.
    const quiet = createLogger(config.logLevel, pino.destination(2));
    const deps = await buildDeps(config, quiet);
    try {
      const { serveStdio } = await import('../mcp/stdio.ts');
      await serveStdio(deps, {
        ...config.mcp,
        publicBase: config.publicUrl ?? `http://${config.host}:${config.port}`,
        onInternalError: (err) => quiet.error({ err }, 'mcp tool failed'),
      });
      return 0;
    } finally {
      await deps.close();
    }
  }

  const deps = await buildDeps(config, logger);
  try {
    if (group === 'orgs' && verb === 'create') {
      const { values } = flags(rest, { name: { type: 'string' } });
      const { organization, defaultWorkspace } = await createOrganization(deps.store, {
        name: required(values.name, 'name'),
        now,
      });
      print({
        organization_id: organization.id,
        name: organization.name,
        default_workspace_id: defaultWorkspace.id,
      });
      return 0;
    }
    if (group === 'orgs' && verb === 'list') {
      print(await deps.store.organizations.list());
      return 0;
    }
    if (group === 'apps' && verb === 'create') {
      const { values } = flags(rest, {
        name: { type: 'string' },
        org: { type: 'string', multiple: true },
        account: { type: 'string' },
      });
      const app = await createApplication(deps.store, deps.secrets.clientSecretPepper, {
        name: required(values.name, 'name'),
        organizationIds: (values.org as string[] | undefined) ?? [],
        accountId: values.account as string | undefined,
        now,
      });
      print(app);
      return 0;
    }
    if (group === 'apps' && verb === 'add-org') {
      const { values } = flags(rest, { 'client-id': { type: 'string' }, org: { type: 'string' } });
      print(
        await addAccountToOrganization(deps.store, {
          clientId: required(values['client-id'], 'client-id'),
          organizationId: required(values.org, 'org'),
          now,
        }),
      );
      return 0;
    }
    if (group === 'apps' && verb === 'list') {
      const { values } = flags(rest, { org: { type: 'string' } });
      print(await deps.store.applications.listForOrganization(required(values.org, 'org')));
      return 0;
    }
    if (group === 'apps' && verb === 'revoke') {
      const { values, positionals } = flags(rest, { org: { type: 'string' } });
      const target = required(positionals[0], 'CLIENT_ID');
      const revoked = await deps.store.applications.revoke(required(values.org, 'org'), target, now);
      if (!revoked) {
        process.stderr.write(`No application ${target} in that organization.\n`);
        return 1;
      }
      print({ revoked: target });
      return 0;
    }
    if (group === 'apps' && verb === 'redirect-urls') {
      const { values } = flags(rest, {
        'client-id': { type: 'string' },
        add: { type: 'string', multiple: true },
        remove: { type: 'string', multiple: true },
      });
      print(
        await changeRedirectUrls(deps.store, {
          clientId: required(values['client-id'], 'client-id'),
          add: (values.add as string[] | undefined) ?? [],
          remove: (values.remove as string[] | undefined) ?? [],
          now,
        }),
      );
      return 0;
    }
    process.stderr.write(USAGE);
    return 2;
  } finally {
    await deps.close();
  }
}
