import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { loadConfig } from '../../src/config/index.ts';
import { issueApplicationToken } from '../../src/core/tokens/issue-application-token.ts';
import { buildDeps, type Deps } from '../../src/deps.ts';
import { DomainError } from '../../src/errors.ts';
import { createLogger } from '../../src/logger.ts';
import { connectorAad } from '../../src/security/vault.ts';
import { testStoreEnv } from '../helpers/postgres.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const run = promisify(execFile);

async function ces(env: Record<string, string>, ...args: string[]) {
  const { stdout } = await run(process.execPath, [path.join(ROOT, 'bin/ces.js'), ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env, ...testStoreEnv(env) },
  });
  return JSON.parse(stdout);
}

/** Opens the same data dir in-process, as the server would. */
async function open(env: Record<string, string>): Promise<Deps> {
  return buildDeps(
    loadConfig({ ...env, ...testStoreEnv(env), CES_LOG_LEVEL: 'silent' }),
    createLogger('silent'),
  );
}

async function plantConnector(deps: Deps, orgId: string, workspaceId: string, secret: string) {
  const id = randomUUID();
  await deps.store.connectors.create({
    id,
    organization_id: orgId,
    workspace_id: workspaceId,
    definition_id: 'ef69ef6e-aa7f-4af1-a01d-ef775033524e',
    connector_type: 'github',
    name: 'planted',
    replication_config: { repositories: ['a/b'] },
    credential_option: 'PAT Credentials',
    credentials: deps.vault.encrypt(
      JSON.stringify({ option: 'PAT Credentials', values: { personal_access_token: secret } }),
      connectorAad(orgId, id),
    ),
    now: new Date().toISOString(),
  });
  return id;
}

