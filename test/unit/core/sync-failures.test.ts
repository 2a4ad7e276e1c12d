// Which failed sync passes are retried with backoff, delayed or failed at once (src/core/sync/failures.ts), from
// the upstream answer itself: each row is an HTTP response GitHub can send, turned into the DomainError the
// runtime throws (the definition's error rules, then the default table), or a transport failure as the HTTP
// client reports it.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DefinitionRegistry } from '../../../src/connectors/registry.ts';
import { transportError } from '../../../src/connectors/runtime/http.ts';
import { classifyResponse, upstreamError } from '../../../src/connectors/runtime/upstream-errors.ts';
import { failureKind, MAX_ATTEMPTS, retryPlan } from '../../../src/core/sync/failures.ts';
import { DomainError } from '../../../src/errors.ts';

const github = DefinitionRegistry.default().bySlug('github');
assert.ok(github);
const NOW = Date.parse('2026-03-02T10:00:00Z');
const INTERVAL = 3_600_000;

function answer(status: number, body: unknown, headers: Record<string, string> = {}) {
  assert.ok(github);
  const res = {
    status,
    headers,
    body: Buffer.from(JSON.stringify(body)),
    url: new URL('https://api.github.com/repos/o/r/pulls'),
  };
  const kind = classifyResponse(res, body, github.errors);
  assert.ok(kind, `HTTP ${status} is a failure`);
  return upstreamError(kind, res, body, {
    def: github,
    operation: 'pull_requests.list',
    secrets: [],
    now: () => NOW,
    entity: 'pull_requests',
  });
}
const notFound = { message: 'Not Found', documentation_url: 'https://docs.github.com/rest', status: '404' };
const transport = (code: string, stage: 'connect' | 'body' = 'connect', timedOut = false) =>
  transportError(Object.assign(new Error(code), { code }), {
    timedOut,
    stage,
    provider: 'GitHub',
    timeoutMs: 30_000,
    host: 'api.github.com',
  });

type Expect = ['refused'] | ['transient'] | ['rate_limited', number];
const CASES: Array<[string, () => unknown, Expect]> = [
  ['404 Not Found (a token without the permission)', () => answer(404, notFound), ['refused']],
  ['410 Gone', () => answer(410, { message: 'Issues are disabled for this repo' }), ['refused']],
  ['422 on a list', () => answer(422, { message: 'Validation Failed', errors: [] }), ['refused']],
  ['400 Bad Request', () => answer(400, { message: 'Problems parsing JSON' }), ['refused']],
  ['401 Bad credentials', () => answer(401, { message: 'Bad credentials' }), ['refused']],
  [
    '403 without a rate-limit sign',
    () =>
      answer(
        403,
        { message: 'Resource not accessible by personal access token' },
        { 'x-ratelimit-remaining': '4999' },
      ),
    ['refused'],
  ],
  ['405 Method Not Allowed', () => answer(405, { message: 'Not allowed' }), ['refused']],
  [
    '403 with x-ratelimit-remaining 0 (primary limit)',
    () =>
      answer(
        403,
        { message: 'API rate limit exceeded for user ID 1.' },
        { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(NOW / 1000 + 120) },
      ),
    ['rate_limited', 120_000],
  ],
  [
    '403 whose message names the secondary limit',
    () => answer(403, { message: 'You have exceeded a secondary rate limit.' }),
    ['rate_limited', 60_000],
  ],
  [
    '403 with retry-after alone (secondary limit)',
    () => answer(403, { message: 'Forbidden' }, { 'retry-after': '30' }),
    ['rate_limited', 30_000],
  ],
  [
    '429 with retry-after',
    () => answer(429, { message: 'Too Many Requests' }, { 'retry-after': '7' }),
    ['rate_limited', 7000],
  ],
  ['409 Conflict', () => answer(409, { message: 'Git Repository is empty.' }), ['transient']],
  ['408 Request Timeout', () => answer(408, { message: 'Timeout' }), ['transient']],
  ['500 Internal Server Error', () => answer(500, { message: 'Server Error' }), ['transient']],
  ['502 Bad Gateway', () => answer(502, {}), ['transient']],
  ['503 Service Unavailable', () => answer(503, {}), ['transient']],
  ['504 Gateway Timeout', () => answer(504, {}), ['transient']],
  ['a timeout', () => transport('UND_ERR_HEADERS_TIMEOUT', 'connect', true), ['transient']],
  ['a connection reset', () => transport('ECONNRESET'), ['transient']],
  ['a connection refused', () => transport('ECONNREFUSED'), ['transient']],
  ['a body cut short', () => transport('UND_ERR_SOCKET', 'body'), ['transient']],
  ['a busy connector', () => new DomainError('UPSTREAM_BUSY', 'busy', { retryAfter: 2 }), ['transient']],
  ['re-authorisation needed', () => new DomainError('CONNECTOR_REAUTH_REQUIRED', 'x'), ['refused']],
  ['params ces refuses', () => new DomainError('INVALID_PARAMS', 'x'), ['refused']],
  ['not a DomainError (a bug)', () => new TypeError('x is undefined'), ['transient']],
];

describe('sync failures: refused, transient or rate limited', () => {
  for (const [name, make, [kind, waitMs]] of CASES) {
    it(`${name}: ${kind}`, () => {
      const err = make();
      assert.equal(failureKind(err), kind);
      const first = retryPlan(err, 0, INTERVAL);
      if (kind === 'refused') {
        // Failed at once, due again at the next interval, with the failure count reset.
        assert.deepEqual(first, { outcome: 'failed', delayMs: INTERVAL, attempts: 0 });
      } else if (kind === 'transient') {
        assert.deepEqual(first, { outcome: 'retry', delayMs: 5000, attempts: 1 });
        assert.deepEqual(retryPlan(err, 1, INTERVAL), { outcome: 'retry', delayMs: 10_000, attempts: 2 });
        assert.deepEqual(retryPlan(err, MAX_ATTEMPTS - 1, INTERVAL), {
          outcome: 'failed',
          delayMs: INTERVAL,
          attempts: 0,
        });
      } else {
        // Only delayed, however often: the failure count stays as it was.
        assert.deepEqual(first, { outcome: 'rate_limited', delayMs: waitMs, attempts: 0 });
        assert.deepEqual(retryPlan(err, MAX_ATTEMPTS - 1, INTERVAL).outcome, 'rate_limited');
      }
    });
  }

  it('the refusal of a list names what the token lacks (the entity’s permission_hint)', () => {
    const err = answer(404, notFound);
    assert.ok(err instanceof DomainError);
    assert.equal(err.code, 'UPSTREAM_NOT_FOUND');
    assert.match(err.message, /repository permission "Pull requests" \(read\)/);
    assert.match(err.message, /classic token needs the repo scope/);
  });
});
