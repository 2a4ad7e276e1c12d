// The request path's writes on a SQLite file are copied from the WAL into the database file by the Context
// Store writer thread, shortly after they commit, rather than by SQLite at the end of a commit (which made a
// request's write wait for the copy).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Store } from '../../src/store/port.ts';
import { openSqliteStore } from '../../src/store/sqlite/index.ts';
import { newOrg } from '../contract/fixtures.ts';

let dir: string;
let file: string;
let store: Store;

before(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ces-wal-'));
  file = path.join(dir, 'ces.db');
  ({ store } = await openSqliteStore({ file, migrate: true }));
  // The migrations' own writes are copied first: what follows is only the writes below.
  await sleep(1500);
});
after(async () => {
  await store?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

test('writes of the request path reach the database file within seconds, checkpointed off the request path', async () => {
  const before = fs.statSync(file).size;
  // Far below SQLite's own threshold (1,000 pages): without the writer thread's checkpoint they would stay in
  // the WAL.
  for (let i = 0; i < 200; i++) await newOrg(store, `Organization ${i} ${'x'.repeat(400)}`);
  const deadline = Date.now() + 10_000;
  while (fs.statSync(file).size === before && Date.now() < deadline) await sleep(50);
  assert.ok(fs.statSync(file).size > before, 'the WAL was copied into the database file');
  assert.equal((await store.organizations.get(await newOrg(store, 'After')))?.name, 'After');
});
