import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  assertMatchesReference,
  referenceComponentNames,
  referenceComponentValidator,
  referenceOperations,
  referenceRequestSchema,
  referenceResponseSchema,
} from '../helpers/reference-spec.ts';

const CONNECTORS = '/api/v1/integrations/connectors';
const CONNECTOR = '/api/v1/integrations/connectors/{id}';

/** A `ConnectorSourceCreateResponse` as the reference describes it, with every required field and a few optional. */
function createdConnector(): Record<string, unknown> {
  return {
    id: '3f1c2a7e-8b4d-4c1e-9a2b-5d6e7f8a9b0c',
    name: 'Acme GitHub',
    source_template: {
      id: '0b9a8f7e-6d5c-4b3a-8f1e-2d3c4b5a6978',
      name: 'GitHub',
      icon: null,
      source_definition_id: 'ef69ef6e-aa7f-4af1-a01d-ef775033524e',
      user_config_spec: {
        connectionSpecification: { type: 'object', properties: {}, required: [], $schema: null },
        advanced_auth: null,
      },
      partial_default_config: {},
      customization: null,
      tags: [],
      mode: 'DIRECT',
      runtime_mode: 'direct_only',
      supports_context_store: false,
      created_at: '2025-01-02T03:04:05Z',
      updated_at: null,
    },
    replication_config: { repositories: ['acme/widgets'] },
    entities: [{ entity: 'issues', modes: ['read'] }],
    created_at: '2025-01-02T03:04:05.123Z',
    updated_at: null,
  };
}

function violation(pattern: RegExp) {
  return (err: unknown) => {
    assert.ok(err instanceof assert.AssertionError, String(err));
    assert.match(err.message, pattern);
    return true;
  };
}

test('every components.schemas entry of the reference compiles', () => {
  const names = referenceComponentNames();
  assert.ok(names.length > 100, `only ${names.length} component schemas`);
  const failures = names.flatMap((name) => {
    try {
      referenceComponentValidator(name);
      return [];
    } catch (err) {
      return [`${name}: ${(err as Error).message}`];
    }
  });
  assert.deepEqual(failures, [], `${failures.length}/${names.length} failed to compile`);
});

test('every JSON response schema of every operation compiles (inline ones with a discriminator too)', () => {
  let checked = 0;
  for (const { method, path } of referenceOperations()) {
    for (const status of [200, 202, 400, 403, 404, 422, 500]) {
      if (!referenceResponseSchema(method, path, status)) continue;
      checked++;
      // A compile failure is a plain Error; a body that does not validate is an AssertionError.
      assert.throws(
        () => assertMatchesReference(method, path, status, Symbol('no body')),
        assert.AssertionError,
      );
    }
  }
  assert.ok(checked > 100, `only ${checked} response schemas`);
});

test('a hand-made ConnectorSourceCreateResponse validates against POST connectors 200', () => {
  assertMatchesReference('POST', CONNECTORS, 200, createdConnector());
  assertMatchesReference('post', CONNECTORS, 200, {
    ...createdConnector(),
    entities: null,
    created_at: null,
  });
});

test('a body missing source_template fails, naming the field and the operation', () => {
  const { source_template: _, ...body } = createdConnector();
  assert.throws(
    () => assertMatchesReference('POST', CONNECTORS, 200, body),
    violation(
      /POST \/api\/v1\/integrations\/connectors \(create_integrations_connectors\) 200[\s\S]*source_template/,
    ),
  );
});

test('every violation is listed with its instance path', () => {
  const body = createdConnector();
  body.id = 'not-a-uuid';
  body.created_at = 'yesterday';
  (body.source_template as Record<string, unknown>).mode = 'SOMETIMES';
  (body.source_template as Record<string, unknown>).user_config_spec = {};
  let message = '';
  assert.throws(
    () => assertMatchesReference('POST', CONNECTORS, 200, body),
    (err: unknown) => {
      assert.ok(err instanceof assert.AssertionError, String(err));
      message = err.message;
      return true;
    },
  );
  for (const line of [
    '/id must match format "uuid"',
    '/created_at must match format "date-time"',
    "/source_template/user_config_spec must have required property 'connectionSpecification'",
    '/source_template/mode must be equal to one of the allowed values: ["DIRECT","REPLICATION","MULTI"]',
  ]) {
    assert.ok(message.includes(line), `${line} not in:\n${message}`);
  }
});

