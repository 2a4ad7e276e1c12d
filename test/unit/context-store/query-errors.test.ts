// Requests the compiler must refuse (INVALID_QUERY naming what is wrong), and injection attempts that must
// neither reach SQL text nor change results.

import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { compileSearch, SEARCH_LIMITS } from '../../../src/context-store/query.ts';
import { DomainError } from '../../../src/errors.ts';
import { sqliteSearchDialect } from '../../../src/store/sqlite/search-dialect.ts';
import { C1, ids, layout, openIndex, type Query, range } from './fixture.ts';

const db = openIndex();
after(() => db.close());

/** `field` null: any path. */
function refused(q: Query, field: string | null, ...mentions: string[]) {
  assert.throws(
    () =>
      compileSearch(
        layout,
        C1,
        { filter: q.filter, sort: q.sort, limit: 10, offset: 0 },
        sqliteSearchDialect,
      ),
    (err: unknown) => {
      assert.ok(err instanceof DomainError, String(err));
      assert.equal(err.code, 'INVALID_QUERY');
      if (field !== null) assert.equal(err.errors[0]?.field, field);
      for (const m of mentions) assert.ok(err.message.includes(m), `"${err.message}" should mention ${m}`);
      return true;
    },
  );
}

const nest = (depth: number): unknown => (depth === 1 ? { eq: { state: 'open' } } : { not: nest(depth - 1) });

describe('search: refused queries', () => {
  it('unknown fields, listing the known ones', () => {
    refused({ filter: { eq: { nope: 1 } } }, 'query.filter.eq.nope', '"nope"', 'title', 'user.login');
    refused(
      { filter: { and: [{ eq: { state: 'x' } }, { eq: { State: 'x' } }] } },
      'query.filter.and[1].eq.State',
      'State',
    );
    refused(
      { filter: { any: { labels: { eq: { label: 'x' } } } } },
      'query.filter.any.labels.eq.label',
      'label',
      'priority',
    );
  });

  it('unknown operators, listing the allowed ones', () => {
    refused({ filter: { equals: { state: 'open' } } }, 'query.filter.equals', '"equals"', 'eq, neq');
    refused(
      { filter: { any: { labels: { fuzzy: { name: 'x' } } } } },
      'query.filter.any.labels.fuzzy',
      'fuzzy',
      'like',
    );
    refused({ filter: { any: { labels: { any: { name: 'x' } } } } }, 'query.filter.any.labels.any', '"any"');
  });

  it('operators that do not apply to the field type', () => {
    refused(
      { filter: { fuzzy: { number: 'x' } } },
      'query.filter.fuzzy.number',
      'fuzzy',
      'number',
      'integer',
      'eq',
    );
    refused({ filter: { like: { score: '1%' } } }, 'query.filter.like.score', 'like', 'score');
    refused({ filter: { contains: { title: 'x' } } }, 'query.filter.contains.title', 'contains', 'title');
    refused({ filter: { contains: { labels: 'x' } } }, 'query.filter.contains.labels', 'contains', 'any');
    refused({ filter: { any: { tags: { eq: { x: 1 } } } } }, 'query.filter.any.tags', 'any', 'contains');
    refused({ filter: { eq: { body: 'x' } } }, 'query.filter.eq.body', 'eq', 'body', 'text');
    refused({ filter: { gt: { locked: true } } }, 'query.filter.gt.locked', 'gt', 'boolean');
    refused({ filter: { eq: { tags: 'x' } } }, 'query.filter.eq.tags', 'tags', 'array');
  });

  it('values of the wrong type', () => {
    refused({ filter: { eq: { number: '1' } } }, 'query.filter.eq.number', 'number', 'integer', '"1"');
    refused({ filter: { eq: { number: 1.5 } } }, 'query.filter.eq.number', 'integer');
    refused({ filter: { eq: { state: true } } }, 'query.filter.eq.state', 'state', 'a string');
    refused({ filter: { eq: { state: 3 } } }, 'query.filter.eq.state', 'state');
    refused({ filter: { eq: { state: null } } }, 'query.filter.eq.state', 'null');
    refused({ filter: { eq: { state: { $ne: 1 } } } }, 'query.filter.eq.state', 'an object');
    refused({ filter: { eq: { locked: 'true' } } }, 'query.filter.eq.locked', 'true or false');
    refused({ filter: { gt: { created_at: 1704067200000 } } }, 'query.filter.gt.created_at', 'ISO 8601');
    refused({ filter: { gt: { created_at: 'yesterday' } } }, 'query.filter.gt.created_at', 'ISO 8601');
    refused({ filter: { contains: { tags: 1 } } }, 'query.filter.contains.tags', 'tags');
    refused(
      { filter: { any: { labels: { gt: { priority: 'high' } } } } },
      'query.filter.any.labels.gt.priority',
      'integer',
    );
    refused({ filter: { in: { state: 'open' } } }, 'query.filter.in.state', '"in"', 'array');
    refused({ filter: { in: { state: [] } } }, 'query.filter.in.state', '"in"');
    refused({ filter: { in: { state: ['a', 2] } } }, 'query.filter.in.state[1]', 'state');
    refused({ filter: { in: { number: range(1, 1001) } } }, 'query.filter.in.number', '1000');
    refused({ filter: { fuzzy: { title: ' *"- ' } } }, 'query.filter.fuzzy.title', 'fuzzy', 'word');
    refused({ filter: { keyword: { title: '' } } }, 'query.filter.keyword.title', 'keyword', 'word');
    refused({ filter: { like: { title: 'x'.repeat(513) } } }, 'query.filter.like.title', '512');
  });

  it('malformed conditions', () => {
    refused({ filter: 'state = open' }, 'query.filter', 'object');
    refused({ filter: [{ eq: { state: 'open' } }] }, 'query.filter', 'an array');
    refused({ filter: { and: [] } }, 'query.filter.and', '"and"', 'non-empty array');
    refused({ filter: { or: { eq: { state: 'x' } } } }, 'query.filter.or', '"or"');
    refused({ filter: { and: [{ eq: { state: 'x' } }, null] } }, 'query.filter.and[1]', 'null');
    refused({ filter: { and: [{}] } }, 'query.filter.and[0]', 'empty condition', 'eq');
    refused({ filter: { not: [] } }, 'query.filter.not', 'an array');
    refused({ filter: { eq: {} } }, 'query.filter.eq', '"eq"');
    refused({ filter: { eq: 'open' } }, 'query.filter.eq', '"eq"');
    refused({ filter: { any: { labels: {} } } }, 'query.filter.any.labels', 'empty condition');
  });

  it('too deep or too many conditions', () => {
    const { depth, conditions } = SEARCH_LIMITS;
    assert.deepEqual(
      ids(db, { filter: nest(depth) }),
      range(1, 20).filter((id) => (depth % 2 === 1) === [1, 3, 4, 7, 9, 11, 13, 15, 17, 19].includes(id)),
    );
    refused({ filter: nest(depth + 1) }, `query.filter${'.not'.repeat(depth)}`, String(depth));
    const leaves = (n: number) => ({ or: range(1, n).map((i) => ({ eq: { number: i } })) });
    assert.deepEqual(ids(db, { filter: leaves(conditions) }), range(1, 20));
    refused(
      { filter: leaves(conditions + 1) },
      `query.filter.or[${conditions}].eq.number`,
      String(conditions),
    );
  });

  it('bad sorts', () => {
    refused({ sort: { score: 'asc' } }, 'query.sort', 'array');
    refused({ sort: [{ body: 'asc' }] }, 'query.sort[0].body', 'text', 'body', 'score');
    refused({ sort: [{ tags: 'asc' }] }, 'query.sort[0].tags', 'array');
    refused({ sort: [{ nope: 'asc' }] }, 'query.sort[0].nope', 'unknown field', 'nope');
    refused({ sort: [{ score: 'ASC' }] }, 'query.sort[0].score', '"asc" or "desc"');
    refused({ sort: [{ score: 'asc', number: 'asc' }] }, 'query.sort[0]', 'one field');
    refused({ sort: ['score'] }, 'query.sort[0]', 'one field');
    refused({ sort: range(1, 5).map(() => ({ score: 'asc' })) }, 'query.sort', '4');
  });
});

