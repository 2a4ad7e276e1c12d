// The Zendesk Support definition driven through the runtime against the Zendesk fake (test/connectors/zendesk-support/fake):
// both credential options, cursor and offset paging, reads, ticket writes and the error mapping.
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { DefinitionRegistry } from '../../../src/connectors/registry.ts';
import { ConnectorRuntime, type ExecuteOutput } from '../../../src/connectors/runtime/executor.ts';
import { parseRecords } from '../../../src/connectors/runtime/payload.ts';
import type { DomainError } from '../../../src/errors.ts';
import { domainError } from '../../helpers/domain-error.ts';
import { closeChecked, runtimeFor } from '../../helpers/fake-runtime.ts';
import {
  startZendeskFake,
  ZENDESK_FAKE_API_TOKEN,
  ZENDESK_FAKE_EMAIL,
  ZENDESK_FAKE_OAUTH_TOKEN,
  ZENDESK_FAKE_SUBDOMAIN,
  type ZendeskFake,
} from './fake/index.ts';

const zendesk = DefinitionRegistry.default().bySlug('zendesk-support')!;
const API_TOKEN = {
  option: 'API Token',
  values: { email: ZENDESK_FAKE_EMAIL, api_token: ZENDESK_FAKE_API_TOKEN, subdomain: ZENDESK_FAKE_SUBDOMAIN },
};
const OAUTH = {
  option: 'OAuth2.0',
  values: { access_token: ZENDESK_FAKE_OAUTH_TOKEN, subdomain: ZENDESK_FAKE_SUBDOMAIN },
};
type Credentials = { option: string; values: Record<string, string> };

let fake: ZendeskFake;
let rt: ConnectorRuntime;

beforeEach(async () => {
  fake = await startZendeskFake();
  rt = runtimeFor('zendesk-support', fake.url);
});

afterEach(() => closeChecked(rt, fake));

function exec(
  entity: string,
  action: string,
  params: Record<string, unknown>,
  credentials: Credentials = API_TOKEN,
) {
  return rt.execute({
    connectorId: 'zd-conn',
    definition: zendesk,
    credentials,
    config: {},
    entity,
    action,
    params,
  });
}

const upstreamOf = (e: DomainError) => e.extra?.upstream as { status: number; body: Record<string, unknown> };
const paths = () => fake.requests.map((r) => r.path);

type Rec = { id: number; [k: string]: unknown };
const ids = (out: ExecuteOutput) => (parseRecords(out.payload) as Rec[]).map((r) => r.id);

async function pageAll(entity: string, params: Record<string, unknown>): Promise<ExecuteOutput[]> {
  const pages = [await exec(entity, 'list', params)];
  while (pages.at(-1)!.connector_metadata.has_next_page) {
    pages.push(await exec(entity, 'list', { cursor: pages.at(-1)!.connector_metadata.end_cursor }));
    assert.ok(pages.length < 20, 'paging does not end');
  }
  return pages;
}

