import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { type EndUser, RequestRates } from '../../../src/core/request-rates.ts';
import type { DomainError } from '../../../src/errors.ts';

const limits = (organization: number, endUser = 0, workspaceEndUsers = 0) => ({
  organization,
  endUser,
  workspaceEndUsers,
});
/** 0 when the request may go ahead, else its Retry-After in seconds. */
const waitOf = (refused: DomainError | undefined) => {
  if (!refused) return 0;
  assert.equal(refused.code, 'RATE_LIMITED');
  return refused.retryAfter;
};

describe('RequestRates: the organization', () => {
  test('a burst of twice the rate, then one request per 1/rate seconds', () => {
    let ms = 0;
    const rates = new RequestRates(limits(10), () => ms);
    for (let i = 0; i < 20; i++) assert.equal(waitOf(rates.organization('org')), 0, `request ${i + 1}`);
    assert.equal(waitOf(rates.organization('org')), 1);
    ms += 100;
    assert.equal(waitOf(rates.organization('org')), 0, 'a tenth of a second buys one request at 10/s');
    assert.equal(waitOf(rates.organization('org')), 1);
    assert.equal(waitOf(rates.organization('other')), 0, 'organizations have their own buckets');
    assert.match(
      rates.organization('org')?.message ?? '',
      /more than 10 requests per second \(CES_MAX_REQUESTS_PER_SECOND\)/,
    );
  });

  test('Retry-After covers the time to the next whole token', () => {
    let ms = 0;
    const rates = new RequestRates(limits(0.5), () => ms);
    assert.equal(waitOf(rates.organization('org')), 0);
    assert.equal(waitOf(rates.organization('org')), 2, 'at one request per 2 s');
    ms += 1000;
    assert.equal(waitOf(rates.organization('org')), 1);
  });

  test('0 is off', () => {
    const rates = new RequestRates(limits(0), () => 0);
    for (let i = 0; i < 10_000; i++) assert.equal(waitOf(rates.organization('org')), 0);
    assert.equal(rates.size, 0);
  });
});

describe('RequestRates: end users', () => {
  const user = (tokenId: string, workspaceId = 'ws-1', organizationId = 'org'): EndUser => ({
    organizationId,
    workspaceId,
    tokenId,
  });

  test("end users never draw on the organization's own bucket", () => {
    const rates = new RequestRates(limits(2, 1000, 1000), () => 0);
    for (let i = 0; i < 4; i++) assert.equal(waitOf(rates.endUser(user('t1'))), 0);
    // The end users' shared bucket (at the organization's rate) is empty; the backend's is full.
    assert.match(rates.endUser(user('t2'))?.message ?? '', /end users of this organization/);
    for (let i = 0; i < 4; i++)
      assert.equal(waitOf(rates.organization('org')), 0, `backend request ${i + 1}`);
    assert.equal(waitOf(rates.organization('org')), 1);
  });

  test('per widget token, then per workspace: one end user cannot take the workspace, nor one workspace the rest', () => {
    let ms = 0;
    const rates = new RequestRates(limits(0, 2, 3), () => ms);
    for (let i = 0; i < 4; i++) assert.equal(waitOf(rates.endUser(user('t1'))), 0);
    const own = rates.endUser(user('t1'));
    assert.equal(waitOf(own), 1);
    assert.match(own?.message ?? '', /connect page .*CES_MAX_END_USER_REQUESTS_PER_SECOND/);
    // The workspace (6 a burst) has 2 left for its other end users.
    assert.equal(waitOf(rates.endUser(user('t2'))), 0);
    assert.equal(waitOf(rates.endUser(user('t3'))), 0);
    const shared = rates.endUser(user('t4'));
    assert.match(shared?.message ?? '', /workspace .*CES_MAX_WORKSPACE_END_USER_REQUESTS_PER_SECOND/);
    // Another workspace is untouched.
    assert.equal(waitOf(rates.endUser(user('t5', 'ws-2'))), 0);
    ms += 1000;
    assert.equal(waitOf(rates.endUser(user('t4'))), 0);
  });

  test("a refused request spends nothing: a token's refusal leaves its workspace's share alone", () => {
    const rates = new RequestRates(limits(0, 1, 2), () => 0);
    assert.equal(waitOf(rates.endUser(user('t1'))), 0);
    assert.equal(waitOf(rates.endUser(user('t1'))), 0);
    for (let i = 0; i < 50; i++) assert.ok(rates.endUser(user('t1')), 'the token is over its rate');
    // Two of the workspace's four are left, however often t1 was refused.
    assert.equal(waitOf(rates.endUser(user('t2'))), 0);
    assert.equal(waitOf(rates.endUser(user('t2'))), 0);
    assert.ok(rates.endUser(user('t3')));
  });

  test('buckets of idle widget tokens are dropped: memory follows the tokens in use', () => {
    let ms = 0;
    const rates = new RequestRates(limits(1000, 10, 1000), () => ms);
    for (let i = 0; i < 1000; i++) rates.endUser(user(`t${i}`, `ws-${i % 10}`));
    assert.equal(rates.size, 1000 + 10 + 1);
    ms += 10_000;
    rates.endUser(user('fresh'));
    assert.equal(rates.size, 3, 'only the fresh token, its workspace and its organization are held');
  });
});