describe('search: injection attempts', () => {
  const tableCount = () =>
    (
      db.prepare(`SELECT count(*) AS n FROM sqlite_master WHERE name LIKE 'cs_tracker%'`).get() as {
        n: number;
      }
    ).n;
  const before = tableCount();

  it('refuses field names that are not declared, however they look', () => {
    for (const name of [
      'title"; DROP TABLE x; --',
      'title` OR 1=1',
      'data',
      'connector_id',
      'connector_key',
      'record_key',
      'rid',
      'f1_title',
      '__proto__',
      'constructor',
      'toString',
      'user',
    ]) {
      refused({ filter: { eq: { [name]: 'x' } } }, null, 'unknown field', JSON.stringify(name));
      refused({ sort: [{ [name]: 'asc' }] }, null, 'unknown field', JSON.stringify(name));
    }
  });

  it('binds values: quotes, wildcards and SQL in values only match themselves', () => {
    assert.deepEqual(ids(db, { filter: { eq: { state: "it's" } } }), [8]);
    assert.deepEqual(ids(db, { filter: { eq: { state: "open' OR '1'='1" } } }), []);
    assert.deepEqual(ids(db, { filter: { eq: { title: 'x"; DROP TABLE cs_tracker__issues; --' } } }), []);
    assert.deepEqual(ids(db, { filter: { in: { state: ['open") OR 1=1 --', ']', '[1'] } } }), []);
    assert.deepEqual(ids(db, { filter: { like: { title: "%' OR '%" } } }), []);
    assert.deepEqual(ids(db, { filter: { contains: { tags: '%' } } }), []);
    assert.deepEqual(ids(db, { filter: { any: { labels: { eq: { name: "bug' --" } } } } }), []);
    assert.deepEqual(ids(db, { filter: { like: { title: '%"quoted"%' } } }), [7]);
  });

  it('makes full-text syntax in values inert', () => {
    assert.deepEqual(ids(db, { filter: { fuzzy: { title: 'NEAR(' } } }), [7]);
    assert.deepEqual(ids(db, { filter: { fuzzy: { title: 'NEAR(login bug' } } }), []);
    assert.deepEqual(ids(db, { filter: { fuzzy: { title: 'OR title:' } } }), [7]);
    assert.deepEqual(ids(db, { filter: { fuzzy: { title: '"quoted" *' } } }), [7]);
    assert.deepEqual(ids(db, { filter: { fuzzy: { title: 'body: login' } } }), []);
    assert.deepEqual(ids(db, { filter: { keyword: { title: 'OR' } } }), [7]);
    assert.deepEqual(ids(db, { filter: { keyword: { title: '{f2_body} : outage' } } }), [3]);
    assert.deepEqual(ids(db, { filter: { keyword: { title: 'refund" OR "login' } } }), [1, 2, 3, 7, 8, 9]);
    assert.deepEqual(ids(db, { filter: { keyword: { title: 'login*' } } }), [1, 2, 8, 9]);
  });

  it('left every table in place', () => {
    assert.equal(tableCount(), before);
    assert.deepEqual(ids(db, {}), range(1, 20));
  });
});
