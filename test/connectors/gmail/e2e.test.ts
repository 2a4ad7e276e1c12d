// Gmail end to end through the HTTP API, against the Gmail fake (test/connectors/gmail/fake): the catalog's
// entity-actions and param names, create with only a refresh token (Google's token endpoint, then
// users.getProfile), lists paged by nextPageToken to the end, Gmail's q with `after` written into it, writes
// read back (a message sent, labels set, the trash, drafts written and sent), the refresh after a 401, an
// attachment over 10 MB byte for byte (inside JSON, as Gmail answers it), per-user quotas as rate limits, the
// consent's one scope against the discovery document's, and the Context Store filled, searched and refreshed.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import {
  type ConnectorApi,
  closeAll,
  connectorApi,
  createConnector,
  sourceDefinition,
  startSyncing,
  startWithFake,
} from '../../helpers/connector-api.ts';
import type { Harness } from '../../helpers/harness.ts';
import { hostedConnector } from '../../helpers/hosted-catalog.ts';
import { assertError } from '../../http/assertions.ts';
import { loadDefinition } from '../kit/definition.ts';
import type { RecordedRequest } from '../kit/index.ts';
import { rawMessage } from './cases.ts';
import {
  type GmailFake,
  GOOGLE_FAKE_CLIENT_ID,
  GOOGLE_FAKE_CLIENT_SECRET,
  startGmailFake,
} from './fake/index.ts';

const GMAIL_ID = 'f7833dac-fc18-4feb-a2a9-94b22001edc6';
// biome-ignore lint/suspicious/noExplicitAny: test convenience for reading JSON records
type Json = Record<string, any>;

const route = (r: RecordedRequest) => `${r.method} ${r.path.split('?')[0]}`;
const query = (r: RecordedRequest) => new URL(r.path, 'http://x').searchParams;
const bearer = (r: RecordedRequest) => String(r.headers.authorization ?? '').replace(/^Bearer /, '');
const oauth = (extra: Json) => ({
  client_id: GOOGLE_FAKE_CLIENT_ID,
  client_secret: GOOGLE_FAKE_CLIENT_SECRET,
  ...extra,
});

