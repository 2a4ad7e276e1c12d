import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config/index.ts';

test('defaults give the embedded setup on 127.0.0.1:8080 with ./data', () => {
  const c = loadConfig({}, '/srv/app');
  assert.equal(c.host, '127.0.0.1');
  assert.equal(c.port, 8080);
  assert.equal(c.dataDir, '/srv/app/data');
  assert.equal(c.databaseFile, '/srv/app/data/ces.db');
  assert.equal(c.tokenTtlSeconds, 900);
  assert.equal(c.scopedTokenTtlSeconds, 1200);
  assert.deepEqual(c.upstreamOverrides, {});
});

test('every bad variable is listed at once', () => {
  try {
    loadConfig({
      CES_PORT: 'eighty',
      CES_MASTER_KEY: 'c2hvcnQ=',
      CES_UPSTREAM_OVERRIDES: '{"github": "ftp://x"}',
      CES_LOG_LEVEL: 'loud',
      CES_BOOTSTRAP: 'maybe',
    });
    assert.fail('expected a ConfigError');
  } catch (err) {
    assert.ok(err instanceof ConfigError);
    const text = err.message;
    for (const name of [
      'CES_PORT',
      'CES_MASTER_KEY',
      'CES_UPSTREAM_OVERRIDES.github',
      'CES_LOG_LEVEL',
      'CES_BOOTSTRAP',
    ]) {
      assert.ok(text.includes(name), `${name} missing from: ${text}`);
    }
    assert.equal(err.problems.length, 5);
  }
});

test('overrides are parsed and trailing slashes dropped', () => {
  const c = loadConfig({ CES_UPSTREAM_OVERRIDES: '{"github":"http://127.0.0.1:9999/"}' });
  assert.deepEqual(c.upstreamOverrides, { github: 'http://127.0.0.1:9999' });
  assert.throws(() => loadConfig({ CES_UPSTREAM_OVERRIDES: 'not json' }), /JSON object/);
});

test('CES_EGRESS_ALLOW: host names, host:port, IP literals and CIDR ranges', () => {
  const c = loadConfig({
    CES_EGRESS_ALLOW:
      ' GHE.corp.example:8443 ,files.corp.example,, 10.0.0.5, 10.0.0.6:80, [FD00::1]:443, fd00::2, 10.20.0.0/16, FD00:AB::/32, localhost ',
  });
  assert.deepEqual(c.egressAllow, [
    { kind: 'host', host: 'ghe.corp.example', port: 8443 },
    { kind: 'host', host: 'files.corp.example' },
    { kind: 'host', host: '10.0.0.5' },
    { kind: 'host', host: '10.0.0.6', port: 80 },
    { kind: 'host', host: 'fd00::1', port: 443 },
    { kind: 'host', host: 'fd00::2' },
    { kind: 'cidr', address: '10.20.0.0', prefix: 16, family: 4 },
    { kind: 'cidr', address: 'fd00:ab::', prefix: 32, family: 6 },
    { kind: 'host', host: 'localhost' },
  ]);
  assert.deepEqual(loadConfig({}).egressAllow, []);
  assert.deepEqual(loadConfig({ CES_EGRESS_ALLOW: ' , ' }).egressAllow, []);
});

test('CES_EGRESS_ALLOW: every bad entry is named at once', () => {
  const bad = [
    'ghe.corp:0',
    'ghe.corp:65536',
    'ghe.corp:https',
    '10.0.0.0/33',
    'fd00::/129',
    '10.0.0.0/',
    'ghe.corp/24',
    '[10.0.0.1]:80',
    '*.corp.example',
    'http://ghe.corp',
    'under_score.corp',
    '-lead.corp',
  ];
  try {
    loadConfig({ CES_EGRESS_ALLOW: ['ok.corp.example', ...bad].join(',') });
    assert.fail('expected a ConfigError');
  } catch (err) {
    assert.ok(err instanceof ConfigError);
    assert.equal(err.problems.length, bad.length, err.message);
    for (const entry of bad) assert.ok(err.message.includes(JSON.stringify(entry)), `${entry} missing`);
    assert.ok(err.problems.every((p) => p.startsWith('CES_EGRESS_ALLOW entry ')));
  }
});

test("CES_RATE_LIMIT_OVERRIDES replaces or removes a connector type's proactive limit, and names bad entries", () => {
  const config = loadConfig({
    CES_RATE_LIMIT_OVERRIDES: JSON.stringify({ slack: { requests: 100, per_seconds: 60 }, notion: null }),
  });
  assert.deepEqual(config.rateLimitOverrides, { slack: { requests: 100, per_seconds: 60 }, notion: null });
  assert.deepEqual(loadConfig({}).rateLimitOverrides, {});
  for (const [value, expected] of [
    ['[]', /CES_RATE_LIMIT_OVERRIDES must be a JSON object/],
    ['{"slack": {"requests": 0, "per_seconds": 1}}', /CES_RATE_LIMIT_OVERRIDES\.slack must be null or/],
    ['{"slack": {"requests": 5}}', /CES_RATE_LIMIT_OVERRIDES\.slack must be null or/],
  ] as const) {
    assert.throws(() => loadConfig({ CES_RATE_LIMIT_OVERRIDES: value }), expected);
  }
});

test('CES_DATABASE_URL switches to PostgreSQL in CES_DATABASE_SCHEMA; CES_ROLE picks what the process runs', () => {
  const lite = loadConfig({}, '/srv/app');
  assert.equal(lite.database, null);
  assert.equal(lite.role, 'all');
  const c = loadConfig({ CES_DATABASE_URL: 'postgres://ces:pw@db:5432/ces', CES_ROLE: 'worker' });
  assert.deepEqual(c.database, { url: 'postgres://ces:pw@db:5432/ces', schema: 'public', poolSize: 10 });
  assert.equal(c.role, 'worker');
  const schema = loadConfig({
    CES_DATABASE_URL: 'postgresql://db/ces',
    CES_DATABASE_SCHEMA: 'ces_prod',
    CES_DATABASE_POOL_SIZE: '40',
  });
  assert.equal(schema.database?.schema, 'ces_prod');
  assert.equal(schema.database?.poolSize, 40);
  assert.throws(
    () => loadConfig({ CES_DATABASE_URL: 'postgres://db/ces', CES_DATABASE_POOL_SIZE: '1' }),
    /CES_DATABASE_POOL_SIZE must be an integer from 2 to 200/,
  );
  assert.throws(
    () =>
      loadConfig({
        CES_DATABASE_URL: 'mysql://root:hunter2@db/ces',
        CES_ROLE: 'everything',
      }),
    (err: Error) => {
      assert.ok(err instanceof ConfigError);
      assert.match(err.message, /CES_DATABASE_URL must be a postgres/);
      assert.match(err.message, /CES_ROLE must be all, api or worker/);
      // The URL may hold a password: it is never echoed.
      assert.ok(!err.message.includes('hunter2'));
      return true;
    },
  );
  assert.throws(
    () => loadConfig({ CES_DATABASE_URL: 'postgres://db/ces', CES_DATABASE_SCHEMA: 'Bad-Name"' }),
    /CES_DATABASE_SCHEMA must be a lower-case SQL name/,
  );
  assert.throws(() => loadConfig({ CES_DATABASE_SCHEMA: 'x' }), /CES_DATABASE_SCHEMA needs CES_DATABASE_URL/);
});
