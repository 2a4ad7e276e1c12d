// The search compiler's semantics, run against a real SQLite index built with the production DDL.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { C2, count, ids, insertRecord, openIndex, range, records } from './fixture.ts';

const db = openIndex();
after(() => db.close());

const OPEN = [1, 3, 4, 7, 9, 11, 13, 15, 17, 19];
const NOT_OPEN = [2, 5, 6, 8, 10, 12, 14, 16, 18, 20];

describe('search: comparisons', () => {
  it('without a filter (or with {}) returns every record of the connector', () => {
    assert.deepEqual(ids(db, {}), range(1, 20));
    assert.deepEqual(ids(db, { filter: {} }), range(1, 20));
    assert.deepEqual(ids(db, { filter: null }), range(1, 20));
  });

  it('eq on strings, integers, booleans and timestamps', () => {
    assert.deepEqual(ids(db, { filter: { eq: { state: 'open' } } }), OPEN);
    assert.deepEqual(ids(db, { filter: { eq: { number: 12 } } }), [12]);
    assert.deepEqual(ids(db, { filter: { eq: { locked: true } } }), [2, 7, 12, 15, 18]);
    assert.deepEqual(
      ids(db, { filter: { eq: { locked: false } } }),
      [1, 3, 5, 8, 9, 11, 13, 14, 16, 17, 19, 20],
    );
    assert.deepEqual(ids(db, { filter: { eq: { created_at: '2024-01-01T00:00:00Z' } } }), [1, 9]);
    // the same instant written with an offset, and with milliseconds
    assert.deepEqual(ids(db, { filter: { eq: { created_at: '2024-02-10T06:30:00.000Z' } } }), [4]);
    assert.deepEqual(ids(db, { filter: { eq: { created_at: '2024-01-01T01:00:00+01:00' } } }), [1, 9]);
    assert.deepEqual(ids(db, { filter: { eq: { 'user.login': "o'brien" } } }), [8]);
    // a number in a string field is indexed as its text
    assert.deepEqual(ids(db, { filter: { eq: { title: '12345' } } }), [10]);
    // eq is exact: case matters
    assert.deepEqual(ids(db, { filter: { eq: { 'user.login': 'dave' } } }), []);
  });

  it('neq also matches records where the field is missing', () => {
    assert.deepEqual(ids(db, { filter: { neq: { state: 'open' } } }), NOT_OPEN);
    assert.deepEqual(
      ids(db, { filter: { neq: { locked: true } } }),
      [1, 3, 4, 5, 6, 8, 9, 10, 11, 13, 14, 16, 17, 19, 20],
    );
  });

  it('gt gte lt lte on numbers', () => {
    assert.deepEqual(ids(db, { filter: { gt: { score: 3.5 } } }), [3, ...range(11, 20)]);
    assert.deepEqual(ids(db, { filter: { gte: { score: 3.5 } } }), [1, 3, 9, ...range(11, 20)]);
    assert.deepEqual(ids(db, { filter: { lt: { score: 1 } } }), [5, 7]);
    assert.deepEqual(ids(db, { filter: { lte: { score: 1 } } }), [2, 5, 7]);
    assert.deepEqual(ids(db, { filter: { gt: { number: 18 } } }), [19, 20]);
  });

  it('gt gte lt lte on timestamps compare instants', () => {
    assert.deepEqual(ids(db, { filter: { gte: { created_at: '2024-02-01T00:00:00Z' } } }), [
      3,
      4,
      7,
      8,
      ...range(11, 20),
    ]);
    assert.deepEqual(ids(db, { filter: { lt: { created_at: '2024-01-01T00:00:00Z' } } }), [5]);
    assert.deepEqual(ids(db, { filter: { lte: { created_at: '2024-01-01T00:00:00Z' } } }), [1, 5, 9]);
    // 08:30+02:00 is 06:30Z
    assert.deepEqual(
      ids(db, {
        filter: { gt: { created_at: '2024-02-10T06:29:59Z' }, lt: { created_at: '2024-02-10T06:30:01Z' } },
      }),
      [4],
    );
  });

  it('gt on strings is lexicographic (binary)', () => {
    assert.deepEqual(ids(db, { filter: { gt: { 'user.login': 'eve' } } }), [7, 8, ...range(11, 20)]);
    assert.deepEqual(ids(db, { filter: { lt: { 'user.login': 'b' } } }), [1, 4, 9]);
  });

  it('in', () => {
    assert.deepEqual(
      ids(db, { filter: { in: { state: ['closed', "it's"] } } }),
      [2, 5, 8, 12, 14, 16, 18, 20],
    );
    assert.deepEqual(ids(db, { filter: { in: { number: [1, 3, 99] } } }), [1, 3]);
    assert.deepEqual(ids(db, { filter: { in: { score: [3.5, -2] } } }), [1, 5, 9]);
    assert.deepEqual(ids(db, { filter: { in: { locked: [true] } } }), [2, 7, 12, 15, 18]);
    assert.deepEqual(
      ids(db, { filter: { in: { created_at: ['2024-03-01T00:00:00Z', '2024-03-05T00:00:00Z'] } } }),
      [7, 8],
    );
  });
});

