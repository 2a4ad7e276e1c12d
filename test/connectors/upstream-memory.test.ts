// Memory under large upstream answers: the process-wide buffer budget (CES_UPSTREAM_BUFFER_BYTES) and the per-call
// cap (CES_UPSTREAM_MAX_RESPONSE_BYTES), through the HTTP API and the runtime, against an upstream whose answers
// are held after their first bytes until the test lets them finish (test/fakes/large-answers), so which answers
// hold the budget is decided by the test, never by timing.
import assert from 'node:assert/strict';
import { after, afterEach, before, beforeEach, describe, test } from 'node:test';
import { DefinitionRegistry } from '../../src/connectors/registry.ts';
import type { ConnectorRuntime } from '../../src/connectors/runtime/executor.ts';
import { parseRecords } from '../../src/connectors/runtime/payload.ts';
import { DomainError } from '../../src/errors.ts';
import { issuesBody, type LargeAnswersFake, startLargeAnswersFake } from '../fakes/large-answers/index.ts';
import { runtimeFor } from '../helpers/fake-runtime.ts';
import { type Harness, type InjectResult, startHarness } from '../helpers/harness.ts';
import { waitFor } from '../helpers/wait.ts';
import { assertError } from '../http/assertions.ts';
import { GITHUB_FAKE_DEFAULT_TOKEN } from './github/fake/index.ts';
import { createGithubConnector, startWithGithub } from './github/harness.ts';

const CAP = 65_536;
const BUDGET = 100_000;
/** Two of these fit in the budget at once, a third does not. */
const ANSWER = 40_000;
const ISSUES_PER_ANSWER = (JSON.parse(issuesBody(ANSWER).toString()) as unknown[]).length;
const LIST = { entity: 'issues', action: 'list', params: { owner: 'o', repo: 'r' } };

describe('buffer budget and per-call cap over HTTP', () => {
  let h: Harness;
  let fake: LargeAnswersFake;
  let token: string;
  let id: string;
  const exec = (body: unknown = LIST) =>
    h.inject({ method: 'POST', url: `/api/v1/integrations/connectors/${id}/execute`, token, body });
  const held = () => h.deps.runtime.bufferUse.held;

  before(async () => {
    fake = await startLargeAnswersFake();
    h = await startHarness({
      CES_UPSTREAM_OVERRIDES: JSON.stringify({ github: fake.url }),
      CES_UPSTREAM_MAX_RESPONSE_BYTES: String(CAP),
      CES_UPSTREAM_BUFFER_BYTES: String(BUDGET),
      CES_UPSTREAM_QUEUE_WAIT_MS: '300',
    });
    token = await h.token();
    const res = await createGithubConnector(h, token);
    assert.equal(res.status, 200, res.body);
    id = res.json.id;
  });
  after(async () => {
    fake.release();
    await h.close();
    await fake.close();
  });
  afterEach(async () => {
    assert.deepEqual(fake.unhandled, [], 'the fake got requests nothing was scripted for');
    // Every reservation is given back once the replies are written.
    await waitFor('the buffer budget to be released', async () => (held() === 0 ? true : undefined));
  });

  test('answers beyond the budget wait, then get 503 SERVER_BUSY with Retry-After; the budget returns to 0', async () => {
    fake.script({ bytes: ANSWER, holdAfter: 1000 }, 6);
    const results: InjectResult[] = [];
    const calls = Array.from({ length: 6 }, () =>
      exec().then((res) => {
        results.push(res);
        return res;
      }),
    );
    // Two answers are admitted and stay unfinished; the other four wait for room, and give up.
    await waitFor('four answers to be refused', async () => (results.length >= 4 ? true : undefined));
    assert.equal(results.length, 4, 'an admitted answer finished before the fake let it');
    for (const res of results) {
      assertError(res, 503, 'SERVER_BUSY');
      assert.equal(res.headers['retry-after'], '1');
      assert.match(res.json.message, new RegExp(`${BUDGET} bytes, CES_UPSTREAM_BUFFER_BYTES`));
      assert.match(res.json.message, new RegExp(`GitHub's ${ANSWER}-byte answer came free within 300 ms`));
    }
    // The admitted two reserved their whole declared length before reading it.
    assert.equal(held(), 2 * ANSWER);
    fake.release();
    const all = await Promise.all(calls);
    const ok = all.filter((res) => res.status === 200);
    assert.equal(ok.length, 2, JSON.stringify(all.map((r) => r.status)));
    for (const res of ok) assert.equal(res.json.result.length, ISSUES_PER_ANSWER);
    assert.deepEqual(all.map((r) => r.status).sort(), [200, 200, 503, 503, 503, 503]);
  });

  test('a Content-Length over the cap is refused before reading: 502 UPSTREAM_RESPONSE_TOO_LARGE naming the cap', async () => {
    // Only the headers are ever sent: reading the body would hang until the upstream timeout.
    fake.script({ bytes: 1000, declaredLength: CAP + 1, holdAfter: 0 });
    const res = await exec();
    assertError(res, 502, 'UPSTREAM_RESPONSE_TOO_LARGE');
    assert.match(
      res.json.message,
      new RegExp(
        `an answer of ${CAP + 1} bytes, more than the ${CAP} bytes .*\\(CES_UPSTREAM_MAX_RESPONSE_BYTES\\)`,
      ),
    );
  });

  test('a chunked answer is cut off at the cap: 502 UPSTREAM_RESPONSE_TOO_LARGE naming the cap', async () => {
    fake.script({ bytes: 3 * CAP, contentLength: false });
    const res = await exec();
    assertError(res, 502, 'UPSTREAM_RESPONSE_TOO_LARGE');
    assert.match(
      res.json.message,
      new RegExp(`an answer larger than the ${CAP} bytes .*\\(CES_UPSTREAM_MAX_RESPONSE_BYTES\\)`),
    );
    // Just under the cap passes, chunked or not.
    fake.script({ bytes: CAP - 10, contentLength: false });
    fake.script({ bytes: CAP - 10 });
    assert.equal((await exec()).status, 200);
    assert.equal((await exec()).status, 200);
  });

  test('an answer without Content-Length reserves a first step, then what it reads; trimmed replies give theirs back too', async () => {
    fake.script({ bytes: ANSWER, contentLength: false, holdAfter: 10 });
    const first = exec();
    await waitFor('the chunked answer to be held', async () => (fake.holding === 1 ? true : undefined));
    await waitFor('its first step', async () => (held() === CAP ? true : undefined));
    fake.release();
    assert.equal((await first).status, 200);
    fake.script({ bytes: 5000 }, 3);
    for (let i = 0; i < 3; i++) {
      const res = await exec({ ...LIST, select_fields: ['number'] });
      assert.equal(res.status, 200, res.body);
      assert.deepEqual(res.json.result[0], { number: 1 });
    }
  });
});

