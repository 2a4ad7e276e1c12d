// A fictional connector type whose `issues` entity has a Context Store field of every type, ~20 hand-made
// records, and an in-memory database holding their index built with the production DDL.

import Database from 'better-sqlite3';
import type { ConnectorDefinition } from '../../../src/connectors/schema.ts';
import {
  columnValue,
  type EntityLayout,
  entityLayout,
  quoteIdent,
  recordKey,
} from '../../../src/context-store/layout.ts';
import { compileCount, compileSearch } from '../../../src/context-store/query.ts';
import {
  ftsFillSql,
  indexRowInsertSql,
  indexTableDdl,
  registerSearchFunctions,
} from '../../../src/store/sqlite/context-index.ts';
import { sqliteSearchDialect } from '../../../src/store/sqlite/search-dialect.ts';

export const definition: ConnectorDefinition = {
  id: '0b7e3c52-1f4e-4a39-9d0e-4c8f1a2b3c4d',
  slug: 'tracker',
  name: 'Tracker',
  icon_url: 'https://tracker.example/icon.svg',
  support_level: 'community',
  documentation_url: 'https://tracker.example/docs',
  base_url: 'https://api.tracker.example',
  credential_options: [
    {
      title: 'Token',
      description: 'An API token.',
      fields: { token: { type: 'string', title: 'Token', description: 'The token.', secret: true } },
      required: ['token'],
      auth: { type: 'bearer', token: '{token}' },
    },
  ],
  check: { method: 'GET', path: '/me' },
  replication_config: { type: 'object', properties: {} },
  entities: [
    {
      name: 'issues',
      description: 'Issues.',
      primary_key: ['id'],
      actions: { list: { description: 'List issues.', request: { method: 'GET', path: '/issues' } } },
      context_store: {
        fields: [
          { name: 'number', type: 'integer' },
          { name: 'title', type: 'string' },
          { name: 'body', type: 'text' },
          { name: 'state', type: 'string' },
          { name: 'score', type: 'number' },
          { name: 'locked', type: 'boolean' },
          { name: 'created_at', type: 'timestamp' },
          { name: 'user.login', type: 'string' },
          { name: 'tags', type: 'array', items: 'string' },
          {
            name: 'labels',
            type: 'array',
            properties: [
              { name: 'name', type: 'string' },
              { name: 'color', type: 'string' },
              { name: 'priority', type: 'integer' },
              { name: 'added_at', type: 'timestamp' },
              { name: 'default', type: 'boolean' },
            ],
          },
        ],
      },
    },
  ],
};

export const layout: EntityLayout = entityLayout(definition, definition.entities[0]!)!;

const routine = (id: number) => ({
  id,
  number: id,
  title: `Routine task ${id}`,
  body: `Routine maintenance number ${id}`,
  state: id % 2 === 1 ? 'open' : 'closed',
  score: id,
  locked: id % 3 === 0,
  created_at: `2024-04-${id}T00:00:00Z`,
  user: { login: `u${id % 3}` },
  tags: [],
  labels: [{ name: 'chore', priority: id }],
});

export const records: Record<string, unknown>[] = [
  {
    id: 1,
    number: 1,
    title: 'Login bug on Safari',
    body: 'Users cannot log in after the update',
    state: 'open',
    score: 3.5,
    locked: false,
    created_at: '2024-01-01T00:00:00Z',
    user: { login: 'alice' },
    tags: ['premium', 'web'],
    labels: [{ name: 'bug', color: 'red', priority: 1, added_at: '2024-01-02T00:00:00Z', default: true }],
  },
  {
    id: 2,
    number: 2,
    title: 'Bug when login fails',
    body: 'The login page shows a bug report',
    state: 'closed',
    score: 1,
    locked: true,
    created_at: '2024-01-05T12:00:00Z',
    user: { login: 'bob' },
    tags: ['web'],
    labels: [{ name: 'enhancement', color: 'blue', priority: 3 }],
  },
  {
    id: 3,
    number: 3,
    title: 'Refund outage in EU',
    body: 'Refunds failed during the outage; login works',
    state: 'open',
    score: 10,
    locked: false,
    created_at: '2024-02-01T00:00:00Z',
    user: { login: 'carol' },
    tags: ['billing', 'premium'],
    labels: [
      { name: 'bug', color: 'orange', priority: 2, added_at: '2024-02-02T00:00:00Z' },
      { name: 'billing', color: 'green', priority: 5 },
    ],
  },
  // no body, score or locked
  {
    id: 4,
    number: 4,
    title: 'Café crème brûlée',
    state: 'open',
    created_at: '2024-02-10T08:30:00+02:00',
    user: { login: 'Dave' },
    tags: [],
    labels: [],
  },
  {
    id: 5,
    number: 5,
    title: '50% off with code_A\\B',
    body: `He said "hi" -- it's fine`,
    state: 'closed',
    score: -2,
    locked: false,
    created_at: '2023-12-31T23:59:59.999Z',
    user: { login: 'eve' },
    tags: ['50%'],
    labels: [{ name: 'wont_fix', priority: 9 }],
  },
  // nothing but the key
  { id: 6, number: 6 },
  {
    id: 7,
    number: 7,
    title: 'NEAR( * OR title: "quoted" stuff',
    body: 'fts syntax',
    state: 'open',
    score: 0,
    locked: true,
    created_at: '2024-03-01T00:00:00Z',
    user: { login: 'frank' },
    tags: ['web', 'mobile'],
    labels: [{ name: 'Bug', color: 'red', priority: 1 }],
  },
  // elements that are not objects, and a member of the wrong type
  {
    id: 8,
    number: 8,
    title: "O'Brien's login",
    state: "it's",
    score: 2.5,
    locked: false,
    created_at: '2024-03-05T00:00:00Z',
    user: { login: "o'brien" },
    tags: ['mobile'],
    labels: ['not-an-object', 42, { name: 'bug', priority: 'high' }],
  },
  {
    id: 9,
    number: 9,
    title: 'Login',
    body: 'bug',
    state: 'open',
    score: 3.5,
    locked: false,
    created_at: '2024-01-01T00:00:00Z',
    user: { login: 'alice' },
    tags: ['premium'],
    labels: [{ name: 'bug', color: 'red', priority: 1 }],
  },
  // values of the wrong types: all of them index as missing except the number-as-title
  {
    id: 10,
    number: 10,
    title: 12345,
    state: null,
    score: 'n/a',
    locked: 'yes',
    created_at: 'yesterday',
    user: 'zed',
    tags: 'premium',
    labels: { name: 'bug' },
  },
  ...[11, 12, 13, 14, 15, 16, 17, 18, 19, 20].map(routine),
];

