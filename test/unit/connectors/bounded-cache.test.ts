import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BoundedCache } from '../../../src/connectors/bounded-cache.ts';

describe('BoundedCache', () => {
  it('answers what was kept, and nothing for a key never kept', () => {
    const cache = new BoundedCache<{ n: number }>(10);
    const one = cache.keep('one', { n: 1 });
    assert.equal(cache.get('one'), one);
    assert.equal(cache.get('two'), undefined);
  });

  it('empties itself when it is full, so it never holds more than its bound', () => {
    const cache = new BoundedCache<number>(3);
    for (const [i, key] of ['a', 'b', 'c'].entries()) cache.keep(key, i);
    assert.deepEqual(
      ['a', 'b', 'c'].map((k) => cache.get(k)),
      [0, 1, 2],
    );
    cache.keep('d', 3);
    assert.deepEqual(
      ['a', 'b', 'c', 'd'].map((k) => cache.get(k)),
      [undefined, undefined, undefined, 3],
    );
  });
});