describe('buffer budget in the runtime', () => {
  const github = DefinitionRegistry.default().bySlug('github')!;
  const PAT = { option: 'PAT Credentials', values: { personal_access_token: GITHUB_FAKE_DEFAULT_TOKEN } };
  let fake: LargeAnswersFake;
  let rt: ConnectorRuntime;
  const exec = (connectorId = 'conn-a') =>
    rt.execute({
      connectorId,
      definition: github,
      credentials: PAT,
      config: { repositories: ['o/r'] },
      ...LIST,
    });

  beforeEach(async () => {
    fake = await startLargeAnswersFake();
  });
  afterEach(async () => {
    fake.release();
    await rt.close();
    await fake.close();
    assert.deepEqual(fake.unhandled, []);
  });

  test('an answer waits for room while the budget is full, and goes through once it frees up', async () => {
    rt = runtimeFor('github', fake.url, { bufferBudgetBytes: BUDGET, queueWaitMs: 20_000 });
    fake.script({ bytes: ANSWER, holdAfter: 1000 }, 2);
    fake.script({ bytes: ANSWER });
    const calls = [exec('conn-a'), exec('conn-b'), exec('conn-c')];
    await waitFor('the third answer to wait for room', async () =>
      rt.bufferUse.waiting === 1 && fake.holding === 2 ? true : undefined,
    );
    assert.equal(rt.bufferUse.held, 2 * ANSWER);
    fake.release();
    const outputs = await Promise.all(calls);
    for (const out of outputs)
      assert.equal((parseRecords(out.payload) as unknown[]).length, ISSUES_PER_ANSWER);
    // Without `holdUntil` the bytes are given back when execute returns.
    assert.deepEqual(rt.bufferUse, { held: 0, waiting: 0 });
  });

  test('a small answer that fits goes ahead of a large one waiting for room', async () => {
    rt = runtimeFor('github', fake.url, { bufferBudgetBytes: BUDGET, queueWaitMs: 20_000 });
    fake.script({ bytes: ANSWER, holdAfter: 1000 }, 2);
    fake.script({ bytes: ANSWER });
    // At most 1/32 of the budget counts as small.
    fake.script({ bytes: 3000 });
    const large = [exec('conn-a'), exec('conn-b'), exec('conn-c')];
    await waitFor('the third large answer to wait for room', async () =>
      rt.bufferUse.waiting === 1 && fake.holding === 2 ? true : undefined,
    );
    const small = await exec('conn-d');
    assert.equal(
      (parseRecords(small.payload) as unknown[]).length,
      (JSON.parse(issuesBody(3000).toString()) as unknown[]).length,
    );
    assert.deepEqual(rt.bufferUse, { held: 2 * ANSWER, waiting: 1 });
    fake.release();
    await Promise.all(large);
    assert.deepEqual(rt.bufferUse, { held: 0, waiting: 0 });
  });

  test('with holdUntil the answer stays counted until the reply carrying it is done, failed calls at once', async () => {
    rt = runtimeFor('github', fake.url, { bufferBudgetBytes: BUDGET });
    fake.script({ bytes: ANSWER });
    let replied!: () => void;
    const holdUntil = new Promise<void>((resolve) => {
      replied = resolve;
    });
    const out = await rt.execute({
      connectorId: 'conn-a',
      definition: github,
      credentials: PAT,
      config: { repositories: ['o/r'] },
      ...LIST,
      holdUntil,
    });
    assert.equal((parseRecords(out.payload) as unknown[]).length, ISSUES_PER_ANSWER);
    assert.equal(rt.bufferUse.held, ANSWER);
    replied();
    await holdUntil;
    assert.equal(rt.bufferUse.held, 0);
    fake.script({ bytes: 1000, declaredLength: CAP * 1024 });
    await assert.rejects(
      rt.execute({
        connectorId: 'conn-a',
        definition: github,
        credentials: PAT,
        config: { repositories: ['o/r'] },
        ...LIST,
        holdUntil: new Promise<void>(() => {}),
      }),
      (err: unknown) => err instanceof DomainError && err.code === 'UPSTREAM_RESPONSE_TOO_LARGE',
    );
    assert.equal(rt.bufferUse.held, 0);
  });

  test('an answer without Content-Length that outgrows the budget while being read fails at once: it holds bytes, so it may not wait', async () => {
    rt = runtimeFor('github', fake.url, {
      bufferBudgetBytes: 200_000,
      maxResponseBytes: 150_000,
      queueWaitMs: 20_000,
    });
    fake.script({ bytes: 100_000, holdAfter: 1000 });
    fake.script({ bytes: 120_000, contentLength: false });
    const first = exec('conn-a');
    await waitFor('the first answer to be held', async () => (fake.holding === 1 ? true : undefined));
    await assert.rejects(exec('conn-b'), (err: unknown) => {
      assert.ok(err instanceof DomainError, String(err));
      assert.equal(err.code, 'SERVER_BUSY', err.message);
      assert.equal(err.retryAfter, 1);
      assert.match(err.message, /ran out of room while reading GitHub's answer/);
      return true;
    });
    assert.deepEqual(rt.bufferUse, { held: 100_000, waiting: 0 });
    fake.release();
    await first;
    assert.deepEqual(rt.bufferUse, { held: 0, waiting: 0 });
  });

  test('a budget smaller than the per-call cap is the cap, and the message names it', async () => {
    rt = runtimeFor('github', fake.url, { bufferBudgetBytes: 50_000, maxResponseBytes: CAP });
    fake.script({ bytes: 60_000 });
    await assert.rejects(exec(), (err: unknown) => {
      assert.ok(err instanceof DomainError, String(err));
      assert.equal(err.code, 'UPSTREAM_RESPONSE_TOO_LARGE', err.message);
      assert.match(err.message, /more than the 50000 bytes .*\(CES_UPSTREAM_BUFFER_BYTES\)/);
      return true;
    });
    assert.equal(rt.bufferUse.held, 0);
  });
});

describe('buffer budget and the Context Store sync', () => {
  test('a backfill and many executes leave nothing reserved', async () => {
    const { h, close } = await startWithGithub(undefined, { CES_SYNC_POLL_MS: '20' });
    try {
      const token = await h.token();
      const created = await createGithubConnector(h, token);
      assert.equal(created.status, 200, created.body);
      const id = created.json.id;
      await h.deps.worker.start();
      await waitFor('the backfill', async () => {
        const r = await h.inject({
          method: 'GET',
          url: `/api/v1/integrations/connectors/${id}/inspect`,
          token,
        });
        return r.json.context_store.status === 'Ready' ? true : undefined;
      });
      const calls = Array.from({ length: 20 }, (_, i) =>
        h.inject({
          method: 'POST',
          url: `/api/v1/integrations/connectors/${id}/execute`,
          token,
          body: {
            entity: 'issues',
            action: i % 2 === 0 ? 'list' : 'get',
            params: {
              owner: 'ces-demo',
              repo: 'widgets',
              ...(i % 2 === 0 ? { per_page: 5 } : { number: i }),
            },
          },
        }),
      );
      for (const res of await Promise.all(calls)) assert.equal(res.status, 200, res.body);
      await h.deps.worker.stop();
      await waitFor('the buffer budget to be released', async () =>
        h.deps.runtime.bufferUse.held === 0 ? true : undefined,
      );
      assert.deepEqual(h.deps.runtime.bufferUse, { held: 0, waiting: 0 });
    } finally {
      await h.deps.worker.stop();
      await close();
    }
  });
});
