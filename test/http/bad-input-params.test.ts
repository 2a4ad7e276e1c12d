// The bad-input corpus, part two: every declared param of every entity and action of every connector, given
// values that would break a URL or a header upstream (part one, bad-input-corpus.test.ts, sweeps the routes).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { ParamDefinition } from '../../src/connectors/schema.ts';
import { useCorpus } from './corpus.ts';

/** Values in params that become path segments, query values, headers or body members upstream. */
const UPSTREAM_PART_VALUES: unknown[] = [
  'a\r\nX-Injected: yes',
  'a\nb',
  '../../../user', // self-contained: not a path
  '..%2F..%2Fuser',
  'a?b=c&d=e#f',
  'a/b',
  'http://169.254.169.254/',
  '\u0000',
  '\u00e9\u4e00\u{1f600}',
  '',
  ' ',
  'x'.repeat(10_000),
  -1,
  1e308,
  true,
  null,
  ['a\r\nb'],
  { nested: 'a\r\nb' },
];

describe('bad-input corpus over every declared param', () => {
  const c = useCorpus();

  test('every declared param of every entity and action, given values that would break a URL or a header', async () => {
    const fill = (p: ParamDefinition): unknown => {
      if (p.enum) return p.enum[0];
      if (p.format === 'date-time') return '2024-01-01T00:00:00Z';
      if (p.format === 'date') return '2024-01-01';
      return { string: 'x', integer: 1, number: 1, boolean: true, array: ['x'], object: {} }[p.type];
    };
    let requests = 0;
    for (const def of c.a.h.deps.registry.all()) {
      const url = `/api/v1/integrations/connectors/${c.a.connectors.get(def.slug)}/execute`;
      const route = c.routes.find((r) => r.url === '/api/v1/integrations/connectors/:id/execute')!;
      for (const entity of def.entities) {
        for (const [action, spec] of Object.entries(entity.actions)) {
          const declared = Object.entries(spec?.params ?? {});
          const required = Object.fromEntries(
            declared.filter(([, p]) => p.required).map(([n, p]) => [n, fill(p)]),
          );
          const names = [...declared.map(([n]) => n), ...(action === 'download' ? ['range_header'] : [])];
          for (const name of names) {
            for (const value of UPSTREAM_PART_VALUES) {
              const payload = JSON.stringify({
                entity: entity.name,
                action,
                params: { ...required, [name]: value },
              });
              const res = await c.send(route, { url, payload });
              requests++;
              c.expectHandled(
                `${def.slug} ${entity.name}.${action} ${name}=${JSON.stringify(value).slice(0, 40)}`,
                res,
              );
              // The catch-all upstream always answers: "could not reach" would mean ces sent something broken.
              assert.notEqual(res.json?.code, 'UPSTREAM_UNAVAILABLE', res.body);
            }
          }
        }
      }
    }
    assert.ok(requests > 500, `only ${requests} requests`);
    for (const r of c.a.upstream.requests) {
      assert.doesNotMatch(r.path, /[\r\n\s]/, `a raw CR, LF or space reached the upstream's path: ${r.path}`);
      assert.equal(r.headers['x-injected'], undefined, `a header was injected: ${r.path}`);
    }
    await c.stillServing();
  });
});
