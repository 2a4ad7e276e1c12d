// What the request path keeps in memory between requests: answers live while the store's change version holds,
// for five seconds at most, and never when the data changed while they were being read.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ReadCache } from '../../../src/core/read-cache.ts';

function setup() {
  const state = { version: 1, now: 0, loads: 0 };
  const cache = new ReadCache({ changeVersion: () => state.version }, () => state.now);
  const load = (value: string) => async () => {
    state.loads++;
    return value;
  };
  return { state, cache, load };
}

describe('ReadCache', () => {
  test('one load per key while nothing changes', async () => {
    const { state, cache, load } = setup();
    assert.equal(await cache.get('a', load('A')), 'A');
    assert.equal(await cache.get('a', load('other')), 'A');
    assert.equal(await cache.get('b', load('B')), 'B');
    assert.equal(state.loads, 2);
  });

  test('a change of version drops every answer', async () => {
    const { state, cache, load } = setup();
    await cache.get('a', load('A'));
    state.version++;
    assert.equal(await cache.get('a', load('A2')), 'A2');
    assert.equal(state.loads, 2);
  });

  test('an answer read while the data changed is returned but not kept', async () => {
    const { state, cache } = setup();
    let loads = 0;
    const racing = async () => {
      loads++;
      state.version++; // a write committed while the read ran
      return 'maybe stale';
    };
    assert.equal(await cache.get('a', racing), 'maybe stale');
    assert.equal(await cache.get('a', async () => `fresh ${++loads}`), 'fresh 2');
    assert.equal(await cache.get('a', async () => 'not read'), 'fresh 2');
  });

  test('an answer of an older version is not kept once another call saw a newer one', async () => {
    const { state, cache } = setup();
    let release: () => void = () => {};
    const slow = cache.get(
      'a',
      () =>
        new Promise<string>((resolve) => {
          release = () => resolve('old');
        }),
    );
    state.version++;
    assert.equal(await cache.get('b', async () => 'B'), 'B');
    state.version--; // even if the store were to answer the old number again
    release();
    assert.equal(await slow, 'old');
    state.version++;
    assert.equal(await cache.get('a', async () => 'new'), 'new');
  });

  test('peek answers what get keeps, at once, by the same rules; it never loads', async () => {
    const { state, cache, load } = setup();
    assert.equal(cache.peek('a'), undefined);
    await cache.get('a', load('A'));
    assert.equal(cache.peek('a'), 'A');
    state.now += 5_001;
    assert.equal(cache.peek('a'), undefined, 'expired');
    await cache.get('a', load('A2'));
    state.version++;
    assert.equal(cache.peek('a'), undefined, 'the version moved');
    assert.equal(await cache.get('a', load('A3')), 'A3', 'and the entry is gone for get too');
    assert.equal(state.loads, 3);
  });

  test('five seconds at most', async () => {
    const { state, cache, load } = setup();
    await cache.get('a', load('A'));
    state.now += 4_999;
    assert.equal(await cache.get('a', load('A2')), 'A');
    state.now += 2;
    assert.equal(await cache.get('a', load('A3')), 'A3');
  });

  test('at most 10,000 answers: the oldest goes first', async () => {
    const { state, cache, load } = setup();
    for (let i = 0; i <= 10_000; i++) await cache.get(`k${i}`, load(`v${i}`));
    assert.equal(state.loads, 10_001);
    assert.equal(await cache.get('k1', load('again')), 'v1');
    assert.equal(await cache.get('k0', load('reloaded')), 'reloaded');
  });
});
