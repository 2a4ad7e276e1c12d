// The search compiler's semantics, run against a real index of each adapter (SQLite, PostgreSQL) built with its production DDL.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestDatabase, type TestDatabase } from '../../helpers/postgres.ts';
import { C2, range, records, type SearchIndex, sqliteIndex } from './fixture.ts';
import { postgresIndex } from './pg-fixture.ts';

const OPEN = [1, 3, 4, 7, 9, 11, 13, 15, 17, 19];
const NOT_OPEN = [2, 5, 6, 8, 10, 12, 14, 16, 18, 20];

/** The compiler's semantics on an adapter's index: the same queries, the same records in the same order. */
function searchSemantics(name: string, open: () => Promise<SearchIndex>) {
  let ix: SearchIndex;
  before(async () => {
    ix = await open();
  });
  after(() => ix.close());

  describe(`${name}: search: comparisons`, () => {
    it('without a filter (or with {}) returns every record of the connector', async () => {
      assert.deepEqual(await ix.ids({}), range(1, 20));
      assert.deepEqual(await ix.ids({ filter: {} }), range(1, 20));
      assert.deepEqual(await ix.ids({ filter: null }), range(1, 20));
    });

    it('eq on strings, integers, booleans and timestamps', async () => {
      assert.deepEqual(await ix.ids({ filter: { eq: { state: 'open' } } }), OPEN);
      assert.deepEqual(await ix.ids({ filter: { eq: { number: 12 } } }), [12]);
      assert.deepEqual(await ix.ids({ filter: { eq: { locked: true } } }), [2, 7, 12, 15, 18]);
      assert.deepEqual(
        await ix.ids({ filter: { eq: { locked: false } } }),
        [1, 3, 5, 8, 9, 11, 13, 14, 16, 17, 19, 20],
      );
      assert.deepEqual(await ix.ids({ filter: { eq: { created_at: '2024-01-01T00:00:00Z' } } }), [1, 9]);
      // the same instant written with an offset, and with milliseconds
      assert.deepEqual(await ix.ids({ filter: { eq: { created_at: '2024-02-10T06:30:00.000Z' } } }), [4]);
      assert.deepEqual(await ix.ids({ filter: { eq: { created_at: '2024-01-01T01:00:00+01:00' } } }), [1, 9]);
      assert.deepEqual(await ix.ids({ filter: { eq: { 'user.login': "o'brien" } } }), [8]);
      // a number in a string field is indexed as its text
      assert.deepEqual(await ix.ids({ filter: { eq: { title: '12345' } } }), [10]);
      // eq is exact: case matters
      assert.deepEqual(await ix.ids({ filter: { eq: { 'user.login': 'dave' } } }), []);
    });

    it('neq also matches records where the field is missing', async () => {
      assert.deepEqual(await ix.ids({ filter: { neq: { state: 'open' } } }), NOT_OPEN);
      assert.deepEqual(
        await ix.ids({ filter: { neq: { locked: true } } }),
        [1, 3, 4, 5, 6, 8, 9, 10, 11, 13, 14, 16, 17, 19, 20],
      );
    });

    it('gt gte lt lte on numbers', async () => {
      assert.deepEqual(await ix.ids({ filter: { gt: { score: 3.5 } } }), [3, ...range(11, 20)]);
      assert.deepEqual(await ix.ids({ filter: { gte: { score: 3.5 } } }), [1, 3, 9, ...range(11, 20)]);
      assert.deepEqual(await ix.ids({ filter: { lt: { score: 1 } } }), [5, 7]);
      assert.deepEqual(await ix.ids({ filter: { lte: { score: 1 } } }), [2, 5, 7]);
      assert.deepEqual(await ix.ids({ filter: { gt: { number: 18 } } }), [19, 20]);
    });

    it('gt gte lt lte on timestamps compare instants', async () => {
      assert.deepEqual(await ix.ids({ filter: { gte: { created_at: '2024-02-01T00:00:00Z' } } }), [
        3,
        4,
        7,
        8,
        ...range(11, 20),
      ]);
      assert.deepEqual(await ix.ids({ filter: { lt: { created_at: '2024-01-01T00:00:00Z' } } }), [5]);
      assert.deepEqual(await ix.ids({ filter: { lte: { created_at: '2024-01-01T00:00:00Z' } } }), [1, 5, 9]);
      // 08:30+02:00 is 06:30Z
      assert.deepEqual(
        await ix.ids({
          filter: { gt: { created_at: '2024-02-10T06:29:59Z' }, lt: { created_at: '2024-02-10T06:30:01Z' } },
        }),
        [4],
      );
    });

    it('gt on strings is lexicographic (binary)', async () => {
      assert.deepEqual(await ix.ids({ filter: { gt: { 'user.login': 'eve' } } }), [7, 8, ...range(11, 20)]);
      assert.deepEqual(await ix.ids({ filter: { lt: { 'user.login': 'b' } } }), [1, 4, 9]);
    });

    it('in', async () => {
      assert.deepEqual(
        await ix.ids({ filter: { in: { state: ['closed', "it's"] } } }),
        [2, 5, 8, 12, 14, 16, 18, 20],
      );
      assert.deepEqual(await ix.ids({ filter: { in: { number: [1, 3, 99] } } }), [1, 3]);
      assert.deepEqual(await ix.ids({ filter: { in: { score: [3.5, -2] } } }), [1, 5, 9]);
      assert.deepEqual(await ix.ids({ filter: { in: { locked: [true] } } }), [2, 7, 12, 15, 18]);
      assert.deepEqual(
        await ix.ids({ filter: { in: { created_at: ['2024-03-01T00:00:00Z', '2024-03-05T00:00:00Z'] } } }),
        [7, 8],
      );
    });
  });

  describe(`${name}: search: like`, () => {
    it('is case-insensitive with % as the only wildcard', async () => {
      assert.deepEqual(await ix.ids({ filter: { like: { 'user.login': '%E' } } }), [1, 4, 5, 9]);
      assert.deepEqual(await ix.ids({ filter: { like: { title: 'login%' } } }), [1, 9]);
      assert.deepEqual(await ix.ids({ filter: { like: { body: '%LOGIN%' } } }), [2, 3]);
    });

    it('matches _ and \\ literally and % where the value has it', async () => {
      assert.deepEqual(await ix.ids({ filter: { like: { title: '%code_A%' } } }), [5]);
      // as a wildcard `__` would match "e_"
      assert.deepEqual(await ix.ids({ filter: { like: { title: '%cod__A%' } } }), []);
      assert.deepEqual(await ix.ids({ filter: { like: { title: '%A\\B' } } }), [5]);
      assert.deepEqual(await ix.ids({ filter: { like: { title: '50%' } } }), [5]);
      assert.deepEqual(await ix.ids({ filter: { like: { body: 'he said "hi"%' } } }), [5]);
    });

    it('folds case beyond ASCII', async () => {
      assert.deepEqual(await ix.ids({ filter: { like: { title: '%CRÈME%' } } }), [4]);
      assert.deepEqual(await ix.ids({ filter: { like: { title: 'café%' } } }), [4]);
    });
  });

  describe(`${name}: search: full text`, () => {
    it('fuzzy: every word, whole words, in order', async () => {
      assert.deepEqual(await ix.ids({ filter: { fuzzy: { title: 'login bug' } } }), [1]);
      assert.deepEqual(await ix.ids({ filter: { fuzzy: { title: 'bug login' } } }), [2]);
      assert.deepEqual(await ix.ids({ filter: { fuzzy: { title: 'LOGIN' } } }), [1, 2, 8, 9]);
      assert.deepEqual(await ix.ids({ filter: { fuzzy: { title: 'login, safari!' } } }), [1]);
      assert.deepEqual(await ix.ids({ filter: { fuzzy: { body: 'login bug' } } }), [2]);
      // not a prefix search
      assert.deepEqual(await ix.ids({ filter: { fuzzy: { title: 'log' } } }), []);
      // a repeated word must occur twice
      assert.deepEqual(await ix.ids({ filter: { fuzzy: { title: 'login login' } } }), []);
    });

    it('fuzzy ignores case and diacritics on both sides', async () => {
      assert.deepEqual(await ix.ids({ filter: { fuzzy: { title: 'creme brulee' } } }), [4]);
      assert.deepEqual(await ix.ids({ filter: { fuzzy: { title: 'CAFÉ BRÛLÉE' } } }), [4]);
    });

    it('keyword: any of the words', async () => {
      assert.deepEqual(await ix.ids({ filter: { keyword: { title: 'refund outage' } } }), [3]);
      assert.deepEqual(await ix.ids({ filter: { keyword: { title: 'safari refund' } } }), [1, 3]);
      assert.deepEqual(await ix.ids({ filter: { keyword: { body: 'outage login' } } }), [2, 3]);
      assert.deepEqual(await ix.ids({ filter: { keyword: { title: 'nothing matches' } } }), []);
    });

    it('combines with other conditions at the top level and under or/not', async () => {
      assert.deepEqual(
        await ix.ids({ filter: { fuzzy: { title: 'login' }, eq: { state: 'open' } } }),
        [1, 9],
      );
      assert.deepEqual(
        await ix.ids({
          filter: { and: [{ keyword: { title: 'login refund' } }, { fuzzy: { body: 'login' } }] },
        }),
        [2, 3],
      );
      assert.deepEqual(
        await ix.ids({ filter: { or: [{ fuzzy: { title: 'refund' } }, { eq: { number: 20 } }] } }),
        [3, 20],
      );
      assert.deepEqual(
        await ix.ids({ filter: { not: { fuzzy: { title: 'login' } } } }),
        range(1, 20).filter((id) => ![1, 2, 8, 9].includes(id)),
      );
      // with a sort the full-text index is used as a filter rather than to drive the scan
      assert.deepEqual(
        await ix.ids({ filter: { fuzzy: { title: 'login' } }, sort: [{ score: 'desc' }] }),
        [9, 1, 8, 2],
      );
    });
  });

  describe(`${name}: search: arrays`, () => {
    it('contains on an array of scalars', async () => {
      assert.deepEqual(await ix.ids({ filter: { contains: { tags: 'premium' } } }), [1, 3, 9]);
      assert.deepEqual(await ix.ids({ filter: { contains: { tags: '50%' } } }), [5]);
      assert.deepEqual(await ix.ids({ filter: { contains: { tags: 'prem' } } }), []);
    });

    it('any: some element satisfies the nested condition', async () => {
      assert.deepEqual(await ix.ids({ filter: { any: { labels: { eq: { name: 'bug' } } } } }), [1, 3, 8, 9]);
      assert.deepEqual(
        await ix.ids({
          filter: { any: { labels: { and: [{ eq: { name: 'bug' } }, { lte: { priority: 1 } }] } } },
        }),
        [1, 9],
      );
      // several fields in one operator object are ANDed within the same element
      assert.deepEqual(
        await ix.ids({ filter: { any: { labels: { eq: { name: 'bug', color: 'orange' } } } } }),
        [3],
      );
      assert.deepEqual(
        await ix.ids({ filter: { any: { labels: { eq: { name: 'billing', color: 'orange' } } } } }),
        [],
      );
      assert.deepEqual(
        await ix.ids({ filter: { any: { labels: { gte: { added_at: '2024-02-01T00:00:00Z' } } } } }),
        [3],
      );
      assert.deepEqual(
        await ix.ids({ filter: { any: { labels: { like: { name: 'BUG' } } } } }),
        [1, 3, 7, 8, 9],
      );
      assert.deepEqual(await ix.ids({ filter: { any: { labels: { eq: { default: true } } } } }), [1]);
      assert.deepEqual(
        await ix.ids({ filter: { any: { labels: { in: { priority: [1, 2] } } } } }),
        [1, 3, 7, 9],
      );
      assert.deepEqual(await ix.ids({ filter: { any: { labels: { gt: { priority: 17 } } } } }), [18, 19, 20]);
    });

    it('any: neq and not inside count missing members, non-object elements have none', async () => {
      assert.deepEqual(await ix.ids({ filter: { any: { labels: { neq: { name: 'bug' } } } } }), [
        2,
        3,
        5,
        7,
        8,
        ...range(11, 20),
      ]);
      assert.deepEqual(
        await ix.ids({ filter: { any: { labels: { not: { gte: { priority: 2 } } } } } }),
        [1, 7, 8, 9],
      );
    });

    it('not any', async () => {
      assert.deepEqual(await ix.ids({ filter: { not: { any: { labels: { eq: { name: 'bug' } } } } } }), [
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

  describe(`${name}: search: logic`, () => {
    it('several operators, or several fields, in one object are ANDed', async () => {
      assert.deepEqual(
        await ix.ids({ filter: { eq: { state: 'open' }, gte: { score: 10 } } }),
        [3, 11, 13, 15, 17, 19],
      );
      assert.deepEqual(await ix.ids({ filter: { eq: { state: 'open', locked: true } } }), [7, 15]);
    });

    it('nested and/or', async () => {
      const filter = {
        or: [{ eq: { state: 'closed' } }, { and: [{ gt: { score: 5 } }, { lt: { score: 12 } }] }],
      };
      assert.deepEqual(await ix.ids({ filter }), [2, 3, 5, 11, 12, 14, 16, 18, 20]);
    });

    it('not is two-valued: a condition on a missing value is false, its negation true', async () => {
      assert.deepEqual(await ix.ids({ filter: { not: { gt: { score: 0 } } } }), [4, 5, 6, 7, 10]);
      assert.deepEqual(await ix.ids({ filter: { not: { not: { gt: { score: 0 } } } } }), [
        1,
        2,
        3,
        8,
        9,
        ...range(11, 20),
      ]);
      assert.deepEqual(await ix.ids({ filter: { not: { eq: { state: 'open' } } } }), NOT_OPEN);
      assert.deepEqual(
        await ix.ids({ filter: { not: { or: [{ eq: { state: 'open' } }, { lt: { score: 15 } }] } } }),
        [6, 10, 16, 18, 20],
      );
      assert.deepEqual(await ix.ids({ filter: { not: { like: { title: '%' } } } }), [6]);
    });
  });

  describe(`${name}: search: sort and paging`, () => {
    it('asc puts missing values first, desc last, and ties go by insertion order in the key direction', async () => {
      assert.deepEqual(await ix.ids({ sort: [{ score: 'asc' }] }), [
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
      assert.deepEqual(await ix.ids({ sort: [{ score: 'desc' }] }), [
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

    it('several keys', async () => {
      const sort = [{ state: 'asc' }, { score: 'desc' }];
      assert.deepEqual(
        await ix.ids({ filter: { in: { state: ['open', 'closed'] } }, sort }),
        [20, 18, 16, 14, 12, 2, 5, 19, 17, 15, 13, 11, 3, 9, 1, 7, 4],
      );
    });

    it('sorts timestamps as instants and strings as binary text', async () => {
      assert.deepEqual(
        await ix.ids({ filter: { lt: { number: 11 } }, sort: [{ created_at: 'asc' }] }),
        [6, 10, 5, 1, 9, 2, 3, 4, 7, 8],
      );
      assert.deepEqual(
        await ix.ids({ filter: { lt: { number: 11 } }, sort: [{ 'user.login': 'desc' }] }),
        [8, 7, 5, 3, 2, 9, 1, 4, 10, 6],
      );
    });

    it('limit and offset', async () => {
      assert.deepEqual(await ix.ids({ sort: [{ score: 'asc' }], limit: 3, offset: 2 }), [10, 5, 7]);
      assert.deepEqual(await ix.ids({ limit: 2, offset: 0 }), [1, 2]);
      assert.deepEqual(await ix.ids({ limit: 5, offset: 18 }), [19, 20]);
      assert.deepEqual(await ix.ids({ filter: { fuzzy: { title: 'login' } }, limit: 2, offset: 1 }), [2, 8]);
    });
  });

  describe(`${name}: search: tenant isolation`, () => {
    it('never returns rows of another connector', async () => {
      assert.deepEqual(await ix.ids({ filter: { fuzzy: { title: 'login bug' } } }, C2), [101]);
      assert.deepEqual(await ix.ids({ filter: { eq: { state: 'open' } } }), OPEN);
      assert.deepEqual(await ix.ids({}, C2), range(101, 120));
      assert.deepEqual(await ix.ids({}, 99), []);
      assert.equal(await ix.count({ keyword: { title: 'login refund' } }), 5);
      assert.equal(await ix.count({}, C2), 20);
    });
  });

  describe(`${name}: search: connector keys whose full-text tokens look alike`, () => {
    it('still returns only the connector asked for', async () => {
      // Tokens are the hex of the key's digits: 11 → 3131, 111 → 313131, 21 → 3231, 12 → 3132.
      const odd = new Map([
        [11, 201],
        [111, 301],
        [21, 401],
        [12, 501],
      ]);
      for (const [key, recordId] of odd) {
        await ix.addConnector(key, `conn-${key}`);
        await ix.insert(key, { ...records[0], id: recordId });
      }
      assert.deepEqual(await ix.ids({ filter: { fuzzy: { title: 'login bug' } } }), [1]);
      for (const [id, recordId] of odd) {
        assert.deepEqual(await ix.ids({ filter: { fuzzy: { title: 'login bug' } } }, id), [recordId]);
        assert.deepEqual(
          await ix.ids({ filter: { keyword: { title: 'safari' } }, sort: [{ number: 'asc' }] }, id),
          [recordId],
        );
      }
      await ix.removeConnectors([...odd.keys()].map((key) => `conn-${key}`));
    });
  });

  describe(`${name}: count`, () => {
    it('counts what search would return', async () => {
      assert.equal(await ix.count(undefined), 20);
      assert.equal(await ix.count({ eq: { state: 'open' } }), OPEN.length);
      assert.equal(await ix.count({ fuzzy: { title: 'login' }, eq: { state: 'open' } }), 2);
      assert.equal(await ix.count({ not: { any: { labels: { eq: { name: 'bug' } } } } }), 16);
    });
  });
}

searchSemantics('SQLite', async () => sqliteIndex());

let database: TestDatabase | undefined;
searchSemantics('PostgreSQL', async () => {
  database = await createTestDatabase();
  return postgresIndex(database);
});
after(() => database?.drop());
