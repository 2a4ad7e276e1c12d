/**
 * The PostgreSQL connection pool: every connection works in ces's schema (created if missing), in UTC, and
 * hands back 64-bit integers (counts, row ids) as numbers and JSONB as its text, as the SQLite adapter does.
 */
import pg from 'pg';
import { DomainError } from '../../errors.ts';

export interface PostgresTarget {
  /** postgres://user:password@host:port/database (any libpq-style URL pg accepts) */
  url: string;
  /** the schema holding ces's tables (a checked lower-case SQL name) */
  schema: string;
  /** connections at most (default 10) */
  max?: number;
}

const INT8 = 20;
const JSONB = 3802;

/** Counts and row ids fit in a double long before they reach 2^53; JSONB stays text (the port's `data`). */
const types = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === INT8) return (value: string) => Number(value);
    if (oid === JSONB) return (value: string) => value;
    return pg.types.getTypeParser(oid, format);
  },
};

/**
 * PostgreSQL text can't hold the NUL character (SQLite's can): a value with one is refused by the server
 * (22021), which must reach the client as the 4xx it is, not as a 500.
 */
function refusedText(err: unknown): unknown {
  const code = (err as { code?: unknown })?.code;
  if (code !== '22021' && code !== '22P05') return err;
  return new DomainError(
    'VALIDATION_ERROR',
    'A value contains a character the database cannot store or look up (such as NUL, \\u0000). Remove it and retry.',
  );
}

/** pg's client with server refusals of a value's characters turned into validation errors. */
class Client extends pg.Client {
  // biome-ignore lint/suspicious/noExplicitAny: pg's query has a dozen overloads; this only wraps its promise
  override query(...args: any[]): any {
    // biome-ignore lint/suspicious/noExplicitAny: as above
    const out = (super.query as (...a: any[]) => any)(...args);
    return out && typeof out.then === 'function'
      ? out.then(undefined, (err: unknown) => Promise.reject(refusedText(err)))
      : out;
  }
}

function reporting(finished: (client: object, text: string) => void): typeof Client {
  return class extends Client {
    // biome-ignore lint/suspicious/noExplicitAny: as Client's query
    override query(...args: any[]): any {
      const out = super.query(...args);
      const first = args[0] as string | { text?: unknown } | undefined;
      const text = typeof first === 'string' ? first : first?.text;
      if (typeof text !== 'string' || !out || typeof out.then !== 'function') return out;
      const done = () => finished(this, text);
      return out.then(
        (result: unknown) => {
          done();
          return result;
        },
        (err: unknown) => {
          done();
          return Promise.reject(err);
        },
      );
    }
  };
}

export function quoteSchema(schema: string): string {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) throw new Error(`refusing unsafe schema name ${schema}`);
  return `"${schema}"`;
}

/**
 * `finished` hears every statement a pool client completes (its text, and the client that ran it), whether it
 * succeeded or failed: the store counts its own writes that way (changes.ts).
 */
export async function openPool(
  target: PostgresTarget,
  finished?: (client: object, text: string) => void,
): Promise<pg.Pool> {
  const schema = quoteSchema(target.schema);
  const pool = new pg.Pool({
    connectionString: target.url,
    Client: finished ? reporting(finished) : Client,
    max: target.max ?? 10,
    types,
    // A connection that never answers fails the call instead of hanging it.
    connectionTimeoutMillis: 10_000,
    idleTimeoutMillis: 30_000,
    application_name: 'ces',
    // Settings of every session, sent as it starts (the name is checked, so it needs no quoting).
    options: `-c search_path=${target.schema} -c TimeZone=UTC`,
  });
  // An idle connection the server dropped (restart, failover) must not take the process down.
  pool.on('error', () => {});
  // A missing schema on the search path would make every later query fail: create it first.
  const first = await pool.connect();
  try {
    await first.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
  } catch (err) {
    // Two processes creating it at once: one wins, the other sees it exists.
    if ((err as { code?: string }).code !== '23505' && (err as { code?: string }).code !== '42P06') {
      first.release();
      await pool.end();
      throw err;
    }
  }
  first.release(true);
  return pool;
}
