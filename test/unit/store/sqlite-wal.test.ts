// ces-test: sqlite-only
// The SQLite store keeps its WAL short under back-to-back writes of the request path (src/store/sqlite/wal.ts):
// the WAL's file is measured, as an operator's `ls -l` would see it.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import type BetterSqlite3 from 'better-sqlite3';
import { openSqliteFile } from '../../../src/store/sqlite/connection.ts';
import { openSqliteStore } from '../../../src/store/sqlite/index.ts';
import {
  checkpointWal,
  WAL_HOLD_BYTES,
  WAL_RESTART_BYTES,
  type WalCheckpointResult,
  WalCheckpoints,
} from '../../../src/store/sqlite/wal.ts';
import { newOrg, newWorkspace } from '../../contract/fixtures.ts';

const dirs: string[] = [];
after(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});
function tempFile(name: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ces-wal-'));
  dirs.push(dir);
  return path.join(dir, name);
}
const walSize = (file: string) => fs.statSync(`${file}-wal`, { throwIfNoEntry: false })?.size ?? 0;
const MiB = 1024 * 1024;

test('1,500 back-to-back request-path writes keep the WAL file under a few MB', async () => {
  const file = tempFile('ces.db');
  const { store } = await openSqliteStore({ file, migrate: true });
  try {
    const org = await newOrg(store);
    let largest = 0;
    for (let i = 0; i < 1500; i++) {
      await newWorkspace(store, org, `ws-${i}`);
      largest = Math.max(largest, walSize(file));
    }
    assert.equal(await store.workspaces.count(org), 1500);
    // Each create appends ~52 KB of frames (16 KiB pages); left alone the WAL grew to ~75 MB here. A write waits
    // for the checkpoint it asked for once the WAL is past WAL_HOLD_BYTES, so it passes that by one write at most.
    assert.ok(largest > 0, 'the writes went through the WAL');
    assert.ok(
      largest <= WAL_HOLD_BYTES + MiB,
      `the WAL reached ${(largest / MiB).toFixed(1)} MiB, past ${(WAL_HOLD_BYTES / MiB).toFixed(0)} MiB + 1 MiB`,
    );
  } finally {
    await store.close();
  }
});

/** A connection with a table of `count` rows of ~16 KB each, written in one transaction: ~`count` WAL frames. */
function fill(db: BetterSqlite3.Database, count: number) {
  db.exec('CREATE TABLE IF NOT EXISTS t (x TEXT)');
  const insert = db.prepare('INSERT INTO t VALUES (?)');
  db.transaction(() => {
    for (let i = 0; i < count; i++) insert.run(`${i}`.padEnd(16000, 'x'));
  })();
}

function twoConnections() {
  const file = tempFile('wal.db');
  const writer = openSqliteFile(file);
  const other = openSqliteFile(file);
  for (const db of [writer, other]) db.pragma('wal_autocheckpoint = 0');
  return {
    file,
    writer,
    other,
    close: () => {
      writer.close();
      other.close();
    },
  };
}

test('a WAL that SQLite starts over by itself is cut back to the limit on disk', () => {
  const { file, writer, other, close } = twoConnections();
  try {
    fill(writer, 600);
    assert.ok(walSize(file) > 2 * WAL_RESTART_BYTES, 'the transaction went to the WAL');
    // Every frame copied while nothing else is written: the next write starts the WAL over.
    const [row] = other.pragma('wal_checkpoint(PASSIVE)') as Array<{ log: number; checkpointed: number }>;
    assert.equal(row?.checkpointed, row?.log);
    writer.prepare('INSERT INTO t VALUES (?)').run('one more');
    assert.ok(walSize(file) <= WAL_RESTART_BYTES, `the WAL file kept ${walSize(file)} bytes`);
  } finally {
    close();
  }
});

test("the writer thread's checkpoint empties a long WAL inside the write gate, and copies a short one beside writes", () => {
  const { file, writer, other, close } = twoConnections();
  try {
    let gated = 0;
    const exclusive = <T>(transaction: () => T): T => {
      gated++;
      return transaction();
    };
    fill(writer, 40);
    assert.ok(walSize(file) < WAL_RESTART_BYTES);
    assert.deepEqual(checkpointWal(other, exclusive), { blocked: false });
    assert.equal(gated, 0, 'a short WAL is copied without holding request-path writes');

    fill(writer, 600);
    assert.deepEqual(checkpointWal(other, exclusive), { blocked: false });
    assert.equal(gated, 1);
    assert.equal(walSize(file), 0, 'the long WAL was emptied');
    assert.equal((writer.prepare('SELECT count(*) AS n FROM t').get() as { n: number }).n, 640);
  } finally {
    close();
  }
});

