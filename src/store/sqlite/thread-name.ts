/**
 * Names the calling OS thread, so that `top -H`, `ps -L` and per-thread CPU figures (bench/context-store.ts)
 * tell ces's threads apart: every thread of a Node process is otherwise called `node`. Linux only (a thread may
 * rename itself through /proc/thread-self/comm, 15 bytes at most); elsewhere, or where /proc is not writable,
 * the thread keeps its name. Synchronous on purpose: an asynchronous write would run on a libuv pool thread and
 * rename that one instead.
 */
import { writeFileSync } from 'node:fs';

export const THREAD_NAME_MAX_BYTES = 15;

/** The names of the SQLite store's threads. */
export const THREAD_NAMES = {
  /** writes the Context Store's index (context-writer-thread.ts) */
  writer: 'ces-cs-writer',
  /** parses pages of records given as bytes into index rows (the same thread code) */
  decoder: 'ces-cs-decoder',
  /** runs searches (search-reader-thread.ts) */
  search: 'ces-search',
} as const;

export function nameThread(name: string): void {
  if (process.platform !== 'linux') return;
  if (Buffer.byteLength(name) > THREAD_NAME_MAX_BYTES) throw new Error(`thread name ${name} is too long`);
  try {
    writeFileSync('/proc/thread-self/comm', name);
  } catch {
    // A name is an aid to whoever watches the process, never needed to run it.
  }
}
