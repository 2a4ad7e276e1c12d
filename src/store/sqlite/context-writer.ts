/**
 * Where the Context Store's writes run. A backfill writes thousands of records a second; on the request
 * path's thread those writes (SQLite B-tree and full-text work, ~80 µs a record) would take turns with HTTP
 * requests and with the sync's own fetching and parsing. For a database file they run instead on a thread of
 * their own with its own connection (`ThreadContextWriter`), one at a time in the order sent: WAL keeps
 * readers on the main connection unblocked, and the write gate (write-gate.ts) orders the two writers. All of
 * the Context Store's writes go there, bookkeeping included, so the sync loop never waits for the lock on the
 * main thread. An in-memory database can't be opened twice, so there the same code runs on the main
 * connection (`LocalContextWriter`).
 */
import { type MessagePort, Worker } from 'node:worker_threads';
import type BetterSqlite3 from 'better-sqlite3';
import type { Kysely } from 'kysely';
import { DomainError, type ErrorCode } from '../../errors.ts';
import type { Database } from '../schema.ts';
import { ContextStoreWrites } from './context-writes.ts';
import type { WriteGate } from './write-gate.ts';

/** The methods of ContextStoreWrites, each called with its one argument. */
export const WRITE_OPS = [
  'initConnector',
  'restartConnector',
  'claim',
  'saveCheckpoint',
  'release',
  'releaseOwner',
  'dropConnector',
  'commitPage',
  'decode',
  'finishPass',
  'forgetStatements',
  'stats',
  'checkpoint',
] as const;
export type WriteOp = (typeof WRITE_OPS)[number];
/**
 * The batches of writes (a backfill's pages, a pass's end with its reconcile, a connector's removal) after which
 * the writer thread checkpoints the WAL by itself (context-writer-thread.ts).
 */
export const CHECKPOINTED_AFTER: ReadonlySet<string> = new Set<WriteOp>([
  'commitPage',
  'finishPass',
  'dropConnector',
]);
export type WriteArg<K extends WriteOp> = Parameters<ContextStoreWrites[K]>[0];
export type WriteResult<K extends WriteOp> = ReturnType<ContextStoreWrites[K]>;

export interface ContextWriter {
  /**
   * `ports` (a thread only): for `decode`, one port the decoded rows are posted to instead of being answered
   * (the answer's rows are empty); for `commitPage`, the ports of the pages whose rows it writes, in order.
   * `move` (a thread only): buffers of `arg` that go to the thread instead of being copied; from the call on
   * they are empty (detached) here, so nothing here may read them, through any view, afterwards.
   */
  run<K extends WriteOp>(
    op: K,
    arg: WriteArg<K>,
    ports?: MessagePort[],
    move?: ArrayBuffer[],
  ): Promise<WriteResult<K>>;
  /** Runs on a thread of its own: rows can go from one such writer to another without crossing this thread. */
  readonly threaded: boolean;
  /**
   * Some of what it was sent and has not answered yet is of CHECKPOINTED_AFTER: what is sent now waits behind
   * it, and a checkpoint follows it anyway.
   */
  readonly writingBatches: boolean;
  close(): Promise<void>;
}

/** The writes on the main connection, under Kysely's connection lock. */
export class LocalContextWriter implements ContextWriter {
  private readonly writes: ContextStoreWrites;
  readonly threaded = false;
  readonly writingBatches = false;

  constructor(
    raw: BetterSqlite3.Database,
    private readonly kysely: Kysely<Database>,
  ) {
    this.writes = new ContextStoreWrites(raw);
  }

  run<K extends WriteOp>(op: K, arg: WriteArg<K>): Promise<WriteResult<K>> {
    const fn = this.writes[op] as (a: WriteArg<K>) => WriteResult<K>;
    return this.kysely.connection().execute(async () => fn.call(this.writes, arg));
  }

  async close() {}
}

/** Messages to the writer thread, and its answers. */
export type WriterRequest = { id: number; op: WriteOp | 'close'; arg?: unknown; ports?: MessagePort[] };
export type WriterReply =
  | { id: number; ok: true; value: unknown }
  | {
      id: number;
      ok: false;
      message: string /** a DomainError's code (the provider's answer was bad) */;
      code?: ErrorCode;
    };

