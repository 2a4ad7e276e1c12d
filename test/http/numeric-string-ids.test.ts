// Ids sent as strings through execute (the hosted service's SDK types `ticket_id` and `attachment_id` as
// strings): Zendesk Support against its fake, with CES_UPSTREAM_OVERRIDES pointing the connector type at it.
// A string of decimal digits works wherever the definition declares `integer`; any other string is a 422
// naming the param, and reaches no provider.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { ZendeskFake } from '../connectors/zendesk-support/fake/index.ts';
import { startWithZendesk } from '../connectors/zendesk-support/harness.ts';
import type { Harness } from '../helpers/harness.ts';
import { assertError, errorFields } from './assertions.ts';

interface Attachment {
  id: number;
  size: number;
}

describe('numeric ids given as strings (Zendesk Support through the HTTP API)', () => {
  let h: Harness;
  let fake: ZendeskFake;
  let token: string;
  let close: () => Promise<void>;
  let connectorId: string;

  const exec = (entity: string, action: string, params: Record<string, unknown>) =>
    h.inject({
      method: 'POST',
      url: `/api/v1/integrations/connectors/${connectorId}/execute`,
      token,
      body: { entity, action, params },
    });

  before(async () => {
    ({ h, fake, token, connectorId: connectorId, close } = await startWithZendesk());
  });
  after(() => close());

  test('tickets.get with ticket_id "1" answers the ticket, as ticket_id 1 does', async () => {
    fake.requests.length = 0;
    const asString = await exec('tickets', 'get', { ticket_id: '1' });
    assert.equal(asString.status, 200, asString.body);
    assert.equal(asString.json.result.id, 1);
    const asNumber = await exec('tickets', 'get', { ticket_id: 1 });
    assert.equal(asNumber.status, 200, asNumber.body);
    assert.deepEqual(asString.json.result, asNumber.json.result);
    assert.deepEqual(
      fake.requests.map((r) => r.path),
      ['/api/v2/tickets/1', '/api/v2/tickets/1'],
    );
  });

  test('ticket_comments.list with string ticket_id and page_size follows the cursor to the last page', async () => {
    fake.requests.length = 0;
    const ids: number[] = [];
    let params: Record<string, unknown> = { ticket_id: '1', page_size: '2' };
    let pages = 0;
    for (;;) {
      const page = await exec('ticket_comments', 'list', params);
      assert.equal(page.status, 200, page.body);
      pages++;
      ids.push(...page.json.result.map((c: { id: number }) => c.id));
      if (!page.json.connector_metadata.has_next_page) break;
      params = { cursor: page.json.connector_metadata.end_cursor };
    }
    // Ticket 1 of the fake's dataset has 3 comments: two pages of at most 2.
    assert.equal(pages, 2);
    assert.equal(ids.length, 3);
    assert.equal(new Set(ids).size, 3);
    for (const r of fake.requests) {
      assert.equal(new URL(r.path, 'http://x').pathname, '/api/v2/tickets/1/comments');
      assert.equal(new URL(r.path, 'http://x').searchParams.get('page[size]'), '2');
    }
  });

  test('attachments.download with attachment_id as a string streams the file', async () => {
    const comments = await exec('ticket_comments', 'list', { ticket_id: '1' });
    assert.equal(comments.status, 200, comments.body);
    const attachments: Attachment[] = comments.json.result.flatMap(
      (c: { attachments: Attachment[] }) => c.attachments,
    );
    const first = attachments[0];
    assert.ok(first, 'ticket 1 has an attachment');
    const file = await exec('attachments', 'download', { attachment_id: String(first.id) });
    assert.equal(file.status, 200, file.body);
    assert.equal(file.raw.length, first.size);
  });

  test('a digit string of an id the provider does not have is its 404', async () => {
    const missing = await exec('tickets', 'get', { ticket_id: '424242' });
    assertError(missing, 404, 'UPSTREAM_NOT_FOUND');
    assert.equal(fake.requests.at(-1)?.path, '/api/v2/tickets/424242');
  });

  test('any other string is a 422 naming the param, before any provider call', async () => {
    fake.requests.length = 0;
    for (const ticket_id of ['abc', '01', '-1', '1.0', ' 1', '1e2', '9007199254740993']) {
      const res = await exec('tickets', 'get', { ticket_id });
      assertError(res, 422, 'INVALID_PARAMS');
      assert.deepEqual(errorFields(res), ['params.ticket_id'], ticket_id);
      assert.match(res.json.message, /'ticket_id' must be an integer/, ticket_id);
    }
    const res = await exec('attachments', 'download', { attachment_id: 'latest' });
    assertError(res, 422, 'INVALID_PARAMS');
    assert.deepEqual(errorFields(res), ['params.attachment_id']);
    assert.deepEqual(fake.requests, []);
  });
});
