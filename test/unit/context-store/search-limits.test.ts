// The cost bounds of a query: each limit is a 422 INVALID_QUERY naming the path and the limit, checked before
// anything runs, and a query nested thousands of levels deep is refused like any other, never a stack overflow.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { checkSearch, compileSearch, SEARCH_LIMITS } from '../../../src/context-store/query.ts';
import { DomainError } from '../../../src/errors.ts';
import { sqliteSearchDialect } from '../../../src/store/sqlite/search-dialect.ts';
import { C1, ids, layout, openIndex, type Query, range } from './fixture.ts';

const db = openIndex();
after(() => db.close());

const compile = (q: Query) =>
  compileSearch(layout, C1, { filter: q.filter, sort: q.sort, limit: 10, offset: 0 }, sqliteSearchDialect);

/** Refused by the compiler and by checkSearch alike, at `field`, naming `limit` and its value. */
function overLimit(q: Query, field: string, limit: keyof typeof SEARCH_LIMITS) {
  for (const run of [() => compile(q), () => checkSearch(layout, q)]) {
    assert.throws(run, (err: unknown) => {
      assert.ok(err instanceof DomainError, String(err));
      assert.equal(err.code, 'INVALID_QUERY');
      assert.equal(err.errors[0]?.field, field);
      assert.ok(err.message.includes(String(SEARCH_LIMITS[limit])), `"${err.message}" names the limit`);
      assert.deepEqual(err.errors[0]?.details, { limit, max: SEARCH_LIMITS[limit] });
      return true;
    });
  }
}

const or = (n: number, make: (i: number) => unknown) => ({ or: range(0, n - 1).map(make) });
const words = (n: number, from = 0) => range(from, from + n - 1).map((i) => `w${i}`);

