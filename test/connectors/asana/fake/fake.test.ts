// The Asana fake's own quirks, which the definition suite and the contract do not see: opt_fields projections,
// offset tokens bound to the request they continue, lists without `limit` answered whole (or refused when too
// large), and the file storage refusing an Asana credential and expired URLs.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Project } from './dataset.ts';
import { ASANA_FAKE_PAT, type AsanaFake, startAsanaFake } from './index.ts';

const auth = { authorization: `Bearer ${ASANA_FAKE_PAT}` };
// biome-ignore lint/suspicious/noExplicitAny: test convenience for reading JSON answers
type Json = Record<string, any>;

describe('the Asana fake', () => {
  let fake: AsanaFake;
  let clock = Date.UTC(2026, 0, 1);
  const get = async (path: string, headers: Record<string, string> = auth) => {
    const res = await fetch(`${fake.url}${path}`, { headers });
    return { status: res.status, json: (await res.json()) as Json };
  };

  before(async () => {
    fake = await startAsanaFake({ now: () => clock, largeFileBytes: 4096 });
  });
  after(async () => {
    assert.deepEqual(fake.unhandled, []);
    await fake.close();
  });

  test('lists answer compact records, opt_fields the gid and exactly the members named', async () => {
    const p0 = fake.data.projects[0] as Project;
    const plain = await get(`/projects/${p0.gid}/tasks?limit=2`);
    assert.deepEqual(Object.keys(plain.json.data[0]).sort(), [
      'gid',
      'name',
      'resource_subtype',
      'resource_type',
    ]);
    const chosen = await get(`/projects/${p0.gid}/tasks?limit=2&opt_fields=notes,assignee.name,projects`);
    const first = chosen.json.data[0];
    assert.deepEqual(Object.keys(first).sort(), ['assignee', 'gid', 'notes', 'projects']);
    assert.deepEqual(Object.keys(first.assignee).sort(), ['gid', 'name']);
    assert.deepEqual(Object.keys(first.projects[0]).sort(), ['gid', 'resource_type']);
  });

  test('an offset token continues only the request that issued it', async () => {
    const ws = fake.data.workspaces[0]?.gid as string;
    const page = await get(`/users?workspace=${ws}&limit=5`);
    const next = page.json.next_page;
    assert.match(next.offset, /^eyJ/);
    assert.equal(next.path, `/users?workspace=${ws}&limit=5&offset=${encodeURIComponent(next.offset)}`);
    assert.equal((await get(next.path)).status, 200);
    const changed = await get(`/users?workspace=${ws}&limit=6&offset=${encodeURIComponent(next.offset)}`);
    assert.equal(changed.status, 400);
    assert.match(changed.json.errors[0].message, /offset/);
  });

  test('without limit a list is answered whole, and refused past what Asana answers unpaged', async () => {
    const whole = await get('/users');
    assert.equal(whole.json.data.length, fake.data.users.length);
    assert.equal(whole.json.next_page, null);
    for (let i = 0; i < 1000; i++)
      fake.data.add(fake.data.tags, {
        name: `t${i}`,
        color: null,
        notes: '',
        workspace: fake.data.workspaces[0]?.gid as string,
        created_at: '2024-01-01T00:00:00.000Z',
      });
    const large = await get('/tags');
    assert.equal(large.status, 400);
    assert.match(large.json.errors[0].message, /too large/);
  });

  test('a token it does not know is 401 Not Authorized; an unknown path 404 with the errors body', async () => {
    const refused = await get('/users/me', { authorization: 'Bearer 2/1/1:nope' });
    assert.equal(refused.status, 401);
    assert.deepEqual(
      refused.json.errors.map((e: { message: string }) => e.message),
      ['Not Authorized'],
    );
    const before = fake.unhandled.length;
    const unknown = await get('/no/such/route');
    assert.equal(unknown.status, 404);
    assert.equal(fake.unhandled.length, before + 1);
    fake.unhandled.splice(before, 1);
  });

  test('the file storage serves a signed URL without credentials, refuses one with an Authorization header, and expires', async () => {
    const file = fake.data.attachments.find((a) => a.host === 'asana' && a.key !== undefined);
    assert.ok(file?.key);
    const { json } = await get(`/attachments/${file.gid}`);
    const url = json.data.download_url as string;
    assert.ok(url.startsWith(fake.storage.origin));
    const ok = await fetch(url);
    assert.equal(ok.status, 200);
    assert.ok(Buffer.from(await ok.arrayBuffer()).equals(fake.storage.bytesOf(file.key)));
    const withToken = await fetch(url, { headers: auth });
    assert.equal(withToken.status, 400);
    assert.match(await withToken.text(), /Only one auth mechanism allowed/);
    clock += 121_000;
    const expired = await fetch(url);
    assert.equal(expired.status, 403);
    assert.match(await expired.text(), /Request has expired/);
    const linked = fake.data.attachments.find((a) => a.host === 'gdrive');
    assert.equal((await get(`/attachments/${linked?.gid}`)).json.data.download_url, null);
  });
});
