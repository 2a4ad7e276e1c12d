// Format options the six new connectors asked for, each on a small fictional definition: Unix timestamps in
// indexed fields and incremental bounds (Stripe's created, Slack's ts, Jira's JQL minutes with a look-back),
// the provider's words at a declared path of an error body, ISO 8601 reset headers, arrays of objects in
// bodies, and a generated idempotency key on writes.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { parseDefinition } from '../../../src/connectors/load.ts';
import type { ConnectorRuntime } from '../../../src/connectors/runtime/executor.ts';
import { resolveAction, validateParams } from '../../../src/connectors/runtime/params.ts';
import { buildRequest } from '../../../src/connectors/runtime/request.ts';
import { retryAfterSeconds, upstreamError } from '../../../src/connectors/runtime/upstream-errors.ts';
import { columnValue, definitionLayouts } from '../../../src/context-store/layout.ts';
import { formatBound } from '../../../src/core/sync/page-source.ts';
import { json, runtime, type SeenRequest, startServer } from './helpers.ts';

const YAML = `
id: 3e9c7a10-5b2d-4f60-9a1c-2d3e4f5a6b7c
slug: ledgerly
name: Ledgerly
icon_url: https://ledgerly.example/icon.svg
support_level: community
documentation_url: https://ledgerly.example/docs
base_url: https://api.ledgerly.example/v1
credential_options:
  - title: Key
    description: A secret key.
    fields:
      key: { type: string, title: Key, description: The key., secret: true }
    required: [key]
    auth: { type: bearer, token: "{key}" }
check: { method: GET, path: /me }
replication_config: { type: object, properties: {} }
errors:
  expose_body_keys: [error, errors]
  message_paths: [[error, message], [errors]]
  retry_after_headers: [{ name: x-ratelimit-reset, format: iso8601 }]
entities:
  - name: charges
    description: Charges.
    primary_key: [id]
    actions:
      list:
        description: Charges, newest first.
        params:
          created_gte: { type: integer, api_name: "created[gte]", description: Created at or after (Unix s). }
          oldest: { type: string, description: Oldest ts. }
        request: { method: GET, path: /charges }
        record_selector: [data]
      create:
        description: A charge with line items.
        params:
          items:
            type: array
            items: { type: object }
            description: Line items.
          amount: { type: integer, required: true, description: Amount. }
          idem: { type: string, in: header, api_name: Idempotency-Key, description: Your own key. }
        request: { method: POST, path: /charges, body_format: form, idempotency_key_header: Idempotency-Key }
    context_store:
      fields:
        - { name: id, type: string }
        - { name: created, type: timestamp, format: unix_seconds }
        - { name: ts, type: timestamp, format: unix_seconds }
        - { name: at_ms, type: timestamp, format: unix_ms }
      incremental: { param: created_gte, field: created, format: unix_seconds }
`;
const def = parseDefinition(YAML, 'ledgerly.yaml');

describe('Unix timestamps in indexed fields and incremental bounds', () => {
  const layout = definitionLayouts(def)[0];
  const field = (name: string) => {
    const f = layout?.fields.get(name);
    assert.ok(f, name);
    return f;
  };

  it('reads Unix seconds (numbers and fractional strings) and milliseconds as instants', () => {
    assert.equal(columnValue(field('created'), { created: 1700000000 }), 1_700_000_000_000);
    assert.equal(columnValue(field('ts'), { ts: '1700000000.000100' }), 1_700_000_000_000);
    assert.equal(columnValue(field('ts'), { ts: '1700000001.5' }), 1_700_000_001_500);
    assert.equal(columnValue(field('at_ms'), { at_ms: 1_700_000_000_123 }), 1_700_000_000_123);
    assert.equal(columnValue(field('created'), { created: '2024-01-01' }), null);
  });

  it('writes bounds in each format, with a look-back', () => {
    const iso = '2024-05-01T13:45:59.900Z';
    assert.equal(formatBound(iso, 'unix_seconds'), 1714571159);
    assert.equal(formatBound(iso, 'unix_ms'), 1714571159900);
    assert.equal(formatBound(iso, 'datetime_minutes'), '2024-05-01 13:45');
    assert.equal(formatBound(iso, 'datetime_minutes', 86_400), '2024-04-30 13:45');
    assert.equal(formatBound(iso, undefined), '2024-05-01T13:45:59Z');
  });

  it('refuses a format on a field that is not a timestamp, and a bound the param cannot take', () => {
    assert.throws(
      () =>
        parseDefinition(
          YAML.replace('{ name: id, type: string }', '{ name: id, type: string, format: unix_ms }'),
          'l.yaml',
        ),
      /fields\/0\/format: only for type timestamp/,
    );
    assert.throws(
      () =>
        parseDefinition(
          YAML.replace('field: created, format: unix_seconds', 'field: created, format: datetime_minutes'),
          'l.yaml',
        ),
      /list param 'created_gte' is integer, but datetime_minutes bounds are strings/,
    );
    // A Unix bound fits a string param: it is sent as text.
    parseDefinition(YAML.replace('param: created_gte, field: created', 'param: oldest, field: ts'), 'l.yaml');
  });
});

