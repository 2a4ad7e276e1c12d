/**
 * The Context Store writer thread (see context-writer.ts): its own connection to the database file, one
 * request at a time, in the order they were sent.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { isDomainError } from '../../core/errors.ts';
import { openSqliteFile } from './connection.ts';
import { WRITE_OPS, type WriterReply, type WriterRequest } from './context-writer.ts';
import { ContextStoreWrites } from './context-writes.ts';
import { WriteGate } from './write-gate.ts';

const port = parentPort;
if (!port) throw new Error('context-writer-thread runs only as a worker thread');
const data = workerData as { file: string; gate: Int32Array };
const db = openSqliteFile(data.file);
// This connection writes most of the WAL, and copies it into the database itself after each write, outside the
// write gate: a passive checkpoint lets writers go on. Left to SQLite, the checkpoint ran at the end of a
// commit, while the request path's writes waited for the lock (tens of milliseconds at a backfill's WAL sizes).
// The request path's connection asks for one after its writes (op `checkpoint`).
db.pragma('wal_autocheckpoint = 0');
const CHECKPOINT_AFTER = new Set<string>(['commitPage', 'finishPass', 'dropConnector']);
const gate = WriteGate.from(data.gate);
// Each transaction waits for its turn at the write gate: request-path writes go first.
const writes = new ContextStoreWrites(
  db,
  (transaction) => gate.run(transaction),
  () => gate.wanted(),
);

const ops = new Set<string>(WRITE_OPS);

port.on('message', (request: WriterRequest) => {
  if (request.op === 'close') {
    db.close();
    port.postMessage({ id: request.id, ok: true, value: undefined } satisfies WriterReply);
    port.close();
    return;
  }
  let reply: WriterReply;
  try {
    if (!ops.has(request.op)) throw new Error(`unknown operation ${request.op}`);
    const fn = writes[request.op] as (arg: unknown) => unknown;
    reply = { id: request.id, ok: true, value: fn.call(writes, request.arg) };
  } catch (err) {
    // SQLite's messages name tables and constraints, never bound values: safe to pass on; ours name no record.
    const message = err instanceof Error ? err.message : String(err);
    reply = { id: request.id, ok: false, message, ...(isDomainError(err) ? { code: err.code } : {}) };
  }
  port.postMessage(reply);
  if (CHECKPOINT_AFTER.has(request.op)) writes.checkpoint();
});
