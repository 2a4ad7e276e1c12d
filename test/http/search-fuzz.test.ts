// Property-based fuzz of the Context Store search language through the HTTP execute endpoint: random filters,
// sorts, limits and cursors, well-formed and not (unknown names, wrong types, junk values, prototype keys,
// nesting far past the limit). Whatever comes in, the answer is a 200 or a 4xx with the documented error body,
// never a 5xx, and the process keeps serving.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { createGithubConnector, type Harness, startWithGithub } from '../connectors/github/harness.ts';
import { entityState } from '../helpers/context-store.ts';
import { waitFor } from '../helpers/wait.ts';

const FIELDS = [
  'number',
  'title',
  'body',
  'state',
  'state_reason',
  'user.login',
  'labels',
  'assignees',
  'milestone.title',
  'comments',
  'created_at',
  'closed_at',
];
const OPERATORS = [
  'eq',
  'neq',
  'gt',
  'gte',
  'lt',
  'lte',
  'in',
  'like',
  'fuzzy',
  'keyword',
  'contains',
  'any',
];
const LOGICAL = ['and', 'or', 'not'];
const ODD_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', '', ' ', 'title"; --', '\u0000', 'é'];

const name = fc.oneof(fc.constantFrom(...FIELDS), fc.constantFrom(...ODD_KEYS), fc.string({ maxLength: 12 }));
const operator = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...OPERATORS) },
  { weight: 1, arbitrary: fc.constantFrom(...LOGICAL, ...ODD_KEYS) },
  { weight: 1, arbitrary: fc.string({ maxLength: 8 }) },
);
const scalar = fc.oneof(
  fc.string({ maxLength: 20 }),
  fc.constantFrom('open', 'closed', '%bug%', '2024-01-01T00:00:00Z', 'not a date', '\u0000', '%', '\\'),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
);
const value = fc.oneof(
  { weight: 5, arbitrary: scalar },
  { weight: 2, arbitrary: fc.array(scalar, { maxLength: 6 }) },
  { weight: 1, arbitrary: fc.string({ maxLength: 5000 }) },
  { weight: 1, arbitrary: fc.array(fc.integer(), { minLength: 900, maxLength: 1200 }) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
);

const word = fc.constantFrom('bug', 'login', 'crash', 'fix', 'widget', 'zeppelin', 'the', 'ünïcode');
/** Conditions the issues index accepts (which may still nest past a limit or exceed a count). */
const validLeaf = fc.oneof(
  fc.record({ eq: fc.record({ state: fc.constantFrom('open', 'closed') }) }),
  fc.record({ neq: fc.record({ 'user.login': fc.string({ maxLength: 8 }) }) }),
  fc.record({ gte: fc.record({ number: fc.integer({ min: -5, max: 30 }) }) }),
  fc.record({ lt: fc.record({ created_at: fc.date({ noInvalidDate: true }).map((d) => d.toISOString()) }) }),
  fc.record({
    in: fc.record({ number: fc.array(fc.integer({ min: 0, max: 30 }), { minLength: 1, maxLength: 20 }) }),
  }),
  fc.record({ like: fc.record({ title: fc.string({ maxLength: 10 }).map((x) => `%${x}%`) }) }),
  fc.record({
    fuzzy: fc.record({ title: fc.array(word, { minLength: 1, maxLength: 3 }).map((w) => w.join(' ')) }),
  }),
  fc.record({
    keyword: fc.record({ body: fc.array(word, { minLength: 1, maxLength: 40 }).map((w) => w.join(' ')) }),
  }),
  fc.record({ any: fc.record({ labels: fc.record({ eq: fc.record({ name: word }) }) }) }),
);

const { condition } = fc.letrec<{ condition: unknown }>((tie) => ({
  condition: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    { weight: 6, arbitrary: validLeaf },
    {
      weight: 4,
      arbitrary: fc.dictionary(operator, fc.dictionary(name, value, { maxKeys: 3 }), { maxKeys: 2 }),
    },
    { weight: 2, arbitrary: fc.record({ and: fc.array(tie('condition'), { maxLength: 4 }) }) },
    { weight: 2, arbitrary: fc.record({ or: fc.array(tie('condition'), { maxLength: 4 }) }) },
    { weight: 1, arbitrary: fc.record({ not: tie('condition') }) },
    {
      weight: 1,
      arbitrary: fc.record({
        any: fc.dictionary(fc.constantFrom('labels', 'assignees', 'title'), tie('condition')),
      }),
    },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }) },
  ),
}));

/** Filters far past the nesting limit, in a few shapes (sent as text: JSON.stringify overflows at such depth). */
const deepFilter = fc
  .record({ levels: fc.integer({ min: 9, max: 6000 }), wrap: fc.constantFrom('not', 'and', 'or', 'any') })
  .map(({ levels, wrap }) => {
    const open = {
      not: '{"not":',
      and: '{"and":[',
      or: '{"or":[{"eq":{"state":"open"}},',
      any: '{"any":{"labels":',
    }[wrap];
    const close = { not: '}', and: ']}', or: ']}', any: '}}' }[wrap];
    return { raw: `${open.repeat(levels)}{"eq":{"number":1}}${close.repeat(levels)}` };
  });

