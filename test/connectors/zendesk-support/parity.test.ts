// The Zendesk Support entities of the hosted catalog beyond tickets, users, organizations and groups, through
// the HTTP API against the Zendesk fake: every list followed page by page to its end, every get, the writes,
// the Help Center attachment download, and a provider error for each entity.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Harness } from '../../helpers/harness.ts';
import type { ZendeskFake } from './fake/index.ts';
import { startWithZendesk } from './harness.ts';

type Rec = Record<string, unknown>;

// entity, list params, the record key, how many records the fake's account has
const LISTS: Array<[string, Rec, string, number]> = [
  ['ticket_audits', { ticket_id: 1 }, 'id', 3],
  ['ticket_metrics', {}, 'id', 30],
  ['deleted_tickets', {}, 'id', 3],
  ['ticket_forms', {}, 'id', 3],
  ['brands', {}, 'id', 2],
  ['views', {}, 'id', 3],
  ['macros', {}, 'id', 3],
  ['triggers', {}, 'id', 3],
  ['automations', {}, 'id', 3],
  ['satisfaction_ratings', {}, 'id', 10],
  ['tags', {}, 'name', 2],
  ['group_memberships', {}, 'id', 3],
  ['organization_memberships', {}, 'id', 2],
  ['articles', {}, 'id', 3],
  ['article_attachments', { article_id: 360001000001 }, 'id', 2],
];

// entity, get params built from a listed record, the record's id member
const GETS: Array<[string, string, (r: Rec) => Rec]> = [
  ['groups', 'group_id', (r) => ({ group_id: r.id })],
  ['ticket_fields', 'ticket_field_id', (r) => ({ ticket_field_id: r.id })],
  ['ticket_forms', 'ticket_form_id', (r) => ({ ticket_form_id: r.id })],
  ['brands', 'brand_id', (r) => ({ brand_id: r.id })],
  ['views', 'view_id', (r) => ({ view_id: r.id })],
  ['macros', 'macro_id', (r) => ({ macro_id: r.id })],
  ['triggers', 'trigger_id', (r) => ({ trigger_id: r.id })],
  ['automations', 'automation_id', (r) => ({ automation_id: r.id })],
  ['sla_policies', 'sla_policy_id', (r) => ({ sla_policy_id: r.id })],
  ['satisfaction_ratings', 'satisfaction_rating_id', (r) => ({ satisfaction_rating_id: r.id })],
  ['articles', 'id', (r) => ({ id: r.id })],
  ['article_attachments', 'attachment_id', (r) => ({ article_id: r.article_id, attachment_id: r.id })],
];

