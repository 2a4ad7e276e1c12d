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