describe('ces command line', () => {
  let dataDir: string;
  let env: Record<string, string>;
  before(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ces-cli-'));
    env = { CES_DATA_DIR: dataDir, CES_BOOTSTRAP: 'false' };
  });
  after(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  test('migrate, orgs, apps and revoke work on a fresh data dir', async () => {
    const first = (await ces(env, 'migrate')).applied as string[];
    assert.equal(first[0], '0001_initial');
    assert.deepEqual(first, [...first].sort(), 'migrations apply in number order');
    assert.deepEqual((await ces(env, 'migrate')).applied, [], 'migrations are applied once');

    const org = await ces(env, 'orgs', 'create', '--name', 'Acme');
    assert.match(org.organization_id, /^[0-9a-f-]{36}$/);
    const app = await ces(env, 'apps', 'create', '--name', 'backend', '--org', org.organization_id);
    assert.match(app.client_id, /^ces_ci_/);
    assert.match(app.client_secret, /^ces_cs_/);

    const listed = await ces(env, 'apps', 'list', '--org', org.organization_id);
    assert.equal(listed.length, 1);
    assert.equal(listed[0].client_id, app.client_id);
    assert.ok(!JSON.stringify(listed).includes(app.client_secret));
    assert.ok(!('secret_hash' in listed[0]));

    const deps = await open(env);
    try {
      const token = await issueApplicationToken(deps, {
        client_id: app.client_id,
        client_secret: app.client_secret,
      });
      assert.equal(token.organization_id, org.organization_id);
    } finally {
      await deps.close();
    }

    // Where the application's consent flows may send end users back to.
    const urls = await ces(
      env,
      'apps',
      'redirect-urls',
      '--client-id',
      app.client_id,
      '--add',
      'https://app.example.com/connected',
      '--add',
      'https://app.example.com/other',
    );
    assert.deepEqual(urls.redirect_urls, [
      'https://app.example.com/connected',
      'https://app.example.com/other',
    ]);
    const fewer = await ces(
      env,
      'apps',
      'redirect-urls',
      '--client-id',
      app.client_id,
      '--remove',
      'https://app.example.com/other',
    );
    assert.deepEqual(fewer.redirect_urls, ['https://app.example.com/connected']);
    await assert.rejects(
      ces(
        env,
        'apps',
        'redirect-urls',
        '--client-id',
        app.client_id,
        '--add',
        'https://app.example.com/x#frag',
      ),
    );

    await ces(env, 'apps', 'revoke', '--org', org.organization_id, app.client_id);
    const after = await open(env);
    try {
      await assert.rejects(
        issueApplicationToken(after, { client_id: app.client_id, client_secret: app.client_secret }),
        (err) => err instanceof DomainError && err.code === 'INVALID_CLIENT_CREDENTIALS',
      );
    } finally {
      await after.close();
    }
  });

  test('keys rotate re-encrypts every secret under a new key file key', async () => {
    const org = await ces(env, 'orgs', 'create', '--name', 'Rotating');
    const app = await ces(env, 'apps', 'create', '--name', 'r', '--org', org.organization_id);
    const secret = `ghp_rotate_${randomBytes(8).toString('hex')}`;
    const before = await open(env);
    const oldKeyId = before.vault.activeKeyId;
    const id = await plantConnector(before, org.organization_id, org.default_workspace_id, secret);
    await before.close();

    const result = await ces(env, 'keys', 'rotate');
    assert.notEqual(result.keyId, oldKeyId);
    assert.ok(result.connectors >= 1);
    assert.equal(result.serverSecrets, 3);
    assert.deepEqual(result.retired_key_ids, [oldKeyId]);
    const keyFile = fs.readFileSync(path.join(dataDir, 'master.key'), 'utf8');
    assert.equal(keyFile.split('\n').filter((l) => l && !l.startsWith('#')).length, 1, 'the old key is gone');

    const afterRotate = await open(env);
    try {
      assert.equal(afterRotate.vault.activeKeyId, result.keyId);
      const stored = await afterRotate.store.connectors.getCredentials(org.organization_id, id);
      assert.equal(stored?.key_id, result.keyId);
      assert.ok(afterRotate.vault.decrypt(stored!, connectorAad(org.organization_id, id)).includes(secret));
      // Server secrets were re-encrypted, not regenerated: the client secret issued before still works.
      const token = await issueApplicationToken(afterRotate, {
        client_id: app.client_id,
        client_secret: app.client_secret,
      });
      assert.equal(token.organization_id, org.organization_id);
    } finally {
      await afterRotate.close();
    }
  });

  test('with CES_MASTER_KEY, rotate moves everything to the first key and a missing key fails start-up clearly', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ces-cli-env-'));
    const oldKey = randomBytes(32).toString('base64');
    const newKey = randomBytes(32).toString('base64');
    const envOld = { CES_DATA_DIR: dir, CES_BOOTSTRAP: 'false', CES_MASTER_KEY: oldKey };
    try {
      const org = await ces(envOld, 'orgs', 'create', '--name', 'EnvKeys');
      assert.ok(
        !fs.existsSync(path.join(dir, 'master.key')),
        'no key file when the key comes from the environment',
      );
      const deps = await open(envOld);
      const id = await plantConnector(deps, org.organization_id, org.default_workspace_id, 'ghp_env_secret');
      await deps.close();

      const rotated = await ces({ ...envOld, CES_MASTER_KEY: `${newKey},${oldKey}` }, 'keys', 'rotate');
      assert.ok(rotated.connectors >= 1);

      const onlyNew = await open({ ...envOld, CES_MASTER_KEY: newKey });
      try {
        const stored = await onlyNew.store.connectors.getCredentials(org.organization_id, id);
        assert.ok(
          onlyNew.vault.decrypt(stored!, connectorAad(org.organization_id, id)).includes('ghp_env_secret'),
        );
      } finally {
        await onlyNew.close();
      }
      await assert.rejects(
        open({ ...envOld, CES_MASTER_KEY: randomBytes(32).toString('base64') }),
        /encrypted with master key/,
      );
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