test('a reader on an older snapshot leaves the WAL as it is, without the checkpoint waiting for it', () => {
  const { file, writer, other, close } = twoConnections();
  const reader = openSqliteFile(file);
  try {
    fill(writer, 10);
    reader.exec('BEGIN');
    reader.prepare('SELECT count(*) FROM t').get();
    fill(writer, 600);
    const before = walSize(file);
    assert.deepEqual(
      checkpointWal(other, (transaction) => transaction()),
      { blocked: true },
    );
    assert.equal(walSize(file), before);
    assert.equal(
      other.pragma('busy_timeout', { simple: true }),
      5000,
      'the connection waits for locks again',
    );
    reader.exec('COMMIT');
    assert.deepEqual(
      checkpointWal(other, (transaction) => transaction()),
      { blocked: false },
    );
    assert.equal(walSize(file), 0);
  } finally {
    reader.close();
    close();
  }
});

/** WalCheckpoints over a stand-in WAL file of `bytes` and a checkpoint that ends when the test says. */
function scheduler(bytes: number, writerBusy: boolean) {
  const walFile = tempFile('x.db-wal');
  fs.writeFileSync(walFile, Buffer.alloc(bytes));
  const asked: Array<(result: WalCheckpointResult) => void> = [];
  const wal = new WalCheckpoints({
    walFile,
    checkpoint: () => new Promise((resolve) => asked.push(resolve)),
    writerBusy: () => writerBusy,
    // Never due within a test (the timer does not keep the process alive).
    quietMs: 3_600_000,
  });
  return { walFile, asked, wal };
}

test('past the limit a write asks for a checkpoint at once, and past the hold it waits for it', async () => {
  const { walFile, asked, wal } = scheduler(WAL_RESTART_BYTES - 1, false);
  wal.wrote();
  assert.equal(asked.length, 0, 'a short WAL waits for a quiet second');
  fs.writeFileSync(walFile, Buffer.alloc(WAL_RESTART_BYTES + 1));
  wal.wrote();
  assert.equal(asked.length, 1);
  wal.wrote();
  assert.equal(asked.length, 1, 'one checkpoint at a time');
  assert.equal(wal.room(), undefined, 'below the hold, writes go on during the checkpoint');

  fs.writeFileSync(walFile, Buffer.alloc(WAL_HOLD_BYTES + 1));
  const room = wal.room();
  assert.ok(room, 'past the hold, a write waits');
  let waited = true;
  void room.then(() => {
    waited = false;
  });
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(waited, true);
  fs.writeFileSync(walFile, Buffer.alloc(0));
  asked[0]?.({ blocked: false });
  await room;
  assert.equal(wal.room(), undefined);
});

test("while the writer thread has a backfill's batches to write, request-path writes neither ask for a checkpoint at once nor wait", () => {
  const { asked, wal } = scheduler(WAL_HOLD_BYTES + 1, true);
  wal.wrote();
  assert.equal(
    asked.length,
    0,
    'a backfill checkpoints its own writes; this one would only queue behind them',
  );
  assert.equal(wal.room(), undefined);
});

test('a WAL past the limit again after its checkpoint is checkpointed again at once', async () => {
  const { asked, wal } = scheduler(WAL_RESTART_BYTES + 1, false);
  wal.wrote();
  wal.wrote();
  asked[0]?.({ blocked: false });
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(asked.length, 2);
});

test('after a checkpoint a reader kept from starting the WAL over, the next one waits for a quiet second', async () => {
  const { asked, wal } = scheduler(WAL_RESTART_BYTES + 1, false);
  wal.wrote();
  assert.equal(asked.length, 1);
  wal.wrote();
  asked[0]?.({ blocked: true });
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(asked.length, 1, 'trying again at once would find the reader still there');
  wal.wrote();
  assert.equal(asked.length, 1);
});
