// What `npm run reference:facts` keeps of a description (scripts/reference-facts/): the facts tests and fakes
// check against, none of the prose; and the committed test/reference/ files are what it writes.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { Ajv } from 'ajv';
import {
  buildSchema,
  type GraphQLSchema,
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isObjectType,
  parse,
  validate,
} from 'graphql';
import { reduceCatalog } from '../../scripts/reference-facts/catalog.ts';
import { reduceSdl } from '../../scripts/reference-facts/graphql.ts';
import { reduceHostedRecords } from '../../scripts/reference-facts/hosted-records.ts';
import { reduceOpenApi } from '../../scripts/reference-facts/openapi.ts';

const REFERENCE = path.resolve(import.meta.dirname, '../reference');
const committed = (file: string) => readFileSync(path.join(REFERENCE, file), 'utf8');

describe('reference facts: OpenAPI', () => {
  const doc = {
    openapi: '3.1.0',
    info: {
      title: 'Widgets',
      version: '2.0',
      description: 'All about widgets.',
      contact: { email: 'a@b.c' },
    },
    servers: [{ url: 'https://api.example.test', description: 'production' }],
    tags: [{ name: 'widgets', description: 'Widget operations.' }],
    externalDocs: { url: 'https://docs.example.test' },
    'x-logo': { url: 'https://example.test/logo.png' },
    paths: {
      '/widgets/{id}': {
        summary: 'One widget',
        get: {
          operationId: 'getWidget',
          summary: 'Get a widget',
          description: 'Gets it.',
          tags: ['widgets'],
          security: [{ oauth: ['read'] }],
          parameters: [
            { name: 'id', in: 'path', required: true, description: 'Its id.', schema: { type: 'string' } },
            { name: 'expand', in: 'query', example: 'owner', examples: { a: { value: 'owner' } } },
          ],
          responses: {
            '200': {
              description: 'The widget.',
              content: {
                'application/json': {
                  schema: { $ref: '#/components/schemas/Widget' },
                  example: { id: 'w1', description: 'an example' },
                },
              },
            },
            default: { $ref: '#/components/responses/Error' },
          },
          'x-codegen-note': 'prose',
        },
      },
    },
    components: {
      schemas: {
        Widget: {
          title: 'Widget',
          description: 'A widget.',
          type: 'object',
          required: ['id', 'description'],
          properties: {
            id: { type: 'string', title: 'Id', description: 'Its id.', examples: ['w1'] },
            // Properties that share a keyword's name are names, not keywords.
            description: { type: 'string', description: 'What the widget is for.' },
            example: { type: 'string', title: 'Example' },
            kind: {
              enum: ['a', 'b'],
              default: 'a',
              'x-nullable': true,
              $comment: 'note to self',
              externalDocs: { url: 'https://x.test' },
            },
            owner: {
              oneOf: [{ $ref: '#/components/schemas/User' }],
              discriminator: { propertyName: 'type', mapping: { user: '#/components/schemas/User' } },
            },
          },
        },
        User: { title: 'User', type: 'object', properties: { type: { const: 'user', description: 'Tag.' } } },
        Literal: { const: { description: 'a value, kept as it is' } },
      },
      responses: { Error: { description: 'An error.', content: { 'application/json': { schema: {} } } } },
      securitySchemes: {
        oauth: {
          type: 'oauth2',
          description: 'OAuth 2.0.',
          flows: {
            authorizationCode: {
              authorizationUrl: 'https://example.test/authorize',
              tokenUrl: 'https://example.test/token',
              scopes: { read: 'Read your widgets.', write: 'Change them.' },
            },
          },
        },
      },
    },
  };

  it('keeps paths, operations, parameters, bodies and schemas, and drops the prose', () => {
    assert.deepEqual(reduceOpenApi(doc), {
      openapi: '3.1.0',
      info: { title: 'Widgets', version: '2.0' },
      servers: [{ url: 'https://api.example.test' }],
      tags: [{ name: 'widgets' }],
      paths: {
        '/widgets/{id}': {
          get: {
            operationId: 'getWidget',
            tags: ['widgets'],
            security: [{ oauth: ['read'] }],
            parameters: [
              { name: 'id', in: 'path', required: true, schema: { type: 'string' } },
              { name: 'expand', in: 'query' },
            ],
            responses: {
              '200': {
                description: '',
                content: { 'application/json': { schema: { $ref: '#/components/schemas/Widget' } } },
              },
              default: { $ref: '#/components/responses/Error' },
            },
          },
        },
      },
      components: {
        schemas: {
          Widget: {
            title: 'Widget',
            type: 'object',
            required: ['id', 'description'],
            properties: {
              id: { type: 'string' },
              description: { type: 'string' },
              example: { type: 'string' },
              kind: { enum: ['a', 'b'], default: 'a', 'x-nullable': true },
              owner: {
                oneOf: [{ $ref: '#/components/schemas/User' }],
                discriminator: { propertyName: 'type', mapping: { user: '#/components/schemas/User' } },
              },
            },
          },
          User: { title: 'User', type: 'object', properties: { type: { const: 'user' } } },
          Literal: { const: { description: 'a value, kept as it is' } },
        },
        responses: { Error: { description: '', content: { 'application/json': { schema: {} } } } },
        securitySchemes: {
          oauth: {
            type: 'oauth2',
            flows: {
              authorizationCode: {
                authorizationUrl: 'https://example.test/authorize',
                tokenUrl: 'https://example.test/token',
                scopes: { read: '', write: '' },
              },
            },
          },
        },
      },
    });
  });

  it('reduces Swagger 2.0 the same way, and refuses what is not OpenAPI', () => {
    const swagger = {
      swagger: '2.0',
      info: { title: 'Chat', version: '1' },
      definitions: { Message: { title: 'Message', description: 'A message.', properties: { ts: {} } } },
      securityDefinitions: {
        token: { type: 'apiKey', in: 'header', name: 'Authorization', description: 'x' },
      },
    };
    assert.deepEqual(reduceOpenApi(swagger), {
      swagger: '2.0',
      info: { title: 'Chat', version: '1' },
      definitions: { Message: { title: 'Message', properties: { ts: {} } } },
      securityDefinitions: { token: { type: 'apiKey', in: 'header', name: 'Authorization' } },
    });
    assert.throws(() => reduceOpenApi({ paths: {} }), /not an OpenAPI description/);
    assert.throws(() => reduceOpenApi([]), /not an OpenAPI description/);
  });

  it('the committed agent-api description is a fixed point of the reduction (no prose left in it)', () => {
    const facts = JSON.parse(committed('agent-api.openapi.json'));
    assert.ok(Object.keys(facts.paths).length > 20);
    assert.deepEqual(reduceOpenApi(facts), facts);
  });
});

