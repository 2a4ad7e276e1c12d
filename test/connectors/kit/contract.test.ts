// The fake contract on synthetic exchanges: one that follows the description passes, and each way a fake can
// drift from it (a route, a method, a parameter, a required member of the answer) fails with its own kind.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type ContractOptions, checkContract, type OperationFacts, type ViolationKind } from './contract.ts';
import type { RecordedRequest } from './server.ts';

const FACTS: OperationFacts = {
  source: 'widgets.json',
  operations: {
    'GET /v1/widgets': {
      parameters: { query: ['limit', 'cursor', 'created'] },
      responses: {
        '200': {
          type: ['object'],
          required: ['data', 'has_more'],
          properties: {
            data: { type: ['array'], items: { $ref: 'widget' } },
            has_more: { type: ['boolean'] },
          },
        },
        default: { $ref: 'error' },
      },
    },
    'GET /v1/widgets/{id}': {
      parameters: { path: ['id!'], query: ['expand'] },
      responses: { '200': { $ref: 'widget' } },
    },
    'GET /v1/widgets/search': { parameters: { query: ['q!'] }, responses: { '200': {} } },
    'POST /v1/widgets': {
      body: { content: ['application/json'], members: ['name!', 'color'] },
      responses: { '201': { $ref: 'widget' } },
    },
    'DELETE /v1/widgets/{id}': {
      body: { content: ['application/x-www-form-urlencoded'], members: ['reason'] },
      responses: {},
    },
    'GET /v1/refs/{ref}': { responses: { '200': {} } },
  },
  schemas: {
    widget: {
      type: ['object'],
      required: ['id', 'name', 'owner'],
      properties: {
        id: { type: ['string'] },
        name: { type: ['string'] },
        size: { type: ['integer'] },
        owner: { anyOf: [{ $ref: 'user' }, { type: ['null'] }] },
      },
    },
    user: { type: ['object'], required: ['login'] },
    error: { type: ['object'], required: ['error'] },
  },
};

const WIDGET = { id: 'w1', name: 'one', size: 3, owner: { login: 'ada' } };
const LIST = { body: { data: [WIDGET], has_more: false } };

function exchange(
  method: string,
  path: string,
  answer: { status?: number; body?: unknown } = {},
  request: { body?: unknown; type?: string } = {},
): RecordedRequest {
  const body =
    request.body === undefined
      ? ''
      : typeof request.body === 'string'
        ? request.body
        : JSON.stringify(request.body);
  return {
    method,
    path,
    headers: request.type === undefined ? {} : { 'content-type': request.type },
    body,
    response: {
      status: answer.status ?? 200,
      contentType: 'application/json',
      body: JSON.stringify(answer.body ?? {}),
      truncated: false,
    },
  };
}

const kinds = (exchanges: RecordedRequest[], opts?: ContractOptions): ViolationKind[] =>
  checkContract(FACTS, exchanges, opts).violations.map((v) => v.kind);

