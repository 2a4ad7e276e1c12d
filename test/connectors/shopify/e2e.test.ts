// Shopify end to end through the HTTP API, against the Shopify fake (test/connectors/shopify/fake): the credential
// check on GET /shop.json, lists paged by the Link header's page_info, gets, Shopify's refusals and its 429, and
// the Context Store filled (a partition expanded from "*"), searched, and refreshed by updated_at_min.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  type ConnectorApi,
  closeAll,
  connectorApi,
  createConnector,
  INCREMENTAL_SYNC_ENV,
  startSyncing,
  startWithFake,
} from '../../helpers/connector-api.ts';
import type { Harness } from '../../helpers/harness.ts';
import { waitFor } from '../../helpers/wait.ts';
import { assertError } from '../../http/assertions.ts';
import {
  type RecordedRequest,
  SHOPIFY_FAKE_SHOP,
  SHOPIFY_FAKE_TOKEN,
  type ShopifyFake,
  startShopifyFake,
} from './fake/index.ts';

const SHOPIFY_ID = '9da77001-af33-4bcd-be46-6252bf9342b9';
const ROOT = '/admin/api/2026-10';

// biome-ignore lint/suspicious/noExplicitAny: test convenience for reading JSON records
type Json = Record<string, any>;

const pathOf = (r: RecordedRequest) => r.path.split('?')[0];
const query = (r: RecordedRequest) => new URL(r.path, 'http://x').searchParams;
const createShopify = (h: Harness, token: string, credentials: Json, config: Json = {}) =>
  createConnector(h, token, {
    definition_id: SHOPIFY_ID,
    credentials,
    replication_config: { shop: SHOPIFY_FAKE_SHOP, ...config },
  });

