/**
 * Store.changeVersion on PostgreSQL. Another process's writes to the watched tables arrive as notifications:
 * triggers (migration 0005) notify CHANGE_CHANNEL when a writing transaction commits, and one connection per
 * process listens. This process's own writes are counted as its pool's clients finish them (a write outside a
 * transaction when it completes, one inside at its COMMIT or ROLLBACK), without waiting for its notification:
 * a client that changed a connector and calls again at once must be answered from the new row.
 *
 * While the listening connection is down (not yet connected, or lost and reconnecting every few seconds) every
 * call of changeVersion is a change, so nothing is answered from memory. Between another process's commit and
 * the arrival of its notification (normally well under a millisecond on one host), a read may still be answered
 * from what was true before.
 */
import pg from 'pg';
import { ChangeSignal } from '../kysely-store.ts';
import type { PostgresTarget } from './connection.ts';

export const CHANGE_CHANNEL = 'ces_changes';
/** What Store.changeVersion covers: the tables a request's authentication and an execute read. */
export const WATCHED_TABLES = [
  'organizations',
  'account_organizations',
  'applications',
  'workspaces',
  'connectors',
] as const;

/** Kysely quotes every table name it writes: `update "connectors" set …`. */
const WRITES_WATCHED = new RegExp(`"(?:${WATCHED_TABLES.join('|')})"`);
const RECONNECT_MS = 2000;

/**
 * Told when this process stops hearing other processes' changes (`listening` false, with the reason; reads are
 * then never answered from memory) and when it hears them again.
 */
export type ChangeFeedReport = (listening: boolean, reason?: string) => void;

/** Per pool client: it wrote a watched table in the transaction still open. */
const dirty = new WeakSet<object>();

export class PostgresChanges {
  readonly signal: ChangeSignal;
  private listener: pg.Client | undefined;
  private listening = false;
  private closed = false;
  private retry: NodeJS.Timeout | undefined;

  /** Listening lost after it worked, or the first attempt failed: reported once, until it is back. */
  private down = false;

  constructor(
    private readonly target: PostgresTarget,
    /** Told when the listening connection is lost (with the reason) and when it is back. */
    private readonly onFeed: ChangeFeedReport = () => undefined,
  ) {
    this.signal = new ChangeSignal({ watching: () => this.listening, close: () => this.close() });
  }

  /** A pool client finished a statement (whether it succeeded or not). */
  readonly finished = (client: object, text: string): void => {
    const head = text.trimStart().slice(0, 8).toLowerCase();
    if (head.startsWith('select')) return;
    if (WRITES_WATCHED.test(text)) {
      this.signal.bump();
      dirty.add(client);
    } else if ((head.startsWith('commit') || head.startsWith('rollback')) && dirty.delete(client)) {
      this.signal.bump();
    }
  };

  /** Connects the listening connection; when that fails, keeps retrying in the background. */
  async start(): Promise<void> {
    if (this.closed || this.listener) return;
    const client = new pg.Client({
      connectionString: this.target.url,
      application_name: 'ces-changes',
      connectionTimeoutMillis: 10_000,
    });
    this.listener = client;
    const lost = (err?: unknown) => {
      if (this.listener !== client) return;
      this.listening = false;
      if (!this.down && !this.closed) {
        this.down = true;
        this.onFeed(false, err instanceof Error ? err.message : 'the connection ended');
      }
      this.listener = undefined;
      client.end().catch(() => undefined);
      if (!this.closed) this.retry = setTimeout(() => void this.start(), RECONNECT_MS).unref();
    };
    client.on('error', lost);
    client.on('end', () => lost());
    // The payload is the schema written: other installations may share the database.
    client.on('notification', (message) => {
      if (message.payload === this.target.schema) this.signal.bump();
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANGE_CHANNEL}`);
      if (this.listener !== client) return;
      // What was read while nobody listened may be stale.
      this.signal.bump();
      this.listening = true;
      if (this.down) {
        this.down = false;
        this.onFeed(true);
      }
    } catch (err) {
      lost(err);
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    this.listening = false;
    if (this.retry) clearTimeout(this.retry);
    const client = this.listener;
    this.listener = undefined;
    await client?.end().catch(() => undefined);
  }
}
