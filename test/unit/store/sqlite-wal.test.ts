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
  type Timers,
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

/** Two connections to a new file (as the request path's and the writer thread's), neither checkpointing itself. */
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

/** An `exclusive` (the write gate's place) that counts its transactions. */
function countingGate() {
  const gate = {
    entered: 0,
    exclusive: <T>(transaction: () => T): T => {
      gate.entered++;
      return transaction();
    },
  };
  return gate;
}

test("the writer thread's checkpoint empties a long WAL inside the write gate, and copies a short one beside writes", () => {
  const { file, writer, other, close } = twoConnections();
  try {
    const gate = countingGate();
    fill(writer, 40);
    assert.ok(walSize(file) < WAL_RESTART_BYTES);
    assert.deepEqual(checkpointWal(other, gate.exclusive, true), { blocked: false });
    assert.equal(gate.entered, 0, 'a short WAL is copied without holding request-path writes');

    fill(writer, 600);
    assert.ok(walSize(file) > WAL_RESTART_BYTES);
    assert.deepEqual(checkpointWal(other, gate.exclusive, true), { blocked: false });
    assert.equal(gate.entered, 1);
    assert.equal(walSize(file), 0, 'the long WAL was emptied');
    assert.equal((writer.prepare('SELECT count(*) AS n FROM t').get() as { n: number }).n, 640);
  } finally {
    close();
  }
});

test("the checkpoint after a backfill's batches only copies the WAL, which the next write starts over", () => {
  const { file, writer, other, close } = twoConnections();
  try {
    const gate = countingGate();
    fill(writer, 600);
    const size = walSize(file);
    assert.deepEqual(checkpointWal(other, gate.exclusive, false), { blocked: false });
    assert.equal(gate.entered, 0, 'request-path writes are never held for it');
    fill(writer, 10);
    assert.equal(walSize(file), size, 'the next writes went to the start of the WAL, not its end');
  } finally {
    close();
  }
});

test('a reader on an older snapshot keeps the WAL from being emptied, and the checkpoint does not wait for it', () => {
  const { file, writer, other, close } = twoConnections();
  const reader = openSqliteFile(file);
  try {
    fill(writer, 10);
    reader.exec('BEGIN');
    reader.prepare('SELECT count(*) FROM t').get();
    fill(writer, 600);
    const before = walSize(file);
    assert.deepEqual(
      checkpointWal(other, (transaction) => transaction(), true),
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
      checkpointWal(other, (transaction) => transaction(), true),
      { blocked: false },
    );
    assert.equal(walSize(file), 0);
  } finally {
    reader.close();
    close();
  }
});

/** Timers that run when the test says. */
class TestTimers implements Timers {
  private readonly due = new Set<{ fn: () => void }>();
  after(fn: () => void): unknown {
    const timer = { fn };
    this.due.add(timer);
    return timer;
  }
  cancel(timer: unknown): void {
    this.due.delete(timer as { fn: () => void });
  }
  get pending(): number {
    return this.due.size;
  }
  runAll(): void {
    const timers = [...this.due];
    this.due.clear();
    for (const timer of timers) timer.fn();
  }
}

/** WalCheckpoints over a stand-in WAL file and checkpoints that end when the test says. */
function scheduler(bytes: number) {
  const walFile = tempFile('x.db-wal');
  const setWal = (size: number) => fs.writeFileSync(walFile, Buffer.alloc(size));
  setWal(bytes);
  const asked: Array<{ empty: boolean; end: (result: WalCheckpointResult) => Promise<void> }> = [];
  const timers = new TestTimers();
  const writer = { busy: false };
  const wal = new WalCheckpoints({
    walFile,
    checkpoint: (empty) =>
      new Promise((resolve) => {
        asked.push({
          empty,
          end: async (result) => {
            resolve(result);
            // The scheduler's own continuation runs first.
            await new Promise((r) => setImmediate(r));
          },
        });
      }),
    writerBusy: () => writer.busy,
    quietMs: 1000,
    timers,
  });
  return { setWal, asked, wal, timers, writer };
}

test('a short WAL is checkpointed a quiet second after a write; one past the limit at once, and emptied', async () => {
  const { setWal, asked, wal, timers } = scheduler(WAL_RESTART_BYTES - 1);
  wal.wrote();
  wal.wrote();
  assert.equal(asked.length, 0);
  assert.equal(timers.pending, 1);
  timers.runAll();
  assert.equal(asked.length, 1);
  await asked[0]?.end({ blocked: false });

  setWal(WAL_RESTART_BYTES + 1);
  wal.wrote();
  assert.equal(asked.length, 2);
  assert.equal(asked[1]?.empty, true);
  wal.wrote();
  assert.equal(asked.length, 2, 'one checkpoint at a time');
});

test('past the hold, a write waits for the checkpoint that empties the WAL', async () => {
  const { setWal, asked, wal } = scheduler(WAL_RESTART_BYTES + 1);
  wal.wrote();
  assert.equal(wal.room(), undefined, 'below the hold, writes go on during the checkpoint');
  setWal(WAL_HOLD_BYTES + 1);
  const room = wal.room();
  assert.ok(room, 'past the hold, a write waits');
  let waiting = true;
  void room.then(() => {
    waiting = false;
  });
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(waiting, true);
  setWal(0);
  await asked[0]?.end({ blocked: false });
  assert.equal(waiting, false);
  assert.equal(wal.room(), undefined);
});

test('a WAL past the limit again after its checkpoint is checkpointed again at once', async () => {
  const { asked, wal } = scheduler(WAL_RESTART_BYTES + 1);
  wal.wrote();
  wal.wrote();
  await asked[0]?.end({ blocked: false });
  assert.equal(asked.length, 2);
});

test('after a checkpoint a reader kept from emptying the WAL, the next one waits for a quiet second', async () => {
  const { asked, wal, timers } = scheduler(WAL_RESTART_BYTES + 1);
  wal.wrote();
  wal.wrote();
  await asked[0]?.end({ blocked: true });
  assert.equal(asked.length, 1, 'trying again at once would find the reader still there');
  wal.wrote();
  assert.equal(asked.length, 1);
  timers.runAll();
  assert.equal(asked.length, 2);
});

test("while a backfill's batches are written, request-path writes only have the WAL copied", async () => {
  const { asked, wal, timers, writer } = scheduler(WAL_HOLD_BYTES + 1);
  writer.busy = true;
  wal.wrote();
  assert.equal(
    asked.length,
    0,
    'the writer checkpoints after its batches; this one would only queue behind them',
  );
  assert.equal(wal.room(), undefined, 'and no write waits for it');
  timers.runAll();
  assert.equal(asked.length, 1);
  assert.equal(asked[0]?.empty, false, 'a quiet second after the write, copied only');
});

test("a batch of the writer thread's less than a quiet second ago counts as the backfill still writing", () => {
  const { asked, wal } = scheduler(WAL_HOLD_BYTES + 1);
  // Between two batches the writer thread may have none queued.
  wal.batchDone();
  wal.wrote();
  assert.equal(asked.length, 0);
  assert.equal(wal.room(), undefined);
});

test("a quiet second after the writer thread's last batch, the WAL it left is emptied", () => {
  const { asked, wal, timers } = scheduler(WAL_HOLD_BYTES + 1);
  wal.batchDone();
  wal.batchDone();
  assert.equal(timers.pending, 1, 'each batch puts it off');
  timers.runAll();
  assert.equal(asked.length, 1);
  assert.equal(asked[0]?.empty, true);
});