/** Every type of `schema` with its members: fields with their arguments and types, enum values, directives. */
function shape(schema: GraphQLSchema): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [name, type] of Object.entries(schema.getTypeMap())) {
    if (name.startsWith('__')) continue;
    if (isObjectType(type) || isInterfaceType(type))
      out[name] = Object.values(type.getFields()).map((f) => {
        const args = f.args.map((a) => `${a.name}: ${a.type} = ${a.defaultValue}`).join(', ');
        return `${f.name}(${args}): ${f.type}${f.deprecationReason != null ? ' deprecated' : ''}`;
      });
    else if (isInputObjectType(type))
      out[name] = Object.values(type.getFields()).map((f) => `${f.name}: ${f.type}`);
    else if (isEnumType(type))
      out[name] = type.getValues().map((v) => `${v.name}${v.deprecationReason != null ? ' deprecated' : ''}`);
    else out[name] = [];
  }
  out['@'] = schema.getDirectives().map((d) => `${d.name} ${d.locations}`);
  return out;
}

describe('reference facts: GraphQL SDL', () => {
  const sdl = `
"""The root."""
type Query {
  "One issue."
  issue("Its id." id: String!): Issue
  issues(first: Int = 50, filter: IssueFilter): [Issue!]! @deprecated(reason: "Use search.")
}
"""An issue."""
type Issue implements Node {
  id: ID!
  "Its title, which has a description."
  description: String
  state: State
}
interface Node { id: ID! }
"States."
enum State {
  "Open."
  OPEN
  CLOSED @deprecated(reason: "Gone.")
}
input IssueFilter @oneOf {
  "By id."
  id: String
  title: String
}
"A directive."
directive @oneOf on INPUT_OBJECT
`;

  it('drops every description and deprecation reason, and keeps every type, member and directive', () => {
    assert.equal(
      reduceSdl(sdl),
      `type Query {
  issue(id: String!): Issue
  issues(first: Int = 50, filter: IssueFilter): [Issue!]! @deprecated
}

type Issue implements Node {
  id: ID!
  description: String
  state: State
}

interface Node {
  id: ID!
}

enum State {
  OPEN
  CLOSED @deprecated
}

input IssueFilter @oneOf {
  id: String
  title: String
}

directive @oneOf on INPUT_OBJECT
`,
    );
    // graphql-js builds the same schema from it, less the prose, and validates queries the same way.
    const reduced = buildSchema(reduceSdl(sdl));
    assert.deepEqual(shape(reduced), shape(buildSchema(sdl)));
    assert.deepEqual(validate(reduced, parse('{ issue(id: "1") { id description state } }')), []);
    assert.equal(validate(reduced, parse('{ issue(id: "1") { name } }')).length, 1);
    assert.ok(reduced.getQueryType()?.getFields().issues?.deprecationReason);
  });

  it('the committed Linear SDL is a fixed point of the reduction and builds', () => {
    const facts = committed('providers/linear.graphql');
    assert.equal(reduceSdl(facts), facts);
    const schema = buildSchema(facts, { assumeValidSDL: true });
    assert.ok(schema.getType('IssueConnection'));
    assert.ok(schema.getMutationType()?.getFields().issueCreate);
  });
});

