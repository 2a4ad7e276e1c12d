// The reference's Go CLI (`airbyte-agent connectors list`) reads each connector's Context Store status and count
// from GET /organizations/{organization_id}/credentials, in pages of 200 until a shorter page. These tests replay
// its requests (its headers, Go's sorted query) and decode the answers as its structs would.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { GITHUB_FAKE_DEFAULT_TOKEN } from '../connectors/github/fake/index.ts';
import {
  claimGithubIssues,
  createGithubConnector,
  GITHUB_DEFINITION_ID,
  type Harness,
  startWithGithub,
} from '../connectors/github/harness.ts';
import { cliHeaders } from '../helpers/go-cli.ts';
import { assertError } from './assertions.ts';

const PAGE_SIZE = 200;
const credentialsPath = (orgId: string) => `/api/v1/organizations/${encodeURIComponent(orgId)}/credentials`;

interface CredentialsItem {
  id: string;
  context_store_status: string | null;
  context_store_entity_count: number;
}

/**
 * What encoding/json does with the body into the CLI's credentialsListResponse: unknown members ignored, a
 * null leaves the zero value, a value of the wrong type (a count that is not a whole number) fails the decode.
 */
function goDecode(body: string): { data: CredentialsItem[]; total: number } {
  const doc: unknown = JSON.parse(body);
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) throw new Error('not an object');
  const { data, total } = doc as { data?: unknown; total?: unknown };
  if (total !== undefined && total !== null && !Number.isInteger(total))
    throw new Error('total is not an int');
  if (data !== undefined && data !== null && !Array.isArray(data)) throw new Error('data is not an array');
  const items = ((data ?? []) as unknown[]).map((raw) => {
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
      throw new Error('item is not an object');
    const {
      id,
      context_store_status: status,
      context_store_entity_count: count,
    } = raw as Record<string, unknown>;
    if (id !== undefined && id !== null && typeof id !== 'string') throw new Error('id is not a string');
    if (status !== undefined && status !== null && typeof status !== 'string')
      throw new Error('context_store_status is not a string');
    if (count !== undefined && count !== null && !Number.isInteger(count))
      throw new Error('context_store_entity_count is not an int');
    return {
      id: (id as string | null | undefined) ?? '',
      context_store_status: (status as string | null | undefined) ?? null,
      context_store_entity_count: (count as number | null | undefined) ?? 0,
    };
  });
  return { data: items, total: (total as number | null | undefined) ?? 0 };
}

/** The CLI's fetchAllCredentials: limit=200 from offset 0 until a short page, a status of 400 or more an error. */
async function cliFetchAllCredentials(h: Harness, token: string, orgId: string) {
  const out = new Map<string, CredentialsItem>();
  const totals: number[] = [];
  for (let offset = 0, page = 0; page < 50; page++, offset += PAGE_SIZE) {
    // Go's url.Values.Encode sorts by key.
    const query = new URLSearchParams({ limit: String(PAGE_SIZE), offset: String(offset) });
    query.sort();
    const res = await h.inject({
      method: 'GET',
      url: `${credentialsPath(orgId)}?${query}`,
      token,
      headers: cliHeaders(orgId),
    });
    if (res.status >= 400) throw new Error(`credentials: ${res.status} ${res.body}`);
    const decoded = goDecode(res.body);
    totals.push(decoded.total);
    for (const item of decoded.data) out.set(item.id, item);
    if (decoded.data.length < PAGE_SIZE) return { items: out, pages: page + 1, totals };
  }
  throw new Error('pagination exceeded 50 pages');
}

async function inspected(h: Harness, token: string, id: string) {
  const res = await h.inject({ method: 'GET', url: `/api/v1/integrations/connectors/${id}/inspect`, token });
  assert.equal(res.status, 200, res.body);
  const store = res.json.context_store as {
    status: string | null;
    entities: Array<{ entity_count: number }>;
  };
  return { status: store.status, count: store.entities.reduce((n, e) => n + e.entity_count, 0) };
}