describe('Shopify through the HTTP API', () => {
  let fake: ShopifyFake;
  let h: Harness;
  let token: string;
  let api: ConnectorApi;

  before(async () => {
    // Shopify's leaky bucket on, small enough for one test to fill it (Shopify: 40, 2 a second).
    fake = await startShopifyFake({ rateLimit: { capacity: 40, leakPerSecond: 2 } });
    ({ h, token } = await startWithFake('shopify', fake.url, {
      CES_RATE_LIMIT_OVERRIDES: JSON.stringify({ shopify: null }),
    }));
  });
  after(() => closeAll(h, fake));

  test('a token Shopify refuses is INVALID_CREDENTIALS at create, after GET /shop.json answered 401', async () => {
    const res = await createShopify(h, token, { api_key: 'shpat_00000000000000000000000000000000' });
    assertError(res, 422, 'INVALID_CREDENTIALS');
    const check = fake.requests.at(-1) as RecordedRequest;
    assert.equal(pathOf(check), `${ROOT}/shop.json`);
    assert.equal(check.headers['x-shopify-access-token'], 'shpat_00000000000000000000000000000000');
    assert.equal(check.response?.status, 401);
    assert.doesNotMatch(res.body, /shpat_0000/);
  });

  test('create checks the token with GET /shop.json in X-Shopify-Access-Token (also under api_password)', async () => {
    const before = fake.requests.length;
    const res = await createShopify(h, token, { api_key: SHOPIFY_FAKE_TOKEN });
    assert.equal(res.status, 200, res.body);
    api = connectorApi(h, token, res.json.id);
    assert.equal(res.json.credential_option, 'Access Token Authentication');
    const sent = fake.requests.slice(before);
    assert.deepEqual(sent.map(pathOf), [`${ROOT}/shop.json`]);
    assert.equal(sent[0]?.headers['x-shopify-access-token'], SHOPIFY_FAKE_TOKEN);
    assert.equal(sent[0]?.headers.authorization, undefined);
    const alias = await createShopify(h, token, { api_password: SHOPIFY_FAKE_TOKEN });
    assert.equal(alias.status, 200, alias.body);
  });

  test('customers.list follows rel="next" to the end; later pages carry only page_info and limit', async () => {
    const before = fake.requests.length;
    const pages = await api.pages('customers', 'list', { limit: 3, created_at_min: '2026-01-01T00:00:00Z' });
    const records = pages.flatMap((p): Json[] => p.result);
    assert.equal(pages.length, 3);
    assert.deepEqual(
      records.map((c) => c.id),
      fake.data.customers.map((c) => c.id),
    );
    const sent = fake.requests.slice(before);
    assert.deepEqual(
      sent.map((r) => [...query(r).keys()].sort()),
      [
        ['created_at_min', 'limit'],
        ['limit', 'page_info'],
        ['limit', 'page_info'],
      ],
    );
    for (const r of sent) assert.equal(query(r).get('limit'), '3');
    // limit above Shopify's 250 is sent as 250.
    const big = await api.exec('customers', 'list', { limit: 1000 });
    assert.equal(big.status, 200, big.body);
    assert.equal(query(fake.requests.at(-1) as RecordedRequest).get('limit'), '250');
    assert.equal(big.json.result.length, fake.data.customers.length);
    assert.equal(big.json.connector_metadata.has_next_page, false);
  });

  test('gets read one record under its member; a child of another parent is Not Found', async () => {
    const order = fake.data.orders[0] as Json;
    const got = await api.exec('orders', 'get', { order_id: order.id });
    assert.equal(got.status, 200, got.body);
    assert.equal(got.json.result.name, order.name);
    const fulfillment = fake.data.fulfillments.find((f) => f.order_id === order.id) as Json;
    const child = await api.exec('fulfillments', 'get', {
      order_id: order.id,
      fulfillment_id: fulfillment.id,
    });
    assert.equal(child.json.result.tracking_number, fulfillment.tracking_number);
    const other = fake.data.orders[1] as Json;
    const wrong = await api.exec('fulfillments', 'get', {
      order_id: other.id,
      fulfillment_id: fulfillment.id,
    });
    assertError(wrong, 404, 'UPSTREAM_NOT_FOUND');
    assert.match(wrong.json.message, /Not Found/);
    const shop = await api.exec('shop', 'get');
    assert.equal(shop.json.result.myshopify_domain, 'ces-demo.myshopify.com');
  });

  test("a product image's metafields are read by owner_id and owner_resource=product_image", async () => {
    const image = fake.data.images[3] as Json;
    const res = await api.exec('metafield_product_images', 'list', {
      product_id: image.product_id,
      image_id: image.id,
      namespace: 'custom',
    });
    assert.equal(res.status, 200, res.body);
    assert.ok(res.json.result.length > 0);
    for (const m of res.json.result) {
      assert.equal(m.owner_id, image.id);
      assert.equal(m.namespace, 'custom');
    }
    const q = query(fake.requests.at(-1) as RecordedRequest);
    assert.equal(q.get('metafield[owner_id]'), String(image.id));
    assert.equal(q.get('metafield[owner_resource]'), 'product_image');
  });

  test("Shopify's 403 keeps its words; its 429 with Retry-After is waited out and retried", async () => {
    fake.failNext({ status: 403, match: `${ROOT}/orders.json` });
    const refused = await api.exec('orders', 'list', { status: 'any' });
    assertError(refused, 424, 'UPSTREAM_FORBIDDEN');
    assert.match(refused.json.message, /requires merchant approval for read_orders scope/);
    // Fill the bucket, then one more read: Shopify answers 429 (Retry-After: 1.0), ces waits and retries.
    while (fake.bucket.header() !== '40/40') fake.bucket.take(false);
    const before = fake.requests.length;
    const res = await api.exec('locations', 'list');
    assert.equal(res.status, 200, res.body);
    const sent = fake.requests.slice(before);
    assert.deepEqual(
      sent.map((r) => r.response?.status),
      [429, 200],
    );
    assert.equal(
      sent[0]?.response && JSON.parse(sent[0].response.body).errors.startsWith('Exceeded 2 calls'),
      true,
    );
    assert.deepEqual(fake.unhandled, []);
  });
});

