import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  backoffDelay,
  DEFAULT_RETRY,
  type Outcome,
  type RetryOptions,
  retryPolicy,
  retryWait,
  withRetry,
} from '../../../src/connectors/runtime/retry.ts';
import { DomainError } from '../../../src/errors.ts';
import { FakeClock } from '../../helpers/fake-clock.ts';

const policy = { max_attempts: 4, initial_delay_ms: 100, max_delay_ms: 1000, max_retry_after_ms: 5000 };

function options(clock: FakeClock, over: Partial<RetryOptions> = {}): RetryOptions {
  return { policy, idempotent: true, clock, deadline: clock.now() + 60_000, minAttemptMs: 100, ...over };
}

describe('backoffDelay (full jitter)', () => {
  it('is uniform in [0, min(max, initial * 2^(retry-1))): the ceiling doubles, then is capped', () => {
    const ceilings = [100, 200, 400, 800, 1000, 1000];
    ceilings.forEach((ceiling, i) => {
      assert.equal(
        backoffDelay(i + 1, policy, () => 0),
        0,
      );
      assert.equal(
        backoffDelay(i + 1, policy, () => 0.5),
        ceiling / 2,
      );
      assert.equal(
        backoffDelay(i + 1, policy, () => 0.999999),
        ceiling - 1,
      );
    });
  });

  it('stays within bounds for any random draw and spreads its values', () => {
    const seen = new Set<number>();
    for (let i = 0; i < 2000; i++) {
      const d = backoffDelay(3, policy, Math.random);
      assert.ok(d >= 0 && d < 400 && Number.isInteger(d), String(d));
      seen.add(Math.floor(d / 100));
    }
    assert.deepEqual([...seen].sort(), [0, 1, 2, 3]);
  });

  it('defaults every policy key', () => {
    assert.deepEqual(retryPolicy(undefined), DEFAULT_RETRY);
    assert.deepEqual(retryPolicy({ max_attempts: 1 }), { ...DEFAULT_RETRY, max_attempts: 1 });
  });
});

describe('retryWait', () => {
  const clock = new FakeClock(() => 0, 0.5);
  const retryable = { retryable: true };

  it('backs off when the upstream gave no Retry-After', () => {
    assert.equal(retryWait(retryable, 1, options(clock)), 50);
    assert.equal(retryWait(retryable, 2, options(clock)), 100);
  });

  it('waits exactly the Retry-After up to the cap, and not at all beyond it', () => {
    assert.equal(retryWait({ retryable: true, retryAfterMs: 5000 }, 1, options(clock)), 5000);
    assert.equal(retryWait({ retryable: true, retryAfterMs: 5001 }, 1, options(clock)), null);
  });

  it('never retries a non-idempotent request, a final failure, or past max_attempts', () => {
    assert.equal(retryWait(retryable, 1, options(clock, { idempotent: false })), null);
    assert.equal(retryWait({ retryable: false }, 1, options(clock)), null);
    assert.equal(retryWait(retryable, 3, options(clock)), 100 * 2 ** 2 * 0.5);
    assert.equal(retryWait(retryable, 4, options(clock)), null);
  });

  it('does not start a wait that would leave less than minAttemptMs before the deadline', () => {
    const wait = { retryable: true, retryAfterMs: 2000 };
    assert.equal(retryWait(wait, 1, options(clock, { deadline: 2100 })), 2000);
    assert.equal(retryWait(wait, 1, options(clock, { deadline: 2099 })), null);
  });
});

describe('withRetry', () => {
  const failure = (code: 'UPSTREAM_UNAVAILABLE' | 'UPSTREAM_RATE_LIMITED', retryAfterMs?: number) =>
    ({
      ok: false,
      error: new DomainError(code, `failed: ${code}`),
      retryable: true,
      retryAfterMs,
    }) satisfies Outcome<never>;

  it('repeats until success, sleeping between attempts', async () => {
    const clock = new FakeClock(() => 0, 0.5);
    const results: Outcome<string>[] = [
      failure('UPSTREAM_UNAVAILABLE'),
      failure('UPSTREAM_RATE_LIMITED', 1000),
    ];
    let calls = 0;
    const value = await withRetry(async () => {
      calls++;
      return results.shift() ?? { ok: true, value: 'done' };
    }, options(clock));
    assert.equal(value, 'done');
    assert.equal(calls, 3);
    assert.deepEqual(clock.sleeps, [50, 1000]);
  });

  it("throws the last attempt's error after max_attempts", async () => {
    const clock = new FakeClock(() => 0, 0.5);
    let calls = 0;
    await assert.rejects(
      withRetry(async (n) => {
        calls++;
        return {
          ...failure('UPSTREAM_UNAVAILABLE'),
          error: new DomainError('UPSTREAM_UNAVAILABLE', `try ${n}`),
        };
      }, options(clock)),
      /try 4/,
    );
    assert.equal(calls, 4);
    assert.equal(clock.sleeps.length, 3);
  });

  it('sends a non-idempotent request once', async () => {
    const clock = new FakeClock(() => 0);
    let calls = 0;
    await assert.rejects(
      withRetry(
        async () => {
          calls++;
          return failure('UPSTREAM_UNAVAILABLE');
        },
        options(clock, { idempotent: false }),
      ),
      /UPSTREAM_UNAVAILABLE/,
    );
    assert.equal(calls, 1);
    assert.deepEqual(clock.sleeps, []);
  });
});
