import assert from 'node:assert/strict';
import type { LookupAddress } from 'node:dns';
import { describe, it } from 'node:test';
import { loadConfig } from '../../../src/config/index.ts';
import {
  checkLiteralHost,
  classifyAddress,
  EgressDeniedError,
  EgressPolicy,
  guardedLookup,
  PUBLIC_ONLY,
  type Resolver,
} from '../../../src/connectors/runtime/egress.ts';
import { transportError } from '../../../src/connectors/runtime/http.ts';

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

  it('refuses a name without answers the same way as one resolving to a refused address', async () => {
    const nothing = (await call('nothing.test', false)).err;
    assert.ok(nothing instanceof EgressDeniedError);
    assert.equal(nothing.resolved, true);
    assert.equal(nothing.addressClass, 'unresolved');
    const failing = guardedLookup((host, cb) =>
      cb(Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' }), []),
    );
    const err = await new Promise<unknown>((resolve) => failing('gone.test', {}, (e) => resolve(e)));
    assert.ok(err instanceof EgressDeniedError);
    assert.equal(err.transient, false);
  });
});

describe('EgressPolicy (CES_EGRESS_ALLOW)', () => {
  const policy = (raw: string) => new EgressPolicy(loadConfig({ CES_EGRESS_ALLOW: raw }).egressAllow);

  it('a host entry matches the name exactly, case aside, and its port or the scheme default', () => {
    const p = policy('GHE.corp.example:443,files.corp.example,10.0.0.5:8443,[fd00::1]:80');
    assert.equal(p.allowsHost('https:', 'ghe.corp.example', ''), true);
    assert.equal(p.allowsHost('https:', 'GHE.CORP.EXAMPLE', '443'), true);
    assert.equal(p.allowsHost('http:', 'ghe.corp.example', ''), false, 'http defaults to 80');
    assert.equal(p.allowsHost('https:', 'ghe.corp.example', '8443'), false);
    assert.equal(p.allowsHost('https:', 'x.ghe.corp.example', ''), false, 'no suffix match');
    assert.equal(p.allowsHost('https:', 'ghe.corp.example.', ''), false);
    assert.equal(p.allowsHost('http:', 'files.corp.example', '9000'), true, 'no port: any port');
    assert.equal(p.allowsHost('https:', '10.0.0.5', '8443'), true);
    assert.equal(p.allowsHost('https:', '10.0.0.5', ''), false);
    assert.equal(p.allowsHost('http:', '[fd00:0::1]', ''), true, 'IPv6 in any spelling');
    assert.equal(p.allowsHost('http:', 'fd00::1', '81'), false);
    assert.equal(PUBLIC_ONLY.allowsHost('https:', 'ghe.corp.example', ''), false);
  });

  it('a CIDR entry accepts the addresses inside it and nothing else', () => {
    const p = policy('10.20.0.0/16, 192.168.1.128/25, fd00:1234::/32, 127.0.0.1/32');
    assert.equal(p.refusal('10.20.255.1'), null);
    assert.equal(p.refusal('10.21.0.1'), 'private');
    assert.equal(p.refusal('192.168.1.128'), null);
    assert.equal(p.refusal('192.168.1.127'), 'private');
    assert.equal(p.refusal('fd00:1234:ffff::9'), null);
    assert.equal(p.refusal('fd00:1235::9'), 'unique-local');
    assert.equal(p.refusal('127.0.0.1'), null);
    assert.equal(p.refusal('127.0.0.2'), 'loopback');
    assert.equal(p.refusal('::ffff:10.20.0.1'), 'ipv4-mapped', 'an IPv4 range does not cover mapped IPv6');
    assert.equal(p.refusal('140.82.112.6'), null, 'public stays allowed');
    assert.equal(policy('0.0.0.0/0').refusal('169.254.169.254'), null, 'the operator may open everything');
    assert.equal(PUBLIC_ONLY.refusal('10.20.0.1'), 'private');
  });

  it('checkLiteralHost accepts a literal named by a host entry or inside a range', () => {
    const p = policy('127.0.0.1:8080,10.0.0.0/8');
    checkLiteralHost(new URL('http://127.0.0.1:8080/'), p);
    checkLiteralHost(new URL('https://10.1.2.3/'), p);
    checkLiteralHost(new URL('https://0x0a.0.0.1/'), p);
    assert.throws(() => checkLiteralHost(new URL('http://127.0.0.1:8081/'), p), EgressDeniedError);
    assert.throws(() => checkLiteralHost(new URL('http://127.0.0.1/'), p), EgressDeniedError);
    assert.throws(() => checkLiteralHost(new URL('http://192.168.0.1:8080/'), p), EgressDeniedError);
  });

  it('guardedLookup accepts a name whose every address is public or in a range', async () => {
    const answers: Record<string, LookupAddress[]> = {
      'inside.test': [{ address: '10.1.0.7', family: 4 }],
      'straddle.test': [
        { address: '10.1.0.7', family: 4 },
        { address: '192.168.0.7', family: 4 },
      ],
    };
    const lookup = guardedLookup((host, cb) => cb(null, answers[host] ?? []), policy('10.1.0.0/16'));
    const call = (host: string) =>
      new Promise<{ err: unknown; address: unknown }>((resolve) =>
        lookup(host, {}, (err, address) => resolve({ err, address })),
      );
    assert.deepEqual(await call('inside.test'), { err: null, address: '10.1.0.7' });
    const straddle = await call('straddle.test');
    assert.ok(straddle.err instanceof EgressDeniedError);
    assert.equal(straddle.err.addressClass, 'private');
  });
});

describe('EGRESS_DENIED as the caller sees it', () => {
  const provider = 'Acme';
  const ctx = (host: string) => ({
    timedOut: false,
    stage: 'connect' as const,
    provider,
    timeoutMs: 1,
    host,
  });
  const denied = async (resolver: Resolver, host: string) => {
    const lookup = guardedLookup(resolver);
    const err = await new Promise<unknown>((resolve) => lookup(host, {}, (e) => resolve(e)));
    const out = transportError(err, ctx(host));
    return { code: out.code, message: out.message, extra: out.extra };
  };

  it('does not tell a name resolving to a private address from one that does not resolve', async () => {
    const host = 'build.corp.example';
    const resolving = await denied((_h, cb) => cb(null, [{ address: '10.0.0.7', family: 4 }]), host);
    const missing = await denied(
      (h, cb) => cb(Object.assign(new Error(`getaddrinfo ENOTFOUND ${h}`), { code: 'ENOTFOUND' }), []),
      host,
    );
    const empty = await denied((_h, cb) => cb(null, []), host);
    assert.equal(resolving.code, 'EGRESS_DENIED');
    assert.deepEqual(missing, resolving);
    assert.deepEqual(empty, resolving);
    assert.match(resolving.message, /CES_EGRESS_ALLOW/);
    assert.doesNotMatch(resolving.message, /private address|10\.0\.0\.7|ENOTFOUND|resolve/);
    assert.deepEqual(resolving.extra, { host });
  });

  it('a literal non-public address is a plain refusal naming its class', () => {
    let thrown: unknown;
    try {
      checkLiteralHost(new URL('http://169.254.169.254/latest/meta-data'));
    } catch (err) {
      thrown = err;
    }
    const out = transportError(thrown, ctx('169.254.169.254'));
    assert.equal(out.code, 'EGRESS_DENIED');
    assert.match(out.message, /169\.254\.169\.254 is not a public address.*CES_EGRESS_ALLOW/);
    assert.deepEqual(out.extra, { host: '169.254.169.254', address_class: 'link-local' });
  });
});