test('the inline oneOf of a connection template tells the hosting types apart by their const tag', () => {
  const template = {
    id: '3f1c2a7e-8b4d-4c1e-9a2b-5d6e7f8a9b0c',
    organization_id: '0b9a8f7e-6d5c-4b3a-8f1e-2d3c4b5a6978',
    destination_name: 'Warehouse',
    data_hosting_type: 'user_hosted',
    destination_definition_id: 'ef69ef6e-aa7f-4af1-a01d-ef775033524e',
    destination_config: {},
  };
  assertMatchesReference('GET', '/api/v1/integrations/templates/connections/{id}', 200, template);
  assert.throws(
    () =>
      assertMatchesReference('GET', '/api/v1/integrations/templates/connections/{id}', 200, {
        ...template,
        data_hosting_type: 'self_hosted',
      }),
    violation(/data_hosting_type must be equal to constant: "user_hosted"/),
  );
});

test('unknown operations, statuses without a response and responses without a JSON body throw', () => {
  assert.throws(
    () => assertMatchesReference('GET', '/api/v1/integrations/connector', 200, {}),
    /no operation GET \/api\/v1\/integrations\/connector$/,
  );
  assert.throws(() => assertMatchesReference('PATCH', CONNECTOR, 200, {}), /no operation PATCH/);
  assert.throws(
    () => assertMatchesReference('DELETE', CONNECTOR, 200, {}),
    /DELETE \/api\/v1\/integrations\/connectors\/\{id\} \(delete_integrations_connectors_id\) defines no response 200 \(defined: 202, 400, 403, 422, 500\)/,
  );
  const oauthDelete = '/api/v1/oauth/credentials/connector_type/{connector_type}';
  assert.equal(referenceResponseSchema('DELETE', oauthDelete, 204), undefined);
  assert.throws(
    () => assertMatchesReference('DELETE', oauthDelete, 204, undefined),
    /204 has no application\/json/,
  );
  assert.equal(referenceResponseSchema('GET', '/api/v1/nowhere', 200), undefined);
  assert.throws(() => referenceComponentValidator('NoSuchSchema'), /no component schema NoSuchSchema/);
});

test('referenceOperations lists the spec operations, DELETE connectors/{id} among them', () => {
  const ops = referenceOperations();
  assert.ok(ops.some((op) => op.method === 'DELETE' && op.path === CONNECTOR));
  assert.ok(ops.some((op) => op.method === 'POST' && op.path === CONNECTORS));
  assert.equal(new Set(ops.map((op) => `${op.method} ${op.path}`)).size, ops.length);
  assert.ok(
    ops.every((op) => /^(GET|PUT|POST|DELETE|PATCH)$/.test(op.method) && op.path.startsWith('/api/')),
  );
});

test('DELETE connectors/{id} answers 202 with a job id', () => {
  assert.deepEqual((referenceResponseSchema('DELETE', CONNECTOR, 202) as { required: string[] }).required, [
    'job_id',
  ]);
  assertMatchesReference('DELETE', CONNECTOR, 202, { job_id: '3f1c2a7e-8b4d-4c1e-9a2b-5d6e7f8a9b0c' });
  assert.throws(() => assertMatchesReference('DELETE', CONNECTOR, 202, {}), violation(/'job_id'/));
});

test('error statuses share the ApiErrorResponse-shaped schema', () => {
  for (const status of [400, 403, 422, 500]) {
    const schema = referenceResponseSchema('GET', CONNECTOR, status) as { title: string; properties: object };
    assert.equal(schema.title, 'ApiErrorResponse');
    assert.ok('message' in schema.properties);
  }
});

test('referenceRequestSchema returns the request body schema with its fields, or undefined', () => {
  const schema = referenceRequestSchema('POST', CONNECTORS) as {
    title: string;
    properties: Record<string, unknown>;
  };
  assert.equal(schema.title, 'ConnectorSourceCreateRequest');
  for (const field of ['workspace_name', 'connector_type', 'definition_id', 'replication_config']) {
    assert.ok(field in schema.properties, field);
  }
  assert.equal(referenceRequestSchema('GET', CONNECTORS), undefined);
  assert.equal(referenceRequestSchema('POST', '/api/v1/nowhere'), undefined);
  // A copy: changing it does not change what the next caller sees.
  schema.properties = {};
  assert.ok('workspace_name' in (referenceRequestSchema('POST', CONNECTORS) as typeof schema).properties);
});
