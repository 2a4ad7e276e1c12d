/**
 * What several ces processes on one PostgreSQL share besides the data: locks held across processes (session
 * advisory locks, which the server frees when a process dies) and the proactive rate limits' token buckets
 * (one row per key, updated atomically on the database's clock).
 */
import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { DomainError } from '../../errors.ts';
import type { SharedConcurrencySlots, SharedRateBuckets } from '../port.ts';

/** How long a caller waits for a lock another process holds before giving up. */
const LOCK_WAIT_MS = 30_000;

/**
 * Locks are the schema's: advisory locks are the whole server's, and ces's data is one schema's, so two stores in
 * one database (deployments side by side) never wait for each other's.
 */
export function advisoryExclusive(pool: pg.Pool, schema: string) {
  return async <T>(name: string, fn: () => Promise<T>): Promise<T> => {
    const key = `${schema}:${name}`;
    const client = await pool.connect();
    let locked = false;
    try {
      await client.query(`SET lock_timeout = ${LOCK_WAIT_MS}`);
      try {
        await client.query('SELECT pg_advisory_lock(hashtextextended($1, 0))', [key]);
      } catch (err) {
        if ((err as { code?: string }).code !== '55P03') throw err;
        throw new DomainError(
          'SERVER_BUSY',
          `Another ces process has held this operation for ${LOCK_WAIT_MS / 1000} s; retry shortly.`,
          { retryAfter: 5 },
        );
      }
      locked = true;
      return await fn();
    } finally {
      let healthy = true;
      if (locked) {
        healthy = await client.query('SELECT pg_advisory_unlock(hashtextextended($1, 0))', [key]).then(
          () => true,
          () => false,
        );
      }
      // A connection whose unlock failed may still hold the lock: closing it frees the lock with it.
      client.release(!healthy);
    }
  };
}

/**
 * A bucket is `requests` tokens refilling at `requests / per_seconds`; tokens are reserved ahead (the level
 * may go negative) so callers queue in arrival order, each told at once how long to wait — the in-process
 * KeyedTokenBucket's rule, kept in one row per key for every process.
 */
export function sharedRateBuckets(pool: pg.Pool): SharedRateBuckets {
  return {
    async reserve(key, rate, maxWaitMs) {
      const perMs = rate.requests / (rate.per_seconds * 1000);
      // ces_take_token (migration 0001): the bucket's row locked, its level read on the database's clock.
      const r = await pool.query<{ granted: boolean; tokens: number }>(
        'SELECT granted, tokens FROM ces_take_token($1, $2, $3, $4)',
        [key, rate.requests, perMs, Math.max(0, maxWaitMs)],
      );
      const { granted, tokens } = r.rows[0]!;
      return { granted, waitMs: tokens >= 0 ? 0 : Math.ceil(-tokens / perMs) };
    },
    async observe(key, rate, share) {
      const perMs = rate.requests / (rate.per_seconds * 1000);
      // One statement, the row locked by the upsert, on the database's clock as ces_take_token: the level
      // refilled to now, then held to the share (tokens reserved ahead, a negative level, keep their turn).
      await pool.query(
        `INSERT INTO cs_rate_buckets AS b (key, tokens, at_ms)
           VALUES ($1, $2::float8 * $3::float8, extract(epoch FROM clock_timestamp()) * 1000)
         ON CONFLICT (key) DO UPDATE SET
           tokens = (SELECT LEAST(l, $2::float8 * $3::float8 + LEAST(0, l))
                     FROM (SELECT LEAST($2::float8, b.tokens + (GREATEST(b.at_ms, EXCLUDED.at_ms) - b.at_ms) * $4::float8) AS l) AS level),
           at_ms = GREATEST(b.at_ms, EXCLUDED.at_ms)`,
        [key, rate.requests, share, perMs],
      );
    },
  };
}

/**
 * A connector's concurrency limit for every process together: one row per held slot, taken by ces_take_slot
 * (migration 0001) under a per-key transaction lock, so of processes taking the last slot at once one gets it.
 */
export function sharedSlots(pool: pg.Pool): SharedConcurrencySlots {
  return {
    async tryAcquire(key, limit, holdMs) {
      const id = randomUUID();
      const r = await pool.query<{ taken: boolean }>('SELECT ces_take_slot($1, $2, $3, $4) AS taken', [
        key,
        limit,
        holdMs,
        id,
      ]);
      return r.rows[0]?.taken ? id : null;
    },
    async release(id) {
      await pool.query('DELETE FROM cs_slots WHERE id = $1', [id]);
    },
  };
}