describe('search: like', () => {
  it('is case-insensitive with % as the only wildcard', () => {
    assert.deepEqual(ids(db, { filter: { like: { 'user.login': '%E' } } }), [1, 4, 5, 9]);
    assert.deepEqual(ids(db, { filter: { like: { title: 'login%' } } }), [1, 9]);
    assert.deepEqual(ids(db, { filter: { like: { body: '%LOGIN%' } } }), [2, 3]);
  });

  it('matches _ and \\ literally and % where the value has it', () => {
    assert.deepEqual(ids(db, { filter: { like: { title: '%code_A%' } } }), [5]);
    // as a wildcard `__` would match "e_"
    assert.deepEqual(ids(db, { filter: { like: { title: '%cod__A%' } } }), []);
    assert.deepEqual(ids(db, { filter: { like: { title: '%A\\B' } } }), [5]);
    assert.deepEqual(ids(db, { filter: { like: { title: '50%' } } }), [5]);
    assert.deepEqual(ids(db, { filter: { like: { body: 'he said "hi"%' } } }), [5]);
  });

  it('folds case beyond ASCII', () => {
    assert.deepEqual(ids(db, { filter: { like: { title: '%CRÈME%' } } }), [4]);
    assert.deepEqual(ids(db, { filter: { like: { title: 'café%' } } }), [4]);
  });
});

describe('search: full text', () => {
  it('fuzzy: every word, whole words, in order', () => {
    assert.deepEqual(ids(db, { filter: { fuzzy: { title: 'login bug' } } }), [1]);
    assert.deepEqual(ids(db, { filter: { fuzzy: { title: 'bug login' } } }), [2]);
    assert.deepEqual(ids(db, { filter: { fuzzy: { title: 'LOGIN' } } }), [1, 2, 8, 9]);
    assert.deepEqual(ids(db, { filter: { fuzzy: { title: 'login, safari!' } } }), [1]);
    assert.deepEqual(ids(db, { filter: { fuzzy: { body: 'login bug' } } }), [2]);
    // not a prefix search
    assert.deepEqual(ids(db, { filter: { fuzzy: { title: 'log' } } }), []);
    // a repeated word must occur twice
    assert.deepEqual(ids(db, { filter: { fuzzy: { title: 'login login' } } }), []);
  });

  it('fuzzy ignores case and diacritics on both sides', () => {
    assert.deepEqual(ids(db, { filter: { fuzzy: { title: 'creme brulee' } } }), [4]);
    assert.deepEqual(ids(db, { filter: { fuzzy: { title: 'CAFÉ BRÛLÉE' } } }), [4]);
  });

  it('keyword: any of the words', () => {
    assert.deepEqual(ids(db, { filter: { keyword: { title: 'refund outage' } } }), [3]);
    assert.deepEqual(ids(db, { filter: { keyword: { title: 'safari refund' } } }), [1, 3]);
    assert.deepEqual(ids(db, { filter: { keyword: { body: 'outage login' } } }), [2, 3]);
    assert.deepEqual(ids(db, { filter: { keyword: { title: 'nothing matches' } } }), []);
  });

  it('combines with other conditions at the top level and under or/not', () => {
    assert.deepEqual(ids(db, { filter: { fuzzy: { title: 'login' }, eq: { state: 'open' } } }), [1, 9]);
    assert.deepEqual(
      ids(db, { filter: { and: [{ keyword: { title: 'login refund' } }, { fuzzy: { body: 'login' } }] } }),
      [2, 3],
    );
    assert.deepEqual(
      ids(db, { filter: { or: [{ fuzzy: { title: 'refund' } }, { eq: { number: 20 } }] } }),
      [3, 20],
    );
    assert.deepEqual(
      ids(db, { filter: { not: { fuzzy: { title: 'login' } } } }),
      range(1, 20).filter((id) => ![1, 2, 8, 9].includes(id)),
    );
    // with a sort the full-text index is used as a filter rather than to drive the scan
    assert.deepEqual(
      ids(db, { filter: { fuzzy: { title: 'login' } }, sort: [{ score: 'desc' }] }),
      [9, 1, 8, 2],
    );
  });
});

