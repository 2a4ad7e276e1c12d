// The Stripe connector end to end through the HTTP API, against the Stripe fake (test/connectors/stripe/fake): create
// with an API key (checked live with GET /v1/balance), keyset-paged lists and search-token-paged searches, range
// filters in the query, form-encoded writes (arrays of objects as items[0][price]=...) read back, writes retried
// safely under ces's Idempotency-Key, Stripe's refusals mapped with its message quoted (402 declines, 429 without
// Retry-After), and the Context Store replicating five entities, refreshed by creation time (created[gte]).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  assertNoSecretInUrls,
  type ConnectorApi,
  closeAll,
  connectorApi,
  countConnectors,
  createConnector,
  sourceDefinition,
  startSyncing,
  startWithFake,
} from '../../helpers/connector-api.ts';
import type { Harness } from '../../helpers/harness.ts';
import { hostedConnector } from '../../helpers/hosted-catalog.ts';
import {
  type Obj,
  type RecordedRequest,
  STRIPE_FAKE_READ_ONLY_KEY,
  STRIPE_FAKE_SECRET_KEY,
  type StripeFake,
  startStripeFake,
} from './fake/index.ts';

const STRIPE_ID = 'e094cb9a-26de-4645-8761-65c0c425d1de';
const BEARER = `Bearer ${STRIPE_FAKE_SECRET_KEY}`;

const query = (r: RecordedRequest) => new URL(r.path, 'http://fake.invalid').searchParams;
const pathOf = (r: RecordedRequest) => new URL(r.path, 'http://fake.invalid').pathname;

/** No request carried a key anywhere but in its Authorization header. */
function assertKeysOnlyInHeaders(requests: RecordedRequest[]): void {
  const keys = [STRIPE_FAKE_SECRET_KEY, STRIPE_FAKE_READ_ONLY_KEY];
  assertNoSecretInUrls(requests, keys);
  for (const r of requests) for (const key of keys) assert.ok(!r.body.includes(key), 'a key in a body');
}

