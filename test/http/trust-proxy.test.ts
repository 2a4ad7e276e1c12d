// CES_TRUST_PROXY: behind a reverse proxy every request comes from the proxy's address, so the per-address limit on
// failed token requests would throttle every client together. Naming the proxy makes ces count each client under
// its X-Forwarded-For address; without it the header is ignored (a client can't choose its own address).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { loadConfig } from '../../src/config/index.ts';
import { startHarness } from '../helpers/harness.ts';
import { assertError } from './assertions.ts';

const TOKEN_URL = '/api/v1/account/applications/token';
const LIMITS = { CES_TOKEN_FAILURES_PER_ADDRESS: '3', CES_TOKEN_FAILURES_PER_CLIENT: '1000' };

async function guessesFrom(env: Record<string, string>) {
  const h = await startHarness({ ...LIMITS, ...env });
  let n = 0;
  const guess = (forwardedFor: string) =>
    h.inject({
      method: 'POST',
      url: TOKEN_URL,
      headers: { 'x-forwarded-for': forwardedFor },
      // A new client id each time: only the per-address limit can apply.
      body: { client_id: `guess-${n++}`, client_secret: 'wrong' },
    });
  try {
    for (let i = 0; i < 3; i++) assertError(await guess('203.0.113.5'), 401, 'INVALID_CLIENT_CREDENTIALS');
    return { sameClient: await guess('203.0.113.5'), otherClient: await guess('203.0.113.6') };
  } finally {
    await h.close();
  }
}

describe('CES_TRUST_PROXY', () => {
  test('with the proxy named, each forwarded client has its own failure count', async () => {
    const { sameClient, otherClient } = await guessesFrom({ CES_TRUST_PROXY: '127.0.0.1' });
    assertError(sameClient, 429, 'RATE_LIMITED');
    assertError(otherClient, 401, 'INVALID_CLIENT_CREDENTIALS');
  });

  test('by default X-Forwarded-For is ignored: the peer address counts', async () => {
    const { sameClient, otherClient } = await guessesFrom({});
    assertError(sameClient, 429, 'RATE_LIMITED');
    assertError(otherClient, 429, 'RATE_LIMITED');
  });

  test('values are parsed and bad ones listed', () => {
    assert.equal(loadConfig({}).trustProxy, false);
    assert.equal(loadConfig({ CES_TRUST_PROXY: 'true' }).trustProxy, true);
    assert.deepEqual(loadConfig({ CES_TRUST_PROXY: '10.0.0.0/8, 192.0.2.7' }).trustProxy, [
      '10.0.0.0/8',
      '192.0.2.7',
    ]);
    assert.throws(
      () => loadConfig({ CES_TRUST_PROXY: 'proxy.local,10.0.0.0/99' }),
      /CES_TRUST_PROXY .*"proxy.local", "10.0.0.0\/99"/,
    );
  });
});
