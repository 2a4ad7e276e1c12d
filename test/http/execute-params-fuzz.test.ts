import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import type { ParamDefinition } from '../../src/connectors/schema.ts';
import { STATUS_BY_CODE, WIRE_CODES, type WireCode } from '../../src/http/errors.ts';
import { type AnyUpstreamHarness, startWithAnyUpstream } from '../helpers/any-upstream.ts';
import { assertError } from './assertions.ts';

/**
 * Property-based fuzz of execute's params: for every entity and action of the real definitions, random JSON
 * params — the declared names with values of the right shape, of the wrong shape or hostile (CR/LF, URL syntax,
 * NUL, lone surrogates, huge, deep), plus undeclared and prototype-polluting keys — against connectors whose
 * upstream is a catch-all server. Every answer is a success or the one error body, never a 5xx of ces's own,
 * never "could not reach" (the upstream always answers, so that would be ces sending something broken), and
 * nothing malformed reaches the upstream. CES_FUZZ_RUNS and CES_FUZZ_SEED replay or widen a run.
 */
const RUNS = Number(process.env.CES_FUZZ_RUNS ?? 600);
const SEED = process.env.CES_FUZZ_SEED === undefined ? undefined : Number(process.env.CES_FUZZ_SEED);

const HOSTILE: unknown[] = [
  'a\r\nX-Injected: yes',
  '\r\n\r\nGET /admin HTTP/1.1',
  'a\nb',
  '\u0000',
  '\ud800',
  '\udfff\ud800',
  '\u00e9\u4e00\u{1f600}\u202e',
  '../../../../etc/passwd', // self-contained: not a path
  '..%2F..%2Fadmin',
  '%00',
  '%0d%0a',
  'a?b=c&d=e#f',
  '/',
  '.',
  '..',
  '',
  ' ',
  'http://169.254.169.254/latest/meta-data/',
  '//evil.example/x',
  '@evil.example',
  '{owner}',
  '$' + '{process.env}',
  'x'.repeat(5000),
  'bytes=0-1\r\nX-Injected: yes',
  Number.MAX_SAFE_INTEGER,
  -0,
  1e308,
  -1,
  0.5,
  true,
  false,
  null,
  [],
  [null],
  ['a\r\nb', 1],
  {},
  { __proto__: null, nested: 'a\r\nb' },
  JSON.parse('{"__proto__":{"polluted":"yes"}}'),
  JSON.parse('{"constructor":{"prototype":{"polluted":"yes"}}}'),
  JSON.parse(`${'['.repeat(30)}1${']'.repeat(30)}`),
];

const anyValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...HOSTILE) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 1, arbitrary: fc.integer() },
  { weight: 1, arbitrary: fc.double({ noNaN: true }) },
  { weight: 1, arbitrary: fc.boolean() },
  { weight: 1, arbitrary: fc.constant(null) },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
);

/** A value a well-behaved client might send for the param, so calls also get past validation. */
function plausible(p: ParamDefinition): fc.Arbitrary<unknown> {
  if (p.enum) return fc.constantFrom(...p.enum);
  if (p.format === 'date-time')
    return fc
      .date({ noInvalidDate: true, min: new Date('2000-01-01'), max: new Date('2100-01-01') })
      .map((d) => d.toISOString());
  if (p.format === 'date')
    return fc
      .date({ noInvalidDate: true, min: new Date('2000-01-01'), max: new Date('2100-01-01') })
      .map((d) => d.toISOString().slice(0, 10));
  switch (p.type) {
    case 'integer':
      return fc.integer({ min: p.minimum ?? -5, max: p.maximum ?? 1000 });
    case 'number':
      return fc.double({ min: p.minimum ?? -5, max: p.maximum ?? 1000, noNaN: true });
    case 'boolean':
      return fc.boolean();
    case 'array':
      return fc.array(fc.string({ minLength: 1, maxLength: 12 }), { maxLength: 3 });
    case 'object':
      return fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 });
    default:
      return fc.string({ minLength: 1, maxLength: 30 });
  }
}

const EXTRA_KEYS = fc.oneof(
  fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'cursor', 'limit'),
  fc.constantFrom('range_header', 'page', 'per_page', 'query', 'filter', 'sort', 'fields'),
  fc.string({ maxLength: 12 }),
);