describe('reference facts: the hosted catalog', () => {
  it("keeps each connector's definition id, indexed entities and param and body names", () => {
    const catalog = {
      gong: {
        title: 'Gong API Connector',
        version: '1.0.0',
        auth_schemes: ['basicAuth'],
        definition_id: '32382e40-3b49-4b99-9c5c-4076501914e7',
        context_store_entities: ['users'],
        entities: {
          users: { list: { params: ['cursor'] } },
          stats_interaction: { list: { params: [], body: ['filter'] } },
        },
      },
      empty: { definition_id: 'd', entities: {} },
    };
    assert.deepEqual(reduceCatalog(catalog), {
      gong: {
        definition_id: '32382e40-3b49-4b99-9c5c-4076501914e7',
        context_store_entities: ['users'],
        entities: {
          users: { list: { params: ['cursor'] } },
          stats_interaction: { list: { params: [], body: ['filter'] } },
        },
      },
      empty: { definition_id: 'd', context_store_entities: [], entities: {} },
    });
  });

  it('refuses a catalog whose shape it does not know, naming where', () => {
    assert.throws(() => reduceCatalog([]), /not an object of connectors/);
    assert.throws(() => reduceCatalog({ x: { entities: {} } }), /x: no definition_id/);
    assert.throws(
      () => reduceCatalog({ x: { definition_id: 'd', entities: { e: { list: { params: [1] } } } } }),
      /x\.e\.list: no params/,
    );
    assert.throws(
      () =>
        reduceCatalog({ x: { definition_id: 'd', entities: { e: { list: { params: [], body: 'f' } } } } }),
      /x\.e\.list: body is not a list of names/,
    );
  });

  it('the committed catalog is a fixed point of the reduction', () => {
    const facts = JSON.parse(committed('anchor-catalog.json'));
    assert.ok(facts.stripe && facts.slack && facts.gong);
    assert.deepEqual(reduceCatalog(facts), facts);
  });
});

