// Route schemas are compiled at first use or in the background after listen (src/http/lazy-schemas.ts): every
// route's schemas must still compile, and a lazily compiled validator must answer exactly as an eager one.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FastifySchema, FastifySchemaCompiler } from 'fastify';
import { LazySchemas } from '../../src/http/lazy-schemas.ts';
import { validatorCompiler } from '../../src/http/validation.ts';
import { type Harness, startHarness } from '../helpers/harness.ts';

describe('route schemas compiled lazily', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness();
  });
  after(async () => {
    await h.close();
  });

  it("every route's request and response schemas compile", () => {
    assert.ok(h.app.lazySchemas.size > 100, `only ${h.app.lazySchemas.size} schemas pending`);
    h.app.lazySchemas.compileAll();
    assert.equal(h.app.lazySchemas.size, 0);
  });

  it('a validation failure is still the one error body with the field named', async () => {
    const res = await h.app.inject({
      method: 'POST',
      url: '/api/v1/account/applications/token',
      payload: { client_id: 5 },
    });
    assert.equal(res.statusCode, 422);
    const body = res.json() as { code: string; errors: Array<{ path?: string; field?: string }> };
    assert.equal(body.code, 'VALIDATION_ERROR');
    assert.ok(body.errors.length > 0);
  });
});

describe('LazySchemas', () => {
  const route = (schema: object) =>
    ({ schema, method: 'POST', url: '/x', httpPart: 'body' }) as unknown as Parameters<
      FastifySchemaCompiler<FastifySchema>
    >[0];

  it('compiles a validator once, at its first call, and hands fastify its errors', () => {
    const lazy = new LazySchemas();
    let compiles = 0;
    const counting: FastifySchemaCompiler<FastifySchema> = (r) => {
      compiles++;
      return validatorCompiler(r);
    };
    const validate = lazy.validators(counting)(
      route({ type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] }),
    ) as unknown as ((d: unknown) => boolean) & { errors?: Array<{ instancePath: string }> };
    assert.equal(compiles, 0);
    assert.equal(lazy.size, 1);
    assert.equal(validate({ n: 'five' }), false);
    assert.equal(validate.errors?.[0]?.instancePath, '/n');
    assert.equal(validate({ n: 5 }), true);
    assert.equal(compiles, 1);
    assert.equal(lazy.size, 0);
  });

  it('warm() compiles what is pending in the background and reports a schema that fails', async () => {
    const lazy = new LazySchemas();
    const make = lazy.validators(validatorCompiler);
    make(route({ type: 'object' }));
    make(route({ type: 'no-such-type' }));
    make(route({ type: 'string' }));
    const failures: Error[] = [];
    lazy.warm((err) => failures.push(err));
    for (let i = 0; i < 100 && lazy.size > 0; i++) await new Promise((r) => setTimeout(r, 5));
    assert.equal(lazy.size, 0);
    assert.equal(failures.length, 1);
    lazy.stop();
  });

  it('compiles one serializer for a schema many routes and statuses answer with', () => {
    const lazy = new LazySchemas();
    const error = {
      $id: 'Err',
      type: 'object',
      properties: { field: { anyOf: [{ type: 'string' }, { type: 'null' }] } },
    };
    const factory = lazy.serializers()({ Err: error } as never, undefined as never);
    const make = (schema: object, url: string) =>
      factory({ schema, method: 'GET', url, httpStatus: '404' } as never) as (d: unknown) => string;
    const a = make({ $ref: 'Err' }, '/a');
    const b = make({ $ref: 'Err' }, '/b');
    make({ type: 'object', properties: { n: { type: 'integer' } } }, '/a');
    assert.equal(lazy.size, 2);
    assert.equal(a({ field: null }), '{"field":null}');
    assert.equal(b({ field: 'x' }), '{"field":"x"}');
    assert.equal(lazy.size, 1);
    // The shared schema was rewritten too (serializer-schema.ts): its nullable string writes what it is given as
    // a string, where an anyOf would have validated the value to choose a branch and refused a number.
    assert.equal(a({ field: 5 }), '{"field":"5"}');
  });

  it('stop() ends warming', async () => {
    const lazy = new LazySchemas();
    const make = lazy.validators(validatorCompiler);
    make(route({ type: 'object' }));
    lazy.warm(() => {}, 20);
    lazy.stop();
    await new Promise((r) => setTimeout(r, 60));
    assert.equal(lazy.size, 1);
  });
});