interface Target {
  slug: string;
  connectorId: string;
  entity: string;
  action: string;
  params: Record<string, ParamDefinition>;
}

describe('execute params fuzz (fast-check)', () => {
  let a: AnyUpstreamHarness;
  let targets: Target[];

  before(async () => {
    a = await startWithAnyUpstream({
      CES_MAX_REQUESTS_PER_SECOND: '0',
      CES_BODY_LIMIT_BYTES: String(4 * 1024 * 1024),
    });
    targets = a.h.deps.registry.all().flatMap((def) =>
      def.entities.flatMap((e) =>
        Object.entries(e.actions).map(([action, spec]) => ({
          slug: def.slug,
          connectorId: a.connectors.get(def.slug)!,
          entity: e.name,
          action,
          params: spec?.params ?? {},
        })),
      ),
    );
  });
  after(() => a?.close());

  const paramsFor = (t: Target): fc.Arbitrary<Record<string, unknown>> => {
    const declared = Object.entries(t.params).map(
      ([name, p]) => [name, fc.oneof({ weight: 3, arbitrary: plausible(p) }, anyValue)] as const,
    );
    return fc
      .tuple(
        fc.record(Object.fromEntries(declared), { requiredKeys: [] }),
        fc.array(fc.tuple(EXTRA_KEYS, anyValue), { maxLength: 2 }),
        fc.boolean(),
      )
      .map(([known, extras, withExtras]) =>
        // fromEntries defines own members, so `__proto__` stays a key instead of replacing the prototype.
        Object.fromEntries([...Object.entries(known), ...(withExtras ? extras : [])]),
      );
  };

  test('random params on every declared entity and action: handled, never a 5xx of ces, nothing broken sent upstream', async () => {
    assert.ok(targets.length >= 20, `only ${targets.length} entity-actions`);
    const seen = { ok: 0, rejected: 0, codes: new Map<string, number>() };
    const property = fc.asyncProperty(
      fc.constantFrom(...targets).chain((t) => fc.tuple(fc.constant(t), paramsFor(t))),
      async ([t, params]) => {
        const res = await a.h.inject({
          method: 'POST',
          url: `/api/v1/integrations/connectors/${t.connectorId}/execute`,
          token: a.token,
          body: JSON.stringify({ entity: t.entity, action: t.action, params }),
        });
        const where = `${t.slug} ${t.entity}.${t.action} ${JSON.stringify(params).slice(0, 300)}: ${res.status} ${res.body.slice(0, 300)}`;
        if (res.status < 400) {
          seen.ok++;
          return;
        }
        const code = res.json?.code as WireCode;
        seen.rejected++;
        seen.codes.set(code, (seen.codes.get(code) ?? 0) + 1);
        assert.ok(WIRE_CODES.includes(code), `unknown code; ${where}`);
        assert.equal(STATUS_BY_CODE[code], res.status, where);
        assertError(res, res.status, code);
        // The upstream answers `{}` to everything: a list action may find no records in it (a fact about the
        // upstream, not the input); anything else 5xx is ces failing on input it should have refused.
        assert.ok(res.status < 500 || code === 'UPSTREAM_BAD_RESPONSE', where);
      },
    );
    await fc.assert(property, { numRuns: RUNS, ...(SEED === undefined ? {} : { seed: SEED }) });

    // Both sides were exercised: calls that reached the upstream and calls refused for their params.
    assert.ok(a.upstream.requests.length > RUNS / 20, `only ${a.upstream.requests.length} upstream calls`);
    assert.ok((seen.codes.get('INVALID_PARAMS') ?? 0) > RUNS / 20, JSON.stringify([...seen.codes]));
    for (const r of a.upstream.requests) {
      assert.doesNotMatch(r.path, /[\s\p{Cc}]/u, `a raw control character reached the upstream: ${r.path}`);
      assert.ok(r.path.startsWith('/'), `the upstream saw a path that is not one: ${r.path}`);
      assert.equal(r.headers['x-injected'], undefined, `a header was injected: ${r.path}`);
    }
    assert.equal(({} as Record<string, unknown>).polluted, undefined, 'Object.prototype was polluted');
    const health = await a.h.inject({ method: 'GET', url: '/healthz' });
    assert.equal(health.status, 200, health.body);
  });
});
