// The SDK's methods on the wire: typed errors as ces answers them, paging to the last page, a streamed
// download, a real search once the Context Store is ready, scoped clients.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { GITHUB_FAKE_DEFAULT_TOKEN } from '../../../../test/connectors/github/fake/index.ts';
import {
  Ces,
  type Connector,
  type ContextStoreSearchPage,
  isCesError,
  NotFoundError,
  PermissionError,
  type SearchFields,
  searchQuery,
  ValidationError,
} from '../../src/index.ts';
import type { E2e } from './context.ts';

const REPO = { owner: 'ces-demo', repo: 'widgets' };
const MISSING = '00000000-0000-4000-8000-000000000000';

/** Every body of a stream, counting what was pulled from it so far. */
function counting(body: ReadableStream<Uint8Array>, counter: { bytes: number }): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { done, value } = await reader.read();
      if (done) return controller.close();
      counter.bytes += value.length;
      controller.enqueue(value);
    },
    cancel: (reason) => reader.cancel(reason),
  });
}

export function apiSuite(e2e: E2e) {
  let connector: Connector;
  describe('the SDK against ces', () => {
    test('definitions, then a connector created, read, listed, renamed and checked', async () => {
      const [github, ...others] = await e2e.ces.definitions.list({ name: 'GitHub' });
      assert.equal(github?.name, 'GitHub');
      assert.equal(others.length, 0);
      const definition = await e2e.ces.definitions.get(github.sourceDefinitionId);
      assert.ok(Array.isArray(definition.entities), 'the definition lists its entities');

      connector = await e2e.ces.connectors.create({
        workspace_name: 'default',
        definition_id: github.sourceDefinitionId,
        name: 'sdk-github',
        credentials: { personal_access_token: GITHUB_FAKE_DEFAULT_TOKEN },
        replication_config: { repositories: ['ces-demo/widgets'] },
      });
      assert.equal(connector.connector_type, 'github');
      assert.equal((await e2e.ces.connectors.get(connector.id)).name, 'sdk-github');
      assert.ok(
        (await e2e.ces.connectors.list({ workspace_name: 'default' })).some((c) => c.id === connector.id),
      );
      const renamed = await e2e.ces.connectors.update(connector.id, { name: 'sdk-github-2' });
      assert.equal(renamed.name, 'sdk-github-2');
      assert.equal((await e2e.ces.connectors.check(connector.id)).status, 'succeeded');
      const refused = await e2e.ces.connectors.checkNew({
        workspace_name: 'default',
        definition_id: github.sourceDefinitionId,
        credentials: { personal_access_token: 'ghp_not_a_token' },
      });
      assert.equal(refused.status, 'failed');
    });

    test('typed errors: 404 CONNECTOR_NOT_FOUND, 422 VALIDATION_ERROR and UNKNOWN_ENTITY', async () => {
      const missing = await e2e.ces.connectors.get(MISSING).catch((e: unknown) => e);
      assert.ok(missing instanceof NotFoundError, String(missing));
      assert.equal(missing.code, 'CONNECTOR_NOT_FOUND');
      assert.equal(missing.status, 404);
      assert.match(missing.requestId ?? '', /^req_/);

      const invalid = await e2e.ces.connectors
        .create({ workspace_name: '', credentials: { personal_access_token: 'x' } })
        .catch((e: unknown) => e);
      assert.ok(invalid instanceof ValidationError, String(invalid));
      assert.equal(invalid.code, 'VALIDATION_ERROR');
      assert.equal(invalid.status, 422);
      assert.ok(
        invalid.errors.some((e) => e.field?.includes('workspace_name')),
        JSON.stringify(invalid.errors),
      );

      const unknown = await e2e.ces
        .execute(connector.id, { entity: 'isues', action: 'list', params: REPO })
        .catch((e: unknown) => e);
      assert.ok(isCesError(unknown, 'UNKNOWN_ENTITY'));
      assert.equal(unknown.errors[0]?.field, 'entity');
    });

    test('pages() follows end_cursor to the last page; records() flattens them', async () => {
      const request = {
        entity: 'issues',
        action: 'list',
        params: { ...REPO, state: 'all', per_page: 10 },
        select_fields: ['number', 'title'],
      };
      const before = e2e.fake.requests.length;
      const pages = [];
      for await (const page of e2e.ces.pages<{ number: number; title: string }>(connector.id, request))
        pages.push(page);
      assert.deepEqual(
        pages.map((p) => [p.result.length, p.connector_metadata.has_next_page]),
        [
          [10, true],
          [10, true],
          [5, false],
        ],
      );
      assert.equal(pages[2]?.connector_metadata.end_cursor, null);
      assert.deepEqual(Object.keys(pages[0]?.result[0] ?? {}).sort(), ['number', 'title']);
      const issueRequests = e2e.fake.requests.slice(before).filter((r) => r.path.includes('/issues'));
      assert.equal(issueRequests.length, 3, 'one upstream request per page');

      const numbers: number[] = [];
      for await (const issue of e2e.ces.records<{ number: number }>(connector.id, request))
        numbers.push(issue.number);
      assert.deepEqual(
        numbers.sort((a, b) => a - b),
        Array.from({ length: 25 }, (_, i) => i + 1),
      );
    });

    test('download() hands over the stream as it arrives, without buffering the file', async () => {
      const size = 64 * 1024 * 1024;
      e2e.fake.setArchiveSize(size);
      try {
        const pulled = { bytes: 0 };
        const streaming = new Ces({
          baseUrl: e2e.server.url,
          token: await e2e.ces.token(),
          fetch: async (input, init) => {
            const res = await fetch(input, init);
            return new Response(res.body && counting(res.body, pulled), res);
          },
        });
        const file = await streaming.download(connector.id, { entity: 'repositories', params: REPO });
        assert.ok(pulled.bytes < 4 * 1024 * 1024, `only the first chunks were read (${pulled.bytes} bytes)`);
        assert.equal(file.status, 200);
        assert.equal(file.contentType, 'application/x-gzip');
        assert.match(file.filename ?? '', /^ces-demo-widgets-[0-9a-f]+\.tar\.gz$/);
        let total = 0;
        let head: Uint8Array | undefined;
        for await (const chunk of file.body) {
          head ??= chunk;
          total += chunk.length;
        }
        assert.equal(total, size);
        assert.equal(file.size ?? size, size);
        assert.deepEqual([...(head ?? new Uint8Array()).subarray(0, 2)], [0x1f, 0x8b], 'a gzip stream');
      } finally {
        e2e.fake.setArchiveSize(undefined);
      }
    });

    test('a download error is typed too', async () => {
      const err = await e2e.ces
        .download(connector.id, { entity: 'repositories', params: { owner: 'ces-demo', repo: 'nope' } })
        .catch((e: unknown) => e);
      assert.ok(err instanceof NotFoundError, String(err));
      assert.equal(err.code, 'UPSTREAM_NOT_FOUND');
    });

    test('search with the typed builder answers what list answers, once the Context Store is ready', async () => {
      await e2e.ces.connectors.waitForContextStore(connector.id, { until: 'Ready', timeoutMs: 60_000 });
      const open = new Set<number>();
      for await (const issue of e2e.ces.records<{ number: number }>(connector.id, {
        entity: 'issues',
        action: 'list',
        params: { ...REPO, state: 'open', per_page: 100 },
      }))
        open.add(issue.number);
      assert.ok(open.size > 0 && open.size < 25);

      const query = searchQuery<SearchFields['github']['issues']>()
        .where('state')
        .eq('open')
        .and('number')
        .gte(1)
        .sort('number', 'asc')
        .limit(4)
        .select('number', 'title');
      const found: number[] = [];
      for await (const page of e2e.ces.pages<{ number: number }>(connector.id, {
        entity: 'issues',
        action: 'search',
        params: { ...query.toParams() },
      })) {
        assert.ok(page.result.length <= 4);
        found.push(...page.result.map((r) => r.number));
      }
      assert.deepEqual(
        found,
        [...open].sort((a, b) => a - b),
      );
      const first = await e2e.ces.search<{ number: number; title: string }>(connector.id, 'issues', query);
      assert.deepEqual(Object.keys(first.result[0] ?? {}).sort(), ['number', 'title']);
      assert.ok(Number.isInteger(first.connector_metadata.took_ms), String(first.connector_metadata.took_ms));

      // context_store_search: the same page as a page object, typed by ContextStoreSearchPage.
      assert.ok(found.length > 4, 'more than one page of open issues');
      const asPage = await e2e.ces.execute<ContextStoreSearchPage<{ number: number; title: string }>>(
        connector.id,
        { entity: 'issues', action: 'context_store_search', params: { ...query.toParams() } },
      );
      assert.deepEqual(asPage.result.data, first.result);
      assert.equal(asPage.result.meta.has_more, first.connector_metadata.has_next_page);
      assert.ok(Number.isInteger(asPage.result.meta.took_ms));
      const next = await e2e.ces.search<{ number: number }>(connector.id, 'issues', query, {
        cursor: asPage.result.meta.cursor ?? undefined,
      });
      assert.deepEqual(
        next.result.map((r) => r.number),
        found.slice(4, 8),
      );
      const paged = e2e.ces.pages(connector.id, {
        entity: 'issues',
        action: 'context_store_search',
        params: { ...query.toParams() },
      });
      await assert.rejects(paged.next(), /page with action search/);

      const bad = await e2e.ces
        .search(connector.id, 'issues', searchQuery().where('nope').eq(1))
        .catch((e: unknown) => e);
      assert.ok(isCesError(bad, 'INVALID_QUERY'));
      assert.ok(bad instanceof ValidationError);
      assert.equal(bad.errors[0]?.field, 'query.filter.eq.nope');
    });

    test('a scoped client reaches its workspace only; workspaces are listed', async () => {
      const customer = e2e.ces.scoped('sdk-customer');
      assert.deepEqual(await customer.connectors.list(), []);
      const outside = await customer.connectors.get(connector.id).catch((e: unknown) => e);
      assert.ok(outside instanceof PermissionError, String(outside));
      assert.equal(outside.code, 'WORKSPACE_SCOPE_VIOLATION');
      const { token } = await e2e.ces.scopedToken('sdk-customer');
      assert.deepEqual(await new Ces({ baseUrl: e2e.server.url, token }).connectors.list(), []);
      const names: string[] = [];
      for await (const ws of e2e.ces.workspaces.all()) names.push(ws.name);
      assert.ok(names.includes('default') && names.includes('sdk-customer'), names.join());
    });

    test('delete, then the connector is gone', async () => {
      const deleted = await e2e.ces.connectors.delete(connector.id);
      assert.equal(deleted.id, connector.id);
      await assert.rejects(e2e.ces.connectors.get(connector.id), NotFoundError);
      assert.deepEqual(e2e.fake.unhandled, []);
    });
  });
}