const sort = fc.oneof(
  fc.constant(undefined),
  fc.array(fc.dictionary(name, fc.oneof(fc.constantFrom('asc', 'desc', 'ASC'), scalar), { maxKeys: 2 }), {
    maxLength: 6,
  }),
  fc.jsonValue({ maxDepth: 2 }),
);
const limit = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(undefined, 1, 5, 1000) },
  fc.integer({ min: -5, max: 1100 }),
  fc.double(),
  fc.string({ maxLength: 4 }),
  fc.constant(null),
);

describe('search language fuzz (HTTP execute, action search)', () => {
  let h: Harness;
  let close: () => Promise<unknown>;
  let token: string;
  let id: string;
  let cursors: string[] = [];

  before(async () => {
    // Rate limits off: this is about what each request gets, not how many are let through.
    ({ h, close } = await startWithGithub(undefined, { CES_MAX_REQUESTS_PER_SECOND: '0' }));
    token = await h.token();
    const res = await createGithubConnector(h, token);
    assert.equal(res.status, 200, res.body);
    id = res.json.id;
    await h.deps.worker.start();
    await waitFor('issues searchable', async () =>
      (await entityState(h, token, id, 'issues'))?.ready_for_search === true ? true : undefined,
    );
    await h.deps.worker.stop();
    // Real cursors (valid for their own query only), and damaged ones.
    const first = await execute({ query: { sort: [{ number: 'asc' }] }, limit: 2 });
    const cursor = first.json?.connector_metadata?.end_cursor as string;
    assert.ok(cursor, first.body);
    cursors = [cursor, `${cursor.slice(0, -2)}AA`, cursor.slice(1), `${cursor}.${cursor}`];
  });
  after(async () => {
    await close();
  });

  const execute = (params: unknown) =>
    h.inject({
      method: 'POST',
      url: `/api/v1/integrations/connectors/${id}/execute`,
      token,
      body:
        typeof params === 'object' && params !== null && 'raw' in params
          ? `{"entity":"issues","action":"search","params":{"query":{"filter":${(params as { raw: string }).raw}}}}`
          : JSON.stringify({ entity: 'issues', action: 'search', params }),
    });

  function assertAnswer(res: Awaited<ReturnType<typeof execute>>) {
    assert.ok(res.status < 500, `${res.status} ${res.body.slice(0, 500)}`);
    if (res.status === 200) {
      assert.equal(res.json.status, 'success');
      assert.ok(Array.isArray(res.json.result));
      return;
    }
    assert.ok(res.status >= 400, `${res.status} ${res.body.slice(0, 500)}`);
    const body = res.json;
    assert.equal(typeof body?.message, 'string', res.body.slice(0, 500));
    assert.match(body.code, /^[A-Z][A-Z0-9_]*$/);
    assert.equal(typeof body.request_id, 'string');
    assert.ok(Array.isArray(body.errors));
    for (const e of body.errors) {
      assert.ok(e.field === null || typeof e.field === 'string');
      assert.equal(typeof e.message, 'string');
      assert.equal(typeof e.error_code, 'string');
      assert.ok(e.details === undefined || e.details === null || typeof e.details === 'object');
    }
  }

  test('random searches: a 200 or a 4xx with the error body, never a 5xx', async () => {
    const params = fc.oneof(
      {
        weight: 8,
        arbitrary: fc.record(
          {
            query: fc.oneof(
              { weight: 8, arbitrary: fc.record({ filter: condition, sort }, { requiredKeys: [] }) },
              { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }) },
            ),
            limit,
            cursor: fc.oneof(
              { weight: 6, arbitrary: fc.constant(undefined) },
              fc.string({ maxLength: 40 }),
              fc.integer(),
              fc.constantFrom(0, 1, 2, 3).map((i) => cursors[i]),
            ),
            fields: fc.oneof(
              { weight: 6, arbitrary: fc.constant(undefined) },
              fc.array(fc.oneof(name, fc.array(name, { maxLength: 3 })), { maxLength: 4 }),
              scalar,
            ),
          },
          { requiredKeys: [] },
        ),
      },
      { weight: 1, arbitrary: deepFilter },
      { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
    );
    const seen = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(params, async (p) => {
        const res = await execute(p);
        seen.set(res.status, (seen.get(res.status) ?? 0) + 1);
        assertAnswer(res);
      }),
      { numRuns: 400 },
    );
    // The generator reaches both sides: searches that run and requests that are refused.
    assert.ok((seen.get(200) ?? 0) > 0, JSON.stringify([...seen]));
    assert.ok((seen.get(422) ?? 0) > 0, JSON.stringify([...seen]));
  });

  test('the process is alive and searches still work', async () => {
    const health = await h.inject({ method: 'GET', url: '/healthz' });
    assert.equal(health.status, 200);
    const res = await execute({ query: { filter: { eq: { state: 'open' } } }, limit: 5 });
    assert.equal(res.status, 200, res.body);
    assert.ok(res.json.result.length > 0);
  });
});
