// The fixture's index on PostgreSQL: a schema migrated by the adapter, the index table made with the production
// DDL and written with the production upsert, searched with the PostgreSQL dialect.
import type pg from 'pg';
import { compileCount, compileSearch } from '../../../src/context-store/query.ts';
import { openPool } from '../../../src/store/postgres/connection.ts';
import { indexRow, indexTableDdl, upsertSql } from '../../../src/store/postgres/context-index.ts';
import { openPostgresStore } from '../../../src/store/postgres/index.ts';
import { postgresSearchDialect } from '../../../src/store/postgres/search-dialect.ts';
import type { TestDatabase } from '../../helpers/postgres.ts';
import { C1, C2, layout, records, type SearchIndex } from './fixture.ts';

export async function postgresIndex(database: TestDatabase): Promise<SearchIndex> {
  const schema = database.schema();
  const { store } = await openPostgresStore({ url: database.url, schema, migrate: true });
  await store.close();
  const pool: pg.Pool = await openPool({ url: database.url, schema, max: 2 });
  for (const ddl of indexTableDdl(layout)) await pool.query(ddl);
  const addConnector = async (key: number, id: string) => {
    await pool.query(
      `INSERT INTO organizations (id, name, created_at) VALUES ('o', 'o', 'x') ON CONFLICT DO NOTHING;
       INSERT INTO workspaces (id, organization_id, name, status, created_at, updated_at)
         VALUES ('w', 'o', 'w', 'active', 'x', 'x') ON CONFLICT DO NOTHING`,
    );
    await pool.query(
      `INSERT INTO connectors (id, organization_id, workspace_id, definition_id, connector_type, name,
         replication_config, credential_option, credentials_ciphertext, credentials_key_id, created_at, updated_at)
       VALUES ($1, 'o', 'w', 'd', 't', $1, '{}', 'o', 'c', 'k', 'x', 'x')`,
      [id],
    );
    await pool.query('INSERT INTO cs_connectors (connector_key, connector_id) VALUES ($1, $2)', [key, id]);
  };
  const insert = async (key: number, record: unknown) => {
    const row = indexRow(layout, record, 1, '2024-05-01T00:00:00.000Z')!;
    await pool.query(upsertSql(layout), [key, ...row.map((v) => [v])]);
  };
  await addConnector(C1, 'conn-1');
  await addConnector(C2, 'conn-2');
  for (const r of records) await insert(C1, r);
  for (const r of records) await insert(C2, { ...r, id: (r.id as number) + 100 });
  return {
    ids: async (q, key = C1) => {
      const request = { filter: q.filter, sort: q.sort, limit: q.limit ?? 100, offset: q.offset ?? 0 };
      const compiled = compileSearch(layout, key, request, postgresSearchDialect);
      const r = await pool.query<{ data: string }>(compiled.sql, compiled.params);
      return r.rows.map((row) => (JSON.parse(row.data) as { id: number }).id);
    },
    count: async (filter, key = C1) => {
      const compiled = compileCount(layout, key, { filter }, postgresSearchDialect);
      const r = await pool.query<{ count: number }>(compiled.sql, compiled.params);
      return r.rows[0]!.count;
    },
    addConnector,
    insert,
    removeConnectors: async (list) => {
      await pool.query('DELETE FROM connectors WHERE id = ANY($1::text[])', [list]);
    },
    close: () => pool.end(),
  };
}