describe('fake contract', () => {
  it('passes exchanges that follow the description, and counts what it checked', () => {
    const result = checkContract(FACTS, [
      exchange('GET', '/v1/widgets?limit=2&created%5Bgte%5D=5', {
        body: { data: [WIDGET], has_more: false },
      }),
      exchange('GET', '/v1/widgets/w1', { body: { ...WIDGET, owner: null } }),
      exchange('GET', '/v1/widgets/search?q=x'),
      exchange(
        'POST',
        '/v1/widgets',
        { status: 201, body: WIDGET },
        { body: { name: 'one' }, type: 'application/json' },
      ),
      exchange('GET', '/v1/widgets/nope', { status: 404, body: { error: 'not found' } }),
    ]);
    assert.deepEqual(result.violations, []);
    assert.equal(result.checked, 5);
    assert.deepEqual([...result.operations].sort(), [
      'GET /v1/widgets',
      'GET /v1/widgets/search',
      'GET /v1/widgets/{id}',
      'POST /v1/widgets',
    ]);
  });

  it('fails a route the provider does not have, and a method its path does not take', () => {
    assert.deepEqual(kinds([exchange('GET', '/v1/gadgets')]), ['path']);
    assert.deepEqual(kinds([exchange('PATCH', '/v1/widgets/w1')]), ['method']);
  });

  it('fails an undeclared query parameter or body member, and a missing required one', () => {
    assert.deepEqual(kinds([exchange('GET', '/v1/widgets?colour=red', LIST)]), ['param']);
    assert.deepEqual(kinds([exchange('GET', '/v1/widgets/search')]), ['required']);
    const post = (body: unknown) =>
      exchange('POST', '/v1/widgets', { status: 201, body: WIDGET }, { body, type: 'application/json' });
    assert.deepEqual(kinds([post({ name: 'a', shape: 'round' })]), ['param']);
    assert.deepEqual(kinds([post({ color: 'red' })]), ['required']);
    assert.deepEqual(
      kinds([
        exchange(
          'GET',
          '/v1/widgets/search?q=x',
          {},
          { body: 'a=1', type: 'application/x-www-form-urlencoded' },
        ),
      ]),
      ['param'],
    );
  });

  it('fails an answer without a required member, or with a member of another type, at any depth', () => {
    const { name: _name, ...nameless } = WIDGET;
    const cases: Array<[unknown, RegExp]> = [
      [{ data: [WIDGET] }, /\$: required member has_more is missing/],
      [{ data: [WIDGET, nameless], has_more: false }, /\$\.data\[\]: required member name is missing/],
      [
        { data: [{ ...WIDGET, size: 1.5 }], has_more: false },
        /\$\.data\[\]\.size: number, the description says integer/,
      ],
      [{ data: [{ ...WIDGET, owner: {} }], has_more: false }, /owner: required member login is missing/],
      [{ data: {}, has_more: false }, /\$\.data: object, the description says array/],
    ];
    for (const [body, detail] of cases) {
      const { violations } = checkContract(FACTS, [exchange('GET', '/v1/widgets', { body })]);
      assert.deepEqual(
        violations.map((v) => v.kind),
        ['answer'],
        JSON.stringify(body),
      );
      assert.match(violations[0]?.detail ?? '', detail);
    }
    // An error answer is held to the documented default.
    assert.deepEqual(kinds([exchange('GET', '/v1/widgets', { status: 500, body: { message: 'x' } })]), [
      'answer',
    ]);
    // A documented JSON answer that is not JSON.
    const html = exchange('GET', '/v1/widgets/w1');
    if (html.response) html.response = { ...html.response, contentType: 'text/html', body: '<html>' };
    assert.deepEqual(kinds([html]), ['answer']);
  });

  it('leaves alone what the description does not document: a status, a body-less answer, a truncated one', () => {
    assert.deepEqual(kinds([exchange('GET', '/v1/widgets/w1', { status: 404, body: { anything: 1 } })]), []);
    assert.deepEqual(kinds([exchange('DELETE', '/v1/widgets/w1', { status: 204 })]), []);
    const big = exchange('GET', '/v1/widgets/w1');
    if (big.response) big.response = { ...big.response, body: '{"id":', truncated: true };
    assert.deepEqual(kinds([big]), []);
  });

  it('applies the per-provider options, each only where given', () => {
    assert.deepEqual(kinds([exchange('GET', '/v1/things/7', { body: WIDGET })]), ['path']);
    const alias = { aliases: [{ from: /^\/v1\/things\//, to: '/v1/widgets/' }] };
    assert.deepEqual(kinds([exchange('GET', '/v1/things/7', { body: WIDGET })], alias), []);
    assert.deepEqual(kinds([exchange('GET', '/v1/things/7', { body: {} })], alias), [
      'answer',
      'answer',
      'answer',
    ]);
    assert.deepEqual(kinds([exchange('GET', '/v1/refs/heads/main')]), ['path']);
    assert.deepEqual(kinds([exchange('GET', '/v1/refs/heads/main')], { multiSegmentParams: ['ref'] }), []);
    assert.deepEqual(kinds([exchange('GET', '/v1/widgets.json?limit=1', LIST)]), ['path']);
    assert.deepEqual(kinds([exchange('GET', '/v1/widgets.json?limit=1', LIST)], { pathSuffix: '.json' }), []);
    assert.deepEqual(kinds([exchange('GET', '/v1/widgets/search')], { credentialParams: ['q'] }), []);
    assert.deepEqual(kinds([exchange('DELETE', '/v1/widgets/w1?reason=old')]), ['param']);
    assert.deepEqual(kinds([exchange('DELETE', '/v1/widgets/w1?reason=old')], { bodyInQuery: true }), []);
    const nameNull = exchange('GET', '/v1/widgets/w1', { body: { ...WIDGET, name: null } });
    assert.deepEqual(kinds([nameNull]), ['answer']);
    assert.deepEqual(kinds([nameNull], { nullsUnmarked: true }), []);
    const refusal = exchange('GET', '/v1/widgets', { status: 200, body: { error: 'ratelimited' } });
    assert.deepEqual(kinds([refusal]), ['answer', 'answer']);
    assert.deepEqual(kinds([refusal], { refusalsAsDefault: true }), []);
    const exempt = { exempt: [{ route: /^GET \/download\//, reason: 'a download host' }] };
    const result = checkContract(FACTS, [exchange('GET', '/download/a.bin')], exempt);
    assert.deepEqual([result.violations, result.exempted, result.checked], [[], 1, 0]);
  });

  it('lets a listed description gap pass, and fails a gap that no longer occurs', () => {
    const gap = { violation: /query parameter colour is not declared/, reason: 'the provider documents it' };
    assert.deepEqual(kinds([exchange('GET', '/v1/widgets?colour=red', LIST)], { gaps: [gap] }), []);
    const stale = checkContract(FACTS, [exchange('GET', '/v1/widgets', LIST)], { gaps: [gap] }).violations;
    assert.deepEqual(
      stale.map((v) => v.kind),
      ['gap'],
    );
    assert.match(stale[0]?.detail ?? '', /no longer occurs/);
  });
});
