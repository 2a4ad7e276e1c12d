// The Confluence fake's own quirks, which the definition suite and the contract do not see: the same next page
// in `_links.next` and the Link header, cursors bound to their request, each API version's error envelope, the
// v1 page cap, and the download servlet's redirect to the media host.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  CONFLUENCE_FAKE_API_TOKEN,
  CONFLUENCE_FAKE_EMAIL,
  type ConfluenceFake,
  startConfluenceFake,
} from './index.ts';

const AUTH = {
  authorization: `Basic ${Buffer.from(`${CONFLUENCE_FAKE_EMAIL}:${CONFLUENCE_FAKE_API_TOKEN}`).toString('base64')}`,
};

describe('the Confluence fake', () => {
  let fake: ConfluenceFake;
  const get = (path: string, headers: Record<string, string> = AUTH) =>
    fetch(`${fake.origin}${path}`, { headers, redirect: 'manual' });

  before(async () => {
    fake = await startConfluenceFake({ v1PageCap: 7 });
  });
  after(() => fake.close());

  it('names the next page in _links.next and in the Link header, with a cursor bound to the request', async () => {
    const res = await get('/wiki/api/v2/pages?limit=10&sort=title');
    assert.equal(res.status, 200);
    const body = (await res.json()) as { results: unknown[]; _links: { next: string; base: string } };
    assert.equal(body.results.length, 10);
    assert.equal(body._links.base, `${fake.origin}/wiki`);
    assert.match(body._links.next, /^\/wiki\/api\/v2\/pages\?limit=10&sort=title&cursor=/);
    assert.equal(
      res.headers.get('link'),
      `<${body._links.next}>; rel="next", <${body._links.base}>; rel="base"`,
    );
    assert.equal((await get(body._links.next)).status, 200);
    // The same cursor with another sort is not one the fake handed out.
    const other = await get(body._links.next.replace('sort=title', 'sort=id'));
    assert.equal(other.status, 400);
    assert.deepEqual(
      ((await other.json()) as { errors: Array<{ code: string }> }).errors[0]?.code,
      'BAD_REQUEST',
    );
  });

  it("answers each API version's error envelope, also to a missing credential", async () => {
    const v2 = await get('/wiki/api/v2/pages', {});
    assert.equal(v2.status, 401);
    assert.equal(((await v2.json()) as { errors: Array<{ status: number }> }).errors[0]?.status, 401);
    const v1 = await get('/wiki/rest/api/group', {});
    assert.equal(v1.status, 401);
    assert.equal(((await v1.json()) as { statusCode: number }).statusCode, 401);
  });

  it('caps a v1 page at its system limit and names the next start relative to _links.base', async () => {
    const res = await get('/wiki/rest/api/group?limit=200');
    const body = (await res.json()) as { size: number; limit: number; _links: { next: string } };
    assert.deepEqual([body.size, body.limit], [7, 7]);
    assert.equal(body._links.next, '/rest/api/group?next=true&limit=7&start=7');
  });

  it('redirects a download link to the media host, whose signed URL needs no credential', async () => {
    const att = fake.data.attachments[0];
    assert.ok(att);
    const meta = (await (await get(`/wiki/api/v2/attachments/${att.id}`)).json()) as { downloadLink: string };
    assert.equal((await get(`/wiki${meta.downloadLink}`, {})).status, 401);
    const redirect = await get(`/wiki${meta.downloadLink}`);
    assert.equal(redirect.status, 302);
    const location = redirect.headers.get('location') ?? '';
    assert.ok(location.startsWith(fake.media.origin));
    const file = await fetch(location);
    assert.equal(file.status, 200);
    assert.ok(Buffer.from(await file.arrayBuffer()).equals(att.bytes));
    const forged = await fetch(location.replace(/token=[^&]+/, 'token=forged'));
    assert.equal(forged.status, 401);
    assert.deepEqual(fake.unhandled, []);
    assert.deepEqual(fake.media.unhandled, []);
  });
});