/**
 * The entry of a worker thread running the TypeScript module `moduleUrl` (given without its extension). The
 * sources run through tsx, whose loader does not reach worker threads on Node 20: such a thread registers it
 * itself before importing the module.
 */
export function workerEntry(moduleUrl: URL): URL {
  const isTs = import.meta.url.endsWith('.ts');
  const target = `${moduleUrl.href}${isTs ? '.ts' : '.js'}`;
  if (!isTs) return new URL(target);
  const api = import.meta.resolve('tsx/esm/api');
  const code = `const { register } = await import(${JSON.stringify(api)}); register(); await import(${JSON.stringify(target)});`;
  return new URL(`data:text/javascript,${encodeURIComponent(code)}`);
}

/** The writes on a thread of their own, started at the first write and stopped by close(). */
export class ThreadContextWriter implements ContextWriter {
  private worker: Worker | undefined;
  private nextId = 1;
  private closing = false;
  private readonly pending = new Map<
    number,
    { op: WriterRequest['op']; resolve: (v: unknown) => void; reject: (e: Error) => void }
  >();
  readonly threaded = true;

  get writingBatches(): boolean {
    for (const call of this.pending.values()) if (CHECKPOINTED_AFTER.has(call.op)) return true;
    return false;
  }

  constructor(
    private readonly file: string,
    private readonly gate: WriteGate,
    /** The thread's name, as `top -H` shows it (thread-name.ts). */
    private readonly name: string,
    /** Called as each call of CHECKPOINTED_AFTER settles. */
    private readonly batchDone?: () => void,
  ) {}

  private start(): Worker {
    const worker = new Worker(workerEntry(new URL('./context-writer-thread', import.meta.url)), {
      workerData: { file: this.file, gate: this.gate.cells, name: this.name },
    });
    worker.on('message', (reply: WriterReply) => {
      const call = this.pending.get(reply.id);
      if (!call) return;
      this.pending.delete(reply.id);
      if (reply.ok) call.resolve(reply.value);
      else if (reply.code) call.reject(new DomainError(reply.code, reply.message));
      else call.reject(new Error(`context store writer: ${reply.message}`));
    });
    const gone = (err: Error) => {
      if (this.worker === worker) this.worker = undefined;
      for (const call of this.pending.values()) call.reject(err);
      this.pending.clear();
    };
    worker.on('error', gone);
    worker.on('exit', (code) => gone(new Error(`context store writer thread exited (code ${code})`)));
    // An idle writer does not keep the process alive; a call in flight is awaited by its caller anyway.
    worker.unref();
    this.worker = worker;
    return worker;
  }

  private call<T>(
    op: WriterRequest['op'],
    arg?: unknown,
    ports?: MessagePort[],
    move?: ArrayBuffer[],
  ): Promise<T> {
    const worker = this.worker ?? this.start();
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { op, resolve: resolve as (v: unknown) => void, reject });
      worker.ref();
      const request: WriterRequest = ports?.length ? { id, op, arg, ports } : { id, op, arg };
      const transfer = [...(ports ?? []), ...(move ?? [])];
      if (transfer.length > 0) worker.postMessage(request, transfer);
      else worker.postMessage(request);
    }).finally(() => {
      if (CHECKPOINTED_AFTER.has(op)) this.batchDone?.();
      // Closing: stay referenced until the thread has exited, or the process could end before it has.
      if (this.pending.size === 0 && !this.closing) this.worker?.unref();
    });
  }

  async run<K extends WriteOp>(
    op: K,
    arg: WriteArg<K>,
    ports?: MessagePort[],
    move?: ArrayBuffer[],
  ): Promise<WriteResult<K>> {
    // No thread yet: nothing of its own to forget. Closing: closing the last connection checkpoints anyway.
    if (op === 'forgetStatements' && !this.worker) return undefined as WriteResult<K>;
    if (op === 'checkpoint' && this.closing) return undefined as WriteResult<K>;
    return this.call<WriteResult<K>>(op, arg, ports, move);
  }

  /** Lets the thread finish what it was given, close its connection and exit. */
  async close() {
    const worker = this.worker;
    if (!worker) return;
    const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    this.closing = true;
    await this.call<void>('close').catch(() => undefined);
    await exited;
  }
}
