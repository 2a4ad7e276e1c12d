import assert from 'node:assert/strict';
import type { LookupAddress } from 'node:dns';
import { describe, it } from 'node:test';
import {
  checkLiteralHost,
  classifyAddress,
  EgressDeniedError,
  guardedLookup,
} from '../../../src/connectors/runtime/egress.ts';

describe('classifyAddress', () => {
  const cases: Array<[string, string]> = [
    ['140.82.112.6', 'public'],
    ['8.8.8.8', 'public'],
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['172.32.0.1', 'public'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'link-local'],
    ['100.64.0.1', 'cgnat'],
    ['100.127.255.254', 'cgnat'],
    ['100.128.0.1', 'public'],
    ['224.0.0.251', 'multicast'],
    ['0.0.0.0', 'unspecified'],
    ['255.255.255.255', 'reserved'],
    ['192.0.2.10', 'reserved'],
    ['2606:50c0:8000::154', 'public'],
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['[::1]', 'loopback'],
    ['::ffff:127.0.0.1', 'ipv4-mapped'],
    ['::ffff:8.8.8.8', 'ipv4-mapped'],
    ['::ffff:7f00:1', 'ipv4-mapped'],
    ['fc00::1', 'unique-local'],
    ['fd12:3456:789a::1', 'unique-local'],
    ['fe80::1%eth0', 'link-local'],
    ['ff02::1', 'multicast'],
    ['64:ff9b::a00:1', 'private'],
    ['64:ff9b::808:808', 'public'],
    ['2002:7f00:1::', 'loopback'],
    ['2001:db8::1', 'reserved'],
    ['not-an-ip', 'invalid'],
  ];
  for (const [ip, expected] of cases) {
    it(`${ip} is ${expected}`, () => assert.equal(classifyAddress(ip), expected));
  }
});

describe('checkLiteralHost', () => {
  it('refuses literal non-public hosts in any spelling the URL parser normalises', () => {
    for (const raw of [
      'http://127.0.0.1:8080/',
      'http://[::1]/',
      'http://2130706433/',
      'http://0x7f.1/',
      'http://[::ffff:10.0.0.1]/',
    ]) {
      assert.throws(() => checkLiteralHost(new URL(raw)), EgressDeniedError, raw);
    }
    checkLiteralHost(new URL('https://140.82.112.6/'));
    checkLiteralHost(new URL('https://api.github.com/'));
  });
});

describe('guardedLookup', () => {
  const resolverFor =
    (answers: Record<string, LookupAddress[]>) =>
    (host: string, cb: (err: Error | null, a: LookupAddress[]) => void) =>
      cb(null, answers[host] ?? []);
  const lookup = guardedLookup(
    resolverFor({
      'public.test': [{ address: '140.82.112.6', family: 4 }],
      'rebind.test': [{ address: '10.0.0.7', family: 4 }],
      'mixed.test': [
        { address: '140.82.112.6', family: 4 },
        { address: '::1', family: 6 },
      ],
    }),
  );
  const call = (host: string, all: boolean) =>
    new Promise<{ err: unknown; address: unknown; family?: unknown }>((resolve) =>
      lookup(host, { all }, (err, address, family) => resolve({ err, address, family })),
    );

  it('passes public answers through in both callback shapes', async () => {
    assert.deepEqual(await call('public.test', false), { err: null, address: '140.82.112.6', family: 4 });
    const all = await call('public.test', true);
    assert.deepEqual(all.address, [{ address: '140.82.112.6', family: 4 }]);
  });

  it('refuses a name resolving to a private address, and one hiding it among public ones', async () => {
    const rebind = await call('rebind.test', false);
    assert.ok(rebind.err instanceof EgressDeniedError);
    assert.equal(rebind.err.addressClass, 'private');
    assert.ok((await call('mixed.test', true)).err instanceof EgressDeniedError);
  });

  it('reports a name without answers as not found', async () => {
    assert.equal(((await call('nothing.test', false)).err as { code?: string }).code, 'ENOTFOUND');
  });
});
