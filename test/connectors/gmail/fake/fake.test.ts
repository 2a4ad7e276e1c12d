// The Gmail fake itself, spoken to with plain fetch: the quirks of Gmail's answers that the suite and the
// end-to-end test rely on without pinning them.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type GmailFake, GOOGLE_FAKE_ACCESS_TOKEN, startGmailFake } from './index.ts';

// biome-ignore lint/suspicious/noExplicitAny: test convenience for reading JSON bodies
type Json = Record<string, any>;

describe('Gmail fake', () => {
  let fake: GmailFake;

  before(async () => {
    fake = await startGmailFake();
  });
  after(async () => {
    assert.deepEqual(fake.unhandled, []);
    await fake.close();
  });

  const get = async (path: string, token: string | null = GOOGLE_FAKE_ACCESS_TOKEN) => {
    const res = await fetch(`${fake.url}${path}`, {
      headers: token === null ? {} : { authorization: `Bearer ${token}` },
    });
    return { status: res.status, json: (await res.json()) as Json };
  };

  it('answers a search that matches nothing without the list member, as the proto3 JSON mapping does', async () => {
    const res = await get('/users/me/messages?q=nothing-matches-this');
    assert.equal(res.status, 200);
    assert.deepEqual(res.json, { resultSizeEstimate: 0 });
    const threads = await get('/users/me/threads?q=nothing-matches-this');
    assert.deepEqual(threads.json, { resultSizeEstimate: 0 });
  });

  it('takes the mailbox as me or its address, and refuses another mailbox', async () => {
    const byAddress = await get(`/users/${encodeURIComponent(fake.data.email)}/profile`);
    assert.equal(byAddress.json.emailAddress, fake.data.email);
    const other = await get('/users/someone%40example.org/profile');
    assert.equal(other.status, 403);
    assert.equal(other.json.error.status, 'PERMISSION_DENIED');
  });

  it("refuses a missing token with Google's 401 body", async () => {
    const res = await get('/users/me/labels', null);
    assert.equal(res.status, 401);
    assert.equal(res.json.error.errors[0].reason, 'authError');
    assert.equal(res.json.error.status, 'UNAUTHENTICATED');
  });

  it('binds a page token to the request it continues', async () => {
    const first = await get('/users/me/messages?maxResults=5&q=from%3Agrace');
    const token = first.json.nextPageToken as string;
    assert.ok(token);
    const next = await get(
      `/users/me/messages?maxResults=5&q=from%3Agrace&pageToken=${encodeURIComponent(token)}`,
    );
    assert.equal(next.status, 200);
    assert.notDeepEqual(next.json.messages, first.json.messages);
    const changed = await get(
      `/users/me/messages?maxResults=5&q=from%3Alinus&pageToken=${encodeURIComponent(token)}`,
    );
    assert.equal(changed.status, 400);
    assert.equal(changed.json.error.message, 'Invalid pageToken');
  });

  it('reads after:/before: as Unix seconds or dates, and the other operators it knows', async () => {
    const all = fake.data
      .newestFirst()
      .filter((m) => !m.labelIds.some((l) => ['DRAFT', 'SPAM', 'TRASH'].includes(l)));
    const mid = all[10] as { internalDate: number };
    const seconds = Math.floor(mid.internalDate / 1000);
    const after = await get(`/users/me/messages?maxResults=500&q=${encodeURIComponent(`after:${seconds}`)}`);
    assert.deepEqual(
      after.json.messages.map((m: Json) => m.id),
      all.filter((m) => m.internalDate >= seconds * 1000).map((m) => m.id),
    );
    const before = await get(
      `/users/me/messages?maxResults=500&q=${encodeURIComponent(`before:${seconds}`)}`,
    );
    assert.equal(before.json.messages.length + after.json.messages.length, all.length);
    const attached = await get(
      `/users/me/messages?maxResults=500&q=${encodeURIComponent('has:attachment label:invoices')}`,
    );
    assert.ok(attached.json.messages.length > 0);
    for (const { id } of attached.json.messages as Json[]) {
      const m = fake.data.messages.get(id);
      assert.ok(m && m.attachments.length > 0 && m.labelIds.includes('Label_1'));
    }
  });

  it('renders internalDate and historyId as strings and part data as base64url', async () => {
    const id = fake.data.largeMessageId;
    const full = await get(`/users/me/messages/${id}`);
    assert.equal(typeof full.json.internalDate, 'string');
    assert.equal(full.json.internalDate, String(fake.data.messages.get(id)?.internalDate));
    assert.equal(typeof full.json.historyId, 'string');
    const text = full.json.payload.parts[0].body.data as string;
    assert.match(text, /^[A-Za-z0-9_-]+$/);
    assert.equal(Buffer.from(text, 'base64url').toString(), fake.data.messages.get(id)?.text);
  });
});
