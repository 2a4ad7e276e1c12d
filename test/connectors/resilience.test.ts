// The runtime against a misbehaving upstream (test/fakes/faulty): what each fault gives the caller, how
// often the upstream is asked, and that the runtime keeps working afterwards. Waits go through a fake clock,
// so the retry schedule is asserted exactly and no test sleeps for seconds.
import assert from 'node:assert/strict';
import { after, afterEach, before, beforeEach, describe, it } from 'node:test';
import { ConnectorRuntime, type ExecuteInput } from '../../src/connectors/runtime/executor.ts';
import { parseRecords } from '../../src/connectors/runtime/payload.ts';
import type { ConnectorDefinition } from '../../src/connectors/schema.ts';
import { DomainError } from '../../src/errors.ts';
import { faultyDefinition } from '../fakes/faulty/definition.ts';
import { type FaultyServer, startFaultyServer } from '../fakes/faulty/index.ts';
import { FakeClock } from '../helpers/fake-clock.ts';
import { waitFor } from '../helpers/wait.ts';

const TOKEN = 'planted-tok_9f8e7d6c5b4a';
const CREDENTIALS = { option: 'Token', values: { token: TOKEN } };

// max_concurrency 1 makes a leaked slot visible: the next request would wait and fail.
const DEF = faultyDefinition(`
retry: { max_attempts: 3, initial_delay_ms: 100, max_delay_ms: 1000, max_retry_after_ms: 5000 }
max_concurrency: 1
`);
const OK = { kind: 'json', body: { items: [{ id: 1 }] } } as const;

function expectError(code: string, check?: (err: DomainError) => void) {
  return (err: unknown) => {
    assert.ok(err instanceof DomainError, String(err));
    assert.equal(err.code, code, err.message);
    const everything = JSON.stringify({
      message: err.message,
      extra: err.extra,
      errors: err.errors,
      stack: err.stack,
      cause: String(err.cause),
    });
    assert.ok(!everything.includes(TOKEN), `credential leaked: ${everything}`);
    check?.(err);
    return true;
  };
}