describe('GET /organizations/{organization_id}/credentials, as the reference CLI reads it', () => {
  let h: Harness;
  let close: () => Promise<unknown>;
  let token: string;
  let orgId: string;
  let indexedId: string;

  before(async () => {
    // Syncs by hand only, so the states compared with inspect do not move between the two reads.
    ({ h, close } = await startWithGithub(undefined, { CES_SYNC_ENABLED: 'false' }));
    token = await h.token();
    orgId = h.boot.organization_id;
    const { job, layout, store, now, commit } = await claimGithubIssues(h);
    indexedId = job.connector_id;
    const records = [1, 2, 3].map((n) => ({
      id: `I_node${n}`,
      database_id: n,
      number: n,
      title: `issue ${n}`,
    }));
    await commit([store.encode(job.connector_id, layout, records, 1, now)]);
    // One more than a page, so the CLI has to ask for a second one.
    for (let i = 0; i < PAGE_SIZE; i++) {
      const res = await createGithubConnector(h, token, { name: `octo ${i}` });
      assert.equal(res.status, 200, res.body);
    }
  });
  after(() => close());

  test("every connector, in the CLI's pages, with the Context Store status and count inspect shows", async () => {
    const { items, pages, totals } = await cliFetchAllCredentials(h, token, orgId);
    const listed = await h.inject({ method: 'GET', url: '/api/v1/integrations/connectors', token });
    assert.equal(listed.status, 200, listed.body);
    const ids = (listed.json.data as Array<{ id: string }>).map((c) => c.id).sort();
    assert.equal(ids.length, PAGE_SIZE + 1);
    assert.equal(pages, 2);
    assert.deepEqual(totals, [PAGE_SIZE + 1, PAGE_SIZE + 1]);
    assert.deepEqual([...items.keys()].sort(), ids);
    const indexed = items.get(indexedId)!;
    assert.equal(indexed.context_store_status, 'Preview');
    assert.equal(indexed.context_store_entity_count, 3);
    for (const [id, item] of items) {
      const shown = await inspected(h, token, id);
      assert.deepEqual(
        { status: item.context_store_status, count: item.context_store_entity_count },
        shown,
        id,
      );
    }
  });

  test('pages by limit and offset, oldest first, and never carries a credential', async () => {
    const page = (q: string) => h.inject({ method: 'GET', url: `${credentialsPath(orgId)}?${q}`, token });
    const all = await page('limit=1000');
    assert.equal(all.status, 200, all.body);
    assert.equal(all.json.data.length, PAGE_SIZE + 1);
    assert.equal(all.json.data[0].id, indexedId);
    const second = await page('limit=2&offset=1');
    assert.deepEqual(
      second.json.data.map((c: { id: string }) => c.id),
      all.json.data.slice(1, 3).map((c: { id: string }) => c.id),
    );
    const past = await page('offset=5000');
    assert.deepEqual(past.json, { data: [], total: PAGE_SIZE + 1 });
    const first = all.json.data[0];
    assert.equal(first.definition_id, GITHUB_DEFINITION_ID);
    assert.equal(first.credentials_status, 'valid');
    assert.ok(all.body.includes(indexedId));
    assert.ok(!all.body.includes(GITHUB_FAKE_DEFAULT_TOKEN), 'no credential value in the listing');
  });

  test("another organization's id is a 404 both ways; each organization sees its own connectors only", async () => {
    const other = await h.otherOrg();
    assertError(
      await h.inject({ method: 'GET', url: credentialsPath(orgId), token: other.token }),
      404,
      'NOT_FOUND',
    );
    assertError(
      await h.inject({ method: 'GET', url: credentialsPath(other.organizationId), token }),
      404,
      'NOT_FOUND',
    );
    const own = await h.inject({
      method: 'GET',
      url: credentialsPath(other.organizationId),
      token: other.token,
    });
    assert.equal(own.status, 200, own.body);
    assert.deepEqual(own.json, { data: [], total: 0 });
  });

  test("a scoped token lists its workspace's connectors only", async () => {
    const scoped = await h.inject({
      method: 'POST',
      url: '/api/v1/account/applications/scoped-token',
      token,
      body: { workspace_name: 'customer-1' },
    });
    assert.equal(scoped.status, 200, scoped.body);
    const mine = await createGithubConnector(h, scoped.json.token, {
      workspace_name: 'customer-1',
      name: 'theirs',
    });
    assert.equal(mine.status, 200, mine.body);
    const res = await h.inject({ method: 'GET', url: credentialsPath(orgId), token: scoped.json.token });
    assert.equal(res.status, 200, res.body);
    assert.deepEqual(
      res.json.data.map((c: { id: string }) => c.id),
      [mine.json.id],
    );
    assert.equal(res.json.total, 1);
  });

  test('malformed paging or path is a 4xx with the one error body', async () => {
    for (const q of [
      'limit=0',
      'limit=1001',
      'limit=abc',
      'limit=1.5',
      'offset=-1',
      'offset=x',
      'offset=1e30',
      'limit=1&limit=2',
      'cursor=abc',
    ]) {
      const res = await h.inject({ method: 'GET', url: `${credentialsPath(orgId)}?${q}`, token });
      assertError(res, 422, 'VALIDATION_ERROR');
    }
    assertError(
      await h.inject({ method: 'GET', url: credentialsPath('not-a-uuid'), token }),
      422,
      'VALIDATION_ERROR',
    );
  });
});