describe('Shopify in the Context Store', () => {
  let fake: ShopifyFake;
  let h: Harness;
  let api: ConnectorApi;
  const search = (entity: string, filter: unknown) => api.search(entity, { query: { filter }, limit: 1000 });
  const customerLists = () => fake.requests.filter((r) => pathOf(r) === `${ROOT}/customers.json`);

  before(async () => {
    fake = await startShopifyFake({ pageSize: 50 });
    const body = {
      definition_id: SHOPIFY_ID,
      credentials: { api_key: SHOPIFY_FAKE_TOKEN },
      replication_config: { shop: SHOPIFY_FAKE_SHOP, product_ids: ['*'] },
    };
    ({ h, api } = await startSyncing('shopify', fake.url, body, INCREMENTAL_SYNC_ENV));
  });
  after(() => closeAll(h, fake));

  test('customers and the variants of every product ("*") are indexed and searchable', async () => {
    await api.waitReady('customers', fake.data.customers.length);
    await api.waitReady('product_variants', fake.data.variants.length);
    const first = customerLists()[0] as RecordedRequest;
    assert.equal(query(first).get('limit'), '250');
    assert.equal(query(first).get('updated_at_min'), null, 'the backfill has no bound');
    // "*" was expanded by listing products, then one variants list per product.
    const product = fake.data.products[2] as Json;
    assert.ok(fake.requests.some((r) => pathOf(r) === `${ROOT}/products/${product.id}/variants.json`));
    const customer = fake.data.customers[5] as Json;
    const found = await search('customers', { eq: { email: customer.email } });
    assert.equal(found.status, 200, found.body);
    assert.deepEqual(
      found.json.result.map((c: Json) => c.id),
      [customer.id],
    );
    const large = await search('product_variants', {
      and: [{ eq: { product_id: product.id } }, { eq: { title: 'Large' } }],
    });
    assert.equal(large.json.result.length, 1);
  });

  test('a customer changed after Ready is picked up by a refresh bounded by updated_at_min', async () => {
    await api.waitReady('customers', fake.data.customers.length);
    const newest = Math.max(...fake.data.customers.map((c) => Date.parse(c.updated_at as string)));
    const customer = fake.data.customers[1] as Json;
    fake.data.update(customer, { note: 'moved to the enterprise plan' });
    const found = await waitFor(
      'the changed note searchable',
      async () => {
        const res = await search('customers', { fuzzy: { note: 'enterprise plan' } });
        return res.json.result?.length === 1 ? res : undefined;
      },
      30_000,
    );
    assert.equal(found.json.result[0].id, customer.id);
    const bounded = customerLists()
      .map((r) => query(r).get('updated_at_min'))
      .filter((v): v is string => v !== null);
    assert.ok(bounded.length > 0, 'a refresh sent updated_at_min');
    // The first bound is the newest updated_at stored before the change, to the second.
    assert.equal(Date.parse(bounded[0] as string), newest);
    assert.equal((await api.state('customers'))?.entity_count, fake.data.customers.length);
    assert.deepEqual(fake.unhandled, []);
  });
});

describe("Shopify's leaky bucket and the definition's rate_limit", () => {
  let fake: ShopifyFake;
  let h: Harness;
  let api: ConnectorApi;

  before(async () => {
    // Shopify's standard bucket: 40 requests, draining 2 a second; ces keeps the definition's own limit here.
    fake = await startShopifyFake({ rateLimit: { capacity: 40, leakPerSecond: 2 } });
    let token: string;
    ({ h, token } = await startWithFake('shopify', fake.url, { CES_RATE_LIMIT_OVERRIDES: '{}' }));
    const res = await createShopify(h, token, { api_key: SHOPIFY_FAKE_TOKEN });
    assert.equal(res.status, 200, res.body);
    api = connectorApi(h, token, res.json.id);
  });
  after(() => closeAll(h, fake));

  test('a burst past the bucket is held back by ces: Shopify never answers 429', async () => {
    const before = fake.requests.length;
    // 44 reads at once: the 36 of ces's bucket at once, the rest paced at 2 a second (about 4 s).
    const answers = await Promise.all(Array.from({ length: 44 }, () => api.exec('shop', 'get')));
    for (const res of answers) assert.equal(res.status, 200, res.body);
    const statuses = fake.requests.slice(before).map((r) => r.response?.status);
    assert.equal(statuses.length, 44);
    assert.ok(
      statuses.every((s) => s === 200),
      `Shopify answered ${statuses.join(',')}`,
    );
  });
});

describe('Shopify: the token used elsewhere too', () => {
  let fake: ShopifyFake;
  let h: Harness;
  let api: ConnectorApi;

  before(async () => {
    fake = await startShopifyFake({ rateLimit: { capacity: 40, leakPerSecond: 2 } });
    let token: string;
    ({ h, token } = await startWithFake('shopify', fake.url, { CES_RATE_LIMIT_OVERRIDES: '{}' }));
    const res = await createShopify(h, token, { api_key: SHOPIFY_FAKE_TOKEN });
    assert.equal(res.status, 200, res.body);
    api = connectorApi(h, token, res.json.id);
  });
  after(() => closeAll(h, fake));

  test("the same token used elsewhere fills Shopify's bucket: ces reads its fill header and waits, no 429", async () => {
    // Another app of the store spends 36 of the 40 (ces's own bucket still holds its 36).
    for (let i = 0; i < 36; i++) {
      const res = await fetch(`${fake.url}/shop.json`, {
        headers: { 'x-shopify-access-token': SHOPIFY_FAKE_TOKEN },
      });
      assert.equal(res.status, 200);
      await res.arrayBuffer();
    }
    const before = fake.requests.length;
    // Sent one after another, so each answer's fill is read before the next request (a burst of the
    // concurrency limit would already be on its way).
    for (let i = 0; i < 8; i++) {
      const res = await api.exec('shop', 'get');
      assert.equal(res.status, 200, res.body);
    }
    const statuses = fake.requests.slice(before).map((r) => r.response?.status);
    assert.deepEqual(statuses, Array(8).fill(200), `Shopify answered ${statuses.join(',')}`);
  });
});