describe('Gmail through the HTTP API (OAuth2.0)', () => {
  let fake: GmailFake;
  let h: Harness;
  let token: string;
  let api: ConnectorApi;
  /** The messages Gmail lists by default: all but drafts, spam and trash, newest first. */
  const listed = () =>
    fake.data
      .newestFirst()
      .filter((m) => !m.labelIds.some((l) => ['DRAFT', 'SPAM', 'TRASH'].includes(l)))
      .map((m) => m.id);

  before(async () => {
    fake = await startGmailFake();
    ({ h, token } = await startWithFake('gmail', fake.url));
  });
  after(async () => {
    assert.deepEqual(fake?.unhandled, [], 'every request reached a route of the fake');
    await closeAll(h, fake);
  });

  test("every catalog entity-action is declared with the catalog's param names", async () => {
    const definition = await sourceDefinition(h, token, GMAIL_ID);
    const ours = new Map<string, string[]>();
    for (const e of definition.entities as Array<{
      name: string;
      actions: Array<{ name: string; params: Array<{ name: string }> }>;
    }>)
      for (const a of e.actions)
        ours.set(
          `${e.name}.${a.name}`,
          a.params.map((p) => p.name),
        );
    let served = 0;
    for (const [entity, actions] of Object.entries(hostedConnector('gmail').entities))
      for (const [action, spec] of Object.entries(actions)) {
        const accepted = ours.get(`${entity}.${action}`);
        assert.ok(accepted, `${entity}.${action} is declared`);
        for (const name of [...spec.params, ...(spec.body ?? [])])
          assert.ok(accepted.includes(name), `${entity}.${action} does not accept '${name}'`);
        served += 1;
      }
    assert.equal(served, 20);
  });

  test('a refresh token Google refuses is INVALID_CREDENTIALS at create', async () => {
    const res = await createConnector(h, token, {
      definition_id: GMAIL_ID,
      credentials: oauth({ refresh_token: '1//0revoked' }),
    });
    assertError(res, 422, 'INVALID_CREDENTIALS');
    assert.doesNotMatch(res.body, /1\/\/0revoked|GOCSPX/);
  });

  test('create with only a refresh token: a form refresh at /token, then GET users/me/profile with the new token', async () => {
    const grant = fake.oauth.grant();
    const mark = fake.requests.length;
    const res = await createConnector(h, token, {
      definition_id: GMAIL_ID,
      credentials: oauth({ refresh_token: grant.refresh_token }),
    });
    assert.equal(res.status, 200, res.body);
    assert.equal(res.json.credentials_status, 'valid');
    api = connectorApi(h, token, res.json.id);
    const sent = fake.requests.slice(mark);
    assert.deepEqual(sent.map(route), ['POST /token', 'GET /gmail/v1/users/me/profile']);
    const [refresh, check] = sent as [RecordedRequest, RecordedRequest];
    assert.deepEqual(Object.fromEntries(new URLSearchParams(refresh.body)), {
      grant_type: 'refresh_token',
      refresh_token: grant.refresh_token,
      client_id: GOOGLE_FAKE_CLIENT_ID,
      client_secret: GOOGLE_FAKE_CLIENT_SECRET,
    });
    assert.equal(bearer(check), fake.oauth.log.at(-1)?.access_token);
    const profile = await api.exec('profile', 'get');
    assert.equal(profile.json.result.emailAddress, fake.data.email);
  });

  test('messages.list follows nextPageToken to the last page: every message once, newest first', async () => {
    const mark = fake.requests.length;
    const pages = await api.pages('messages', 'list', { maxResults: 10 });
    const ids = pages.flatMap((p) => p.result.map((m: Json) => m.id));
    assert.deepEqual(ids, listed());
    assert.equal(pages.length, Math.ceil(ids.length / 10));
    assert.deepEqual(Object.keys(pages[0]?.result[0]).sort(), ['id', 'threadId']);
    assert.equal(pages[0]?.connector_metadata.result_size_estimate, ids.length);
    const sent = fake.requests.slice(mark);
    assert.equal(query(sent[0] as RecordedRequest).get('pageToken'), null);
    for (const r of sent.slice(1)) {
      assert.ok(query(r).get('pageToken'));
      assert.equal(query(r).get('maxResults'), '10');
    }
  });

  test('q is sent as the client wrote it, with after:<seconds> added when after is given', async () => {
    const all = fake.data
      .newestFirst()
      .filter((m) => m.from.startsWith('grace@') && !m.labelIds.includes('SPAM'));
    const cut = all[Math.floor(all.length / 2)] as { internalDate: number };
    const seconds = Math.ceil(cut.internalDate / 1000);
    const res = await api.exec('messages', 'list', { q: 'from:grace@ces-demo.example', after: seconds });
    assert.equal(res.status, 200, res.body);
    assert.equal(
      query(fake.requests.at(-1) as RecordedRequest).get('q'),
      `from:grace@ces-demo.example after:${seconds}`,
    );
    assert.equal(query(fake.requests.at(-1) as RecordedRequest).get('after'), null);
    assert.deepEqual(
      res.json.result.map((m: Json) => m.id),
      all.filter((m) => m.internalDate >= seconds * 1000 && !m.labelIds.includes('TRASH')).map((m) => m.id),
    );
    const threads = await api.exec('threads', 'list', { after: seconds });
    assert.equal(query(fake.requests.at(-1) as RecordedRequest).get('q'), `after:${seconds}`);
    assert.ok(threads.json.result.length > 0);
    // A bound that is no Unix time is refused before Gmail is asked.
    const mark = fake.requests.length;
    assertError(await api.exec('messages', 'list', { after: 'yesterday' }), 422, 'INVALID_PARAMS');
    assert.equal(fake.requests.length, mark);
  });

  test('a message sent reads back; its labels change; the trash takes it out of the list and gives it back', async () => {
    const raw = rawMessage(
      { To: 'linus@example.org', Subject: 'Quarterly numbers' },
      'Numbers attached.\r\n',
    );
    const sent = await api.exec('messages', 'create', { raw });
    assert.equal(sent.status, 200, sent.body);
    const id = sent.json.result.id as string;
    assert.deepEqual(JSON.parse((fake.requests.at(-1) as RecordedRequest).body), { raw });
    const got = await api.exec('messages', 'get', {
      messageId: id,
      format: 'metadata',
      metadataHeaders: ['Subject', 'To'],
    });
    assert.equal(got.status, 200, got.body);
    assert.deepEqual(got.json.result.payload.headers, [
      { name: 'To', value: 'linus@example.org' },
      { name: 'Subject', value: 'Quarterly numbers' },
    ]);
    assert.deepEqual(query(fake.requests.at(-1) as RecordedRequest).getAll('metadataHeaders'), [
      'Subject',
      'To',
    ]);
    const rawBack = await api.exec('messages', 'get', { messageId: id, format: 'raw' });
    assert.match(Buffer.from(rawBack.json.result.raw, 'base64url').toString(), /Subject: Quarterly numbers/);

    const label = await api.exec('labels', 'create', {
      name: 'Finance',
      messageListVisibility: 'show',
      labelListVisibility: 'labelShow',
    });
    assert.equal(label.status, 200, label.body);
    const labelId = label.json.result.id as string;
    const modified = await api.exec('messages', 'update', {
      messageId: id,
      addLabelIds: [labelId, 'STARRED'],
    });
    assert.equal(modified.status, 200, modified.body);
    assert.deepEqual(JSON.parse((fake.requests.at(-1) as RecordedRequest).body), {
      addLabelIds: [labelId, 'STARRED'],
    });
    const counted = await api.exec('labels', 'get', { labelId });
    assert.equal(counted.json.result.messagesTotal, 1);
    const byLabel = await api.exec('messages', 'list', { labelIds: [labelId, 'STARRED'] });
    assert.deepEqual(query(fake.requests.at(-1) as RecordedRequest).getAll('labelIds'), [labelId, 'STARRED']);
    assert.deepEqual(
      byLabel.json.result.map((m: Json) => m.id),
      [id],
    );
    const taken = await api.exec('labels', 'create', {
      name: 'finance',
      messageListVisibility: 'show',
      labelListVisibility: 'labelShow',
    });
    assertError(taken, 502, 'UPSTREAM_ERROR');
    assert.match(taken.json.message, /Label name exists or conflicts/);

    assert.equal((await api.exec('messages_trash', 'create', { messageId: id })).status, 200);
    // Gmail answers a search that matches nothing with {resultSizeEstimate: 0} and no `messages` member (the
    // proto3 JSON mapping leaves empty lists out): an empty last page (omits_empty_list).
    const hidden = await api.exec('messages', 'list', { q: 'Quarterly' });
    assert.equal(hidden.status, 200, hidden.body);
    assert.deepEqual(hidden.json.result, []);
    assert.equal(hidden.json.connector_metadata.has_next_page, false);
    const inTrash = await api.exec('messages', 'list', { labelIds: ['TRASH'] });
    assert.ok(inTrash.json.result.some((m: Json) => m.id === id));
    const withTrash = await api.exec('messages', 'list', { q: 'Quarterly', includeSpamTrash: true });
    assert.deepEqual(
      withTrash.json.result.map((m: Json) => m.id),
      [id],
    );
    const back = await api.exec('messages_untrash', 'create', { messageId: id });
    assert.ok(!back.json.result.labelIds.includes('TRASH'));
    assert.equal((await api.exec('messages', 'list', { q: 'Quarterly' })).json.result.length, 1);
  });

  test('a draft written, rewritten and sent: read back in full, then gone from the drafts', async () => {
    const first = rawMessage({ To: 'grace@ces-demo.example', Subject: 'Offsite' }, 'First go.\r\n');
    const created = await api.exec('drafts', 'create', { raw: first });
    assert.equal(created.status, 200, created.body);
    assert.deepEqual(JSON.parse((fake.requests.at(-1) as RecordedRequest).body), { message: { raw: first } });
    const draftId = created.json.result.id as string;
    const second = rawMessage(
      { To: 'grace@ces-demo.example', Subject: 'Offsite (agenda)' },
      'Second go.\r\n',
    );
    assert.equal((await api.exec('drafts', 'update', { draftId, raw: second })).status, 200);
    const got = await api.exec('drafts', 'get', { draftId, format: 'full' });
    const headers = got.json.result.message.payload.headers as Json[];
    assert.equal(headers.find((x) => x.name === 'Subject')?.value, 'Offsite (agenda)');
    assert.equal(
      Buffer.from(got.json.result.message.payload.body.data, 'base64url').toString(),
      'Second go.\r\n',
    );
    const sent = await api.exec('drafts_send', 'create', { draftId });
    assert.equal(sent.status, 200, sent.body);
    assert.deepEqual(JSON.parse((fake.requests.at(-1) as RecordedRequest).body), { id: draftId });
    assert.deepEqual(sent.json.result.labelIds, ['SENT']);
    const drafts = (await api.pages('drafts', 'list', { maxResults: 5 })).flatMap((p) => p.result);
    assert.equal(drafts.length, fake.data.drafts.size);
    assert.ok(!drafts.some((d: Json) => d.id === draftId));
    assertError(await api.exec('drafts', 'get', { draftId }), 404, 'UPSTREAM_NOT_FOUND');
  });

  test('an access token Google expired (401) is renewed once, and the call retried', async () => {
    fake.oauth.expireAccessTokens();
    const mark = fake.requests.length;
    const res = await api.exec('labels', 'list');
    assert.equal(res.status, 200, res.body);
    assert.equal(res.json.result.length, fake.data.labels.length);
    assert.deepEqual(fake.requests.slice(mark).map(route), [
      'GET /gmail/v1/users/me/labels',
      'POST /token',
      'GET /gmail/v1/users/me/labels',
    ]);
  });

  test('an attachment over 10 MB comes back byte for byte (base64url inside JSON, as Gmail answers it)', async () => {
    const message = fake.data.messages.get(fake.data.largeMessageId);
    const attachment = message?.attachments[0];
    assert.ok(attachment && attachment.data.length > 10 * 1024 * 1024);
    const full = await api.exec('messages', 'get', { messageId: message?.id });
    const part = (full.json.result.payload.parts as Json[]).find((p) => p.filename === 'site-backup.tar');
    assert.equal(part?.body.attachmentId, attachment.id);
    const res = await api.exec('attachments', 'get', {
      messageId: message?.id,
      attachmentId: part?.body.attachmentId,
    });
    assert.equal(res.status, 200);
    assert.equal(res.json.result.size, attachment.data.length);
    assert.ok(Buffer.from(res.json.result.data, 'base64url').equals(attachment.data), 'the exact bytes');
  });

  test("Google's per-user quota (403 userRateLimitExceeded) is a rate limit: retried, and passed on as one", async () => {
    fake.failNext({
      status: 403,
      match: '/gmail/v1/users/me/threads',
      body: {
        error: {
          code: 403,
          message: 'User-rate limit exceeded.',
          errors: [
            { message: 'User-rate limit exceeded.', domain: 'usageLimits', reason: 'userRateLimitExceeded' },
          ],
          status: 'PERMISSION_DENIED',
        },
      },
    });
    const mark = fake.requests.length;
    const ok = await api.exec('threads', 'list', { maxResults: 5 });
    assert.equal(ok.status, 200, ok.body);
    assert.equal(fake.requests.length - mark, 2, 'one refusal, one retry');
    fake.failNext({ status: 429, match: '/gmail/v1/users/me/threads', headers: { 'Retry-After': '120' } });
    const limited = await api.exec('threads', 'list', { maxResults: 5 });
    assertError(limited, 429, 'UPSTREAM_RATE_LIMITED');
    assert.equal(limited.headers['retry-after'], '120');
    // A 403 that is no quota stays a refusal.
    fake.failNext({ status: 403, match: '/gmail/v1/users/me/threads' });
    assertError(await api.exec('threads', 'list', {}), 424, 'UPSTREAM_FORBIDDEN');
  });
});

