/**
 * Opening the SQLite file: every connection to it (the request path's, and the Context Store writer thread's)
 * gets the same settings and SQL functions.
 */
import fs from 'node:fs';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { registerSearchFunctions } from './context-index.ts';

export function openSqliteFile(file: string): BetterSqlite3.Database {
  if (file !== ':memory:') fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const sqlite = new BetterSqlite3(file);
  // 16 KiB pages (set only while the file is still empty): a Context Store record (often 2–4 KB of JSON) fits
  // several to a page instead of one per 4 KiB page with the rest wasted.
  sqlite.pragma('page_size = 16384');
  // WAL lets readers run beside the one writer; busy_timeout makes a second writer (the Context Store writer
  // thread, a CLI command while the server runs) wait for the lock instead of failing at once.
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  // 64 MiB of page cache (the default is 2 MiB): keeping a large Context Store index's B-tree pages in memory
  // is what keeps a backfill's index maintenance from turning into disk reads.
  sqlite.pragma('cache_size = -65536');
  if (file !== ':memory:') fs.chmodSync(file, 0o600);
  registerSearchFunctions(sqlite);
  return sqlite;
}