describe('reference facts: the hosted connectors’ record types', () => {
  const spec = {
    openapi: '3.1.0',
    info: {
      title: 'Widgets',
      version: '1',
      'x-airbyte-context-store': { entities: [{ entity: 'widgets' }, { entity: 'gadgets' }] },
    },
    paths: {
      '/widgets': {
        get: {
          'x-airbyte-entity': 'widgets',
          'x-airbyte-action': 'list',
          'x-airbyte-record-extractor': '$.data',
          responses: {
            '200': {
              description: 'Widgets.',
              content: {
                'application/json': {
                  schema: {
                    type: 'object',
                    properties: { data: { type: 'array', items: { $ref: '#/components/schemas/Widget' } } },
                  },
                },
              },
            },
          },
        },
        post: {
          'x-airbyte-entity': 'widgets',
          'x-airbyte-action': 'create',
          responses: {
            '201': {
              description: 'Created.',
              content: { 'application/json': { schema: { $ref: '#/components/schemas/Widget' } } },
            },
          },
        },
      },
      '/widgets/{id}/download': {
        get: {
          'x-airbyte-entity': 'widgets',
          'x-airbyte-action': 'download',
          responses: {
            '200': { description: 'Bytes.', content: { 'application/json': { schema: { type: 'string' } } } },
          },
        },
      },
      '/graphql:gadgets:list': {
        post: {
          'x-airbyte-entity': 'gadgets',
          'x-airbyte-action': 'list',
          'x-airbyte-record-extractor': '$.data.gadgets.nodes',
          responses: {
            '200': {
              description: 'Gadgets, untyped.',
              content: {
                'application/json': {
                  schema: {
                    type: 'object',
                    properties: {
                      data: {
                        type: 'object',
                        properties: {
                          gadgets: {
                            type: 'object',
                            properties: { nodes: { type: 'array', items: { type: 'object' } } },
                          },
                        },
                      },
                    },
                  },
                },
              },
            },
          },
        },
      },
    },
    components: {
      schemas: {
        Widget: {
          type: 'object',
          required: ['id'],
          additionalProperties: false,
          properties: {
            id: { type: 'integer', description: 'Its id.', minimum: 1 },
            kind: { type: 'string', enum: ['a', 'b'], format: 'slug', default: 'a' },
            label: { type: 'string', nullable: true },
            parent: { oneOf: [{ $ref: '#/components/schemas/Widget' }, { type: 'null' }] },
            tags: { type: 'array', items: { type: 'string' } },
          },
        },
      },
    },
  };
  const models = `
class WidgetsSearchData(BaseModel):
    """Search result data for widgets entity."""
    model_config = ConfigDict(extra="allow")

    id: str | None = None
    """Its node id"""
    database_id: int | None = None
    score: float | None = None
    active: bool | None = None
    tags: list[Any] | None = None
    meta: dict[str, Any] | None = None
    key: str = None
    extra: Any = None
    type_: str | None = Field(default=None, alias="type")


class GadgetsSearchData(BaseModel):
    """No fields."""
    model_config = ConfigDict(extra="allow")


class Other(BaseModel):
    id: int | None = None
`;
  const nullable = (type: string) => ({ type: [type, 'null'] });

  it('keeps one record per entity-action, names and types only, everything optional and nullable', () => {
    const widget = { $ref: '#/$defs/Widget' };
    assert.deepEqual(reduceHostedRecords('widgets', spec, models), {
      connector: 'widgets',
      entities: {
        widgets: {
          list: widget,
          create: widget,
          search: {
            type: 'object',
            properties: {
              id: nullable('string'),
              database_id: nullable('integer'),
              score: nullable('number'),
              active: nullable('boolean'),
              tags: nullable('array'),
              meta: nullable('object'),
              key: { type: 'string' },
              extra: {},
              type: nullable('string'),
            },
          },
        },
      },
      $defs: {
        Widget: {
          type: 'object',
          properties: {
            id: nullable('integer'),
            kind: nullable('string'),
            label: nullable('string'),
            parent: { anyOf: [widget, { type: 'null' }] },
            tags: { type: ['array', 'null'], items: { type: 'string' } },
          },
        },
      },
    });
  });

  it('refuses what it cannot read, naming where', () => {
    assert.throws(() => reduceHostedRecords('x', { paths: 1 }, ''), /x: not an OpenAPI spec/);
    const weird = structuredClone(spec);
    (weird.paths['/widgets'].get as Record<string, unknown>)['x-airbyte-record-extractor'] = '$.data[*]';
    assert.throws(
      () => reduceHostedRecords('x', weird, ''),
      /GET \/widgets: record extractor \$\.data\[\*\]/,
    );
    assert.throws(
      () => reduceHostedRecords('x', spec, 'class WidgetsSearchData(BaseModel):\n    id: str | int = None\n'),
      /WidgetsSearchData\.id: annotation str \| int/,
    );
  });

  it('each committed facts file compiles, and is what the script writes for it', () => {
    const dir = path.join(REFERENCE, 'hosted-records');
    const files = readdirSync(dir);
    assert.equal(files.length, 10);
    for (const file of files) {
      const facts = JSON.parse(readFileSync(path.join(dir, file), 'utf8'));
      assert.equal(`${facts.connector}.json`, file);
      const ajv = new Ajv({ strict: true, allowUnionTypes: true, allErrors: true });
      for (const [entity, actions] of Object.entries(
        facts.entities as Record<string, Record<string, object>>,
      ))
        for (const [action, schema] of Object.entries(actions))
          assert.doesNotThrow(
            () => ajv.compile({ ...schema, $defs: facts.$defs }),
            `${file} ${entity}.${action}`,
          );
    }
  });
});
