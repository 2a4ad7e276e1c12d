// Zendesk attachments through execute `download`: find files by listing a ticket's comments, then stream one
// (attachment metadata -> content_url -> 302 to the storage host -> bytes).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Harness } from '../../helpers/harness.ts';
import { startWithZendesk } from './harness.ts';

interface Attachment {
  id: number;
  file_name: string;
  content_type: string;
  size: number;
  content_url: string;
}

describe('Zendesk attachment download', () => {
  let h: Harness;
  let token: string;
  let close: () => Promise<void>;
  let id: string;
  let attachments: Attachment[];

  const exec = (body: unknown, headers: Record<string, string> = {}) =>
    h.inject({ method: 'POST', url: `/api/v1/integrations/connectors/${id}/execute`, token, body, headers });

  before(async () => {
    ({ h, token, connectorId: id, close } = await startWithZendesk());
    const comments = await exec({ entity: 'ticket_comments', action: 'list', params: { ticket_id: 1 } });
    assert.equal(comments.status, 200, comments.body);
    attachments = comments.json.result.flatMap((c: { attachments: Attachment[] }) => c.attachments);
    assert.ok(attachments.length > 0, 'ticket 1 has attachments to find');
  });
  after(() => close());

  test('streams the file with its name and type, as the comment listed them', async () => {
    for (const a of attachments) {
      const res = await exec({ entity: 'attachments', action: 'download', params: { attachment_id: a.id } });
      assert.equal(res.status, 200, res.body);
      assert.equal(res.raw.length, a.size, `${a.file_name}: every byte arrives`);
      assert.equal(String(res.headers['content-type']).split(';')[0], a.content_type);
      assert.match(String(res.headers['content-disposition']), /^attachment/);
      assert.ok(
        String(res.headers['content-disposition']).includes(encodeURIComponent(a.file_name)) ||
          String(res.headers['content-disposition']).includes(a.file_name),
      );
      const direct = await fetch(a.content_url);
      assert.ok(
        res.raw.equals(Buffer.from(await direct.arrayBuffer())),
        'the same bytes as content_url serves',
      );
    }
  });

  test('a Range request gets a 206 with the slice', async () => {
    const a = attachments.find((x) => x.size > 10)!;
    const res = await exec(
      { entity: 'attachments', action: 'download', params: { attachment_id: a.id } },
      { range: 'bytes=0-9' },
    );
    assert.equal(res.status, 206, res.body);
    assert.equal(res.raw.length, 10);
    assert.match(String(res.headers['content-range']), new RegExp(`^bytes 0-9/${a.size}$`));
  });

  test('an unknown attachment is a 404 with the error body, never an empty 200', async () => {
    const res = await exec({ entity: 'attachments', action: 'download', params: { attachment_id: 999999 } });
    assert.equal(res.status, 404);
    assert.equal(res.json.code, 'UPSTREAM_NOT_FOUND');
  });
});
