import { type Compilable, CompiledQuery, type Kysely } from 'kysely';
import type { Database } from './schema.ts';

/**
 * A query Kysely builds and compiles once, then runs with each call's values: the SQL text is kept, and the
 * compiled parameters that were the sentinels handed to `build` are replaced by the call's arguments. Building and
 * compiling cost about as much as running a keyed lookup on SQLite, and the hottest lookups (the connector an
 * execute runs, the application a token names) run on every request.
 */
export class PreparedQuery<Row, Args extends string[]> {
  private compiled: { sql: string; slots: Array<number | { value: unknown }> } | undefined;

  constructor(
    private readonly arity: Args['length'],
    private readonly build: (...args: Args) => Compilable<Row>,
  ) {}

  /** The first row, run on `db` (the store's connection or transaction). */
  async first(db: Kysely<Database>, ...args: Args): Promise<Row | undefined> {
    const { sql, slots } = this.compile();
    const parameters = slots.map((slot) => (typeof slot === 'number' ? args[slot] : slot.value));
    const result = await db.executeQuery<Row>(CompiledQuery.raw(sql, parameters));
    return result.rows[0];
  }

  private compile() {
    if (this.compiled) return this.compiled;
    const sentinels = Array.from({ length: this.arity }, (_, i) => `\u0000ces-prepared-${i}\u0000`) as Args;
    const query = this.build(...sentinels).compile();
    const slots = query.parameters.map((p) => {
      const i = sentinels.indexOf(p as string);
      return i >= 0 ? i : { value: p };
    });
    for (let i = 0; i < this.arity; i++)
      if (!slots.includes(i))
        throw new Error(`prepared query: argument ${i} is not a parameter of ${query.sql}`);
    this.compiled = { sql: query.sql, slots };
    return this.compiled;
  }
}