describe('Zendesk Support catalog parity through the HTTP API', () => {
  let h: Harness;
  let fake: ZendeskFake;
  let token: string;
  let close: () => Promise<void>;
  let connectorId: string;

  const exec = (body: unknown, headers: Record<string, string> = {}) =>
    h.inject({
      method: 'POST',
      url: `/api/v1/integrations/connectors/${connectorId}/execute`,
      token,
      body,
      headers,
    });
  const run = async (entity: string, action: string, params: Rec = {}) => {
    const res = await exec({ entity, action, params });
    assert.equal(res.status, 200, `${entity}.${action}: ${res.body}`);
    return res.json;
  };
  const listAll = async (entity: string, params: Rec) =>
    ((await run(entity, 'list', params)).result as Rec[]) ?? [];

  before(async () => {
    ({ h, fake, token, connectorId: connectorId, close } = await startWithZendesk());
  });
  after(() => close());

  test('the definition lists every entity-action of the hosted catalog', async () => {
    const res = await h.inject({
      method: 'GET',
      url: '/api/v1/integrations/definitions/sources/79c1aa37-dae3-42ae-b333-d1c105477715',
      token,
    });
    assert.equal(res.status, 200, res.body);
    const text = res.body;
    for (const entity of [...LISTS.map((l) => l[0]), 'ticket_bulk_updates', 'sla_policies', 'ticket_fields'])
      assert.ok(text.includes(`"${entity}"`), entity);
  });

  for (const [entity, params, key, count] of LISTS) {
    test(`${entity}.list follows the cursor one record per page to the last page`, async () => {
      const all = await listAll(entity, params);
      assert.equal(all.length, count, `${entity}: the whole list in one page`);
      const mark = fake.requests.length;
      const seen: unknown[] = [];
      let json = await run(entity, 'list', { ...params, page_size: 1 });
      for (;;) {
        seen.push(...(json.result as Rec[]).map((r) => r[key]));
        if (!json.connector_metadata.has_next_page) break;
        json = await run(entity, 'list', { cursor: json.connector_metadata.end_cursor });
      }
      assert.deepEqual(
        seen,
        all.map((r) => r[key]),
      );
      const sent = fake.requests.slice(mark).map((r) => decodeURIComponent(r.path));
      assert.equal(sent.length, count, `${entity}: one request per record`);
      assert.ok(
        sent.slice(1).every((p) => p.includes('page[after]=')),
        sent.join('\n'),
      );
    });
  }

  test('offset paging (page/per_page) follows next_page to the end, with the sort the catalog names', async () => {
    const first = await run('macros', 'list', { per_page: 2, sort_by: 'alphabetical', sort_order: 'desc' });
    assert.deepEqual(
      first.result.map((m: Rec) => m.title),
      ['Old greeting', 'Close and thank'],
    );
    assert.equal(first.connector_metadata.count, 3);
    const second = await run('macros', 'list', { cursor: first.connector_metadata.end_cursor });
    assert.deepEqual(
      second.result.map((m: Rec) => m.title),
      ['Billing::Refund issued'],
    );
    assert.equal(second.connector_metadata.has_next_page, false);
    const articles = await run('articles', 'list', { page: 1, per_page: 3, sort_by: 'title' });
    assert.deepEqual(
      articles.result.map((a: Rec) => a.title),
      ['Asking for a refund', 'Changing your password', 'Resetting the printer'],
    );
  });

  test('ticket_fields pages by cursor under the catalog name per_page; sla_policies come in one answer', async () => {
    const fields = await listAll('ticket_fields', {});
    assert.equal(fields.length, 5);
    const page = await run('ticket_fields', 'list', { per_page: 2, locale: 'de' });
    assert.equal(page.result.length, 2);
    assert.equal(page.connector_metadata.has_next_page, true);
    const last = fake.requests.at(-1)!.path;
    assert.match(decodeURIComponent(last), /page\[size\]=2/);
    assert.match(last, /locale=de/);
    const policies = await run('sla_policies', 'list');
    assert.equal(policies.result.length, 2);
    assert.equal(policies.connector_metadata.has_next_page, false);
  });

  test('list filters reach Zendesk under its names', async () => {
    const inactive = await listAll('automations', { active: false });
    assert.deepEqual(
      inactive.map((a) => a.title),
      ['Bump stale tickets'],
    );
    assert.equal((await listAll('views', { access: 'personal' })).length, 1);
    assert.equal((await listAll('macros', { group_id: 360000200002 })).length, 1);
    assert.equal((await listAll('triggers', { category_id: '10031' })).length, 1);
    assert.equal((await listAll('ticket_forms', { end_user_visible: false })).length, 1);
    const bad = await listAll('satisfaction_ratings', { score: 'bad' });
    assert.ok(bad.length > 0 && bad.every((r) => r.score === 'bad'));
    const all = await listAll('satisfaction_ratings', {});
    const newest = Date.parse(all[0]!.created_at as string) / 1000;
    assert.equal((await listAll('satisfaction_ratings', { start_time: newest })).length, 1);
    assert.equal((await listAll('groups', { exclude_deleted: true })).length, 2);
    assert.match(fake.requests.at(-1)!.path, /exclude_deleted=true/);
  });

  for (const [entity, idParam, params] of GETS) {
    test(`${entity}.get answers the listed record; an unknown ${idParam} is UPSTREAM_NOT_FOUND`, async () => {
      const listParams: Rec = entity === 'article_attachments' ? { article_id: 360001000001 } : {};
      const record = (await listAll(entity, listParams))[0]!;
      const one = await run(entity, 'get', params(record));
      assert.deepEqual(one.result, record);
      const missing = await exec({ entity, action: 'get', params: { ...params(record), [idParam]: 999999 } });
      assert.equal(missing.status, 404, missing.body);
      assert.equal(missing.json.code, 'UPSTREAM_NOT_FOUND');
    });
  }

  test('list-only entities pass provider errors on: 404 for an unknown parent, 403 and 429 as Zendesk sends them', async () => {
    const audits = await exec({ entity: 'ticket_audits', action: 'list', params: { ticket_id: 999999 } });
    assert.equal(audits.status, 404, audits.body);
    assert.equal(audits.json.code, 'UPSTREAM_NOT_FOUND');
    const files = await exec({
      entity: 'article_attachments',
      action: 'list',
      params: { article_id: 999999 },
    });
    assert.equal(files.json.code, 'UPSTREAM_NOT_FOUND');
    for (const [entity, path] of [
      ['ticket_metrics', '/api/v2/ticket_metrics'],
      ['deleted_tickets', '/api/v2/deleted_tickets'],
      ['tags', '/api/v2/tags'],
      ['group_memberships', '/api/v2/group_memberships'],
      ['organization_memberships', '/api/v2/organization_memberships'],
    ] as const) {
      fake.failNext({ status: 403, match: path });
      const res = await exec({ entity, action: 'list', params: {} });
      assert.equal(res.status, 424, res.body);
      assert.equal(res.json.code, 'UPSTREAM_FORBIDDEN', entity);
    }
    fake.failNext({ status: 429, headers: { 'retry-after': '93' }, match: '/api/v2/deleted_tickets' });
    const limited = await exec({ entity: 'deleted_tickets', action: 'list', params: {} });
    assert.equal(limited.json.code, 'UPSTREAM_RATE_LIMITED');
  });

  test('users.create and users.update send {"user": ...}; Zendesk validation is INVALID_PARAMS', async () => {
    const created = await run('users', 'create', {
      user: { name: 'Frankie Prospect', email: 'frankie@initech.example' },
    });
    assert.equal(created.result.name, 'Frankie Prospect');
    assert.equal(created.result.role, 'end-user');
    assert.deepEqual(JSON.parse(fake.requests.at(-1)!.body), {
      user: { name: 'Frankie Prospect', email: 'frankie@initech.example' },
    });
    const updated = await run('users', 'update', {
      user_id: created.result.id,
      user: { name: 'Frankie P.' },
    });
    assert.equal(updated.result.name, 'Frankie P.');
    assert.equal((await run('users', 'get', { user_id: created.result.id })).result.name, 'Frankie P.');
    const duplicate = await exec({
      entity: 'users',
      action: 'create',
      params: { user: { name: 'Again', email: 'frankie@initech.example' } },
    });
    assert.equal(duplicate.status, 422, duplicate.body);
    assert.equal(duplicate.json.code, 'INVALID_PARAMS');
    assert.equal(duplicate.json.upstream.body.details.email[0].error, 'DuplicateValue');
    const missing = await exec({
      entity: 'users',
      action: 'update',
      params: { user_id: 999999, user: { name: 'x' } },
    });
    assert.equal(missing.json.code, 'UPSTREAM_NOT_FOUND');
  });

  test('ticket_comments.create adds a comment through Update Ticket; a closed ticket refuses it', async () => {
    const res = await run('ticket_comments', 'create', {
      ticket_id: 2,
      ticket: { comment: { body: 'Internal: checking logs', public: false } },
    });
    assert.equal(fake.requests.at(-1)!.method, 'PUT');
    assert.equal(res.result.ticket.id, 2);
    const event = res.result.audit.events.find((e: Rec) => e.type === 'Comment');
    assert.equal(event.body, 'Internal: checking logs');
    assert.equal(event.public, false);
    const comments = await listAll('ticket_comments', { ticket_id: 2 });
    assert.equal(comments.at(-1)!.id, event.id);
    const closed = await exec({
      entity: 'ticket_comments',
      action: 'create',
      params: { ticket_id: 6, ticket: { comment: { body: 'too late' } } },
    });
    assert.equal(closed.status, 422, closed.body);
    assert.equal(closed.json.code, 'INVALID_PARAMS');
    const unknownMember = await exec({
      entity: 'ticket_comments',
      action: 'create',
      params: { ticket_id: 2, ticket: { comment: { body: 'x' }, subjekt: 'typo' } },
    });
    assert.equal(unknownMember.json.code, 'INVALID_PARAMS');
  });

  test('ticket_bulk_updates.create sends ids comma-separated and answers the queued job', async () => {
    const job = await run('ticket_bulk_updates', 'create', { ids: [3, 4], ticket: { priority: 'urgent' } });
    assert.equal(job.result.status, 'queued');
    assert.equal(job.result.total, 2);
    const sent = fake.requests.at(-1)!;
    assert.equal(sent.method, 'PUT');
    assert.equal(decodeURIComponent(sent.path), '/api/v2/tickets/update_many?ids=3,4');
    assert.equal((await run('tickets', 'get', { ticket_id: 4 })).result.priority, 'urgent');
    const tooMany = await exec({
      entity: 'ticket_bulk_updates',
      action: 'create',
      params: { ids: Array.from({ length: 101 }, (_, i) => i + 1), ticket: { priority: 'low' } },
    });
    assert.equal(tooMany.status, 422, tooMany.body);
    assert.equal(tooMany.json.code, 'INVALID_PARAMS');
    assert.equal(fake.requests.at(-1)!.method, 'PUT', 'Zendesk itself refused it');
  });

  test('article_attachments.download streams the file behind content_url, with Range', async () => {
    const [a] = await listAll('article_attachments', { article_id: 360001000001 });
    const params = { article_id: 360001000001, attachment_id: a!.id };
    const res = await exec({ entity: 'article_attachments', action: 'download', params });
    assert.equal(res.status, 200, res.body);
    assert.equal(res.raw.length, a!.size);
    assert.match(res.raw.toString('latin1'), /^%PDF-1\.4/);
    assert.equal(String(res.headers['content-type']).split(';')[0], 'application/pdf');
    assert.match(String(res.headers['content-disposition']), /reset-guide\.pdf/);
    const part = await exec(
      { entity: 'article_attachments', action: 'download', params },
      { range: 'bytes=0-3' },
    );
    assert.equal(part.status, 206, part.body);
    assert.equal(part.raw.toString('latin1'), '%PDF');
    const missing = await exec({
      entity: 'article_attachments',
      action: 'download',
      params: { ...params, attachment_id: 999999 },
    });
    assert.equal(missing.status, 404, missing.body);
    assert.equal(missing.json.code, 'UPSTREAM_NOT_FOUND');
  });
});