describe('Stripe through the HTTP API', () => {
  let h: Harness;
  let fake: StripeFake;
  let token: string;
  let api: ConnectorApi;

  const create = (credentials: Record<string, unknown>, name = 'stripe') =>
    createConnector(h, token, { definition_id: STRIPE_ID, name, credentials });

  /** Every page of a collection, following connector_metadata.end_cursor, which is null on the last. */
  async function walk(entity: string, action: string, params: Record<string, unknown>) {
    const pages = await api.pages(entity, action, params);
    assert.equal(pages.at(-1).connector_metadata.end_cursor, null);
    return pages;
  }

  before(async () => {
    fake = await startStripeFake();
    ({ h, token } = await startWithFake('stripe', `${fake.url}/v1`));
  });
  after(() => closeAll(h, fake));

  test('create checks the key with GET /v1/balance as a Bearer token and never returns it', async () => {
    const res = await create({ api_key: STRIPE_FAKE_SECRET_KEY });
    assert.equal(res.status, 200, res.body);
    api = connectorApi(h, token, res.json.id);
    assert.equal(res.json.connector_type, 'stripe');
    assert.equal(res.json.definition_id, STRIPE_ID);
    assert.equal(res.json.credential_option, 'API Key');
    assert.ok(!res.body.includes(STRIPE_FAKE_SECRET_KEY));
    assert.deepEqual(
      fake.requests.map((r) => [r.method, r.path, r.headers.authorization]),
      [['GET', '/v1/balance', BEARER]],
    );
    // Answers come in the API version the definition's fields were written for.
    assert.equal(fake.requests[0]?.headers['stripe-version'], '2023-08-16');
  });

  test('a rejected key is refused at create with INVALID_CREDENTIALS and nothing is stored', async () => {
    const count = await countConnectors(h, token);
    const wrong = 'sk_test_ces0wrong0key0000000000000000000000001234';
    const res = await create({ api_key: wrong }, 'bad');
    assert.equal(res.status, 422, res.body);
    assert.equal(res.json.code, 'INVALID_CREDENTIALS');
    assert.ok(!res.body.includes(wrong));
    assert.equal(fake.requests.at(-1)?.headers.authorization, `Bearer ${wrong}`);
    assert.equal(await countConnectors(h, token), count);
    // The hosted catalog's name for the key is accepted too.
    const aliased = await create({ token: STRIPE_FAKE_SECRET_KEY }, 'aliased');
    assert.equal(aliased.status, 200, aliased.body);
  });

  test('every entity-action of the hosted catalog is declared and takes the catalog param names', async () => {
    const catalog = hostedConnector('stripe');
    assert.equal(catalog.definition_id, STRIPE_ID);
    const definition = await sourceDefinition(h, token, STRIPE_ID);
    const ours = new Map<string, string[]>();
    for (const e of definition.entities as Array<{
      name: string;
      actions: Array<{ name: string; params: Array<{ name: string; aliases?: string[] }> }>;
    }>) {
      for (const a of e.actions)
        ours.set(
          `${e.name}.${a.name}`,
          a.params.flatMap((p) => [p.name, ...(p.aliases ?? [])]),
        );
    }
    const expected = Object.entries(catalog.entities).flatMap(([entity, actions]) =>
      Object.keys(actions).map((action) => `${entity}.${action}`),
    );
    assert.deepEqual([...ours.keys()].sort(), expected.sort());
    for (const [entity, actions] of Object.entries(catalog.entities))
      for (const [action, spec] of Object.entries(actions))
        for (const name of spec.params)
          assert.ok(ours.get(`${entity}.${action}`)?.includes(name), `${entity}.${action} lacks '${name}'`);
  });

  test('customers list pages by starting_after until has_more is false', async () => {
    const mark = fake.requests.length;
    const pages = await walk('customers', 'list', { limit: 7 });
    assert.deepEqual(
      pages.map((p) => p.result.length),
      [7, 7, 7, 7, 2],
    );
    const ids = pages.flatMap((p) => p.result.map((c: Obj) => c.id));
    assert.deepEqual(
      ids,
      fake.data.all('customer').map((c) => c.id),
    );
    const sent = fake.requests.slice(mark);
    assert.equal(sent.length, 5);
    assert.equal(sent[0]?.path, '/v1/customers?limit=7');
    for (const [i, r] of sent.slice(1).entries()) {
      assert.equal(pathOf(r), '/v1/customers');
      assert.equal(query(r).get('limit'), '7');
      // Each page starts after the last customer of the page before.
      assert.equal(query(r).get('starting_after'), pages[i].result.at(-1).id);
      assert.equal(r.headers.authorization, BEARER);
    }
    assertKeysOnlyInHeaders(fake.requests);
  });

  test('range filters go as created[gte]/[lt] in the query; ending_before and starting_after exclude each other', async () => {
    const all = fake.data.all('charge');
    const from = all[29]?.created as number;
    const until = all[9]?.created as number;
    const mark = fake.requests.length;
    const pages = await walk('charges', 'list', { created: { gte: from, lt: String(until) }, limit: 8 });
    const expected = all.filter((c) => c.created >= from && c.created < until).map((c) => c.id);
    assert.equal(expected.length, 20);
    assert.deepEqual(
      pages.flatMap((p) => p.result.map((c: Obj) => c.id)),
      expected,
    );
    for (const r of fake.requests.slice(mark)) {
      assert.equal(query(r).get('created[gte]'), String(from));
      assert.equal(query(r).get('created[lt]'), String(until));
    }
    const both = await api.exec('charges', 'list', {
      starting_after: expected[0],
      ending_before: expected[5],
    });
    assert.equal(both.status, 422, both.body);
    assert.match(both.json.message, /'ending_before' can't be combined with 'starting_after'/);
    const bad = await api.exec('charges', 'list', { created: { since: from } });
    assert.equal(bad.status, 422, bad.body);
    assert.match(bad.json.message, /unknown member 'since'/);
  });

  test('get expands ids into objects; an unknown id is UPSTREAM_NOT_FOUND with Stripe error', async () => {
    const charge = fake.data.all('charge')[0] as Obj;
    const res = await api.exec('charges', 'get', {
      id: charge.id,
      expand: ['customer', 'balance_transaction'],
    });
    assert.equal(res.status, 200, res.body);
    assert.equal(res.json.result.id, charge.id);
    assert.equal(res.json.result.customer.object, 'customer');
    assert.deepEqual(query(fake.requests.at(-1) as RecordedRequest).getAll('expand[]'), [
      'customer',
      'balance_transaction',
    ]);
    const missing = await api.exec('customers', 'get', { id: 'cus_ces0missing' });
    assert.equal(missing.status, 404, missing.body);
    assert.equal(missing.json.code, 'UPSTREAM_NOT_FOUND');
    assert.equal(missing.json.upstream.body.error.code, 'resource_missing');
    assert.equal(missing.json.upstream.body.error.message, "No such customer: 'cus_ces0missing'");
    // errors.message_paths: ces quotes Stripe's own sentence.
    assert.match(missing.json.message, /: No such customer: 'cus_ces0missing'\./);
  });

  test('a search pages with its next_page token, the query repeated', async () => {
    const q = "metadata['segment']:'smb' AND created>1704067200";
    const mark = fake.requests.length;
    const pages = await walk('customers', 'api_search', { query: q, limit: 4 });
    assert.deepEqual(
      pages.map((p) => p.result.length),
      [4, 4, 1],
    );
    const sent = fake.requests.slice(mark);
    assert.equal(sent[0] && query(sent[0]).get('page'), null);
    for (const [i, r] of sent.slice(1).entries()) {
      assert.equal(pathOf(r), '/v1/customers/search');
      assert.equal(query(r).get('query'), q);
      assert.ok(query(r).get('page'), `page ${i + 2} has Stripe's token`);
    }
    const bad = await api.exec('customers', 'api_search', { query: "colour:'red'" });
    assert.equal(bad.status, 422, bad.body);
    assert.equal(bad.json.code, 'INVALID_PARAMS');
    assert.equal(bad.json.upstream.body.error.param, 'query');
  });

  test('customers create/update send bracketed form bodies with the Idempotency-Key, and read back', async () => {
    const made = await api.exec('customers', 'create', {
      email: 'ada@example.com',
      name: 'Ada Lovelace',
      address: { city: 'London', country: 'GB' },
      metadata: { plan: 'pro', seats: '5' },
      preferred_locales: ['en', 'fr'],
      idempotency_key: 'ces-e2e-customer-1',
    });
    assert.equal(made.status, 200, made.body);
    const cus = made.json.result.id as string;
    const write = fake.requests.at(-1) as RecordedRequest;
    assert.equal(write.method, 'POST');
    assert.equal(write.path, '/v1/customers');
    assert.match(String(write.headers['content-type']), /^application\/x-www-form-urlencoded/);
    assert.equal(write.headers['idempotency-key'], 'ces-e2e-customer-1');
    const form = new URLSearchParams(write.body);
    assert.equal(form.get('metadata[plan]'), 'pro');
    assert.equal(form.get('address[city]'), 'London');
    assert.equal(form.get('preferred_locales[1]'), 'fr');

    // null unsets a metadata key, as Stripe reads an empty value.
    const updated = await api.exec('customers', 'update', {
      id: cus,
      metadata: { plan: null, tier: 'gold' },
    });
    assert.equal(updated.status, 200, updated.body);
    assert.equal(new URLSearchParams(fake.requests.at(-1)?.body).get('metadata[plan]'), '');
    const got = await api.exec('customers', 'get', { id: cus });
    assert.equal(got.status, 200, got.body);
    assert.equal(got.json.result.email, 'ada@example.com');
    assert.deepEqual(got.json.result.metadata, { seats: '5', tier: 'gold' });
    assert.equal(got.json.result.address.city, 'London');

    const gone = await api.exec('customers', 'delete', { id: cus });
    assert.deepEqual(gone.json.result, { id: cus, object: 'customer', deleted: true });
    assertKeysOnlyInHeaders(fake.requests);
  });

  test('a subscription is created from an array of items (items[0][price]=...), changed by item id, read back', async () => {
    const customer = fake.data
      .all('customer')
      .find((c) => c.invoice_settings.default_payment_method !== null);
    const [price, other] = fake.data.all('price').filter((p) => p.type === 'recurring');
    const oneTime = fake.data.all('price').find((p) => p.type === 'one_time');
    const made = await api.exec('subscriptions', 'create', {
      customer: customer?.id,
      items: [{ price: price?.id, quantity: 3, metadata: { seat: 'main' } }, { price: other?.id }],
      add_invoice_items: [{ price: oneTime?.id, quantity: 1 }],
      metadata: { source: 'e2e' },
    });
    assert.equal(made.status, 200, made.body);
    const form = new URLSearchParams(fake.requests.at(-1)?.body);
    assert.equal(form.get('items[0][price]'), price?.id);
    assert.equal(form.get('items[0][quantity]'), '3');
    assert.equal(form.get('items[0][metadata][seat]'), 'main');
    assert.equal(form.get('items[1][price]'), other?.id);
    assert.equal(form.get('add_invoice_items[0][price]'), oneTime?.id);
    const sub = made.json.result;
    assert.deepEqual(
      sub.items.data.map((si: Obj) => [si.price.id, si.quantity]),
      [
        [price?.id, 3],
        [other?.id, 1],
      ],
    );

    // An entry with an id changes that item, one with deleted removes it.
    const [first, second] = sub.items.data as Obj[];
    const updated = await api.exec('subscriptions', 'update', {
      id: sub.id,
      items: [
        { id: first?.id, quantity: 5 },
        { id: second?.id, deleted: true },
      ],
    });
    assert.equal(updated.status, 200, updated.body);
    const update = new URLSearchParams(fake.requests.at(-1)?.body);
    assert.equal(update.get('items[0][id]'), first?.id);
    assert.equal(update.get('items[1][deleted]'), 'true');
    const got = await api.exec('subscriptions', 'get', { id: sub.id });
    assert.deepEqual(
      got.json.result.items.data.map((si: Obj) => [si.id, si.quantity]),
      [[first?.id, 5]],
    );
    assert.equal(got.json.result.status, 'active');

    // The old position-keyed object is refused before Stripe is asked.
    const mark = fake.requests.length;
    const keyed = await api.exec('subscriptions', 'create', {
      customer: customer?.id,
      items: { '0': { price: price?.id } },
    });
    assert.equal(keyed.status, 422, keyed.body);
    assert.equal(keyed.json.code, 'INVALID_PARAMS');
    assert.match(keyed.json.message, /'items'/);
    assert.equal(fake.requests.length, mark);
  });

  test('checkout line_items, discounts and shipping_options, customer tax ids and price tiers go as arrays of objects', async () => {
    const oneTime = fake.data.all('price').find((p) => p.type === 'one_time');
    const session = await api.exec('checkout_sessions', 'create', {
      mode: 'payment',
      success_url: 'https://shop.example.com/done',
      line_items: [
        { price: oneTime?.id, quantity: 2 },
        { price_data: { currency: 'usd', unit_amount: 500, product_data: { name: 'Mug' } }, quantity: 1 },
      ],
      discounts: [{ coupon: 'SUMMER25' }],
      shipping_options: [{ shipping_rate: 'shr_ces0ground' }],
    });
    assert.equal(session.status, 200, session.body);
    const form = new URLSearchParams(fake.requests.at(-1)?.body);
    assert.equal(form.get('line_items[0][price]'), oneTime?.id);
    assert.equal(form.get('line_items[0][quantity]'), '2');
    assert.equal(form.get('line_items[1][price_data][product_data][name]'), 'Mug');
    assert.equal(form.get('line_items[1][price_data][unit_amount]'), '500');
    assert.equal(form.get('discounts[0][coupon]'), 'SUMMER25');
    assert.equal(form.get('shipping_options[0][shipping_rate]'), 'shr_ces0ground');
    assert.equal(session.json.result.amount_total, 2 * (oneTime?.unit_amount as number) + 500);
    const both = await api.exec('checkout_sessions', 'create', {
      mode: 'payment',
      success_url: 'https://shop.example.com/done',
      line_items: [{ price: oneTime?.id, quantity: 1 }],
      discounts: [{ coupon: 'SUMMER25' }],
      allow_promotion_codes: true,
    });
    assert.equal(both.status, 422, both.body);
    assert.match(both.json.message, /'discounts' can't be combined with 'allow_promotion_codes'/);
    // Object items travel only as objects.
    const scalar = await api.exec('checkout_sessions', 'create', {
      mode: 'payment',
      success_url: 'https://shop.example.com/done',
      line_items: [oneTime?.id],
    });
    assert.equal(scalar.status, 422, scalar.body);

    const cus = await api.exec('customers', 'create', {
      name: 'Tax Payer GmbH',
      tax_id_data: [{ type: 'eu_vat', value: 'DE123456789' }],
    });
    assert.equal(cus.status, 200, cus.body);
    const taxForm = new URLSearchParams(fake.requests.at(-1)?.body);
    assert.equal(taxForm.get('tax_id_data[0][type]'), 'eu_vat');
    assert.equal(taxForm.get('tax_id_data[0][value]'), 'DE123456789');

    const tiered = await api.exec('prices', 'create', {
      currency: 'usd',
      product_data: { name: 'API calls' },
      recurring: { interval: 'month' },
      billing_scheme: 'tiered',
      tiers_mode: 'graduated',
      tiers: [
        { up_to: 1000, unit_amount: 2 },
        { up_to: 'inf', unit_amount: 1 },
      ],
    });
    assert.equal(tiered.status, 200, tiered.body);
    const tierForm = new URLSearchParams(fake.requests.at(-1)?.body);
    assert.equal(tierForm.get('tiers[0][up_to]'), '1000');
    assert.equal(tierForm.get('tiers[1][up_to]'), 'inf');
    assert.equal(tierForm.get('tiers[1][unit_amount]'), '1');
    assert.equal(tiered.json.result.billing_scheme, 'tiered');
  });

  test('a declined card (402 card_error) is INVALID_PARAMS quoting the decline, and is not retried', async () => {
    const mark = fake.requests.length;
    const res = await api.exec('payment_intents', 'create', {
      amount: 2500,
      currency: 'usd',
      payment_method: 'pm_card_chargeDeclinedInsufficientFunds',
      confirm: true,
    });
    assert.equal(res.status, 422, res.body);
    assert.equal(res.json.code, 'INVALID_PARAMS');
    assert.match(res.json.message, /\(HTTP 402\): Your card has insufficient funds\./);
    assert.equal(res.json.upstream.status, 402);
    assert.equal(res.json.upstream.body.error.type, 'card_error');
    assert.equal(res.json.upstream.body.error.decline_code, 'insufficient_funds');
    assert.equal(fake.requests.length, mark + 1);
  });

  test('a create retried after a 500 carries the same Idempotency-Key twice and creates once', async () => {
    const customers = () => fake.data.all('customer').length;
    const count = customers();
    fake.failNext({ status: 500, match: '/v1/customers' });
    const mark = fake.requests.length;
    const made = await api.exec('customers', 'create', { email: 'retry@example.com', name: 'Retried Once' });
    assert.equal(made.status, 200, made.body);
    const sent = fake.requests.slice(mark);
    assert.deepEqual(
      sent.map((r) => [r.method, r.path]),
      [
        ['POST', '/v1/customers'],
        ['POST', '/v1/customers'],
      ],
    );
    const key = sent[0]?.headers['idempotency-key'];
    assert.match(String(key), /^[0-9a-f-]{36}$/);
    assert.equal(sent[1]?.headers['idempotency-key'], key);
    assert.equal(sent[1]?.body, sent[0]?.body);
    assert.equal(customers(), count + 1);
    assert.equal(fake.data.all('customer').filter((c) => c.email === 'retry@example.com').length, 1);

    // The next execute gets a key of its own.
    const again = await api.exec('customers', 'create', { email: 'retry2@example.com' });
    assert.equal(again.status, 200, again.body);
    assert.notEqual(fake.requests.at(-1)?.headers['idempotency-key'], key);

    // A client's key wins, on every attempt, and repeating the execute with it replays Stripe's first answer.
    fake.failNext({ status: 503, match: '/v1/customers' });
    const own = { email: 'own-key@example.com', idempotency_key: 'ces-e2e-retry-1' };
    const first = await api.exec('customers', 'create', own);
    assert.equal(first.status, 200, first.body);
    assert.deepEqual(
      fake.requests.slice(-2).map((r) => r.headers['idempotency-key']),
      ['ces-e2e-retry-1', 'ces-e2e-retry-1'],
    );
    const repeat = await api.exec('customers', 'create', own);
    assert.equal(repeat.status, 200, repeat.body);
    assert.equal(repeat.json.result.id, first.json.result.id);
    assert.equal(fake.data.all('customer').filter((c) => c.email === 'own-key@example.com').length, 1);
    assert.equal(customers(), count + 3);
  });

  test("Stripe's 429 carries no Retry-After: reads and keyed writes are retried after the declared second", async () => {
    fake.failNext({ status: 429, match: '/v1/payouts' });
    const mark = fake.requests.length;
    const ok = await api.exec('payouts', 'list', { limit: 3 });
    assert.equal(ok.status, 200, ok.body);
    assert.equal(fake.requests.length - mark, 2);

    // Three attempts (retry.max_attempts), all with one key; then the 429 reaches the client with Stripe's text.
    fake.failNext({ status: 429, match: '/v1/customers', times: 3 });
    const before = fake.requests.length;
    const limited = await api.exec('customers', 'create', { name: 'Rate Limited' });
    assert.equal(limited.status, 429, limited.body);
    assert.equal(limited.json.code, 'UPSTREAM_RATE_LIMITED');
    assert.equal(limited.headers['retry-after'], '1');
    assert.equal(limited.json.upstream.body.error.code, 'rate_limit');
    assert.match(limited.json.message, /\(HTTP 429\): ./);
    const keys = fake.requests.slice(before).map((r) => r.headers['idempotency-key']);
    assert.equal(keys.length, 3);
    assert.equal(new Set(keys).size, 1);
    assert.equal(fake.data.all('customer').filter((c) => c.name === 'Rate Limited').length, 0);
  });

  test('a read-only restricted key passes the check but its writes are UPSTREAM_FORBIDDEN', async () => {
    const res = await create({ api_key: STRIPE_FAKE_READ_ONLY_KEY }, 'read-only');
    assert.equal(res.status, 200, res.body);
    const readOnly = connectorApi(h, token, res.json.id);
    const read = await readOnly.exec('products', 'list', { limit: 2, active: true });
    assert.equal(read.status, 200, read.body);
    assert.ok(read.json.result.every((p: Obj) => p.active === true));
    const write = await readOnly.exec('products', 'create', { name: 'Nope' });
    assert.equal(write.status, 424, write.body);
    assert.equal(write.json.code, 'UPSTREAM_FORBIDDEN');
    assert.ok(!write.body.includes(STRIPE_FAKE_READ_ONLY_KEY));
    assert.deepEqual(fake.unhandled, []);
  });
});

describe('Stripe in the Context Store', () => {
  let h: Harness;
  let fake: StripeFake;
  let api: ConnectorApi;

  before(async () => {
    fake = await startStripeFake();
    ({ h, api } = await startSyncing('stripe', `${fake.url}/v1`, {
      definition_id: STRIPE_ID,
      credentials: { api_key: STRIPE_FAKE_SECRET_KEY },
    }));
  });
  after(() => closeAll(h, fake));

  test('the five indexed entities reach Ready, read 100 per page, and are searchable by their fields', async () => {
    for (const [entity, count] of [
      ['customers', 30],
      ['charges', 60],
      ['invoices', 30],
      ['refunds', 30],
      ['subscriptions', 30],
    ] as const) {
      const state = await api.waitReady(entity);
      assert.equal(state.entity_count, count, entity);
    }
    const charges = fake.requests.filter((r) => pathOf(r) === '/v1/charges');
    assert.ok(charges.length > 0);
    // The backfill reads the whole list, 100 per page, without a created bound; refreshes (every second here)
    // ask only from the newest created stored.
    assert.deepEqual([...query(charges[0] as RecordedRequest)], [['limit', '100']]);
    const newestCharge = Math.max(...fake.data.all('charge').map((c) => c.created as number));
    for (const r of charges.slice(1))
      assert.deepEqual(Object.fromEntries(query(r)), { 'created[gte]': String(newestCharge), limit: '100' });
    // Canceled subscriptions are listed only when asked for.
    const subs = fake.requests.find((r) => pathOf(r) === '/v1/subscriptions');
    assert.equal(subs && query(subs).get('status'), 'all');

    const someone = fake.data.all('customer')[4] as Obj;
    const byEmail = await api.search('customers', { query: { filter: { eq: { email: someone.email } } } });
    assert.equal(byEmail.status, 200, byEmail.body);
    assert.deepEqual(
      byEmail.json.result.map((c: Obj) => c.id),
      [someone.id],
    );
    const failed = await api.search('charges', {
      query: { filter: { and: [{ eq: { status: 'failed' } }, { gte: { amount: 1000 } }] } },
      limit: 1000,
      fields: ['id'],
    });
    assert.equal(failed.status, 200, failed.body);
    const expected = fake.data
      .all('charge')
      .filter((c) => c.status === 'failed' && c.amount >= 1000)
      .map((c) => c.id);
    assert.ok(expected.length > 0);
    assert.deepEqual(failed.json.result.map((c: Obj) => c.id).sort(), expected.sort());
    const canceled = await api.search('subscriptions', { query: { filter: { eq: { status: 'canceled' } } } });
    assert.ok(canceled.json.result.length > 0, canceled.body);

    // created is Unix seconds in the records and an ISO 8601 instant in filters and sorts.
    const jan = await api.search('charges', {
      query: {
        filter: {
          and: [{ gte: { created: '2024-01-01T00:00:00Z' } }, { lt: { created: '2024-01-10T00:00:00Z' } }],
        },
        sort: [{ created: 'asc' }],
      },
      limit: 1000,
      fields: ['id', 'created'],
    });
    assert.equal(jan.status, 200, jan.body);
    const inJan = fake.data
      .all('charge')
      .filter((c) => c.created >= Date.UTC(2024, 0, 1) / 1000 && c.created < Date.UTC(2024, 0, 10) / 1000)
      .sort((a, b) => a.created - b.created);
    assert.ok(inJan.length > 0);
    assert.deepEqual(
      jan.json.result.map((c: Obj) => c.id),
      inJan.map((c) => c.id),
    );
    assert.equal(typeof jan.json.result[0].created, 'number');
  });

  test('a customer created after Ready appears after an incremental refresh that asked for created[gte]', async () => {
    const newestSeeded = Math.max(...fake.data.all('customer').map((c) => c.created as number));
    const mark = fake.requests.length;
    const made = await api.exec('customers', 'create', {
      email: 'late.joiner@example.com',
      name: 'Late Joiner',
    });
    assert.equal(made.status, 200, made.body);
    const created = made.json.result.created as number;
    assert.ok(created > newestSeeded);
    await api.waitCount('customers', 31);
    const found = await api.search('customers', {
      query: { filter: { gt: { created: new Date(newestSeeded * 1000).toISOString() } } },
    });
    assert.equal(found.status, 200, found.body);
    assert.deepEqual(
      found.json.result.map((c: Obj) => [c.id, c.email]),
      [[made.json.result.id, 'late.joiner@example.com']],
    );
    // The refresh that brought it in was bounded by the newest created stored, and nothing re-read the whole list.
    const lists = fake.requests
      .slice(mark)
      .filter((r) => r.method === 'GET' && pathOf(r) === '/v1/customers');
    assert.ok(lists.length > 0);
    const bounds = lists.map((r) => Number(query(r).get('created[gte]')));
    assert.ok(bounds.includes(newestSeeded), `bounds ${bounds}`);
    assert.ok(
      bounds.every((b) => b === newestSeeded || b === created),
      `bounds ${bounds}`,
    );
    const state = await api.state('customers');
    assert.equal(state?.last_error, null);
  });
});
