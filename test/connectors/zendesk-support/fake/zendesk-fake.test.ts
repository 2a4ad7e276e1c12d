// The fake's own wire behaviour, driven with plain fetch the way any Zendesk client would: what the
// connector tests rely on (paging members, auth answers, rate-limit headers) and what a later `download`
// action will follow (content_url -> 302 -> the storage host).
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { startZendeskFake, ZENDESK_FAKE_API_TOKEN, ZENDESK_FAKE_EMAIL, type ZendeskFake } from './index.ts';

let fake: ZendeskFake;
const basic = `Basic ${Buffer.from(`${ZENDESK_FAKE_EMAIL}/token:${ZENDESK_FAKE_API_TOKEN}`).toString('base64')}`;

beforeEach(async () => {
  fake = await startZendeskFake({ subdomain: 'acme' });
});

afterEach(async () => {
  await fake.close();
});

// biome-ignore lint/suspicious/noExplicitAny: JSON bodies of the fake
async function get(path: string, init: RequestInit = {}): Promise<{ res: Response; body: any }> {
  const res = await fetch(path.startsWith('http') ? path : `${fake.url}${path}`, {
    redirect: 'manual',
    ...init,
    headers: { authorization: basic, ...(init.headers ?? {}) },
  });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {}
  return { res, body };
}