describe('upstream resilience', () => {
  let fake: FaultyServer;
  let clock: FakeClock;
  let rt: ConnectorRuntime;
  const make = (timeoutMs = 2000) =>
    new ConnectorRuntime({
      cursorKey: new Uint8Array(32).fill(3),
      upstreamOverrides: { faulty: fake.url },
      timeoutMs,
      clock,
    });
  const exec = (over: Partial<ExecuteInput> = {}, runtime = rt) =>
    runtime.execute({
      connectorId: 'conn-1',
      definition: DEF,
      credentials: CREDENTIALS,
      config: {},
      entity: 'items',
      action: 'list',
      params: {},
      ...over,
    });

  before(async () => {
    fake = await startFaultyServer();
  });
  after(async () => {
    await fake.close();
  });
  beforeEach(() => {
    fake.reset();
    clock = new FakeClock();
    rt = make();
  });
  afterEach(async () => {
    await rt.close();
    assert.deepEqual(fake.unexpected, [], 'the upstream got more requests than scripted');
    for (const r of fake.requests) assert.equal(r.headers.authorization, `Bearer ${TOKEN}`);
  });

  it('waits out a 429 Retry-After (seconds) and then succeeds', async () => {
    fake.script({ kind: 'json', status: 429, headers: { 'retry-after': '2' }, body: { message: 'slow' } });
    fake.script(OK);
    assert.deepEqual(parseRecords((await exec()).payload), [{ id: 1 }]);
    assert.equal(fake.requests.length, 2);
    assert.deepEqual(clock.sleeps, [2000]);
  });

  it('waits out a 429 Retry-After given as an HTTP date', async () => {
    const at = new Date(Math.ceil((clock.now() + 3000) / 1000) * 1000);
    fake.script({ kind: 'json', status: 429, headers: { 'retry-after': at.toUTCString() }, body: {} });
    fake.script(OK);
    await exec();
    assert.equal(clock.sleeps.length, 1);
    assert.ok(clock.sleeps[0]! >= 3000 && clock.sleeps[0]! <= 4000, String(clock.sleeps));
  });

  it('fails fast with retry_after when Retry-After exceeds max_retry_after_ms, leaving the client to decide', async () => {
    fake.script({ kind: 'json', status: 429, headers: { 'retry-after': '60' }, body: { message: 'later' } });
    await assert.rejects(
      exec(),
      expectError('UPSTREAM_RATE_LIMITED', (e) => assert.equal(e.retryAfter, 60)),
    );
    assert.equal(fake.requests.length, 1);
    assert.deepEqual(clock.sleeps, []);
  });

  it('retries 503 twice with growing jittered backoff, then succeeds', async () => {
    fake.script({ kind: 'json', status: 503, body: { message: 'busy' } }, 2);
    fake.script(OK);
    assert.deepEqual(parseRecords((await exec()).payload), [{ id: 1 }]);
    assert.equal(fake.requests.length, 3);
    // Full jitter with random() = 0.5: half of 100 ms, then half of 200 ms.
    assert.deepEqual(clock.sleeps, [50, 100]);
  });

  it('honours Retry-After on a 503 too', async () => {
    fake.script({ kind: 'json', status: 503, headers: { 'retry-after': '1' }, body: {} });
    fake.script(OK);
    await exec();
    assert.deepEqual(clock.sleeps, [1000]);
  });

  it('gives up after max_attempts on persistent 500/502/503', async () => {
    for (const [status, code] of [
      [500, 'UPSTREAM_ERROR'],
      [502, 'UPSTREAM_UNAVAILABLE'],
      [503, 'UPSTREAM_UNAVAILABLE'],
    ] as const) {
      fake.reset();
      fake.script({ kind: 'json', status, body: { message: `boom ${TOKEN}` } }, 3);
      await assert.rejects(
        exec(),
        expectError(code, (e) => {
          const upstream = e.extra?.upstream as { status: number; body: Record<string, unknown> };
          assert.equal(upstream.status, status);
          assert.deepEqual(upstream.body, { message: 'boom [redacted]' });
        }),
      );
      assert.equal(fake.requests.length, 3, `HTTP ${status}`);
    }
  });

  it('never retries 4xx other than 429, nor 501', async () => {
    for (const [status, code] of [
      [400, 'INVALID_PARAMS'],
      [401, 'UPSTREAM_AUTH_FAILED'],
      [404, 'UPSTREAM_NOT_FOUND'],
      [409, 'UPSTREAM_ERROR'],
      [501, 'UPSTREAM_ERROR'],
    ] as const) {
      fake.reset();
      fake.script({ kind: 'json', status, body: { message: `no: Bearer ${TOKEN}` } });
      await assert.rejects(exec(), expectError(code));
      assert.equal(fake.requests.length, 1, `HTTP ${status}`);
    }
  });

  it('never repeats a POST, even on 503 or a reset connection', async () => {
    const create = { action: 'create', params: { title: 't' } };
    fake.script({ kind: 'json', status: 503, body: {} });
    await assert.rejects(exec(create), expectError('UPSTREAM_UNAVAILABLE'));
    fake.script({ kind: 'reset' });
    await assert.rejects(exec(create), expectError('UPSTREAM_ERROR'));
    assert.equal(fake.requests.length, 2);
    assert.deepEqual(clock.sleeps, []);
  });

  it('retries a POST the definition declares idempotent', async () => {
    fake.script({ kind: 'json', status: 503, body: {} });
    fake.script(OK);
    const search = { action: 'api_search', params: { query: 'q' } };
    assert.deepEqual(parseRecords((await exec(search)).payload), [{ id: 1 }]);
    assert.equal(fake.requests.length, 2);
    assert.equal(fake.requests[1]!.body, fake.requests[0]!.body);
  });

  it('reports a hang past the timeout as UPSTREAM_TIMEOUT, without retrying it', async () => {
    await rt.close();
    rt = make(200);
    fake.script({ kind: 'hang' });
    await assert.rejects(
      exec(),
      expectError('UPSTREAM_TIMEOUT', (e) => assert.match(e.message, /Faulty did not answer within 200 ms/)),
    );
    assert.equal(fake.requests.length, 1);
  });

  it('retries a connection reset before or during the body, then succeeds', async () => {
    fake.script({ kind: 'reset' });
    fake.script({ kind: 'reset_mid_body' });
    fake.script(OK);
    assert.deepEqual(parseRecords((await exec()).payload), [{ id: 1 }]);
    assert.equal(fake.requests.length, 3);
  });

  it('gives a clear error when the connection keeps resetting mid-body', async () => {
    fake.script({ kind: 'reset_mid_body' }, 3);
    await assert.rejects(
      exec(),
      expectError('UPSTREAM_BAD_RESPONSE', (e) =>
        assert.match(e.message, /Faulty closed the connection before the response was complete/),
      ),
    );
    assert.equal(fake.requests.length, 3);
  });

  it('reports a truncated body (Content-Length larger than sent) as UPSTREAM_BAD_RESPONSE', async () => {
    fake.script({ kind: 'truncate' }, 3);
    await assert.rejects(exec(), expectError('UPSTREAM_BAD_RESPONSE'));
    assert.equal(fake.requests.length, 3);
  });

  it('reports invalid JSON as UPSTREAM_BAD_RESPONSE at once: the same bytes would come back', async () => {
    fake.script({ kind: 'raw', body: '{"items": [1, 2' });
    await assert.rejects(
      exec(),
      expectError('UPSTREAM_BAD_RESPONSE', (e) => assert.match(e.message, /not valid JSON \(HTTP 200/)),
    );
    fake.script({ kind: 'raw', body: '<html>Bad Gateway</html>', headers: { 'content-type': 'text/html' } });
    await assert.rejects(
      exec(),
      expectError('UPSTREAM_BAD_RESPONSE', (e) => assert.match(e.message, /HTTP 200, text\/html/)),
    );
    assert.equal(fake.requests.length, 2);
  });

  it('keeps working after every kind of fault (no slot of the concurrency limit leaks)', async () => {
    await rt.close();
    rt = make(300);
    const faults = [
      { kind: 'hang' },
      { kind: 'reset' },
      { kind: 'reset_mid_body' },
      { kind: 'truncate' },
      { kind: 'raw', body: 'garbage' },
      { kind: 'json', status: 500, body: {} },
    ] as const;
    for (const fault of faults) {
      fake.script(fault, 3);
      await assert.rejects(exec());
      fake.reset();
    }
    fake.script(OK);
    assert.deepEqual(parseRecords((await exec()).payload), [{ id: 1 }]);
  });

  it('retries the credential check too', async () => {
    fake.script({ kind: 'json', status: 502, body: {} });
    fake.script({ kind: 'json', body: { id: 1 } });
    await rt.checkCredentials(DEF, CREDENTIALS, {}, 'conn-1');
    assert.equal(fake.requests.length, 2);
  });
});

describe('per-connector limits', () => {
  let fake: FaultyServer;
  let clock: FakeClock;
  const runtime = (timeoutMs = 2000) =>
    new ConnectorRuntime({
      cursorKey: new Uint8Array(32).fill(3),
      upstreamOverrides: { faulty: fake.url },
      timeoutMs,
      clock,
    });
  const exec = (rt: ConnectorRuntime, definition: ConnectorDefinition, connectorId = 'conn-1') =>
    rt.execute({
      connectorId,
      definition,
      credentials: CREDENTIALS,
      config: {},
      entity: 'items',
      action: 'list',
      params: {},
    });

  before(async () => {
    fake = await startFaultyServer();
  });
  after(async () => {
    await fake.close();
  });
  beforeEach(() => {
    fake.reset();
    clock = new FakeClock();
  });
  afterEach(() => assert.deepEqual(fake.unexpected, []));

  it('keeps at most max_concurrency requests of one connector in flight', async () => {
    const def = faultyDefinition('max_concurrency: 2');
    const rt = runtime();
    try {
      fake.script({ ...OK, delayMs: 40 }, 6);
      const results = await Promise.all([
        ...Array.from({ length: 5 }, () => exec(rt, def)),
        exec(rt, def, 'conn-2'),
      ]);
      assert.equal(results.length, 6);
      // Five for conn-1 (two at a time) plus one for conn-2, which has its own slots.
      assert.equal(fake.maxInFlight, 3);
    } finally {
      await rt.close();
    }
  });

  it('fails with UPSTREAM_BUSY when no slot frees up before the deadline', async () => {
    const def = faultyDefinition('max_concurrency: 1\nretry: { max_attempts: 1 }');
    const rt = runtime(1200);
    try {
      fake.script({ kind: 'hang' });
      // Its failure is awaited at the end, but handled from the start: on a slow machine the first request may
      // time out before the second has been refused, and an unhandled rejection would fail whichever test runs.
      const first = assert.rejects(exec(rt, def), expectError('UPSTREAM_TIMEOUT'));
      await waitFor('the first request to reach the upstream', async () =>
        fake.requests.length === 1 ? true : undefined,
      );
      await assert.rejects(
        exec(rt, def),
        expectError('UPSTREAM_BUSY', (e) => {
          assert.match(e.message, /1 requests to Faulty are still in progress/);
          assert.equal(e.retryAfter, 1);
        }),
      );
      await first;
      assert.equal(fake.requests.length, 1);
    } finally {
      await rt.close();
    }
  });

  it('holds a connector to its declared rate_limit, waiting for a token within the deadline', async () => {
    const def = faultyDefinition('rate_limit: { requests: 2, per_seconds: 1 }');
    clock = new FakeClock(() => 1_000_000); // frozen: only the runtime's own waits move time
    const rt = runtime();
    try {
      fake.script(OK, 3);
      await exec(rt, def);
      await exec(rt, def);
      assert.deepEqual(clock.sleeps, []);
      await exec(rt, def);
      // A bucket of 2 refilling 2 per second: the third token comes 500 ms later.
      assert.deepEqual(clock.sleeps, [500]);
      assert.equal(fake.requests.length, 3);
    } finally {
      await rt.close();
    }
  });

  it('refuses without asking the upstream when the token would come after the deadline', async () => {
    const def = faultyDefinition('rate_limit: { requests: 2, per_seconds: 60 }');
    clock = new FakeClock(() => 1_000_000);
    const rt = runtime();
    try {
      fake.script(OK, 4);
      await exec(rt, def);
      await exec(rt, def);
      await assert.rejects(
        exec(rt, def),
        expectError('UPSTREAM_RATE_LIMITED', (e) => {
          assert.equal(e.retryAfter, 30);
          assert.match(e.message, /2 per 60 s per connector/);
        }),
      );
      assert.equal(fake.requests.length, 2);
      // Another connector of the same type has its own bucket.
      await exec(rt, def, 'conn-2');
      assert.equal(fake.requests.length, 3);
      // The refusal took no token: once retry_after has passed the connector may send again.
      clock.advance(30_000);
      await exec(rt, def);
      assert.equal(fake.requests.length, 4);
    } finally {
      await rt.close();
    }
  });
});
