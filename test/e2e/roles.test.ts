// `ces serve --role`: a worker process serves no API (404 in the one error body) but answers /healthz; an
// unknown role stops start-up with a message.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { call, startServer, stop } from '../helpers/server-process.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');

test('serve --role worker answers /healthz and nothing of the API', async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ces-role-'));
  const server = await startServer({ CES_DATA_DIR: dataDir }, ['serve', '--role', 'worker']);
  try {
    assert.match(server.stdout(), /"role":"worker"/);
    const health = await call(server.url, 'GET', '/healthz');
    assert.equal(health.status, 200);
    assert.equal(health.json.role, 'worker');
    const api = await call(server.url, 'POST', '/api/v1/account/applications/token', undefined, {
      client_id: 'x',
      client_secret: 'y',
    });
    assert.equal(api.status, 404);
    assert.equal(api.json.code, 'NOT_FOUND');
    assert.equal(typeof api.json.request_id, 'string');
    assert.deepEqual(api.json.errors, []);
  } finally {
    await stop(server);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});

test('an unknown role stops start-up', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ces-role-'));
  try {
    const run = spawnSync(process.execPath, [path.join(ROOT, 'bin/ces.js'), 'serve', '--role', 'boss'], {
      cwd: ROOT,
      env: { ...process.env, CES_DATA_DIR: dataDir },
      encoding: 'utf8',
    });
    assert.equal(run.status, 2);
    assert.match(run.stderr, /CES_ROLE must be all, api or worker/);
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});
