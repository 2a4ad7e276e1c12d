// The two search actions as their clients page them, over an index synced for real from the GitHub fake (25
// issues, pages of 7): `context_store_search` as the hosted Python SDK's typed search sends and reads it
// (`result: {data, meta: {has_more, cursor, took_ms}}`, replayed byte for byte), `search` as a generic client
// does (`result` an array, `connector_metadata.end_cursor`), and the MCP execute tool cutting a page object.
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { createGithubConnector, type Harness, startWithGithub } from '../connectors/github/harness.ts';
import { entityState } from '../helpers/context-store.ts';
import { pythonSdk, type SdkSearchResult } from '../helpers/python-sdk.ts';
import { waitFor } from '../helpers/wait.ts';

type Row = Record<string, unknown>;
const ISSUES = 25;
const LIMIT = 7;
const PAGES = Math.ceil(ISSUES / LIMIT);
const BY_NUMBER = { sort: [{ number: 'asc' }] };

describe('context_store_search and search, paged to the end', () => {
  let h: Harness;
  let close: () => Promise<unknown>;
  let port: number;
  let token: string;
  let id: string;
  let sdk: ReturnType<typeof pythonSdk>;

  before(async () => {
    ({ h, close } = await startWithGithub(undefined, { CES_SYNC_POLL_MS: '20' }));
    token = await h.token();
    const created = await createGithubConnector(h, token, { entities: [{ entity: 'issues' }] });
    assert.equal(created.status, 200, created.body);
    id = created.json.id;
    await h.deps.worker.start();
    const state = await waitFor('issues to be backfilled', async () => {
      const s = await entityState(h, token, id, 'issues');
      return s?.backfilled_at ? s : undefined;
    });
    assert.equal(state.entity_count, ISSUES);
    await h.app.listen({ host: '127.0.0.1', port: 0 });
    port = (h.app.server.address() as AddressInfo).port;
    sdk = pythonSdk(port, {
      clientId: h.boot.client_id,
      clientSecret: h.boot.client_secret,
      organizationId: h.boot.organization_id,
    });
  });
  after(async () => {
    await h.deps.worker.stop();
    await close();
  });

  /** The SDK's loop: context_store_search with meta.cursor until meta.has_more is false. */
  async function sdkWalk(fields?: string[][]) {
    const pages: SdkSearchResult[] = [];
    let cursor: string | null = null;
    do {
      const page = await sdk.contextStoreSearch(id, 'issues', {
        query: BY_NUMBER,
        limit: LIMIT,
        cursor,
        ...(fields ? { fields } : {}),
      });
      assert.ok(Number.isInteger(page.meta.took_ms), `took_ms ${page.meta.took_ms}`);
      assert.equal(page.meta.cursor !== null, page.meta.has_more, JSON.stringify(page.meta));
      pages.push(page);
      cursor = page.meta.has_more ? page.meta.cursor : null;
    } while (cursor && pages.length <= PAGES);
    return pages;
  }

  /** A generic client's loop over `search`: an array per page, params.cursor = connector_metadata.end_cursor. */
  async function searchWalk(fields?: string[][]) {
    const pages: Row[][] = [];
    let cursor: string | null = null;
    do {
      const { data, meta } = await sdk.execute(id, 'issues', 'search', {
        query: BY_NUMBER,
        limit: LIMIT,
        ...(cursor ? { cursor } : {}),
        ...(fields ? { fields } : {}),
      });
      assert.ok(Array.isArray(data), JSON.stringify(data));
      const m = meta as { has_next_page: boolean; end_cursor: string | null; took_ms: unknown };
      assert.ok(Number.isInteger(m.took_ms), `took_ms ${String(m.took_ms)}`);
      assert.equal(m.end_cursor !== null, m.has_next_page);
      pages.push(data as Row[]);
      cursor = m.end_cursor;
    } while (cursor && pages.length <= PAGES);
    return pages;
  }

  const numbers = (records: Row[]) => records.map((r) => r.number);
  const everyIssue = Array.from({ length: ISSUES }, (_, i) => i + 1);

  for (const [how, fields] of [
    ['whole records (the stored JSON, written unparsed)', undefined],
    ['projected with fields as key lists', [['number'], ['title']]],
  ] as const) {
    test(`both walks give every issue once, the same records: ${how}`, async () => {
      const pages = await sdkWalk(fields as string[][] | undefined);
      assert.equal(pages.length, PAGES);
      assert.deepEqual(
        pages.map((p) => p.data.length),
        [7, 7, 7, 4],
      );
      const viaSdk = pages.flatMap((p) => p.data);
      assert.deepEqual(numbers(viaSdk), everyIssue);
      if (fields) for (const r of viaSdk) assert.deepEqual(Object.keys(r).sort(), ['number', 'title']);
      else for (const r of viaSdk) assert.equal(typeof r.html_url, 'string');

      const viaSearch = (await searchWalk(fields as string[][] | undefined)).flat();
      assert.deepEqual(viaSearch, viaSdk);
    });
  }

  test('the page object and connector_metadata agree, and each action continues the other’s cursor', async () => {
    const execute = (action: string, params: Row) =>
      h.inject({
        method: 'POST',
        url: `/api/v1/integrations/connectors/${id}/execute`,
        token,
        body: { entity: 'issues', action, params: { query: BY_NUMBER, limit: LIMIT, ...params } },
      });
    const first = await execute('context_store_search', {});
    assert.equal(first.status, 200, first.body);
    const { result, connector_metadata } = first.json;
    assert.deepEqual(Object.keys(result).sort(), ['data', 'meta']);
    assert.deepEqual(Object.keys(result.meta).sort(), ['cursor', 'has_more', 'took_ms']);
    assert.equal(connector_metadata.has_next_page, result.meta.has_more);
    assert.equal(connector_metadata.end_cursor, result.meta.cursor);
    assert.equal(connector_metadata.took_ms, result.meta.took_ms);
    assert.ok(Number.isInteger(first.json.execution_metadata.execution_time_ms));

    // search's second page, from context_store_search's cursor, and the other way round.
    const second = await execute('search', { cursor: result.meta.cursor });
    assert.equal(second.status, 200, second.body);
    assert.deepEqual(numbers(second.json.result), [8, 9, 10, 11, 12, 13, 14]);
    const third = await execute('context_store_search', {
      cursor: second.json.connector_metadata.end_cursor,
    });
    assert.equal(third.status, 200, third.body);
    assert.deepEqual(numbers(third.json.result.data), [15, 16, 17, 18, 19, 20, 21]);
    // select_fields apply to the records inside the page object.
    const selected = await h.inject({
      method: 'POST',
      url: `/api/v1/integrations/connectors/${id}/execute`,
      token,
      body: {
        entity: 'issues',
        action: 'context_store_search',
        params: { query: BY_NUMBER, limit: 2 },
        select_fields: ['number'],
      },
    });
    assert.equal(selected.status, 200, selected.body);
    assert.deepEqual(selected.json.result.data, [{ number: 1 }, { number: 2 }]);
    assert.equal(selected.json.result.meta.has_more, true);
  });

  test('MCP execute cuts a context_store_search page to whole records and keeps its meta', async () => {
    const call = async (action: string, max: number) => {
      const res = await fetch(`http://127.0.0.1:${port}/mcp`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: {
            name: 'execute',
            arguments: {
              max_chars_per_item: max,
              items: [
                {
                  connector_id: id,
                  entity: 'issues',
                  action,
                  params: { query: BY_NUMBER, limit: 20 },
                  exclude_fields: [],
                },
              ],
            },
          },
        }),
      });
      assert.equal(res.status, 200);
      const message = (await res.json()) as { result: { content: Array<{ text: string }> } };
      const [item] = JSON.parse(message.result.content[0]!.text).results;
      assert.equal(item.status, 'success', JSON.stringify(item));
      return item;
    };
    const whole = await call('context_store_search', 500_000);
    assert.equal(whole.truncated, undefined);
    assert.deepEqual(numbers(whole.result.data), everyIssue.slice(0, 20));
    const cut = await call('context_store_search', 12_000);
    assert.ok(cut.truncated, 'a long page is cut and says so');
    assert.equal(cut.truncated.records_on_page, 20);
    assert.ok(cut.result.data.length > 0 && cut.result.data.length < 20, JSON.stringify(cut.truncated));
    assert.deepEqual(numbers(cut.result.data), everyIssue.slice(0, cut.result.data.length));
    // The next page follows the whole page: meta.cursor is the same one as connector_metadata's.
    assert.equal(cut.result.meta.has_more, true);
    assert.equal(cut.result.meta.cursor, cut.connector_metadata.end_cursor);
    assert.ok(JSON.stringify(cut).length <= 12_000, `the item is ${JSON.stringify(cut).length} characters`);
    // search's array is cut the same way.
    const array = await call('search', 12_000);
    assert.equal(array.truncated.records_on_page, 20);
    assert.deepEqual(numbers(array.result), everyIssue.slice(0, array.result.length));
  });
});