describe('search: arrays', () => {
  it('contains on an array of scalars', () => {
    assert.deepEqual(ids(db, { filter: { contains: { tags: 'premium' } } }), [1, 3, 9]);
    assert.deepEqual(ids(db, { filter: { contains: { tags: '50%' } } }), [5]);
    assert.deepEqual(ids(db, { filter: { contains: { tags: 'prem' } } }), []);
  });

  it('any: some element satisfies the nested condition', () => {
    assert.deepEqual(ids(db, { filter: { any: { labels: { eq: { name: 'bug' } } } } }), [1, 3, 8, 9]);
    assert.deepEqual(
      ids(db, { filter: { any: { labels: { and: [{ eq: { name: 'bug' } }, { lte: { priority: 1 } }] } } } }),
      [1, 9],
    );
    // several fields in one operator object are ANDed within the same element
    assert.deepEqual(ids(db, { filter: { any: { labels: { eq: { name: 'bug', color: 'orange' } } } } }), [3]);
    assert.deepEqual(
      ids(db, { filter: { any: { labels: { eq: { name: 'billing', color: 'orange' } } } } }),
      [],
    );
    assert.deepEqual(
      ids(db, { filter: { any: { labels: { gte: { added_at: '2024-02-01T00:00:00Z' } } } } }),
      [3],
    );
    assert.deepEqual(ids(db, { filter: { any: { labels: { like: { name: 'BUG' } } } } }), [1, 3, 7, 8, 9]);
    assert.deepEqual(ids(db, { filter: { any: { labels: { eq: { default: true } } } } }), [1]);
    assert.deepEqual(ids(db, { filter: { any: { labels: { in: { priority: [1, 2] } } } } }), [1, 3, 7, 9]);
    assert.deepEqual(ids(db, { filter: { any: { labels: { gt: { priority: 17 } } } } }), [18, 19, 20]);
  });

  it('any: neq and not inside count missing members, non-object elements have none', () => {
    assert.deepEqual(ids(db, { filter: { any: { labels: { neq: { name: 'bug' } } } } }), [
      2,
      3,
      5,
      7,
      8,
      ...range(11, 20),
    ]);
    assert.deepEqual(
      ids(db, { filter: { any: { labels: { not: { gte: { priority: 2 } } } } } }),
      [1, 7, 8, 9],
    );
  });

  it('not any', () => {
    assert.deepEqual(ids(db, { filter: { not: { any: { labels: { eq: { name: 'bug' } } } } } }), [
      2,
      4,
      5,
      6,
      7,
      10,
      ...range(11, 20),
    ]);
  });
});

describe('search: logic', () => {
  it('several operators, or several fields, in one object are ANDed', () => {
    assert.deepEqual(
      ids(db, { filter: { eq: { state: 'open' }, gte: { score: 10 } } }),
      [3, 11, 13, 15, 17, 19],
    );
    assert.deepEqual(ids(db, { filter: { eq: { state: 'open', locked: true } } }), [7, 15]);
  });

  it('nested and/or', () => {
    const filter = {
      or: [{ eq: { state: 'closed' } }, { and: [{ gt: { score: 5 } }, { lt: { score: 12 } }] }],
    };
    assert.deepEqual(ids(db, { filter }), [2, 3, 5, 11, 12, 14, 16, 18, 20]);
  });

  it('not is two-valued: a condition on a missing value is false, its negation true', () => {
    assert.deepEqual(ids(db, { filter: { not: { gt: { score: 0 } } } }), [4, 5, 6, 7, 10]);
    assert.deepEqual(ids(db, { filter: { not: { not: { gt: { score: 0 } } } } }), [
      1,
      2,
      3,
      8,
      9,
      ...range(11, 20),
    ]);
    assert.deepEqual(ids(db, { filter: { not: { eq: { state: 'open' } } } }), NOT_OPEN);
    assert.deepEqual(
      ids(db, { filter: { not: { or: [{ eq: { state: 'open' } }, { lt: { score: 15 } }] } } }),
      [6, 10, 16, 18, 20],
    );
    assert.deepEqual(ids(db, { filter: { not: { like: { title: '%' } } } }), [6]);
  });
});

