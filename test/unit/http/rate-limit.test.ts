import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { OrganizationRateLimiter } from '../../../src/http/rate-limit.ts';

describe('OrganizationRateLimiter', () => {
  test('a burst of twice the rate, then one request per 1/rate seconds', () => {
    let ms = 0;
    const limiter = new OrganizationRateLimiter(10, () => ms);
    for (let i = 0; i < 20; i++) assert.equal(limiter.take('org'), 0, `request ${i + 1}`);
    assert.equal(limiter.take('org'), 1);
    ms += 100;
    assert.equal(limiter.take('org'), 0, 'a tenth of a second buys one request at 10/s');
    assert.equal(limiter.take('org'), 1);
    assert.equal(limiter.take('other'), 0, 'organizations have their own buckets');
  });

  test('Retry-After covers the time to the next whole token', () => {
    let ms = 0;
    const limiter = new OrganizationRateLimiter(0.5, () => ms);
    assert.equal(limiter.take('org'), 0);
    assert.equal(limiter.take('org'), 2, 'at one request per 2 s');
    ms += 1000;
    assert.equal(limiter.take('org'), 1);
  });

  test('0 is off', () => {
    const limiter = new OrganizationRateLimiter(0, () => 0);
    for (let i = 0; i < 10_000; i++) assert.equal(limiter.take('org'), 0);
  });
});
