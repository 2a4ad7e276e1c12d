/**
 * A search reader thread (see search-readers.ts): its own read-only connection to the database file, one
 * search at a time. A search past its budget stops inside SQLite (search-budget.ts) and is answered as such,
 * so when the main thread hears of it, this thread is already free.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { SearchBudgetExceeded } from './search-budget.ts';
import { openSqliteReader, SearchReader } from './search-reader.ts';
import type { ReaderReply, ReaderRequest } from './search-readers.ts';
import { nameThread, THREAD_NAMES } from './thread-name.ts';

const port = parentPort;
if (!port) throw new Error('search-reader-thread runs only as a worker thread');
const { file } = workerData as { file: string };
nameThread(THREAD_NAMES.search);
let db = openSqliteReader(file);
let reader = new SearchReader(db);

port.on('message', (request: ReaderRequest) => {
  switch (request.op) {
    case 'refresh':
      // Planner statistics gathered on another connection reach this one only with a new connection (a
      // read-only one cannot reload them with ANALYZE).
      db.close();
      db = openSqliteReader(file);
      reader = new SearchReader(db);
      return;
    case 'close':
      db.close();
      port.postMessage({ id: request.id, ok: true, rows: [] } satisfies ReaderReply);
      port.close();
      return;
    case 'search': {
      let reply: ReaderReply;
      // The search's own run time, for its cost estimate: not the thread's start nor a refresh before it.
      const t0 = performance.now();
      try {
        const rows = reader.run(request.job, request.budgetMs);
        reply = { id: request.id, ok: true, rows, ms: performance.now() - t0 };
      } catch (err) {
        const ms = performance.now() - t0;
        reply =
          err instanceof SearchBudgetExceeded
            ? { id: request.id, ok: false, timeout: true, message: err.message, ms }
            : // SQLite's messages name tables and columns, never bound values: safe to pass on.
              {
                id: request.id,
                ok: false,
                timeout: false,
                message: err instanceof Error ? err.message : String(err),
                ms,
              };
      }
      port.postMessage(reply);
    }
  }
});
