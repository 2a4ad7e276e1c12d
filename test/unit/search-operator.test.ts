// The search metrics' operator label (src/context-store/query-operators.ts): one per search, the costliest kind
// of condition in its filter, from a closed set whatever the filter holds.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SEARCH_OPERATORS, searchOperator } from '../../src/context-store/query-operators.ts';

describe('searchOperator', () => {
  it('names the costliest kind of condition, nested in and/or/not/any', () => {
    assert.equal(searchOperator(undefined), 'none');
    assert.equal(searchOperator({}), 'none');
    assert.equal(searchOperator({ eq: { state: 'open' } }), 'eq');
    assert.equal(searchOperator({ gt: { number: 1 }, eq: { state: 'open' } }), 'range');
    assert.equal(
      searchOperator({ and: [{ eq: { a: 1 } }, { or: [{ in: { b: [1] } }, { not: { neq: { c: 2 } } }] }] }),
      'in',
    );
    assert.equal(searchOperator({ not: { fuzzy: { title: 'x' } } }), 'fuzzy');
    assert.equal(searchOperator({ keyword: { title: 'x' }, like: { body: '%y%' } }), 'like');
    assert.equal(searchOperator({ any: { labels: { eq: { name: 'bug' } } } }), 'any');
    assert.equal(searchOperator({ any: { labels: { like: { name: '%b%' } } } }), 'like');
    assert.equal(searchOperator({ contains: { tags: 'x' } }), 'contains');
  });

  it('labels a refused query from a closed set: unknown keys, prototype names, odd shapes, deep nesting', () => {
    let deep: unknown = { eq: { a: 1 } };
    for (let i = 0; i < 10_000; i++) deep = { not: deep };
    for (const filter of [
      { constructor: { a: 1 } },
      { __proto__: { a: 1 }, toString: 1 },
      { nope: { a: 1 } },
      'eq',
      [1, 2],
      null,
      deep,
    ]) {
      const op = searchOperator(filter);
      assert.ok(SEARCH_OPERATORS.includes(op), String(op));
    }
    assert.equal(searchOperator({ constructor: { a: 1 } }), 'none');
    assert.equal(searchOperator(deep), 'none');
  });
});