describe('Gmail consent', () => {
  test('asks offline access for gmail.modify, which authorizes every method the definition calls and is needed', () => {
    const def = loadDefinition('gmail');
    const option = def.credential_options[0];
    assert.equal(option?.authorization?.url, 'https://accounts.google.com/o/oauth2/v2/auth');
    assert.equal(option?.authorization?.params?.access_type, 'offline');
    const scopes = option?.authorization?.scopes ?? [];
    const facts = JSON.parse(
      readFileSync(new URL('../../reference/providers/gmail.json', import.meta.url), 'utf8'),
    ) as { operations: Record<string, { scopes?: string[] }> };
    const key = (method: string, path: string) =>
      `${method} /gmail/v1${path.replace('/users/me', '/users/{userId}')}`;
    const templates = Object.keys(facts.operations);
    /** The facts' key of a definition path: its placeholders renamed as the discovery document names them. */
    const operation = (method: string, path: string) => {
      const wanted = key(method, path).replace(/\{[^}]+\}/g, '{}');
      return templates.find((t) => t.replace(/\{[^}]+\}/g, '{}') === wanted);
    };
    const called = def.entities.flatMap((e) =>
      Object.values(e.actions).map((a) => operation(String(a?.request.method), String(a?.request.path))),
    );
    called.push(operation('GET', def.check.path));
    assert.equal(called.length, 22);
    for (const op of called) {
      const allowed = op === undefined ? undefined : facts.operations[op]?.scopes;
      assert.ok(op && allowed, `${op} is an operation of the discovery document`);
      assert.ok(
        scopes.some((s) => allowed.includes(s)),
        `${op} is authorized by ${scopes.join(' ')}`,
      );
    }
    // Labels on a message and the trash take gmail.modify or the full mail.google.com: nothing narrower.
    const full = 'https://mail.google.com/';
    const needsModify = called.filter((op) =>
      (facts.operations[op as string]?.scopes ?? []).every((s) => s === full || s === scopes[0]),
    );
    assert.deepEqual(needsModify.sort(), [
      'POST /gmail/v1/users/{userId}/messages/{id}/modify',
      'POST /gmail/v1/users/{userId}/messages/{id}/trash',
      'POST /gmail/v1/users/{userId}/messages/{id}/untrash',
    ]);
    assert.deepEqual(scopes, ['https://www.googleapis.com/auth/gmail.modify']);
  });
});

