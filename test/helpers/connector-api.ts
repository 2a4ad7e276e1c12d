// What the connector end-to-end tests do through the HTTP API, once: a harness pointed at a provider's fake,
// connector creation, execute, paging by end_cursor, Context Store searches and states, and credential checks on
// the requests a fake recorded.
import assert from 'node:assert/strict';
import { entityState } from './context-store.ts';
import { type Harness, type InjectResult, startHarness } from './harness.ts';
import { waitFor } from './wait.ts';

type Params = Record<string, unknown>;
/** A response's parsed JSON body. */
type Body = InjectResult['json'];

/** Syncs polled every 20 ms, a refresh every second and no full pass in a test: every pass after the backfill is incremental. */
export const INCREMENTAL_SYNC_ENV = {
  CES_SYNC_POLL_MS: '20',
  CES_SYNC_INTERVAL_SECONDS: '1',
  CES_SYNC_FULL_INTERVAL_SECONDS: '3600',
};

/** A harness whose `slug` connector type is pointed at `url` (a provider's fake), and an application token. */
export async function startWithFake(slug: string, url: string, env: Record<string, string> = {}) {
  const h = await startHarness({ CES_UPSTREAM_OVERRIDES: JSON.stringify({ [slug]: url }), ...env });
  return { h, token: await h.token() };
}

/** POST /api/v1/integrations/connectors with `body` in the default workspace; the answer as it is. */
export function createConnector(h: Harness, token: string, body: Params): Promise<InjectResult> {
  return h.inject({
    method: 'POST',
    url: '/api/v1/integrations/connectors',
    token,
    body: { workspace_name: 'default', ...body },
  });
}

/** createConnector, asserting it answered 200; the new connector's id. */
export async function createConnectorOk(h: Harness, token: string, body: Params): Promise<string> {
  const res = await createConnector(h, token, body);
  assert.equal(res.status, 200, res.body);
  return res.json.id as string;
}

/** How many connectors GET /api/v1/integrations/connectors lists. */
export async function countConnectors(h: Harness, token: string): Promise<number> {
  return (await h.inject({ method: 'GET', url: '/api/v1/integrations/connectors', token })).json.data.length;
}

/** A source definition as GET /api/v1/integrations/definitions/sources/{id} shows it (asserting 200). */
export async function sourceDefinition(h: Harness, token: string, definitionId: string): Promise<Body> {
  const res = await h.inject({
    method: 'GET',
    url: `/api/v1/integrations/definitions/sources/${definitionId}`,
    token,
  });
  assert.equal(res.status, 200, res.body);
  return res.json;
}

/** One connector through the HTTP API, as a client with `token` sees it. */
export function connectorApi(h: Harness, token: string, id: string) {
  /** POST /connectors/{id}/execute with a whole body (entity, action, params and any other member). */
  const send = (body: unknown, headers?: Record<string, string>) =>
    h.inject({ method: 'POST', url: `/api/v1/integrations/connectors/${id}/execute`, token, body, headers });
  /** Runs one entity-action with these params. */
  const exec = (entity: string, action: string, params: Params = {}, headers?: Record<string, string>) =>
    send({ entity, action, params }, headers);
  /** Waits (30 s at most) until `entity`'s Context Store state passes `done`; that state. */
  const waitState = (entity: string, what: string, done: (s: Record<string, unknown>) => boolean) =>
    waitFor(
      what,
      async () => {
        const s = await entityState(h, token, id, entity);
        return s && done(s) ? s : undefined;
      },
      30_000,
    );
  return {
    id,
    send,
    exec,
    /** A Context Store search of `entity`. */
    search: (entity: string, params: Params) => exec(entity, 'search', params),
    /** GET /connectors/{id}: the connector's record. */
    record: () => h.inject({ method: 'GET', url: `/api/v1/integrations/connectors/${id}`, token }),
    /** The JSON body of every page of an action, each asserted 200, later pages asked for by end_cursor under `cursorName`. */
    async pages(entity: string, action: string, params: Params, cursorName = 'cursor'): Promise<Body[]> {
      const pages: Body[] = [];
      let res = await exec(entity, action, params);
      for (;;) {
        assert.equal(res.status, 200, res.body);
        pages.push(res.json);
        const meta = res.json.connector_metadata;
        if (!meta.has_next_page) return pages;
        assert.ok(pages.length < 50, 'paging never ends');
        res = await exec(entity, action, { [cursorName]: meta.end_cursor });
      }
    },
    /** `entity`'s Context Store state (GET /connectors/{id}/inspect). */
    state: (entity: string) => entityState(h, token, id, entity),
    /**
     * Waits until `entity` is Ready (with `count` records, when given) and searchable — which also needs the
     * connector's other entities to hold their first pages; its state.
     */
    waitReady: (entity: string, count?: number) =>
      waitState(
        entity,
        `${entity} Ready`,
        (s) =>
          s.status === 'Ready' &&
          s.ready_for_search === true &&
          (count === undefined || s.entity_count === count),
      ),
    /** Waits until `entity` holds `count` records, whatever its status; its state. */
    waitCount: (entity: string, count: number) =>
      waitState(entity, `${entity} with ${count} records`, (s) => s.entity_count === count),
  };
}

export type ConnectorApi = ReturnType<typeof connectorApi>;

/** startWithFake, then a connector created from `body` (asserting 200) and the sync worker started. */
export async function startSyncing(
  slug: string,
  url: string,
  body: Params,
  env: Record<string, string> = INCREMENTAL_SYNC_ENV,
) {
  const { h, token } = await startWithFake(slug, url, env);
  try {
    const api = connectorApi(h, token, await createConnectorOk(h, token, body));
    await h.deps.worker.start();
    return { h, token, api };
  } catch (err) {
    await h.close();
    throw err;
  }
}

/** Stops the sync worker, then closes the harness and the fake (each only if it was started). */
export async function closeAll(h: Harness | undefined, fake: { close(): Promise<void> } | undefined) {
  await h?.deps.worker.stop();
  await h?.close();
  await fake?.close();
}

/** No recorded request's URL (path and query) holds any of `secrets`. */
export function assertNoSecretInUrls(requests: Array<{ path: string }>, secrets: string[]): void {
  for (const r of requests)
    for (const s of secrets) assert.ok(!r.path.includes(s), `a credential in ${r.path}`);
}