describe('error bodies and reset headers', () => {
  const res = (status: number, headers: Record<string, string> = {}) => ({
    status,
    headers,
    body: Buffer.alloc(0),
    url: new URL('https://api.ledgerly.example/v1/charges'),
  });
  const ctx = { def, operation: 'charges.list', secrets: [] };

  it('quotes the text at the first declared path that holds some; an object of strings reads as field: text', () => {
    const stripeLike = { error: { type: 'invalid_request_error', message: 'No such charge: ch_1' } };
    assert.match(upstreamError('not_found', res(404), stripeLike, ctx).message, /: No such charge: ch_1\./);
    const jiraLike = { errors: { summary: 'You must specify a summary.' } };
    assert.match(
      upstreamError('invalid_params', res(400), jiraLike, ctx).message,
      /: summary: You must specify a summary\./,
    );
  });

  it('reads an ISO 8601 reset header', () => {
    const now = () => Date.parse('2024-05-01T00:00:00Z');
    assert.equal(
      retryAfterSeconds(res(429, { 'x-ratelimit-reset': '2024-05-01T00:01:30Z' }), def.errors, now),
      90,
    );
  });

  it('refuses a message path outside the exposed keys', () => {
    assert.throws(
      () => parseDefinition(YAML.replace('[[error, message], [errors]]', '[[detail]]'), 'l.yaml'),
      /errors\/message_paths\/0: must start with one of expose_body_keys/,
    );
  });

  it('refuses an array_body_key outside the exposed keys, and takes one among them', () => {
    const withKey = (key: string) =>
      YAML.replace(
        '  message_paths: [[error, message], [errors]]',
        `  message_paths: [[error, message], [errors]]\n  array_body_key: ${key}`,
      );
    assert.throws(
      () => parseDefinition(withKey('detail'), 'l.yaml'),
      /errors\/array_body_key: 'detail' must be one of expose_body_keys/,
    );
    assert.equal(parseDefinition(withKey('errors'), 'l.yaml').errors?.array_body_key, 'errors');
  });
});

describe('arrays of objects and idempotency keys on a form write', () => {
  let server: Awaited<ReturnType<typeof startServer>>;
  let rt: ConnectorRuntime;
  let failures = 1;
  const create = (params: Record<string, unknown>) =>
    rt.execute({
      connectorId: 'c1',
      definition: def,
      credentials: { option: 'Key', values: { key: 'k' } },
      config: {},
      entity: 'charges',
      action: 'create',
      params,
    });

  before(async () => {
    server = await startServer((_req, res) => {
      if (failures-- > 0) return json(res, 503, { error: { message: 'try again' } });
      json(res, 200, { id: 'ch_1' });
    });
    rt = runtime(
      { ledgerly: `${server.url}/v1` },
      { clock: { now: Date.now, sleep: async () => {}, random: () => 0.5 } },
    );
  });
  after(async () => {
    await rt.close();
    await server.close();
  });

  it('validates object items, form-encodes them, and retries the write with the same fresh key', async () => {
    await create({ amount: 5, items: [{ price: 'p_1', quantity: 2 }] });
    const [first, second] = server.seen as [SeenRequest, SeenRequest];
    assert.equal(first.body, 'items[0][price]=p_1&items[0][quantity]=2&amount=5');
    const key = first.headers['idempotency-key'];
    assert.match(String(key), /^[0-9a-f-]{36}$/);
    assert.equal(second.headers['idempotency-key'], key, 'the retry repeats the key');
    await create({ amount: 5 });
    assert.notEqual(server.seen.at(-1)?.headers['idempotency-key'], key, 'each execute has its own key');
    await create({ amount: 5, idem: 'mine-1' });
    assert.equal(server.seen.at(-1)?.headers['idempotency-key'], 'mine-1');
  });

  it('refuses items that are not objects, and object items outside a body at load', () => {
    const resolved = resolveAction(def, 'charges', 'create');
    assert.throws(() => validateParams(resolved, { amount: 1, items: ['x'] }), /items\[0\]/);
    assert.throws(
      () =>
        parseDefinition(
          YAML.replace(
            'request: { method: POST, path: /charges, body_format',
            'request: { method: GET, path: /charges, body_format',
          ),
          'l.yaml',
        ),
      /params\/items\/items\/type: objects travel only in a body \(not query\)/,
    );
  });
});

