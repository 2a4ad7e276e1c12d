import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { addressKey, TokenAttemptLimiter } from '../../../src/core/tokens/attempt-limiter.ts';

function clock() {
  let ms = 1_000_000;
  return {
    now: () => ms,
    advance: (by: number) => {
      ms += by;
    },
  };
}

describe('TokenAttemptLimiter', () => {
  test('a limit of 0 is off', () => {
    const c = clock();
    const limiter = new TokenAttemptLimiter({ perAddress: 0, perClient: 0 }, c.now);
    for (let i = 0; i < 1000; i++) limiter.recordFailure('client', '10.0.0.1');
    assert.equal(limiter.retryAfter('client', '10.0.0.1'), 0);
    assert.equal(limiter.size, 0, 'nothing is tracked for a limit that is off');
  });

  test('the window slides: each failure leaves it a window after it happened', () => {
    const c = clock();
    const limiter = new TokenAttemptLimiter({ perAddress: 2, perClient: 0 }, c.now);
    limiter.recordFailure('a', '10.0.0.1');
    c.advance(20_000);
    limiter.recordFailure('b', '10.0.0.1');
    assert.equal(limiter.retryAfter('c', '10.0.0.1'), 40);
    c.advance(39_500);
    assert.equal(limiter.retryAfter('c', '10.0.0.1'), 1, 'a fraction of a second rounds up');
    c.advance(500);
    assert.equal(limiter.retryAfter('c', '10.0.0.1'), 0);
    limiter.recordFailure('c', '10.0.0.1');
    assert.equal(limiter.retryAfter('c', '10.0.0.1'), 20, 'the second failure is now the oldest');
  });

  test('without an address (an in-process caller) only the client id counts', () => {
    const c = clock();
    const limiter = new TokenAttemptLimiter({ perAddress: 1, perClient: 2 }, c.now);
    limiter.recordFailure('a', undefined);
    assert.equal(limiter.retryAfter('a', undefined), 0);
    limiter.recordFailure('a', undefined);
    assert.equal(limiter.retryAfter('a', undefined), 60);
    assert.equal(limiter.retryAfter('b', '10.0.0.1'), 0, 'no address was charged');
  });

  test("a trusted pair is exempt from its address's limit, not from its client id's, until the trust expires", () => {
    const c = clock();
    const limiter = new TokenAttemptLimiter({ perAddress: 1, perClient: 1, trustMs: 120_000 }, c.now);
    limiter.recordSuccess('good', '10.0.0.1');
    limiter.recordFailure('other', '10.0.0.1');
    assert.equal(limiter.retryAfter('good', '10.0.0.1'), 0, "others' failures at its address do not hold it");
    assert.equal(limiter.retryAfter('new', '10.0.0.1'), 60, 'for other client ids the address limit holds');
    limiter.recordFailure('good', '10.0.0.2');
    assert.equal(limiter.retryAfter('good', '10.0.0.1'), 60, "its own client id's failures do");
    c.advance(60_000);
    assert.equal(limiter.retryAfter('good', '10.0.0.1'), 0);
    c.advance(60_000);
    limiter.recordFailure('other', '10.0.0.1');
    assert.equal(limiter.retryAfter('good', '10.0.0.1'), 60, 'trust expired');
  });

  test('memory stays bounded: old entries are swept, and past the cap the quietest keys are forgotten', () => {
    const c = clock();
    const limiter = new TokenAttemptLimiter({ perAddress: 5, perClient: 5, maxKeys: 100 }, c.now);
    for (let i = 0; i < 5000; i++) {
      limiter.recordFailure(`client-${i}`, `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`);
      limiter.recordSuccess(`client-${i}`, `10.0.0.${i & 255}`);
    }
    assert.ok(limiter.size <= 300, `tracking ${limiter.size} keys`);
    // The most recent ones are kept.
    limiter.recordFailure('client-4999', '10.0.19.135');
    for (let i = 0; i < 3; i++) limiter.recordFailure('client-4999', '10.0.19.135');
    assert.equal(limiter.retryAfter('client-4999', '10.9.9.9'), 60);
    c.advance(61_000);
    limiter.recordFailure('late', '10.1.1.1');
    // Everything but the new failure and the day-long trusted pairs left with the window.
    assert.ok(limiter.size <= 102, `tracking ${limiter.size} keys after the sweep`);
  });
});

describe('addressKey', () => {
  test('IPv4 and IPv4-mapped addresses are the same key; IPv6 counts per /64 however written', () => {
    assert.equal(addressKey('192.0.2.7'), '192.0.2.7');
    assert.equal(addressKey('::ffff:192.0.2.7'), '192.0.2.7');
    const key = addressKey('2001:db8:0:1::1');
    assert.equal(key, '2001:db8:0:1::/64');
    for (const same of [
      '2001:0db8:0000:0001:ffff:ffff:ffff:ffff',
      '2001:DB8:0:1:a:b:c:d',
      '2001:db8::1:0:0:0:9%eth0',
    ])
      assert.equal(addressKey(same), key, same);
    assert.notEqual(addressKey('2001:db8:0:2::1'), key);
    assert.equal(addressKey('::1'), '0:0:0:0::/64');
    assert.equal(addressKey('2001:db8:0:1::192.0.2.1'), key);
  });
});
