// The reference's Go CLI (`airbyte-agent connectors describe`) GETs the connector and, beside it, POSTs
// `{"entity": "", "action": "describe"}` to execute; either failing fails the whole command. These tests replay
// its two requests byte for byte (its headers, Go's encoder's body with its sorted keys and trailing newline) and
// parse the answers as it does.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type AnyUpstreamHarness, startWithAnyUpstream } from '../helpers/any-upstream.ts';
import { cliHeaders } from '../helpers/go-cli.ts';
import type { Harness } from '../helpers/harness.ts';
import { assertMatchesReference } from '../helpers/reference-spec.ts';
import { assertError } from './assertions.ts';

/** What Go's json.Encoder writes for the CLI's map[string]string{"entity": "", "action": "describe"}. */
const DESCRIBE_BODY = '{"action":"describe","entity":""}\n';

/** The CLI's connectorsDescribe: both calls, a status of 400 or more an error, the describe merged as `schema`. */
async function cliDescribe(h: Harness, token: string, id: string, body = DESCRIBE_BODY) {
  const path = `/api/v1/integrations/connectors/${encodeURIComponent(id)}`;
  const headers = cliHeaders(h.boot.organization_id);
  const [got, described] = await Promise.all([
    h.inject({ method: 'GET', url: path, token, headers }),
    h.inject({ method: 'POST', url: `${path}/execute`, token, headers, body }),
  ]);
  if (got.status >= 400) throw new Error(`GET connector: ${got.status} ${got.body}`);
  const connector = JSON.parse(got.body) as Record<string, unknown>;
  if (described.status >= 400) throw new Error(`describe: ${described.status} ${described.body}`);
  connector.schema = JSON.parse(described.body);
  return { connector, described };
}

interface DescribedEntity {
  entity: string;
  actions: Array<{ action: string; params: Array<{ name: string; required: boolean }> }>;
}
interface DescribeAnswer {
  status: string;
  result: {
    connector_id: string;
    connector_type: string;
    definition_id: string;
    entities: DescribedEntity[];
  };
  connector_metadata: unknown;
  execution_metadata: { connector_instance_id: string };
}
/** The definition endpoint's entities, as far as describe repeats them. */
interface ShownEntity {
  name: string;
  actions: Array<{ name: string; params: Array<{ name: string; required: boolean }> }>;
}

describe('execute action describe, as the reference CLI calls it', () => {
  let u: AnyUpstreamHarness;

  before(async () => {
    u = await startWithAnyUpstream();
  });
  after(() => u.close());

  test('every connector type answers with its entities, actions and params, as its definition shows them, and nothing goes upstream', async () => {
    const before = u.upstream.requests.length;
    for (const [slug, id] of u.connectors) {
      const { connector, described } = await cliDescribe(u.h, u.token, id);
      assertMatchesReference('POST', '/api/v1/integrations/connectors/{id}/execute', 200, described.json);
      const schema = connector.schema as DescribeAnswer;
      assert.equal(schema.status, 'success', slug);
      assert.deepEqual(schema.connector_metadata, { has_next_page: false, end_cursor: null }, slug);
      assert.equal(schema.execution_metadata.connector_instance_id, `source_id:${id}`);
      assert.equal(schema.result.connector_id, id);
      assert.equal(schema.result.connector_type, slug);
      const def = await u.h.inject({
        method: 'GET',
        url: `/api/v1/integrations/definitions/sources/${schema.result.definition_id}`,
        token: u.token,
      });
      assert.equal(def.status, 200, def.body);
      const shown = (def.json.entities as ShownEntity[]).map((e) => ({
        entity: e.name,
        actions: e.actions.map((a) => ({
          action: a.name,
          params: a.params.map((p) => ({ name: p.name, required: p.required })),
        })),
      }));
      const answered = schema.result.entities.map((e) => ({
        entity: e.entity,
        actions: e.actions.map((a) => ({
          action: a.action,
          params: a.params.map((p) => ({ name: p.name, required: p.required })),
        })),
      }));
      assert.ok(shown.length > 0 && shown.every((e) => e.actions.length > 0), slug);
      assert.deepEqual(answered, shown, slug);
    }
    assert.equal(u.upstream.requests.length, before, 'describe sent nothing to any provider');
    assert.deepEqual(u.upstream.unhandled, []);
  });

  test('a named entity narrows the answer to it; an unknown one is a 422 naming those there are', async () => {
    const id = u.connectors.get('github')!;
    const before = u.upstream.requests.length;
    const one = await cliDescribe(u.h, u.token, id, '{"action":"describe","entity":"issues"}\n');
    const entities = (one.connector.schema as DescribeAnswer).result.entities;
    assert.deepEqual(
      entities.map((e) => e.entity),
      ['issues'],
    );
    assert.ok(entities[0]!.actions.some((a) => a.action === 'list'));
    const bad = await u.h.inject({
      method: 'POST',
      url: `/api/v1/integrations/connectors/${id}/execute`,
      token: u.token,
      body: { entity: 'isues', action: 'describe' },
    });
    assertError(bad, 422, 'UNKNOWN_ENTITY');
    assert.ok(bad.json.errors[0].details.available.includes('issues'));
    assert.equal(u.upstream.requests.length, before);
  });

  test("another organization's connector is a 404, described or not", async () => {
    const other = await u.h.otherOrg();
    const res = await u.h.inject({
      method: 'POST',
      url: `/api/v1/integrations/connectors/${u.connectors.get('github')}/execute`,
      token: other.token,
      body: DESCRIBE_BODY,
    });
    assertError(res, 404, 'CONNECTOR_NOT_FOUND');
  });
});