describe('search: cost bounds', () => {
  it('total conditions, counting each field of an operator', () => {
    const { conditions } = SEARCH_LIMITS;
    assert.deepEqual(ids(db, { filter: or(conditions, (i) => ({ eq: { number: i + 1 } })) }), range(1, 20));
    overLimit(
      { filter: or(conditions + 1, (i) => ({ eq: { number: i } })) },
      `query.filter.or[${conditions}].eq.number`,
      'conditions',
    );
    // one object, two conditions
    const pairs = Math.ceil((conditions + 1) / 2);
    const last = (conditions + 1) % 2 === 0 ? 'score' : 'number';
    overLimit(
      { filter: or(pairs, (i) => ({ eq: { number: i, score: i } })) },
      `query.filter.or[${pairs - 1}].eq.${last}`,
      'conditions',
    );
  });

  it('like conditions, wherever they are (inside any too)', () => {
    const { like } = SEARCH_LIMITS;
    assert.deepEqual(ids(db, { filter: or(like, (i) => ({ like: { title: `%zz${i}%` } })) }), []);
    overLimit(
      { filter: or(like + 1, (i) => ({ like: { title: `%zz${i}%` } })) },
      `query.filter.or[${like}].like.title`,
      'like',
    );
    overLimit(
      {
        filter: {
          and: [
            or(like, (i) => ({ like: { body: `%zz${i}%` } })),
            { any: { labels: { like: { name: 'b%' } } } },
          ],
        },
      },
      'query.filter.and[1].any.labels.like.name',
      'like',
    );
  });

  it('any conditions', () => {
    const { any } = SEARCH_LIMITS;
    const anyLabel = (i: number) => ({ any: { labels: { eq: { priority: i } } } });
    assert.deepEqual(ids(db, { filter: or(any, anyLabel) }), [1, 2, 3, 7, 9]);
    overLimit({ filter: or(any + 1, anyLabel) }, `query.filter.or[${any}].any.labels`, 'any');
  });

  it('fuzzy and keyword conditions, and their words together', () => {
    const { fullText, words: maxWords } = SEARCH_LIMITS;
    const text = (i: number) =>
      i % 2 ? { fuzzy: { title: `login w${i}` } } : { keyword: { body: `w${i}` } };
    compile({ filter: or(fullText, text) });
    overLimit(
      { filter: or(fullText + 1, text) },
      `query.filter.or[${fullText}].${fullText % 2 ? 'fuzzy.title' : 'keyword.body'}`,
      'fullText',
    );
    // the words of one condition, and of several together
    assert.deepEqual(
      ids(db, { filter: { keyword: { title: ['refund', ...words(maxWords - 1)].join(' ') } } }),
      [3],
    );
    overLimit(
      { filter: { keyword: { title: words(maxWords + 1).join(' ') } } },
      'query.filter.keyword.title',
      'words',
    );
    const half = Math.floor(maxWords / 2);
    overLimit(
      {
        filter: {
          and: [
            { fuzzy: { title: words(half).join(' ') } },
            { keyword: { body: words(maxWords - half + 1, 100).join(' ') } },
          ],
        },
      },
      'query.filter.and[1].keyword.body',
      'words',
    );
    // keyword counts distinct words only
    compile({
      filter: {
        keyword: {
          title: Array(maxWords * 2)
            .fill('login')
            .join(' '),
        },
      },
    });
  });

  it('in values, all in conditions together', () => {
    const { inValues } = SEARCH_LIMITS;
    const half = Math.floor(inValues / 2);
    assert.deepEqual(
      ids(db, {
        filter: { or: [{ in: { number: range(1, half) } }, { in: { score: range(1, inValues - half) } }] },
      }),
      range(1, 20),
    );
    overLimit({ filter: { in: { number: range(1, inValues + 1) } } }, 'query.filter.in.number', 'inValues');
    overLimit(
      {
        filter: {
          or: [{ in: { number: range(1, half) } }, { in: { score: range(1, inValues - half + 1) } }],
        },
      },
      'query.filter.or[1].in.score',
      'inValues',
    );
  });

  it('sort keys, depth and value sizes', () => {
    const keys = ['number', 'score', 'title', 'created_at', 'state'].map((f) => ({ [f]: 'asc' }));
    compile({ sort: keys.slice(0, SEARCH_LIMITS.sortKeys) });
    overLimit({ sort: keys.slice(0, SEARCH_LIMITS.sortKeys + 1) }, 'query.sort', 'sortKeys');
    const { depth } = SEARCH_LIMITS;
    const nested = (n: number): unknown => (n === 1 ? { eq: { state: 'open' } } : { and: [nested(n - 1)] });
    compile({ filter: nested(depth) });
    overLimit({ filter: nested(depth + 1) }, `query.filter${'.and[0]'.repeat(depth)}`, 'depth');
    // any counts as a level
    const inAny = (n: number): unknown => (n === 1 ? { eq: { name: 'bug' } } : { not: inAny(n - 1) });
    overLimit(
      { filter: { any: { labels: inAny(depth) } } },
      `query.filter.any.labels${'.not'.repeat(depth - 1)}`,
      'depth',
    );
    overLimit(
      { filter: { like: { title: 'x'.repeat(SEARCH_LIMITS.likeLength + 1) } } },
      'query.filter.like.title',
      'likeLength',
    );
    overLimit(
      { filter: { eq: { title: 'x'.repeat(SEARCH_LIMITS.stringLength + 1) } } },
      'query.filter.eq.title',
      'stringLength',
    );
  });

  it('a filter nested thousands of levels deep is refused at the limit, not a stack overflow', () => {
    const { depth } = SEARCH_LIMITS;
    // Built without recursion: parsing JSON this deep is fine, walking it recursively is not.
    const deep = (levels: number, wrap: (inner: unknown) => unknown) => {
      let node: unknown = { eq: { state: 'open' } };
      for (let i = 0; i < levels; i++) node = wrap(node);
      return node;
    };
    for (const levels of [5_000, 100_000]) {
      const nots = deep(levels, (c) => ({ not: c }));
      assert.throws(() => JSON.stringify(nots), RangeError, 'deep enough to overflow a recursive walk');
      overLimit({ filter: nots }, `query.filter${'.not'.repeat(depth)}`, 'depth');
      overLimit(
        { filter: deep(levels, (c) => ({ and: [c] })) },
        `query.filter${'.and[0]'.repeat(depth)}`,
        'depth',
      );
      overLimit(
        { filter: deep(levels, (c) => ({ or: [{ eq: { state: 'x' } }, c] })) },
        `query.filter${'.or[1]'.repeat(depth - 1)}.or[0]`,
        'depth',
      );
      overLimit(
        { filter: { any: { labels: deep(levels, (c) => ({ not: c })) } } },
        `query.filter.any.labels${'.not'.repeat(depth - 1)}`,
        'depth',
      );
    }
  });

  it('a deep or huge sort is refused before it is walked', () => {
    let deepSort: unknown = 'asc';
    for (let i = 0; i < 5_000; i++) deepSort = { number: deepSort };
    assert.throws(
      () => checkSearch(layout, { sort: [deepSort] }),
      (err: unknown) =>
        err instanceof DomainError &&
        err.code === 'INVALID_QUERY' &&
        err.errors[0]?.field === 'query.sort[0].number',
    );
    overLimit({ sort: Array(100_000).fill({ number: 'asc' }) }, 'query.sort', 'sortKeys');
  });
});