/** Two connectors' keys in the index tables (`cs_connectors`). */
export const C1 = 1;
export const C2 = 2;

export function insertRecord(
  db: Database.Database,
  connectorKey: number,
  record: unknown,
  generation = 1,
): void {
  const fields = [...layout.fields.values()];
  // As the store writes a batch: rows first, then their full-text entries in one statement.
  const before = (
    db.prepare(`SELECT COALESCE(MAX(rid), 0) AS m FROM ${quoteIdent(layout.table)}`).get() as { m: number }
  ).m;
  db.prepare(indexRowInsertSql(layout)).run(
    connectorKey,
    recordKey(layout, record),
    JSON.stringify(record),
    generation,
    '2024-05-01T00:00:00.000Z',
    ...fields.map((f) => columnValue(f, record)),
  );
  const fill = ftsFillSql(layout);
  if (fill) db.prepare(fill).run(before);
}

/** The index of C1 with every record, and of C2 with a copy of each record whose id is 100 more. */
export function openIndex(): Database.Database {
  const db = new Database(':memory:');
  db.pragma('foreign_keys = ON');
  registerSearchFunctions(db);
  db.exec('CREATE TABLE connectors (id TEXT PRIMARY KEY)');
  db.exec(
    'CREATE TABLE cs_connectors (connector_key INTEGER PRIMARY KEY, connector_id TEXT NOT NULL UNIQUE REFERENCES connectors(id) ON DELETE CASCADE)',
  );
  db.prepare('INSERT INTO connectors (id) VALUES (?), (?)').run('conn-1', 'conn-2');
  db.prepare('INSERT INTO cs_connectors (connector_key, connector_id) VALUES (?, ?), (?, ?)').run(
    C1,
    'conn-1',
    C2,
    'conn-2',
  );
  for (const statement of indexTableDdl(layout)) db.exec(statement);
  for (const r of records) insertRecord(db, C1, r);
  for (const r of records) insertRecord(db, C2, { ...r, id: (r.id as number) + 100 });
  return db;
}

export interface Query {
  filter?: unknown;
  sort?: unknown;
  limit?: number;
  offset?: number;
}

/** The ids of the matching records, in result order. */
export function ids(db: Database.Database, q: Query, connectorKey = C1): number[] {
  const compiled = compileSearch(
    layout,
    connectorKey,
    {
      filter: q.filter,
      sort: q.sort,
      limit: q.limit ?? 100,
      offset: q.offset ?? 0,
    },
    sqliteSearchDialect,
  );
  const rows = db.prepare(compiled.sql).all(...compiled.params) as { rid: number; data: string }[];
  return rows.map((r) => (JSON.parse(r.data) as { id: number }).id);
}

export function count(db: Database.Database, filter: unknown, connectorKey = C1): number {
  const compiled = compileCount(layout, connectorKey, { filter }, sqliteSearchDialect);
  return (db.prepare(compiled.sql).get(...compiled.params) as { count: number }).count;
}

/** Ids in ascending order (for filters without a sort). */
export const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

/** The fixture's index on one store, searched the way that store's adapter compiles searches. */
export interface SearchIndex {
  ids(q: Query, connectorKey?: number): Promise<number[]>;
  count(filter: unknown, connectorKey?: number): Promise<number>;
  /** Another connector with its key, and a record of it. */
  addConnector(key: number, id: string): Promise<void>;
  insert(connectorKey: number, record: unknown): Promise<void>;
  removeConnectors(ids: string[]): Promise<void>;
  close(): Promise<void>;
}

export function sqliteIndex(): SearchIndex {
  const db = openIndex();
  return {
    ids: async (q, key) => ids(db, q, key),
    count: async (filter, key) => count(db, filter, key),
    addConnector: async (key, id) => {
      db.prepare('INSERT INTO connectors (id) VALUES (?)').run(id);
      db.prepare('INSERT INTO cs_connectors (connector_key, connector_id) VALUES (?, ?)').run(key, id);
    },
    insert: async (key, record) => insertRecord(db, key, record),
    removeConnectors: async (list) => {
      db.prepare(`DELETE FROM connectors WHERE id IN (${list.map(() => '?').join(', ')})`).run(...list);
    },
    close: async () => {
      db.close();
    },
  };
}
