// Two stores on one SQLite file, as the server and a `ces` command run beside it: what one writes, the other's
// changeVersion shows from the next turn of its event loop on, so what the server keeps in memory
// (src/core/read-cache.ts) is dropped.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import type { Store } from '../../src/store/port.ts';
import { openSqliteStore } from '../../src/store/sqlite/index.ts';
import { newApplication, newOrg, T1 } from './fixtures.ts';

let dir: string;
let server: Store;
let command: Store;

before(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ces-two-'));
  const file = path.join(dir, 'ces.db');
  ({ store: server } = await openSqliteStore({ file, migrate: true }));
  ({ store: command } = await openSqliteStore({ file, migrate: false }));
});
after(async () => {
  await command?.close();
  await server?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

test('a write on another connection to the file changes changeVersion from the next turn of the event loop', async () => {
  const org = await newOrg(server);
  const app = await newApplication(server, [org]);
  const v0 = server.changeVersion();
  assert.equal(await server.applications.isActiveInOrganization(app.id, org), true);
  assert.equal(server.changeVersion(), v0);

  assert.equal(await command.applications.revoke(org, app.id, T1), true);
  // The server looks once per turn of its event loop; its next request comes in a later turn.
  await new Promise((resolve) => setImmediate(resolve));
  assert.notEqual(server.changeVersion(), v0);
  assert.equal(await server.applications.isActiveInOrganization(app.id, org), false);
});
