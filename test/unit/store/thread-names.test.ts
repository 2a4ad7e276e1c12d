// ces-test: sqlite-only
// The SQLite store's threads name themselves, so that `top -H`, `ps -L` and the backfill bench's CPU per thread
// tell them apart (every thread of a Node process is otherwise `node`).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { ThreadContextWriter } from '../../../src/store/sqlite/context-writer.ts';
import { openSqliteStore } from '../../../src/store/sqlite/index.ts';
import { ThreadSearchReaders } from '../../../src/store/sqlite/search-readers.ts';
import { nameThread, THREAD_NAMES } from '../../../src/store/sqlite/thread-name.ts';
import { WriteGate } from '../../../src/store/sqlite/write-gate.ts';

const linux = process.platform === 'linux';

function threadNames(): string[] {
  return fs.readdirSync('/proc/self/task').flatMap((tid) => {
    try {
      return [fs.readFileSync(`/proc/self/task/${tid}/comm`, 'utf8').trim()];
    } catch {
      return []; // ended between the listing and the read
    }
  });
}

let dir: string;
let file: string;

before(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ces-threads-'));
  file = path.join(dir, 'ces.db');
  const { store } = await openSqliteStore({ file, migrate: true });
  await store.close();
});
after(() => fs.rmSync(dir, { recursive: true, force: true }));

test(
  'the Context Store writer and decoder threads and the search readers are named',
  { skip: !linux },
  async () => {
    const before = threadNames();
    for (const name of Object.values(THREAD_NAMES))
      assert.ok(!before.includes(name), `${name} before any thread`);
    const writer = new ThreadContextWriter(file, WriteGate.create(), THREAD_NAMES.writer);
    const decoder = new ThreadContextWriter(file, WriteGate.create(), THREAD_NAMES.decoder);
    const readers = new ThreadSearchReaders(file, { timeoutMs: 1000, threads: 1 });
    try {
      // Each thread starts at its first call.
      await writer.run('checkpoint', undefined);
      await decoder.run('checkpoint', undefined);
      const rows = await readers.run({
        organizationId: 'org',
        connectorId: 'none',
        connectorKey: 1,
        sql: 'SELECT 1 AS rid, ? AS data',
        params: ['{}'],
      });
      assert.deepEqual(rows, [], 'no connector has key 1: the reader answers nothing');
      const names = threadNames();
      for (const name of Object.values(THREAD_NAMES)) {
        assert.equal(
          names.filter((n) => n === name).length,
          1,
          `one thread named ${name} in ${names.join(', ')}`,
        );
      }
    } finally {
      await Promise.all([writer.close(), decoder.close(), readers.close()]);
    }
  },
);

test('a thread name longer than Linux keeps is refused, not cut', () => {
  assert.throws(() => nameThread('ces-a-name-too-long'), /too long/);
});
