// The Context Store of the Zendesk entities listed per parent, through the HTTP API against the Zendesk fake:
// ticket_comments and ticket_audits partitioned by replication_config.tickets, article_attachments by
// replication_config.articles, each with "*" expanded by listing the parent entity, or with parents named by id.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { entityState } from '../../helpers/context-store.ts';
import { type Harness, startHarness } from '../../helpers/harness.ts';
import { waitFor } from '../../helpers/wait.ts';
import { ARTICLE_ATTACHMENT_IDS, ARTICLE_IDS } from './fake/admin-data.ts';
import {
  startZendeskFake,
  ZENDESK_FAKE_API_TOKEN,
  ZENDESK_FAKE_EMAIL,
  ZENDESK_FAKE_SUBDOMAIN,
  type ZendeskFake,
} from './fake/index.ts';

// The fake's dataset: 30 tickets with one comment each, plus two more on ticket 1 (32 comments); one audit
// per comment; two attachments, both on the first article.
const TICKETS = 30;
const COMMENTS = 32;

describe('Zendesk Context Store: comments, audits and article attachments by parent', () => {
  let h: Harness;
  let fake: ZendeskFake;
  let token: string;
  let all: string;
  let some: string;

  const create = async (name: string, replication_config: Record<string, unknown>) => {
    const res = await h.inject({
      method: 'POST',
      url: '/api/v1/integrations/connectors',
      token,
      body: {
        workspace_name: 'default',
        name,
        connector_type: 'zendesk-support',
        credentials: {
          email: ZENDESK_FAKE_EMAIL,
          api_token: ZENDESK_FAKE_API_TOKEN,
          subdomain: ZENDESK_FAKE_SUBDOMAIN,
        },
        replication_config,
      },
    });
    assert.equal(res.status, 200, res.body);
    return res.json.id as string;
  };
  /** A Context Store search; `sort` goes into the query beside the filter. */
  const search = (id: string, entity: string, filter: unknown, sort?: unknown[]) =>
    h.inject({
      method: 'POST',
      url: `/api/v1/integrations/connectors/${id}/execute`,
      token,
      body: {
        entity,
        action: 'search',
        params: { query: { filter, ...(sort ? { sort } : {}) }, limit: 1000 },
      },
    });
  const waitReady = (id: string, entity: string, count: number) =>
    waitFor(
      `${entity} Ready with ${count} records`,
      async () => {
        const s = await entityState(h, token, id, entity);
        // ready_for_search too: a search also waits for the connector's other entities' first pages (a slower
        // store, PostgreSQL, showed one entity Ready while another still built its preview).
        return s?.status === 'Ready' && s.ready_for_search && s.entity_count === count ? s : undefined;
      },
      30_000,
    );
  const paths = () => fake.requests.map((r) => r.path);

  before(async () => {
    fake = await startZendeskFake();
    h = await startHarness({
      CES_UPSTREAM_OVERRIDES: JSON.stringify({ 'zendesk-support': fake.url }),
      CES_SYNC_POLL_MS: '20',
      CES_SYNC_INTERVAL_SECONDS: '3600',
      CES_SYNC_FULL_INTERVAL_SECONDS: '3600',
    });
    token = await h.token();
    all = await create('every-parent', { tickets: ['*'], articles: ['*'] });
    some = await create('named-parents', { tickets: ['1', '2'], articles: [String(ARTICLE_IDS[1])] });
    await h.deps.worker.start();
  });
  after(async () => {
    await h.deps.worker.stop();
    await h.close();
    await fake.close();
  });

  test('the catalog shows the three entities as searchable, with their partition settings', async () => {
    const res = await h.inject({
      method: 'GET',
      url: '/api/v1/integrations/definitions/sources/79c1aa37-dae3-42ae-b333-d1c105477715',
      token,
    });
    assert.equal(res.status, 200, res.body);
    for (const name of ['ticket_comments', 'ticket_audits', 'article_attachments']) {
      const entity = res.json.entities.find((e: { name: string }) => e.name === name);
      assert.ok(entity?.context_store, `${name} has a Context Store`);
    }
  });

  test('"*" syncs the comments of every ticket, listed through tickets.list; search finds one by its text', async () => {
    await waitReady(all, 'ticket_comments', COMMENTS);
    // The wildcard listed the tickets, then each ticket's comments 100 per page (cursor paging).
    assert.ok(
      paths().some((p) => p.startsWith('/api/v2/tickets?page%5Bsize%5D=100')),
      paths().join('\n'),
    );
    for (let t = 1; t <= TICKETS; t++)
      assert.ok(
        paths().includes(`/api/v2/tickets/${t}/comments?page%5Bsize%5D=100`),
        `comments of ticket ${t} were listed`,
      );

    const note = await search(all, 'ticket_comments', { fuzzy: { plain_body: 'escalated to hardware' } });
    assert.equal(note.status, 200, note.body);
    assert.equal(note.json.result.length, 1, note.body);
    const [comment] = note.json.result;
    assert.equal(comment.public, false);
    assert.deepEqual(
      comment.attachments.map((a: { file_name: string }) => a.file_name),
      ['notes.pdf'],
    );
    const withLog = await search(all, 'ticket_comments', {
      any: { attachments: { eq: { file_name: 'crash.log' } } },
    });
    assert.equal(withLog.json.result.length, 1, withLog.body);

    // The comment names no ticket; its audit does.
    await waitReady(all, 'ticket_audits', COMMENTS);
    const audit = await search(all, 'ticket_audits', { eq: { id: comment.audit_id } });
    assert.equal(audit.status, 200, audit.body);
    assert.deepEqual(
      audit.json.result.map((a: { ticket_id: number }) => a.ticket_id),
      [1],
    );
  });

  test('audits are searchable by ticket and by their events', async () => {
    await waitReady(all, 'ticket_audits', COMMENTS);
    assert.ok(paths().includes('/api/v2/tickets/7/audits?page%5Bsize%5D=100'), paths().join('\n'));
    const ofFirst = await search(all, 'ticket_audits', { eq: { ticket_id: 1 } }, [{ created_at: 'asc' }]);
    assert.equal(ofFirst.status, 200, ofFirst.body);
    assert.equal(ofFirst.json.result.length, 3, ofFirst.body);
    // The first audit holds the first comment, with its two attachments.
    const first = ofFirst.json.result[0].events.find((e: { type: string }) => e.type === 'Comment');
    assert.equal(first.attachments.length, 2);
    // Every ticket's first audit created it: a Create event setting the status.
    const creations = await search(all, 'ticket_audits', {
      any: { events: { and: [{ eq: { type: 'Create' } }, { eq: { field_name: 'status' } }] } },
    });
    assert.equal(creations.json.result.length, TICKETS, creations.body);
  });

  test('article attachments of every article ("*" through articles.list), found by file name', async () => {
    await waitReady(all, 'article_attachments', ARTICLE_ATTACHMENT_IDS.length);
    for (const article of ARTICLE_IDS)
      assert.ok(paths().includes(`/api/v2/help_center/articles/${article}/attachments?page%5Bsize%5D=100`));
    const res = await search(all, 'article_attachments', { eq: { file_name: 'reset-guide.pdf' } });
    assert.equal(res.status, 200, res.body);
    assert.deepEqual(
      res.json.result.map((a: { id: number; article_id: number }) => [a.id, a.article_id]),
      [[ARTICLE_ATTACHMENT_IDS[0], ARTICLE_IDS[0]]],
    );
    const pdfs = await search(all, 'article_attachments', { eq: { content_type: 'application/pdf' } });
    assert.equal(pdfs.json.result.length, 1, pdfs.body);
  });

  test('parents named by id: only their records are synced', async () => {
    // Tickets 1 (three comments) and 2 (one); the second article has no attachments.
    await waitReady(some, 'ticket_comments', 4);
    await waitReady(some, 'ticket_audits', 4);
    await waitReady(some, 'article_attachments', 0);
    const res = await search(some, 'ticket_audits', { eq: { ticket_id: 2 } });
    assert.equal(res.status, 200, res.body);
    assert.equal(res.json.result.length, 1, res.body);
    assert.deepEqual(fake.unhandled, []);
  });
});