describe('Gmail in the Context Store', () => {
  let fake: GmailFake;
  let h: Harness;
  let api: ConnectorApi;
  const search = (entity: string, filter: unknown) => api.search(entity, { query: { filter }, limit: 1000 });

  before(async () => {
    // Pages of at most 20 (Gmail's are 500), so the sync's maxResults=500 still spans several.
    fake = await startGmailFake({ maxPageSize: 20 });
    const { refresh_token } = fake.oauth.grant();
    // A refresh every second, each a whole pass: no entity declares incremental (see the definition).
    ({ h, api } = await startSyncing('gmail', fake.url, {
      definition_id: GMAIL_ID,
      credentials: oauth({ refresh_token }),
    }));
  });
  after(async () => {
    assert.deepEqual(fake?.unhandled, [], 'every request reached a route of the fake');
    await closeAll(h, fake);
  });

  test('messages, threads, labels and drafts are indexed from their lists and searchable', async () => {
    const messages = [...fake.data.messages.values()].filter((m) => !m.labelIds.includes('DRAFT'));
    await api.waitReady('messages', messages.length);
    await api.waitReady('threads', new Set(messages.map((m) => m.threadId)).size);
    await api.waitReady('labels', fake.data.labels.length);
    await api.waitReady('drafts', fake.data.drafts.size);
    const lists = fake.requests.filter((r) => route(r) === 'GET /gmail/v1/users/me/messages');
    assert.ok(lists.length >= 2, 'read page by page');
    assert.equal(query(lists[0] as RecordedRequest).get('maxResults'), '500');
    assert.equal(query(lists[0] as RecordedRequest).get('includeSpamTrash'), 'true');

    const invoices = fake.data.labels.find((l) => l.name === 'Invoices');
    const labels = await search('labels', { eq: { name: 'Invoices' } });
    assert.equal(labels.status, 200, labels.body);
    assert.deepEqual(
      labels.json.result.map((l: Json) => l.id),
      [invoices?.id],
    );
    const system = await search('labels', { eq: { type: 'system' } });
    assert.equal(system.json.result.length, fake.data.labels.filter((l) => l.type === 'system').length);
    const thread = fake.data.thread(fake.data.largeMessageId);
    const threads = await search('threads', { fuzzy: { snippet: 'backup of the site' } });
    assert.deepEqual(
      threads.json.result.map((t: Json) => t.id),
      [thread[0]?.threadId],
    );
    const draft = [...fake.data.drafts.values()][3];
    const drafts = await search('drafts', { eq: { 'message.id': draft?.message.id } });
    assert.deepEqual(
      drafts.json.result.map((d: Json) => d.id),
      [draft?.id],
    );
  });

  test('a refresh picks up a new message and drops a deleted draft', async () => {
    const before = (await api.state('messages'))?.entity_count as number;
    const added = fake.data.add({
      labelIds: ['INBOX'],
      from: 'linus@example.org',
      to: fake.data.email,
      subject: 'Arrived after the backfill',
      text: 'New.\r\n',
      attachments: [],
    });
    const [doomed] = [...fake.data.drafts.values()];
    assert.ok(doomed);
    fake.data.drafts.delete(doomed.id);
    fake.data.messages.delete(doomed.message.id);
    await api.waitCount('messages', before + 1);
    const found = await search('messages', { eq: { id: added.id } });
    assert.deepEqual(
      found.json.result.map((m: Json) => m.threadId),
      [added.threadId],
    );
    await api.waitCount('drafts', fake.data.drafts.size);
    assert.deepEqual((await search('drafts', { eq: { id: doomed.id } })).json.result, []);
  });
});
