// Zendesk Support through the HTTP API: the harness with CES_UPSTREAM_OVERRIDES pointing the connector type at
// the Zendesk fake (test/connectors/zendesk-support/fake), from connector creation to execute and its errors.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  closeAll,
  connectorApi,
  countConnectors,
  createConnector,
  startWithFake,
} from '../../helpers/connector-api.ts';
import type { Harness } from '../../helpers/harness.ts';
import {
  startZendeskFake,
  ZENDESK_FAKE_API_TOKEN,
  ZENDESK_FAKE_EMAIL,
  ZENDESK_FAKE_OAUTH_TOKEN,
  type ZendeskFake,
} from './fake/index.ts';

const ZENDESK_DEFINITION_ID = '79c1aa37-dae3-42ae-b333-d1c105477715';
const API_TOKEN_CREDENTIALS = {
  email: ZENDESK_FAKE_EMAIL,
  api_token: ZENDESK_FAKE_API_TOKEN,
  subdomain: 'ces-demo',
};

describe('Zendesk Support through the HTTP API', () => {
  let h: Harness;
  let fake: ZendeskFake;
  let token: string;
  let connectorId: string;

  const create = (body: Record<string, unknown>) => createConnector(h, token, { name: 'helpdesk', ...body });
  const exec = (body: unknown, id = connectorId) => connectorApi(h, token, id).send(body);
  const count = () => countConnectors(h, token);

  before(async () => {
    fake = await startZendeskFake();
    ({ h, token } = await startWithFake('zendesk-support', fake.url));
  });
  after(async () => {
    await closeAll(h, fake);
    assert.deepEqual(
      fake.unhandled.map((r) => `${r.method} ${r.path}`),
      [],
    );
  });

  test('create with API Token credentials checks them live and never returns them', async () => {
    const res = await create({ definition_id: ZENDESK_DEFINITION_ID, credentials: API_TOKEN_CREDENTIALS });
    assert.equal(res.status, 200, res.body);
    assert.equal(res.json.connector_type, 'zendesk-support');
    assert.equal(res.json.credential_option, 'API Token');
    assert.ok(!res.body.includes(ZENDESK_FAKE_API_TOKEN));
    assert.deepEqual(
      fake.requests.map((r) => r.path),
      ['/api/v2/users/me'],
    );
    connectorId = res.json.id;
  });

  test('create by connector_type with OAuth2.0 credentials; the subdomain may be in replication_config', async () => {
    const res = await create({
      connector_type: 'Zendesk-Support',
      name: 'oauth',
      credentials: { access_token: ZENDESK_FAKE_OAUTH_TOKEN },
      replication_config: { subdomain: 'ces-demo' },
    });
    assert.equal(res.status, 200, res.body);
    assert.equal(res.json.credential_option, 'OAuth2.0');
    assert.equal(fake.requests.at(-1)!.headers.authorization, `Bearer ${ZENDESK_FAKE_OAUTH_TOKEN}`);
    const groups = await exec({ entity: 'groups', action: 'list', params: {} }, res.json.id);
    assert.equal(groups.status, 200, groups.body);
    assert.equal(groups.json.result.length, 2);
  });

  test('rejected or malformed credentials and a bad subdomain are refused; nothing is stored', async () => {
    const before = await count();
    const wrong = await create({
      credentials: { ...API_TOKEN_CREDENTIALS, api_token: 'not-the-token' },
      connector_type: 'zendesk-support',
    });
    assert.equal(wrong.status, 422, wrong.body);
    assert.equal(wrong.json.code, 'INVALID_CREDENTIALS');
    assert.ok(!wrong.body.includes('not-the-token'));

    const shape = await create({
      connector_type: 'zendesk-support',
      credentials: { email: ZENDESK_FAKE_EMAIL },
    });
    assert.equal(shape.status, 422, shape.body);
    assert.equal(shape.json.code, 'INVALID_CREDENTIALS');
    assert.match(shape.json.message, /'API Token' \(email, api_token, subdomain\?\)/);
    assert.match(shape.json.message, /'OAuth2\.0' \(access_token, refresh_token\?, subdomain\?\)/);

    const sub = await create({
      connector_type: 'zendesk-support',
      credentials: API_TOKEN_CREDENTIALS,
      replication_config: { subdomain: 'evil.example/x' },
    });
    assert.equal(sub.status, 422, sub.body);
    assert.equal(sub.json.code, 'VALIDATION_ERROR');
    assert.equal(await count(), before);
  });

  test('execute lists tickets by cursor to the end, and the offset params work too', async () => {
    const first = await exec({ entity: 'tickets', action: 'list', params: { page_size: 25 } });
    assert.equal(first.status, 200, first.body);
    assert.equal(first.json.status, 'success');
    assert.equal(first.json.execution_metadata.connector_instance_id, `source_id:${connectorId}`);
    assert.equal(first.json.result.length, 25);
    assert.equal(first.json.connector_metadata.has_next_page, true);
    const second = await exec({
      entity: 'tickets',
      action: 'list',
      params: { cursor: first.json.connector_metadata.end_cursor },
    });
    assert.equal(second.status, 200, second.body);
    assert.deepEqual(
      second.json.result.map((t: { id: number }) => t.id),
      [26, 27, 28, 29, 30],
    );
    assert.deepEqual(second.json.connector_metadata, { count: null, has_next_page: false, end_cursor: null });

    const offset = await exec({ entity: 'tickets', action: 'list', params: { page: 3, per_page: 10 } });
    assert.equal(offset.status, 200, offset.body);
    assert.deepEqual(offset.json.result[0].id, 21);
    assert.deepEqual(offset.json.connector_metadata, { count: 30, has_next_page: false, end_cursor: null });
  });

  test('execute gets a ticket and its comments with attachments, and creates a ticket', async () => {
    const one = await exec({ entity: 'tickets', action: 'get', params: { ticket_id: 1 } });
    assert.equal(one.status, 200, one.body);
    assert.equal(one.json.result.id, 1);
    assert.equal(one.json.result.subject, 'Ticket 1: printer on fire');

    const comments = await exec({
      entity: 'ticket_comments',
      action: 'list',
      params: { ticket_id: 1 },
      select_fields: ['id', 'attachments.file_name', 'attachments.id'],
    });
    assert.equal(comments.status, 200, comments.body);
    assert.deepEqual(
      comments.json.result.flatMap((c: { attachments: Array<{ file_name: string }> }) =>
        c.attachments.map((a) => a.file_name),
      ),
      ['crash.log', 'screenshot.png', 'notes.pdf'],
    );

    const created = await exec({
      entity: 'tickets',
      action: 'create',
      params: { ticket: { subject: 'From the API', comment: { body: 'Hello' }, priority: 'low' } },
    });
    assert.equal(created.status, 200, created.body);
    assert.equal(created.json.result.subject, 'From the API');
    assert.equal(created.json.result.priority, 'low');
    const fetched = await exec({
      entity: 'tickets',
      action: 'get',
      params: { ticket_id: created.json.result.id },
    });
    assert.equal(fetched.json.result.description, 'Hello');
  });

  test('errors: unknown ticket 404, Zendesk validation 422, rate limit 429, bad params before any call', async () => {
    const missing = await exec({ entity: 'tickets', action: 'get', params: { ticket_id: 424242 } });
    assert.equal(missing.status, 404, missing.body);
    assert.equal(missing.json.code, 'UPSTREAM_NOT_FOUND');
    assert.deepEqual(missing.json.upstream, {
      status: 404,
      body: { description: 'Not found', error: 'RecordNotFound' },
    });

    const invalid = await exec({
      entity: 'tickets',
      action: 'create',
      params: { ticket: { subject: 'no comment' } },
    });
    assert.equal(invalid.status, 422, invalid.body);
    assert.equal(invalid.json.code, 'INVALID_PARAMS');
    assert.equal(invalid.json.upstream.body.error, 'RecordInvalid');

    fake.failNext({ status: 429, headers: { 'retry-after': '93' }, match: '/api/v2/users' });
    const limited = await exec({ entity: 'users', action: 'list', params: {} });
    assert.equal(limited.status, 429, limited.body);
    assert.equal(limited.json.code, 'UPSTREAM_RATE_LIMITED');
    assert.equal(limited.headers['retry-after'], '93');

    const mark = fake.requests.length;
    const cases: Array<[unknown, string]> = [
      [{ entity: 'tickets', action: 'list', params: { page_size: 10, page: 2 } }, 'INVALID_PARAMS'],
      [{ entity: 'tickets', action: 'create', params: { ticket: 'not an object' } }, 'INVALID_PARAMS'],
      [{ entity: 'tickets', action: 'update', params: { ticket: {} } }, 'INVALID_PARAMS'],
      [{ entity: 'tickets', action: 'list', params: { page_size: 101 } }, 'INVALID_PARAMS'],
      [{ entity: 'ticket', action: 'list', params: {} }, 'UNKNOWN_ENTITY'],
      [{ entity: 'tags', action: 'get', params: {} }, 'UNKNOWN_ACTION'],
    ];
    for (const [body, code] of cases) {
      const res = await exec(body);
      assert.equal(res.status, 422, res.body);
      assert.equal(res.json.code, code, res.body);
    }
    assert.equal(fake.requests.length, mark, 'no request reached Zendesk');
  });
});
