// Response schemas are rewritten for fast-json-stringify so that it needs no validator (src/http/serializer-schema.ts):
// the rewritten schema must write the same JSON as the route's own, and leave the route's schema as it was.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import SerializerSelector from '@fastify/fast-json-stringify-compiler';
import { Type } from 'typebox';
import { ErrorBodySchema } from '../../../src/http/schemas.ts';
import { serializerSchema } from '../../../src/http/serializer-schema.ts';

const serializer = (schema: unknown) => SerializerSelector()(undefined, undefined)({ schema } as never);

const Answer = Type.Object({
  name: Type.Union([Type.String(), Type.Null()]),
  count: Type.Union([Type.Null(), Type.Integer()], { description: 'Null first.' }),
  status: Type.Union([Type.Literal('active'), Type.Literal('inactive')]),
  owner: Type.Union([
    Type.Object({ id: Type.String(), at: Type.Union([Type.String(), Type.Null()]) }),
    Type.Null(),
  ]),
  tags: Type.Array(Type.Union([Type.String(), Type.Null()])),
  // Kept: neither a nullable nor a union of literals.
  either: Type.Union([Type.String(), Type.Integer()]),
  mixed: Type.Union([Type.Literal('a'), Type.Literal(1)]),
});

describe('serializerSchema', () => {
  it('writes nullables as nullable and unions of literals as an enum, and keeps other unions', () => {
    const out = serializerSchema(Answer) as { properties: Record<string, Record<string, unknown>> };
    const p = out.properties;
    assert.deepEqual({ ...p.name }, { type: 'string', nullable: true });
    assert.deepEqual({ ...p.count }, { type: 'integer', nullable: true, description: 'Null first.' });
    assert.deepEqual({ ...p.status }, { type: 'string', enum: ['active', 'inactive'] });
    assert.equal(p.owner?.nullable, true);
    assert.deepEqual(
      { ...(p.owner?.properties as Record<string, object>).at },
      { type: 'string', nullable: true },
    );
    assert.deepEqual({ ...(p.tags?.items as object) }, { type: 'string', nullable: true });
    assert.ok(Array.isArray(p.either?.anyOf));
    assert.ok(Array.isArray(p.mixed?.anyOf));
    assert.ok(!JSON.stringify(serializerSchema(ErrorBodySchema)).includes('anyOf'));
  });

  it('leaves the schema it is given as it was, and returns it unchanged when there is nothing to rewrite', () => {
    const before = JSON.stringify(Answer);
    serializerSchema(Answer);
    assert.equal(JSON.stringify(Answer), before);
    const plain = Type.Object({ a: Type.String(), b: Type.Array(Type.Integer()) });
    assert.equal(serializerSchema(plain), plain);
  });

  it('writes the same JSON as the route schema for the answers it describes', () => {
    const own = serializer(Answer);
    const rewritten = serializer(serializerSchema(Answer));
    const answers = [
      {
        name: 'n',
        count: 3,
        status: 'active',
        owner: { id: 'o', at: null },
        tags: ['x', null],
        either: 'e',
        mixed: 1,
      },
      { name: null, count: null, status: 'inactive', owner: null, tags: [], either: 7, mixed: 'a' },
      {
        name: 'é "quoted"\n',
        count: 0,
        status: 'active',
        owner: { id: '', at: 't' },
        tags: [null],
        either: '',
        mixed: 'a',
      },
    ];
    for (const answer of answers) {
      assert.equal(rewritten(answer), own(answer));
      assert.deepEqual(JSON.parse(rewritten(answer)), answer);
    }
    const error = {
      message: 'm',
      code: 'VALIDATION_ERROR',
      request_id: 'r',
      errors: [
        { field: null, message: 'x', error_code: 'y', details: null },
        { field: 'f', message: 'x', error_code: 'y', details: { min: 1 } },
      ],
    };
    assert.equal(serializer(serializerSchema(ErrorBodySchema))(error), serializer(ErrorBodySchema)(error));
  });
});
