import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseDefinition } from '../../../src/connectors/load.ts';
import type { UpstreamResponse } from '../../../src/connectors/runtime/http.ts';
import { httpFailure } from '../../../src/connectors/runtime/resilience.ts';
import { classifyResponse, upstreamError } from '../../../src/connectors/runtime/upstream-errors.ts';
import type { ConnectorDefinition } from '../../../src/connectors/schema.ts';
import { ACME_YAML, acme } from './helpers.ts';

const NOW = Date.UTC(2025, 0, 15, 12, 0, 0);
const now = () => NOW;

function response(status: number, headers: Record<string, string> = {}): UpstreamResponse {
  return { status, headers, body: Buffer.from('{}'), url: new URL('https://x.acme.example/api') };
}

/** Classifies as the executor does and returns the retry decision. */
function decide(
  def: ConnectorDefinition,
  status: number,
  headers: Record<string, string> = {},
  body: unknown = {},
) {
  const res = response(status, headers);
  const kind = classifyResponse(res, body, def.errors);
  assert.ok(kind, `HTTP ${status} should be an error`);
  const error = upstreamError(kind, res, body, { def, operation: 'things.list', secrets: [], now });
  const outcome = httpFailure(kind, res, error, now);
  assert.equal(outcome.ok, false);
  return outcome as Extract<typeof outcome, { ok: false }>;
}

describe('retry decisions for upstream HTTP errors', () => {
  const def = acme();

  it('reads Retry-After in seconds and as an HTTP date', () => {
    assert.equal(decide(def, 429, { 'retry-after': '7' }).retryAfterMs, 7000);
    const inTen = new Date(NOW + 10_000).toUTCString();
    assert.equal(decide(def, 429, { 'retry-after': inTen }).retryAfterMs, 10_000);
  });

  it('treats a past date or zero as "retry soon" (1 s), never as a negative wait', () => {
    const past = new Date(NOW - 60_000).toUTCString();
    assert.equal(decide(def, 429, { 'retry-after': past }).retryAfterMs, 1000);
    assert.equal(decide(def, 429, { 'retry-after': '0' }).retryAfterMs, 1000);
  });

  it('ignores a garbage Retry-After (then backoff applies) unless the definition declares a default', () => {
    const garbage = decide(def, 429, { 'retry-after': 'soon-ish' });
    assert.equal(garbage.retryable, true);
    assert.equal(garbage.retryAfterMs, undefined);
    const withDefault = parseDefinition(
      ACME_YAML.replace('errors:\n', 'errors:\n  retry_after_default_seconds: 60\n'),
      'acme.yaml',
    );
    assert.equal(decide(withDefault, 429, { 'retry-after': 'soon-ish' }).retryAfterMs, 60_000);
  });

  it("reuses the definition's reset headers for rate limits (the provider's own reset time)", () => {
    assert.equal(decide(def, 429, { 'x-reset-ms': String(NOW + 4_500) }).retryAfterMs, 5000);
  });

  it('retries 5xx (honouring a plain Retry-After) but not 501, 4xx or errors inside a 200', () => {
    assert.deepEqual(
      [500, 502, 503, 504].map((s) => decide(def, s).retryable),
      [true, true, true, true],
    );
    assert.equal(decide(def, 503, { 'retry-after': '3' }).retryAfterMs, 3000);
    assert.equal(decide(def, 503).retryAfterMs, undefined);
    for (const status of [400, 401, 403, 404, 409, 422, 501]) {
      assert.equal(decide(def, status).retryable, false, `HTTP ${status}`);
    }
    assert.equal(decide(def, 200, {}, { ok: false }).retryable, false);
  });

  it('follows the kind a definition rule assigns: a rule can make a 403 retryable or a 500 final', () => {
    const ruled = parseDefinition(
      ACME_YAML.replace(
        '  rules:\n',
        '  rules:\n' +
          '    - when: { status: [403], header: { name: x-remaining, equals: "0" } }\n' +
          '      error: rate_limited\n' +
          '    - when: { status: [500], body: { path: [code], equals: bad_input } }\n' +
          '      error: invalid_params\n',
      ),
      'acme.yaml',
    );
    const limited = decide(ruled, 403, { 'x-remaining': '0', 'retry-after': '2' });
    assert.deepEqual(
      [limited.error.code, limited.retryable, limited.retryAfterMs],
      ['UPSTREAM_RATE_LIMITED', true, 2000],
    );
    const final = decide(ruled, 500, {}, { code: 'bad_input' });
    assert.deepEqual([final.error.code, final.retryable], ['INVALID_PARAMS', false]);
  });
});

describe('definition format: retry, max_concurrency, rate_limit, idempotent', () => {
  const withTop = (yaml: string) => ACME_YAML.replace('entities:\n', `${yaml}\nentities:\n`);

  it('accepts the declarations', () => {
    const def = parseDefinition(
      withTop(
        'retry: { max_attempts: 5, initial_delay_ms: 100, max_delay_ms: 2000, max_retry_after_ms: 0 }\n' +
          'max_concurrency: 4\nrate_limit: { requests: 700, per_seconds: 60 }',
      ).replace(
        'request: { method: POST, path: "/folders/{folder}/things" }',
        'request: { method: POST, path: "/folders/{folder}/things", idempotent: true }',
      ),
      'acme.yaml',
    );
    assert.deepEqual(def.retry, {
      max_attempts: 5,
      initial_delay_ms: 100,
      max_delay_ms: 2000,
      max_retry_after_ms: 0,
    });
    assert.equal(def.max_concurrency, 4);
    assert.deepEqual(def.rate_limit, { requests: 700, per_seconds: 60 });
    assert.equal(def.entities[0]!.actions.create!.request.idempotent, true);
  });

  it('rejects nonsense with the path of the problem', () => {
    const cases: Array<[string, RegExp]> = [
      ['retry: { max_attempts: 0 }', /\/retry\/max_attempts/],
      ['retry: { attempts: 3 }', /\/retry/],
      ['max_concurrency: 0', /\/max_concurrency/],
      ['rate_limit: { requests: 10, per_seconds: 0 }', /\/rate_limit\/per_seconds/],
      ['rate_limit: { requests: 10 }', /\/rate_limit/],
    ];
    for (const [yaml, where] of cases) {
      assert.throws(() => parseDefinition(withTop(yaml), 'acme.yaml'), where, yaml);
    }
  });
});
