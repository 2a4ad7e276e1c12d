// What `npm run reference:facts` keeps of a provider's description for the fake contract
// (scripts/reference-facts/operations.ts): operations, parameters, body members and answer shapes, names and
// types only; and the committed providers/<slug>.json files hold nothing else.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { reduceOperations, type Shape } from '../../scripts/reference-facts/operations.ts';

const PROVIDERS = path.resolve(import.meta.dirname, '../reference/providers');

const OPENAPI = {
  openapi: '3.0.3',
  info: { title: 'Widgets', version: '1', description: 'All about widgets.' },
  servers: [{ url: 'https://api.example.test/v1' }],
  paths: {
    '/widgets/{id}': {
      parameters: [{ $ref: '#/components/parameters/id' }],
      get: {
        summary: 'Get a widget',
        parameters: [{ name: 'expand', in: 'query', description: 'What to expand.', example: 'owner' }],
        responses: {
          '200': {
            description: 'The widget.',
            content: {
              'application/json': { schema: { $ref: '#/components/schemas/widget' }, example: { id: 1 } },
            },
          },
          '404': { $ref: '#/components/responses/not_found' },
        },
      },
      patch: {
        requestBody: {
          content: {
            'application/json': {
              schema: {
                allOf: [
                  { $ref: '#/components/schemas/named' },
                  { properties: { color: { type: 'string' } } },
                ],
              },
            },
          },
        },
        responses: { '204': { description: 'Done.' } },
      },
    },
  },
  components: {
    parameters: { id: { name: 'id', in: 'path', required: true, schema: { type: 'string' } } },
    responses: {
      not_found: {
        description: 'Not there.',
        content: { 'application/json': { schema: { type: 'object', required: ['message'] } } },
      },
    },
    schemas: {
      named: {
        type: 'object',
        required: ['name'],
        properties: { name: { type: 'string', description: 'Its name.' } },
      },
      widget: {
        type: 'object',
        description: 'A widget.',
        required: ['id'],
        properties: {
          id: { type: 'integer', format: 'int64', description: 'Its id.' },
          description: { type: 'string', nullable: true },
          owner: { nullable: true, anyOf: [{ $ref: '#/components/schemas/named' }] },
        },
      },
      unused: { type: 'object' },
    },
  },
};

describe('reference facts: provider operations', () => {
  it('keeps each operation with its base path, parameters, body members and answer shapes, and no prose', () => {
    const facts = reduceOperations(OPENAPI, 'widgets.json');
    assert.deepEqual(facts, {
      source: 'widgets.json',
      operations: {
        'GET /v1/widgets/{id}': {
          parameters: { path: ['id!'], query: ['expand'] },
          responses: { '200': { $ref: 'widget' }, '404': { type: ['object'], required: ['message'] } },
        },
        'PATCH /v1/widgets/{id}': {
          parameters: { path: ['id!'] },
          body: { content: ['application/json'], members: ['name!', 'color'] },
          responses: { '204': {} },
        },
      },
      schemas: {
        widget: {
          type: ['object'],
          required: ['id'],
          properties: {
            id: { type: ['integer'] },
            // A member called `description` is a name, not prose.
            description: { type: ['string', 'null'] },
            owner: { anyOf: [{ $ref: 'named' }, { type: ['null'] }] },
          },
        },
        named: { type: ['object'], required: ['name'], properties: { name: { type: ['string'] } } },
      },
    });
  });

  it('reads Swagger 2.0: basePath, form and body parameters, x-nullable', () => {
    const facts = reduceOperations(
      {
        swagger: '2.0',
        basePath: '/api',
        consumes: ['application/x-www-form-urlencoded'],
        paths: {
          '/chat.post': {
            post: {
              parameters: [
                { name: 'token', in: 'query', required: true },
                { name: 'channel', in: 'formData', required: true },
                { name: 'text', in: 'formData' },
              ],
              responses: {
                '200': {
                  schema: { type: 'object', properties: { ts: { type: 'string', 'x-nullable': true } } },
                },
              },
            },
          },
          '/things': {
            put: {
              parameters: [{ name: 'body', in: 'body', schema: { $ref: '#/definitions/thing' } }],
              responses: { default: { schema: { $ref: '#/definitions/thing' } } },
            },
          },
        },
        definitions: { thing: { type: 'object', required: ['id'], properties: { id: { type: 'string' } } } },
      },
      'chat.json',
    );
    assert.deepEqual(facts.operations['POST /api/chat.post'], {
      parameters: { query: ['token!'] },
      body: { content: ['application/x-www-form-urlencoded'], members: ['channel!', 'text'] },
      responses: { '200': { type: ['object'], properties: { ts: { type: ['string', 'null'] } } } },
    });
    assert.deepEqual(facts.operations['PUT /api/things']?.body, {
      content: ['application/x-www-form-urlencoded'],
      members: ['id!'],
    });
    assert.throws(() => reduceOperations({ paths: {} }, 'x.json'), /not an OpenAPI description/);
  });

  it('keeps only the listed operations when given a list, and says so', () => {
    const facts = reduceOperations(OPENAPI, 'widgets.json', (key) => key === 'PATCH /v1/widgets/{id}');
    assert.equal(facts.subset, true);
    assert.deepEqual(Object.keys(facts.operations), ['PATCH /v1/widgets/{id}']);
    assert.deepEqual(Object.keys(facts.schemas), ['named'], 'only the schemas the kept operations reach');
  });

  it('the committed provider facts hold shapes and names only', () => {
    const SHAPE_KEYS = new Set(['$ref', 'type', 'required', 'properties', 'items', 'anyOf']);
    const walk = (shape: Shape, at: string) => {
      for (const key of Object.keys(shape)) assert.ok(SHAPE_KEYS.has(key), `${at}: ${key}`);
      for (const [name, sub] of Object.entries(shape.properties ?? {})) walk(sub, `${at}.${name}`);
      if (shape.items) walk(shape.items, `${at}[]`);
      for (const alt of shape.anyOf ?? []) walk(alt, `${at}|`);
    };
    const files = readdirSync(PROVIDERS).filter((f) => f.endsWith('.json'));
    assert.ok(files.length >= 8, files.join(', '));
    for (const file of files) {
      const facts = JSON.parse(readFileSync(path.join(PROVIDERS, file), 'utf8'));
      const allowed = file.endsWith('.pages.json')
        ? ['source', 'pages', 'operations', 'schemas']
        : ['source', 'subset', 'operations', 'schemas'];
      assert.deepEqual(
        Object.keys(facts).filter((k) => !allowed.includes(k)),
        [],
        file,
      );
      assert.ok(Object.keys(facts.operations).length > 0, file);
      for (const [key, op] of Object.entries<{ responses: Record<string, Shape> }>(facts.operations)) {
        assert.match(key, /^(GET|PUT|POST|DELETE|PATCH|HEAD|OPTIONS) \//, `${file}: ${key}`);
        for (const [status, shape] of Object.entries(op.responses)) walk(shape, `${file} ${key} ${status}`);
      }
      for (const [name, shape] of Object.entries<Shape>(facts.schemas)) walk(shape, `${file} #${name}`);
    }
  });
});