describe('Zendesk fake', () => {
  test('cursor paging: meta and links, next and prev, .json paths, last page still linked', async () => {
    const first = await get('/tickets.json?page[size]=20');
    assert.equal(first.res.status, 200);
    assert.deepEqual(Object.keys(first.body), ['tickets', 'meta', 'links']);
    assert.equal(first.body.meta.has_more, true);
    assert.equal(first.body.tickets[0].recipient, 'support@acme.zendesk.com');
    const next = await get(first.body.links.next);
    assert.deepEqual(
      next.body.tickets.map((t: { id: number }) => t.id),
      Array.from({ length: 10 }, (_, i) => i + 21),
    );
    assert.equal(next.body.meta.has_more, false);
    assert.match(next.body.links.next, /page%5Bafter%5D=/);
    const back = await get(next.body.links.prev);
    assert.equal(back.body.tickets.length, 20);
    assert.equal(back.body.tickets[0].id, 1);
    const beyond = await get(next.body.links.next);
    assert.deepEqual(beyond.body.tickets, []);
    assert.deepEqual(beyond.body.meta, { has_more: false, after_cursor: null, before_cursor: null });
    assert.deepEqual(beyond.body.links, { prev: null, next: null });
  });

  test('offset paging: next_page/previous_page/count, per_page capped at 100, modes exclusive', async () => {
    const page = await get('/tickets?page=2&per_page=12');
    assert.deepEqual(Object.keys(page.body), ['tickets', 'next_page', 'previous_page', 'count']);
    assert.equal(page.body.count, 30);
    assert.equal(page.body.next_page, `${new URL(fake.url).origin}/api/v2/tickets.json?page=3&per_page=12`);
    assert.equal(
      page.body.previous_page,
      `${new URL(fake.url).origin}/api/v2/tickets.json?page=1&per_page=12`,
    );
    fake.seedTickets(120);
    const capped = await get('/tickets?per_page=500');
    assert.equal(capped.body.tickets.length, 100);
    assert.equal(capped.body.count, 150);
    for (const bad of [
      '/tickets?page=2&page[size]=5',
      '/tickets?page[size]=101',
      '/tickets?page[after]=garbage',
    ]) {
      const res = await get(bad);
      assert.equal(res.res.status, 400, bad);
      assert.equal(res.body.error, 'InvalidPaginationParameter');
    }
  });

  test('auth: 401 body and header, anonymous Show Self, rate-limit headers that count down', async () => {
    const bad = await get('/tickets', { headers: { authorization: 'Bearer nope' } });
    assert.equal(bad.res.status, 401);
    assert.deepEqual(bad.body, { error: "Couldn't authenticate you" });
    assert.equal(bad.res.headers.get('www-authenticate'), 'Basic realm="Web Password"');
    const password = `Basic ${Buffer.from(`${ZENDESK_FAKE_EMAIL}:${ZENDESK_FAKE_API_TOKEN}`).toString('base64')}`;
    assert.equal((await get('/users/me', { headers: { authorization: password } })).res.status, 401);
    const anon = await get('/users/me', { headers: { authorization: '' } });
    assert.equal(anon.res.status, 200);
    assert.equal(anon.body.user.id, null);
    assert.equal((await get('/tickets', { headers: { authorization: '' } })).res.status, 401);
    const a = await get('/groups');
    const b = await get('/groups');
    assert.equal(a.res.headers.get('x-rate-limit'), '700');
    assert.equal(
      Number(a.res.headers.get('x-rate-limit-remaining')) - 1,
      Number(b.res.headers.get('x-rate-limit-remaining')),
    );
    assert.ok(Number(b.res.headers.get('ratelimit-reset')) >= 1);
  });

  test('content_url redirects to the storage host, which serves the file without credentials', async () => {
    const comments = await get('/tickets/1/comments');
    const log = comments.body.comments[0].attachments[0];
    const hop = await get(log.content_url, { headers: { authorization: '' } });
    assert.equal(hop.res.status, 302);
    const location = hop.res.headers.get('location')!;
    assert.match(location, /\/_zdusercontent\/attachment\/\d+\/[\w-]+\?token=/);
    const file = await fetch(location);
    assert.equal(file.status, 200);
    assert.equal(file.headers.get('content-type'), 'text/plain');
    assert.match(file.headers.get('content-disposition')!, /^attachment; filename="crash\.log"/);
    const bytes = Buffer.from(await file.arrayBuffer());
    assert.equal(bytes.length, log.size);
    const part = await fetch(location, { headers: { range: 'bytes=0-9' } });
    assert.equal(part.status, 206);
    assert.equal(part.headers.get('content-range'), `bytes 0-9/${log.size}`);
    assert.deepEqual(Buffer.from(await part.arrayBuffer()), bytes.subarray(0, 10));
    const forged = await fetch(location.replace(/token=.*/, 'token=forged'));
    assert.equal(forged.status, 403);
    assert.equal((await fetch(`${new URL(fake.url).origin}/attachments/token/nope/?name=x`)).status, 404);
  });

  test('ticket writes need JSON; unknown routes are 404 InvalidEndpoint and recorded as unhandled', async () => {
    const form = await get('/tickets', {
      method: 'POST',
      body: 'ticket=1',
      headers: { 'content-type': 'text/plain' },
    });
    assert.equal(form.res.status, 400);
    assert.match(form.res.headers.get('content-type')!, /^text\/plain/);
    const json = { 'content-type': 'application/json' };
    const noTicket = await get('/tickets', { method: 'POST', body: '{"subject":"x"}', headers: json });
    assert.equal(noTicket.res.status, 400);
    const created = await get('/tickets', {
      method: 'POST',
      body: JSON.stringify({ ticket: { comment: { html_body: '<p>Hi</p>' }, requester_id: 372000000005 } }),
      headers: json,
    });
    assert.equal(created.res.status, 201);
    assert.equal(created.res.headers.get('location'), `${new URL(fake.url).origin}/api/v2/tickets/31.json`);
    assert.equal(created.body.ticket.organization_id, 360000100002);
    const wrong = await get('/tickets/2', {
      method: 'PUT',
      body: '{"ticket":{"priority":"asap"}}',
      headers: json,
    });
    assert.equal(wrong.res.status, 422);
    assert.deepEqual(wrong.body.details, {
      priority: [{ description: 'Priority: is invalid', error: 'InvalidValue' }],
    });
    assert.equal(fake.unhandled.length, 0);
    const unknown = await get('/custom_objects');
    assert.equal(unknown.res.status, 404);
    assert.deepEqual(unknown.body, { error: 'InvalidEndpoint', description: 'Not found' });
    assert.deepEqual(
      fake.unhandled.map((r) => r.path),
      ['/api/v2/custom_objects'],
    );
  });

  test('ticket fields: cursor paging by id, or every field by position without page[size]', async () => {
    const all = await get('/ticket_fields.json');
    assert.equal(all.body.ticket_fields.length, 5);
    assert.equal(all.body.next_page, null);
    const cursor = await get('/ticket_fields?page[size]=2');
    assert.equal(cursor.body.ticket_fields.length, 2);
    assert.equal(cursor.body.meta.has_more, true);
    const rest = await get(cursor.body.links.next);
    assert.deepEqual(
      rest.body.ticket_fields.map((f: { id: number }) => f.id),
      all.body.ticket_fields.slice(2, 4).map((f: { id: number }) => f.id),
    );
  });

  test('SLA policies take no paging params; views sort by sort_by in offset mode only', async () => {
    const policies = await get('/slas/policies?page=2&per_page=1');
    assert.equal(policies.body.sla_policies.length, 2);
    assert.equal(policies.body.next_page, null);
    const alpha = await get('/views?sort_by=alphabetical&sort_order=asc');
    assert.deepEqual(
      alpha.body.views.map((v: { title: string }) => v.title),
      ['Billing queue', 'My old view', 'Unsolved tickets'],
    );
    const cursor = await get('/views?page[size]=3&sort_by=alphabetical');
    assert.deepEqual(
      cursor.body.views.map((v: { position: number }) => v.position),
      [0, 1, 2],
    );
  });

  test('Help Center article attachments: content_url serves the file without credentials', async () => {
    const list = await get('/help_center/articles/360001000001/attachments');
    const [pdf] = list.body.article_attachments;
    const file = await fetch(pdf.content_url);
    assert.equal(file.status, 200);
    assert.equal(file.headers.get('content-type'), 'application/pdf');
    assert.equal(Buffer.from(await file.arrayBuffer()).length, pdf.size);
    assert.equal((await fetch(`${new URL(fake.url).origin}/hc/article_attachments/1/nope.pdf`)).status, 404);
    const bulk = await get('/tickets/update_many?ids=1,2', {
      method: 'PUT',
      body: '{"ticket":{"status":"pending"}}',
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(bulk.body.job_status.status, 'queued');
    assert.equal((await get('/tickets/2')).body.ticket.status, 'pending');
    const noIds = await get('/tickets/update_many', {
      method: 'PUT',
      body: '{"ticket":{"status":"pending"}}',
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(noIds.res.status, 400);
  });
});