describe('rate limit overrides (CES_RATE_LIMIT_OVERRIDES)', () => {
  it("holds the operator's limit instead of the definition's, or none", async () => {
    const limited = parseDefinition(
      YAML.replace(
        'check: { method: GET, path: /me }',
        'check: { method: GET, path: /me }\nrate_limit: { requests: 1, per_seconds: 3600 }',
      ),
      'ledgerly.yaml',
    );
    const server = await startServer((_req, res) => json(res, 200, { data: [] }));
    const run = async (overrides: Record<string, { requests: number; per_seconds: number } | null>) => {
      const rt = runtime(
        { ledgerly: `${server.url}/v1` },
        { rateLimitOverrides: overrides, queueWaitMs: 50 },
      );
      const list = () =>
        rt.execute({
          connectorId: 'c9',
          definition: limited,
          credentials: { option: 'Key', values: { key: 'k' } },
          config: {},
          entity: 'charges',
          action: 'list',
          params: {},
        });
      try {
        await list();
        return await list().then(
          () => 'sent',
          (err: { code?: string }) => err.code,
        );
      } finally {
        await rt.close();
      }
    };
    try {
      assert.equal(await run({}), 'UPSTREAM_RATE_LIMITED', "the definition's 1 per hour holds");
      assert.equal(await run({ ledgerly: null }), 'sent');
      assert.equal(await run({ ledgerly: { requests: 10, per_seconds: 1 } }), 'sent');
    } finally {
      await server.close();
    }
  });
});

describe('GraphQL variables from a template', () => {
  const gql = parseDefinition(
    YAML.replace(
      'entities:\n',
      `entities:
  - name: notes
    description: Notes through GraphQL.
    primary_key: [id]
    actions:
      list:
        description: Notes, of one ledger when given.
        params:
          ledgerId: { type: string, description: Only this ledger's notes. }
          first: { type: integer, description: Page size. }
        request:
          method: POST
          path: /graphql
          graphql:
            query: "query($filter: NoteFilter, $first: Int) { notes(filter: $filter, first: $first) { nodes { id } } }"
            variables: { filter: { ledger: { id: { eq: "{ledgerId}" } }, archived: { eq: false } } }
        record_selector: [data, notes, nodes]
`,
    ),
    'ledgerly.yaml',
  );
  const list = resolveAction(gql, 'notes', 'list');
  const base = {
    href: 'https://api.ledgerly.example/v1',
    origin: 'https://api.ledgerly.example',
    guarded: true,
  };
  const variables = (params: Record<string, unknown>) =>
    (buildRequest(base, list.action.request, list.action.params ?? {}, params).body as { variables: unknown })
      .variables;

  it('fills the template from params, drops what names an absent one, and adds the other params by name', () => {
    assert.deepEqual(variables({ ledgerId: 'l1', first: 5 }), {
      filter: { ledger: { id: { eq: 'l1' } }, archived: { eq: false } },
      first: 5,
    });
    assert.deepEqual(variables({}), { filter: { archived: { eq: false } } });
  });

  it('refuses a template naming an undeclared param', () => {
    assert.throws(
      () =>
        parseDefinition(
          YAML.replace(
            'entities:\n',
            `entities:\n${'  - name: x\n    description: X.\n    primary_key: [id]\n    actions:\n      list:\n        description: X.\n        request:\n          method: POST\n          path: /graphql\n          graphql: { query: "query($f: F) { x(f: $f) { id } }", variables: { f: "{nope}" } }\n'}`,
          ),
          'l.yaml',
        ),
      /request\/graphql\/variables: placeholder \{nope\} is not a declared param/,
    );
  });
});
