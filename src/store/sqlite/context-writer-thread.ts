/**
 * The Context Store writer thread (see context-writer.ts): its own connection to the database file, one
 * request at a time, in the order they were sent.
 */
import { type MessagePort, parentPort, receiveMessageOnPort, workerData } from 'node:worker_threads';
import { isDomainError } from '../../errors.ts';
import { openSqliteFile } from './connection.ts';
import { CHECKPOINTED_AFTER, WRITE_OPS, type WriterReply, type WriterRequest } from './context-writer.ts';
import { ContextStoreWrites, type PageWrite } from './context-writes.ts';
import type { DecodedList } from './record-rows.ts';
import { nameThread } from './thread-name.ts';
import { WriteGate } from './write-gate.ts';

const port = parentPort;
if (!port) throw new Error('context-writer-thread runs only as a worker thread');
const data = workerData as { file: string; gate: Int32Array; name: string };
nameThread(data.name);
const db = openSqliteFile(data.file);
// This connection writes most of the WAL, and copies it into the database itself after its writes (at most once
// a second, checkpointSoon below), outside the write gate: a passive checkpoint lets writers go on. Left to
// SQLite, the checkpoint ran at the end of a commit, while the request path's writes waited for the lock (tens of
// milliseconds at a backfill's WAL sizes). The request path asks for one after its writes (op `checkpoint`,
// wal.ts).
db.pragma('wal_autocheckpoint = 0');
const gate = WriteGate.from(data.gate);
// Each transaction waits for its turn at the write gate: request-path writes go first.
const writes = new ContextStoreWrites(
  db,
  (transaction) => gate.run(transaction),
  () => gate.wanted(),
);

const ops = new Set<string>(WRITE_OPS);

/**
 * A checkpoint copies every page the WAL holds that the database file lacks; a backfill's commits (a few MB
 * each, several a second) change many of the same pages (the B-trees' inner pages, the full-text segments), so
 * the writer checkpoints at most once a CHECKPOINT_EVERY_MS, the last writes' a CHECKPOINT_EVERY_MS after the one
 * before. A read of the WAL stays short meanwhile: the WAL grows by at most a second of writes.
 */
const CHECKPOINT_EVERY_MS = 1000;
let lastCheckpoint = 0;
let trailing: ReturnType<typeof setTimeout> | undefined;
function checkpointNow() {
  trailing = undefined;
  lastCheckpoint = Date.now();
  // While batches come, the WAL is only copied (wal.ts): the request path's side empties it once they stop.
  writes.checkpoint();
}
function checkpointSoon() {
  const wait = lastCheckpoint + CHECKPOINT_EVERY_MS - Date.now();
  if (wait <= 0) {
    clearTimeout(trailing);
    checkpointNow();
  } else trailing ??= setTimeout(checkpointNow, wait);
}

/**
 * Rows travel between the decoder thread and the writer thread on a channel of their own, one per page, never
 * through the request path's thread (which would deserialise and serialise them again, and collect them):
 * `decode` given a port posts the page's rows there and answers without them; `commitPage` given the
 * pages' ports takes their rows from them. The decoder posts before it answers, and the writer is sent the
 * ports only after that answer, so the rows are there to take.
 */
function run(request: WriterRequest, fn: (arg: unknown) => unknown): unknown {
  const ports = request.ports ?? [];
  if (request.op === 'decode' && ports.length === 1) {
    const port = ports[0] as MessagePort;
    const decoded = fn(request.arg) as DecodedList;
    port.postMessage(decoded.rows);
    port.close();
    // No rows in the answer: they wait in the port.
    return decoded.high === undefined ? { rows: [] } : { rows: [], high: decoded.high };
  }
  if (request.op === 'commitPage' && ports.length > 0) {
    const page = request.arg as PageWrite;
    const rows: unknown[][] = [];
    for (const port of ports) {
      const got = receiveMessageOnPort(port);
      port.close();
      if (!got) throw new Error('a page to write had no rows waiting');
      for (const row of got.message as unknown[][]) rows.push(row);
    }
    return fn({ ...page, rows });
  }
  return fn(request.arg);
}

port.on('message', (request: WriterRequest) => {
  if (request.op === 'close') {
    clearTimeout(trailing);
    db.close();
    port.postMessage({ id: request.id, ok: true, value: undefined } satisfies WriterReply);
    port.close();
    return;
  }
  let reply: WriterReply;
  try {
    if (!ops.has(request.op)) throw new Error(`unknown operation ${request.op}`);
    const fn = writes[request.op] as (arg: unknown) => unknown;
    reply = { id: request.id, ok: true, value: run(request, (arg) => fn.call(writes, arg)) };
  } catch (err) {
    // SQLite's messages name tables and constraints, never bound values: safe to pass on; ours name no record.
    const message = err instanceof Error ? err.message : String(err);
    reply = { id: request.id, ok: false, message, ...(isDomainError(err) ? { code: err.code } : {}) };
  }
  port.postMessage(reply);
  if (CHECKPOINTED_AFTER.has(request.op)) checkpointSoon();
});