describe('search: sort and paging', () => {
  it('asc puts missing values first, desc last, and ties go by insertion order in the key direction', () => {
    assert.deepEqual(ids(db, { sort: [{ score: 'asc' }] }), [
      4,
      6,
      10,
      5,
      7,
      2,
      8,
      1,
      9,
      3,
      ...range(11, 20),
    ]);
    assert.deepEqual(ids(db, { sort: [{ score: 'desc' }] }), [
      ...range(11, 20).reverse(),
      3,
      9,
      1,
      8,
      2,
      7,
      5,
      10,
      6,
      4,
    ]);
  });

  it('several keys', () => {
    const sort = [{ state: 'asc' }, { score: 'desc' }];
    assert.deepEqual(
      ids(db, { filter: { in: { state: ['open', 'closed'] } }, sort }),
      [20, 18, 16, 14, 12, 2, 5, 19, 17, 15, 13, 11, 3, 9, 1, 7, 4],
    );
  });

  it('sorts timestamps as instants and strings as binary text', () => {
    assert.deepEqual(
      ids(db, { filter: { lt: { number: 11 } }, sort: [{ created_at: 'asc' }] }),
      [6, 10, 5, 1, 9, 2, 3, 4, 7, 8],
    );
    assert.deepEqual(
      ids(db, { filter: { lt: { number: 11 } }, sort: [{ 'user.login': 'desc' }] }),
      [8, 7, 5, 3, 2, 9, 1, 4, 10, 6],
    );
  });

  it('limit and offset', () => {
    assert.deepEqual(ids(db, { sort: [{ score: 'asc' }], limit: 3, offset: 2 }), [10, 5, 7]);
    assert.deepEqual(ids(db, { limit: 2, offset: 0 }), [1, 2]);
    assert.deepEqual(ids(db, { limit: 5, offset: 18 }), [19, 20]);
    assert.deepEqual(ids(db, { filter: { fuzzy: { title: 'login' } }, limit: 2, offset: 1 }), [2, 8]);
  });
});

describe('search: tenant isolation', () => {
  it('never returns rows of another connector', () => {
    assert.deepEqual(ids(db, { filter: { fuzzy: { title: 'login bug' } } }, C2), [101]);
    assert.deepEqual(ids(db, { filter: { eq: { state: 'open' } } }), OPEN);
    assert.deepEqual(ids(db, {}, C2), range(101, 120));
    assert.deepEqual(ids(db, {}, 99), []);
    assert.equal(count(db, { keyword: { title: 'login refund' } }), 5);
    assert.equal(count(db, {}, C2), 20);
  });
});

describe('search: connector keys whose full-text tokens look alike', () => {
  it('still returns only the connector asked for', () => {
    // Tokens are the hex of the key's digits: 11 → 3131, 111 → 313131, 21 → 3231, 12 → 3132.
    const odd = new Map([
      [11, 201],
      [111, 301],
      [21, 401],
      [12, 501],
    ]);
    for (const [key, recordId] of odd) {
      db.prepare('INSERT INTO connectors (id) VALUES (?)').run(`conn-${key}`);
      db.prepare('INSERT INTO cs_connectors (connector_key, connector_id) VALUES (?, ?)').run(
        key,
        `conn-${key}`,
      );
      insertRecord(db, key, { ...records[0], id: recordId });
    }
    assert.deepEqual(ids(db, { filter: { fuzzy: { title: 'login bug' } } }), [1]);
    for (const [id, recordId] of odd) {
      assert.deepEqual(ids(db, { filter: { fuzzy: { title: 'login bug' } } }, id), [recordId]);
      assert.deepEqual(ids(db, { filter: { keyword: { title: 'safari' } }, sort: [{ number: 'asc' }] }, id), [
        recordId,
      ]);
    }
    db.prepare(
      `DELETE FROM connectors WHERE id IN (${Object.keys(odd)
        .map(() => '?')
        .join(', ')})`,
    ).run(...Object.keys(odd));
  });
});

describe('count', () => {
  it('counts what search would return', () => {
    assert.equal(count(db, undefined), 20);
    assert.equal(count(db, { eq: { state: 'open' } }), OPEN.length);
    assert.equal(count(db, { fuzzy: { title: 'login' }, eq: { state: 'open' } }), 2);
    assert.equal(count(db, { not: { any: { labels: { eq: { name: 'bug' } } } } }), 16);
  });
});
