// Callers queued behind a connector's full concurrency slots (its own requests to a hung upstream) wait at most
// CES_UPSTREAM_QUEUE_WAIT_MS, and never past their deadline, then get 503 UPSTREAM_BUSY with Retry-After: the
// connector is busy, no rate limit was reached, so it is not a 429.
import assert from 'node:assert/strict';
import { after, afterEach, before, beforeEach, describe, test } from 'node:test';
import { ConnectorRuntime } from '../../src/connectors/runtime/executor.ts';
import { DomainError } from '../../src/errors.ts';
import { faultyDefinition } from '../fakes/faulty/definition.ts';
import { type FaultyServer, startFaultyServer } from '../fakes/faulty/index.ts';
import { FakeClock } from '../helpers/fake-clock.ts';
import type { InjectResult } from '../helpers/harness.ts';
import { waitFor } from '../helpers/wait.ts';
import { assertError } from '../http/assertions.ts';
import { createGithubConnector, type GithubFake, type Harness, startWithGithub } from './github/harness.ts';

/** One slot per connector, three attempts: a deadline of 3 × timeoutMs, far longer than the queue budget. */
const DEF = faultyDefinition('max_concurrency: 1\nretry: { max_attempts: 3 }');

function busy(check: (err: DomainError) => void) {
  return (err: unknown) => {
    assert.ok(err instanceof DomainError, String(err));
    assert.equal(err.code, 'UPSTREAM_BUSY', err.message);
    assert.equal(err.retryAfter, 1);
    assert.match(err.message, /This connector's 1 requests to Faulty are still in progress/);
    check(err);
    return true;
  };
}

describe('queue wait in the runtime', () => {
  let fake: FaultyServer;
  let rt: ConnectorRuntime;
  const runtime = (timeoutMs: number, queueWaitMs: number) =>
    new ConnectorRuntime({
      cursorKey: new Uint8Array(32).fill(3),
      upstreamOverrides: { faulty: fake.url },
      timeoutMs,
      queueWaitMs,
      clock: new FakeClock(),
    });
  const exec = () =>
    rt.execute({
      connectorId: 'conn-1',
      definition: DEF,
      credentials: { option: 'Token', values: { token: 't' } },
      config: {},
      entity: 'items',
      action: 'list',
      params: {},
    });

  before(async () => {
    fake = await startFaultyServer();
  });
  after(() => fake.close());
  beforeEach(() => fake.reset());
  afterEach(async () => {
    await rt.close();
    assert.deepEqual(fake.unexpected, []);
  });

  test('a caller queued behind a hung request gets UPSTREAM_BUSY after the queue budget, long before its deadline', async () => {
    rt = runtime(1500, 100);
    fake.script({ kind: 'hang' });
    // Handled from the start (awaited at the end): on a slow machine the first request may time out before the
    // second has been refused, and an unhandled rejection would fail whichever test is running.
    const first = assert.rejects(
      exec(),
      (err: unknown) => err instanceof DomainError && err.code === 'UPSTREAM_TIMEOUT',
    );
    await waitFor('the first request to reach the upstream', async () =>
      fake.requests.length === 1 ? true : undefined,
    );
    // The deadline is 3 × 1500 ms; the wait ends at the 100 ms queue budget.
    await assert.rejects(
      exec(),
      busy((e) => assert.match(e.message, /none finished within 100 ms/)),
    );
    assert.equal(fake.requests.length, 1, 'the queued request must not reach the upstream');
    await first;
  });

  test('the queue wait also ends with the request’s own deadline', async () => {
    // One attempt of 1200 ms leaves 200 ms for queueing (the last 1000 ms are kept for the attempt itself).
    rt = runtime(1200, 60_000);
    fake.script({ kind: 'hang' });
    const first = assert.rejects(exec()); // handled from the start, as above
    await waitFor('the first request to reach the upstream', async () =>
      fake.requests.length === 1 ? true : undefined,
    );
    const single = { ...DEF, retry: { max_attempts: 1 } };
    await assert.rejects(
      rt.execute({
        connectorId: 'conn-1',
        definition: single,
        credentials: { option: 'Token', values: { token: 't' } },
        config: {},
        entity: 'items',
        action: 'list',
        params: {},
      }),
      busy((e) => {
        const waited = Number(/within (\d+) ms/.exec(e.message)?.[1]);
        assert.ok(waited > 0 && waited <= 200, e.message);
      }),
    );
    await first;
  });
});

describe('queue wait over HTTP', () => {
  let h: Harness;
  let fake: GithubFake;
  let close: () => Promise<unknown>;
  let token: string;
  let id: string;
  const list = () =>
    h.inject({
      method: 'POST',
      url: `/api/v1/integrations/connectors/${id}/execute`,
      token,
      body: { entity: 'issues', action: 'list', params: { owner: 'ces-demo', repo: 'widgets' } },
    });

  before(async () => {
    ({ h, fake, close } = await startWithGithub(undefined, {
      CES_UPSTREAM_QUEUE_WAIT_MS: '200',
      CES_UPSTREAM_TIMEOUT_MS: '20000',
    }));
    token = await h.token();
    const res = await createGithubConnector(h, token);
    assert.equal(res.status, 200, res.body);
    id = res.json.id;
  });
  after(() => close());

  test('with every slot taken by a hung upstream, the next execute gets 503 UPSTREAM_BUSY with Retry-After, not 429', async () => {
    const slots = h.deps.registry.bySlug('github')!.max_concurrency!;
    const before = fake.requests.length;
    fake.failNext({ hang: true, times: slots, match: '/repos/ces-demo/widgets/issues' });
    const hung: Array<Promise<InjectResult>> = [];
    for (let i = 0; i < slots; i++) hung.push(list());
    await waitFor('every slot to be taken', async () =>
      fake.requests.length === before + slots ? true : undefined,
    );
    const res = await list();
    assertError(res, 503, 'UPSTREAM_BUSY');
    assert.equal(res.headers['retry-after'], '1');
    assert.match(
      res.json.message,
      new RegExp(`This connector's ${slots} requests to GitHub are still in progress .* within 200 ms`),
    );
    assert.equal(fake.requests.length, before + slots, 'the queued request must not reach the upstream');
    // Closing the fake ends the hung requests (with an upstream error, whatever it is); none may be a 5xx of ours.
    await fake.close();
    for (const done of await Promise.all(hung)) assert.notEqual(done.status, 500, done.body);
  });
});