describe('Zendesk Support definition against the Zendesk fake', () => {
  it('sends API-token Basic auth and pages tickets by cursor to the end (page[size] + page[after])', async () => {
    const pages = await pageAll('tickets', { page_size: 7 });
    assert.deepEqual(
      pages.map((p) => ids(p).length),
      [7, 7, 7, 7, 2],
    );
    assert.deepEqual(
      pages.flatMap(ids),
      Array.from({ length: 30 }, (_, i) => i + 1),
    );
    assert.deepEqual(pages.at(-1)!.connector_metadata, {
      count: null,
      has_next_page: false,
      end_cursor: null,
    });
    const sent = paths();
    assert.equal(sent[0], '/api/v2/tickets?page%5Bsize%5D=7');
    for (const p of sent.slice(1))
      assert.match(p, /^\/api\/v2\/tickets\?page%5Bsize%5D=7&page%5Bafter%5D=[\w-]+$/);
    const basic = Buffer.from(`${ZENDESK_FAKE_EMAIL}/token:${ZENDESK_FAKE_API_TOKEN}`).toString('base64');
    for (const r of fake.requests) {
      assert.equal(r.headers.authorization, `Basic ${basic}`);
      assert.equal(r.headers.accept, 'application/json');
    }
  });

  it('sends the OAuth token as Bearer and asks for cursor paging (100 a page) by default', async () => {
    const users = await exec('users', 'list', {}, OAUTH);
    assert.equal(ids(users).length, 5);
    assert.equal(users.connector_metadata.has_next_page, false);
    const agents = await exec('users', 'list', { role: 'agent' }, OAUTH);
    assert.deepEqual(
      (parseRecords(agents.payload) as Rec[]).map((u) => u.name),
      ['Blake Agent', 'Casey Agent'],
    );
    assert.deepEqual(paths(), [
      '/api/v2/users?page%5Bsize%5D=100',
      '/api/v2/users?role=agent&page%5Bsize%5D=100',
    ]);
    for (const r of fake.requests)
      assert.equal(r.headers.authorization, `Bearer ${ZENDESK_FAKE_OAUTH_TOKEN}`);
  });

  it("honours the provider's offset params page/per_page and follows next_page by cursor", async () => {
    const second = await exec('tickets', 'list', { page: 2, per_page: 10 });
    assert.deepEqual(
      ids(second),
      Array.from({ length: 10 }, (_, i) => i + 11),
    );
    assert.equal(second.connector_metadata.count, 30);
    assert.equal(second.connector_metadata.has_next_page, true);
    const third = await exec('tickets', 'list', { cursor: second.connector_metadata.end_cursor });
    assert.deepEqual(
      ids(third),
      Array.from({ length: 10 }, (_, i) => i + 21),
    );
    assert.deepEqual(third.connector_metadata, { count: 30, has_next_page: false, end_cursor: null });
    assert.deepEqual(paths(), [
      '/api/v2/tickets?page=2&per_page=10',
      '/api/v2/tickets.json?page=3&per_page=10',
    ]);
  });

  it('sorts in either mode: sort_by/sort_order (offset) and sort (cursor) give the same order', async () => {
    const offset = await pageAll('tickets', { sort_by: 'updated_at', sort_order: 'desc', per_page: 12 });
    const cursor = await pageAll('tickets', { sort: '-updated_at', page_size: 12 });
    assert.equal(offset.length, 3);
    assert.equal(cursor.length, 3);
    const byUpdate = (pages: ExecuteOutput[]) =>
      pages.flatMap((p) => (parseRecords(p.payload) as Rec[]).map((t) => t.updated_at as string));
    const updated = byUpdate(offset);
    assert.deepEqual(updated, [...updated].sort().reverse());
    assert.notDeepEqual(
      offset.flatMap(ids),
      Array.from({ length: 30 }, (_, i) => 30 - i),
    );
    assert.deepEqual(cursor.flatMap(ids), offset.flatMap(ids));
    assert.equal(paths()[0], '/api/v2/tickets?per_page=12&sort_by=updated_at&sort_order=desc');
  });

  it('gets one ticket, user, organization and attachment; lists organizations and groups', async () => {
    const ticket = await exec('tickets', 'get', { ticket_id: 3 });
    assert.equal((parseRecords(ticket.payload) as Rec).id, 3);
    assert.equal((parseRecords(ticket.payload) as Rec).subject, 'Ticket 3: refund request');
    assert.deepEqual(ticket.connector_metadata, { has_next_page: false, end_cursor: null });
    const user = await exec('users', 'get', { user_id: 372000000004 });
    assert.equal((parseRecords(user.payload) as Rec).email, 'dana@acme.example');
    const org = await exec('organizations', 'get', { organization_id: 360000100001 });
    assert.equal((parseRecords(org.payload) as Rec).name, 'Acme Corp');
    const orgs = await exec('organizations', 'list', {});
    assert.deepEqual(
      (parseRecords(orgs.payload) as Rec[]).map((o) => o.name),
      ['Acme Corp', 'Globex'],
    );
    const groups = await exec('groups', 'list', { page: 1, per_page: 1 });
    assert.deepEqual(
      (parseRecords(groups.payload) as Rec[]).map((g) => g.name),
      ['Support'],
    );
    assert.equal(groups.connector_metadata.count, 2);
    const rest = await exec('groups', 'list', { cursor: groups.connector_metadata.end_cursor });
    assert.deepEqual(
      (parseRecords(rest.payload) as Rec[]).map((g) => g.name),
      ['Billing'],
    );
  });

  it('lists the comments of ticket 1 with their attachments, which attachments.get shows too', async () => {
    const out = await exec('ticket_comments', 'list', { ticket_id: 1 });
    type Attachment = {
      id: number;
      file_name: string;
      content_url: string;
      content_type: string;
      size: number;
    };
    const comments = parseRecords(out.payload) as Array<Rec & { public: boolean; attachments: Attachment[] }>;
    assert.equal(comments.length, 3);
    assert.deepEqual(
      comments.map((c) => c.public),
      [true, true, false],
    );
    const files = comments.flatMap((c) => c.attachments);
    assert.deepEqual(
      files.map((a) => [a.file_name, a.content_type]),
      [
        ['crash.log', 'text/plain'],
        ['screenshot.png', 'image/png'],
        ['notes.pdf', 'application/pdf'],
      ],
    );
    const origin = new URL(fake.url).origin;
    for (const a of files) {
      assert.ok(a.size > 0);
      assert.match(a.content_url, new RegExp(`^${origin}/attachments/token/[\\w-]+/\\?name=`));
    }
    const log = files[0]!;
    const shown = await exec('attachments', 'get', { attachment_id: log.id });
    assert.deepEqual(
      (({ id, file_name, size, content_url }) => ({ id, file_name, size, content_url }))(
        parseRecords(shown.payload) as Attachment,
      ),
      { id: log.id, file_name: 'crash.log', size: log.size, content_url: log.content_url },
    );
    const newest = await exec('ticket_comments', 'list', { ticket_id: 1, sort: '-created_at', page_size: 1 });
    assert.equal(ids(newest)[0], comments[2]!.id);
    assert.equal(newest.connector_metadata.has_next_page, true);
  });

  it('creates a ticket with a {"ticket": {...}} JSON body and updates it', async () => {
    const ticket = {
      subject: 'Printer jam',
      comment: { body: 'The printer ate my report.' },
      priority: 'high',
      tags: ['printer', 'urgent'],
      assignee_id: 372000000002,
    };
    const created = await exec('tickets', 'create', { ticket });
    const t = parseRecords(created.payload) as Rec;
    assert.equal(t.id, 31);
    assert.equal(t.subject, 'Printer jam');
    assert.equal(t.status, 'open');
    assert.equal(t.description, 'The printer ate my report.');
    const post = fake.requests.at(-1)!;
    assert.equal(post.method, 'POST');
    assert.equal(post.path, '/api/v2/tickets');
    assert.equal(post.headers['content-type'], 'application/json; charset=utf-8');
    assert.deepEqual(JSON.parse(post.body), { ticket });

    const updated = await exec('tickets', 'update', {
      ticket_id: 31,
      ticket: { status: 'solved', comment: { body: 'Cleared the jam.', public: false } },
    });
    assert.equal((parseRecords(updated.payload) as Rec).status, 'solved');
    const put = fake.requests.at(-1)!;
    assert.equal(put.method, 'PUT');
    assert.equal(put.path, '/api/v2/tickets/31');
    assert.deepEqual(JSON.parse(put.body), {
      ticket: { status: 'solved', comment: { body: 'Cleared the jam.', public: false } },
    });
    const comments = await exec('ticket_comments', 'list', { ticket_id: 31 });
    assert.deepEqual(
      (parseRecords(comments.payload) as Array<{ body: string; public: boolean }>).map((c) => [
        c.body,
        c.public,
      ]),
      [
        ['The printer ate my report.', true],
        ['Cleared the jam.', false],
      ],
    );
    const again = await exec('tickets', 'get', { ticket_id: 31 });
    assert.equal((parseRecords(again.payload) as Rec).status, 'solved');
  });

  it("maps a rejected credential to UPSTREAM_AUTH_FAILED with Zendesk's message, never the token", async () => {
    const bad = {
      option: 'API Token',
      values: { ...API_TOKEN.values, api_token: 'wrong-but-secret-token-42' },
    };
    await assert.rejects(
      exec('tickets', 'get', { ticket_id: 1 }, bad),
      domainError('UPSTREAM_AUTH_FAILED', (e) => {
        assert.deepEqual(upstreamOf(e), { status: 401, body: { error: "Couldn't authenticate you" } });
        assert.match(e.message, /Couldn't authenticate you/);
        assert.doesNotMatch(JSON.stringify({ m: e.message, x: e.extra, e: e.errors }), /wrong-but-secret/);
      }),
    );
    const badOauth = { option: 'OAuth2.0', values: { access_token: 'expired-token', subdomain: 'ces-demo' } };
    await assert.rejects(exec('groups', 'list', {}, badOauth), domainError('UPSTREAM_AUTH_FAILED'));
  });

  it('checks credentials at create with GET /users/me for both options', async () => {
    await rt.checkCredentials(zendesk, API_TOKEN, {});
    await rt.checkCredentials(zendesk, OAUTH, {});
    const wrongEmail = {
      option: 'API Token',
      values: { ...API_TOKEN.values, email: 'someone@else.example' },
    };
    await assert.rejects(
      rt.checkCredentials(zendesk, wrongEmail, {}),
      domainError('INVALID_CREDENTIALS', (e) => assert.equal(upstreamOf(e).status, 401)),
    );
    await assert.rejects(
      rt.checkCredentials(zendesk, { option: 'OAuth2.0', values: { access_token: 'nope' } }, {}),
      domainError('INVALID_CREDENTIALS'),
    );
    assert.deepEqual(paths(), [
      '/api/v2/users/me',
      '/api/v2/users/me',
      '/api/v2/users/me',
      '/api/v2/users/me',
    ]);
  });

  it('maps 404 RecordNotFound and 422 RecordInvalid with their details', async () => {
    await assert.rejects(
      exec('tickets', 'get', { ticket_id: 9999 }),
      domainError('UPSTREAM_NOT_FOUND', (e) =>
        assert.deepEqual(upstreamOf(e), {
          status: 404,
          body: { description: 'Not found', error: 'RecordNotFound' },
        }),
      ),
    );
    await assert.rejects(
      exec('tickets', 'create', { ticket: { subject: 'No description' } }),
      domainError('INVALID_PARAMS', (e) => {
        const up = upstreamOf(e);
        assert.equal(up.status, 422);
        assert.equal(up.body.error, 'RecordInvalid');
        assert.match(e.message, /Record validation errors/);
        assert.deepEqual(up.body.details, {
          base: [{ description: 'Description: cannot be blank', error: 'BlankValue' }],
        });
      }),
    );
    // Ticket 6 is closed in the seeded data.
    await assert.rejects(
      exec('tickets', 'update', { ticket_id: 6, ticket: { status: 'open' } }),
      domainError('INVALID_PARAMS', (e) =>
        assert.deepEqual(upstreamOf(e).body.details, {
          status: [{ description: 'Status: closed prevents ticket update', error: 'InvalidValue' }],
        }),
      ),
    );
  });

  it('maps 429 to UPSTREAM_RATE_LIMITED with Retry-After, else ratelimit-reset', async () => {
    fake.failNext({ status: 429, headers: { 'Retry-After': '93' } });
    await assert.rejects(
      exec('tickets', 'list', {}),
      domainError('UPSTREAM_RATE_LIMITED', (e) => {
        assert.equal(e.retryAfter, 93);
        assert.match(e.message, /Retry after 93 s/);
      }),
    );
    fake.failNext({ status: 429, headers: { 'ratelimit-reset': '41' } });
    await assert.rejects(
      exec('users', 'get', { user_id: 372000000001 }),
      domainError('UPSTREAM_RATE_LIMITED', (e) => assert.equal(e.retryAfter, 41)),
    );
  });

  it('refuses conflicting paging params and a subdomain that would change the host before any request', async () => {
    await assert.rejects(
      exec('tickets', 'list', { page_size: 10, page: 2 }),
      domainError('INVALID_PARAMS', (e) =>
        assert.match(e.message, /'page_size' can't be combined with 'page'/),
      ),
    );
    const strict = new ConnectorRuntime({
      cursorKey: new Uint8Array(32),
      upstreamOverrides: {},
      timeoutMs: 2000,
    });
    try {
      const evil = { option: 'API Token', values: { ...API_TOKEN.values, subdomain: '127.0.0.1:1/x' } };
      await assert.rejects(
        strict.checkCredentials(zendesk, evil, {}),
        domainError('VALIDATION_ERROR', (e) => assert.equal(e.errors[0]?.field, 'credentials.subdomain')),
      );
    } finally {
      await strict.close();
    }
    assert.deepEqual(fake.requests, []);
  });
});
