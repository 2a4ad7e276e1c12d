// The Stripe fake itself, spoken to with plain fetch: what it answers is what the connector tests rely on.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  STRIPE_FAKE_READ_ONLY_KEY,
  STRIPE_FAKE_RESTRICTED_KEY,
  STRIPE_FAKE_SECRET_KEY,
  type StripeFake,
  startStripeFake,
} from './index.ts';

// biome-ignore lint/suspicious/noExplicitAny: test convenience for reading JSON bodies
type Json = Record<string, any>;

const BEARER = `Bearer ${STRIPE_FAKE_SECRET_KEY}`;

describe('Stripe fake', () => {
  let fake: StripeFake;

  before(async () => {
    fake = await startStripeFake();
  });
  after(() => fake.close());

  const call = async (
    method: string,
    path: string,
    form?: string,
    headers: Record<string, string | null> = {},
  ): Promise<{ status: number; headers: Headers; json: Json }> => {
    const h: Record<string, string> = { authorization: BEARER };
    if (form !== undefined) h['content-type'] = 'application/x-www-form-urlencoded';
    for (const [k, v] of Object.entries(headers)) {
      if (v === null) delete h[k];
      else h[k] = v;
    }
    const res = await fetch(`${fake.url}${path}`, {
      method,
      headers: h,
      ...(form === undefined ? {} : { body: form }),
    });
    return { status: res.status, headers: res.headers, json: (await res.json()) as Json };
  };

  it('refuses a missing or unknown key with 401 and accepts Bearer, Basic and restricted keys', async () => {
    const none = await call('GET', '/v1/balance', undefined, { authorization: null });
    assert.equal(none.status, 401);
    assert.equal(none.json.error.type, 'invalid_request_error');
    assert.match(none.json.error.message, /You did not provide an API key/);
    const bad = await call('GET', '/v1/balance', undefined, {
      authorization: 'Bearer sk_test_wrongwrongwrong1234',
    });
    assert.equal(bad.status, 401);
    assert.equal(bad.json.error.message, `Invalid API Key provided: sk_test_${'*'.repeat(15)}1234`);
    assert.equal(bad.headers.get('www-authenticate'), 'Basic realm="Stripe"');
    const basic = `Basic ${Buffer.from(`${STRIPE_FAKE_SECRET_KEY}:`).toString('base64')}`;
    for (const authorization of [BEARER, basic, `Bearer ${STRIPE_FAKE_RESTRICTED_KEY}`]) {
      const ok = await call('GET', '/v1/balance', undefined, { authorization });
      assert.equal(ok.status, 200);
      assert.equal(ok.json.object, 'balance');
      assert.match(ok.headers.get('request-id') ?? '', /^req_/);
    }
  });

  it('lets a read-only restricted key read but answers its writes 403', async () => {
    const auth = { authorization: `Bearer ${STRIPE_FAKE_READ_ONLY_KEY}` };
    assert.equal((await call('GET', '/v1/customers', undefined, auth)).status, 200);
    const write = await call('POST', '/v1/customers', 'name=x', auth);
    assert.equal(write.status, 403);
    assert.match(write.json.error.message, /does not have the required permissions/);
  });

  it('pages a list newest first with starting_after until has_more is false, and back with ending_before', async () => {
    const seen: Json[] = [];
    let path = '/v1/customers';
    for (;;) {
      const page = await call('GET', path);
      assert.equal(page.status, 200);
      assert.equal(page.json.object, 'list');
      assert.equal(page.json.url, '/v1/customers');
      seen.push(...page.json.data);
      if (!page.json.has_more) break;
      path = `/v1/customers?starting_after=${page.json.data.at(-1).id}`;
    }
    assert.equal(seen.length, 30);
    assert.equal(new Set(seen.map((c) => c.id)).size, 30);
    for (let i = 1; i < seen.length; i++) assert.ok(seen[i - 1]?.created >= seen[i]?.created);
    const back = await call('GET', `/v1/customers?limit=5&ending_before=${seen[10]?.id}`);
    assert.deepEqual(
      back.json.data.map((c: Json) => c.id),
      seen.slice(5, 10).map((c) => c.id),
    );
    assert.equal(back.json.has_more, true);
  });

  it('filters by created[gte]/[lt] and validates limit', async () => {
    const all = (await call('GET', '/v1/charges?limit=100')).json.data as Json[];
    const cut = all[20]?.created as number;
    const newer = await call('GET', `/v1/charges?limit=100&created[gte]=${cut}`);
    assert.deepEqual(
      newer.json.data.map((c: Json) => c.id),
      all.filter((c) => c.created >= cut).map((c) => c.id),
    );
    const older = await call('GET', `/v1/charges?limit=100&created[lt]=${cut}`);
    assert.equal(older.json.data.length + newer.json.data.length, all.length);
    const bad = await call('GET', '/v1/charges?limit=101');
    assert.equal(bad.status, 400);
    assert.equal(bad.json.error.param, 'limit');
    const unknown = await call('GET', '/v1/charges?colour=red');
    assert.equal(unknown.json.error.code, 'parameter_unknown');
  });

  it('retrieves an object, expands ids, and answers 404 resource_missing for an unknown id', async () => {
    const charge = (await call('GET', '/v1/charges?limit=1')).json.data[0] as Json;
    const got = await call('GET', `/v1/charges/${charge.id}?expand[]=customer&expand[]=balance_transaction`);
    assert.equal(got.status, 200);
    assert.equal(got.json.customer.object, 'customer');
    assert.equal(got.json.balance_transaction.object, 'balance_transaction');
    const missing = await call('GET', '/v1/customers/cus_nope');
    assert.equal(missing.status, 404);
    assert.deepEqual(missing.json, {
      error: {
        code: 'resource_missing',
        doc_url: 'https://stripe.com/docs/error-codes/resource-missing',
        message: "No such customer: 'cus_nope'",
        param: 'id',
        type: 'invalid_request_error',
      },
    });
  });

  it('creates, updates and deletes a customer from a bracketed form body, visible to later reads', async () => {
    const created = await call(
      'POST',
      '/v1/customers',
      'email=ada%40example.com&name=Ada&metadata[order]=6735',
    );
    assert.equal(created.status, 200);
    const id = created.json.id as string;
    assert.match(id, /^cus_/);
    assert.deepEqual(created.json.metadata, { order: '6735' });
    const updated = await call(
      'POST',
      `/v1/customers/${id}`,
      'metadata[order]=&metadata[tier]=gold&phone=%2B15550000',
    );
    assert.deepEqual(updated.json.metadata, { tier: 'gold' });
    const first = (await call('GET', '/v1/customers?limit=1')).json.data[0];
    assert.equal(first.id, id);
    assert.equal(first.phone, '+15550000');
    const byEmail = await call('GET', '/v1/customers?email=ada%40example.com');
    assert.deepEqual(
      byEmail.json.data.map((c: Json) => c.id),
      [id],
    );
    const deleted = await call('DELETE', `/v1/customers/${id}`);
    assert.deepEqual(deleted.json, { id, object: 'customer', deleted: true });
    assert.deepEqual((await call('GET', `/v1/customers/${id}`)).json, {
      id,
      object: 'customer',
      deleted: true,
    });
    assert.equal((await call('DELETE', `/v1/customers/${id}`)).status, 404);
  });

  it('refuses a JSON body, unknown parameters and missing required ones as Stripe does', async () => {
    const json = await call('POST', '/v1/customers', undefined, { 'content-type': 'application/json' });
    assert.equal(json.status, 200, 'an empty body is no body');
    const res = await fetch(`${fake.url}/v1/customers`, {
      method: 'POST',
      headers: { authorization: BEARER, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'x' }),
    });
    assert.equal(res.status, 400);
    assert.match(((await res.json()) as Json).error.message, /application\/x-www-form-urlencoded/);
    const price = await call('POST', '/v1/prices', 'unit_amount=100&product_data[name]=Pin');
    assert.equal(price.json.error.code, 'parameter_missing');
    assert.equal(price.json.error.param, 'currency');
    const noProduct = await call('POST', '/v1/prices', 'currency=usd&unit_amount=100');
    assert.equal(noProduct.status, 400);
    assert.equal(noProduct.json.error.param, 'product');
    const ok = await call(
      'POST',
      '/v1/prices',
      'currency=USD&unit_amount=100&product_data[name]=Pin&recurring[interval]=month',
    );
    assert.equal(ok.json.currency, 'usd');
    assert.equal(ok.json.type, 'recurring');
    assert.equal((await call('GET', `/v1/products/${ok.json.product}`)).json.name, 'Pin');
  });

  it("searches with Stripe's query language and pages with next_page", async () => {
    const q = encodeURIComponent("metadata['segment']:'smb' AND created>1704067200");
    const ids: string[] = [];
    let page = await call('GET', `/v1/customers/search?query=${q}&limit=4`);
    assert.equal(page.json.object, 'search_result');
    ids.push(...page.json.data.map((c: Json) => c.id));
    while (page.json.has_more) {
      page = await call('GET', `/v1/customers/search?query=${q}&limit=4&page=${page.json.next_page}`);
      ids.push(...page.json.data.map((c: Json) => c.id));
    }
    assert.equal(page.json.next_page, null);
    assert.equal(ids.length, 9);
    const or = await call(
      'GET',
      `/v1/charges/search?query=${encodeURIComponent("status:'failed' OR refunded:'true'")}&limit=100`,
    );
    assert.ok(or.json.data.every((c: Json) => c.status === 'failed' || c.refunded));
    const bad = await call('GET', `/v1/customers/search?query=${encodeURIComponent("colour:'red'")}`);
    assert.equal(bad.status, 400);
    assert.equal(bad.json.error.param, 'query');
  });

  it('replays an idempotent POST and refuses the key with other parameters', async () => {
    const key = { 'idempotency-key': 'ces-idem-1' };
    const first = await call('POST', '/v1/products', 'name=Lamp', key);
    const again = await call('POST', '/v1/products', 'name=Lamp', key);
    assert.equal(again.json.id, first.json.id);
    assert.equal(again.headers.get('idempotent-replayed'), 'true');
    const other = await call('POST', '/v1/products', 'name=Desk', key);
    assert.equal(other.status, 400);
    assert.equal(other.json.error.type, 'idempotency_error');
  });

  it('confirms payment intents with test cards: success makes a charge, a decline is a 402 card_error', async () => {
    const pi = await call(
      'POST',
      '/v1/payment_intents',
      'amount=2000&currency=usd&payment_method=pm_card_visa&confirm=true',
    );
    assert.equal(pi.json.status, 'succeeded');
    const charge = (await call('GET', `/v1/charges/${pi.json.latest_charge}`)).json;
    assert.equal(charge.amount, 2000);
    const declined = await call(
      'POST',
      '/v1/payment_intents',
      'amount=2000&currency=usd&payment_method=pm_card_chargeDeclined&confirm=true',
    );
    assert.equal(declined.status, 402);
    assert.equal(declined.json.error.type, 'card_error');
    assert.equal(declined.json.error.decline_code, 'generic_decline');
    const refund = await call('POST', '/v1/refunds', `payment_intent=${pi.json.id}&amount=500`);
    assert.equal(refund.json.amount, 500);
    assert.equal((await call('GET', `/v1/charges/${charge.id}`)).json.amount_refunded, 500);
    const canceled = await call('POST', `/v1/payment_intents/${pi.json.id}/cancel`, '');
    assert.equal(canceled.json.error.code, 'payment_intent_unexpected_state');
  });

  it('finalizes and sends an invoice, and cancels a subscription with DELETE', async () => {
    // Charging automatically needs a customer with a default payment method (the older two thirds have one).
    const customer = fake.data
      .all('customer')
      .find((c) => c.invoice_settings.default_payment_method !== null)?.id;
    const inv = await call(
      'POST',
      '/v1/invoices',
      `customer=${customer}&collection_method=send_invoice&days_until_due=30`,
    );
    assert.equal(inv.json.status, 'draft');
    const fin = await call('POST', `/v1/invoices/${inv.json.id}/finalize`, '');
    assert.equal(fin.json.number === null, false);
    assert.equal((await call('POST', `/v1/invoices/${inv.json.id}/send`, '')).status, 200);
    assert.deepEqual(fake.data.sent, [inv.json.id]);
    const price = fake.data.all('price').find((p) => p.type === 'recurring');
    const sub = await call(
      'POST',
      '/v1/subscriptions',
      `customer=${customer}&items[0][price]=${price?.id}&items[0][quantity]=2`,
    );
    assert.equal(sub.status, 200, JSON.stringify(sub.json));
    assert.equal(sub.json.items.data[0].quantity, 2);
    const gone = await call('DELETE', `/v1/subscriptions/${sub.json.id}`);
    assert.equal(gone.json.status, 'canceled');
    const active = await call('GET', '/v1/subscriptions?limit=100');
    assert.ok(active.json.data.every((s: Json) => s.status !== 'canceled'));
    const canceled = await call('GET', '/v1/subscriptions?limit=100&status=canceled');
    assert.ok(canceled.json.data.some((s: Json) => s.id === sub.json.id));
  });

  it("answers injected faults with Stripe's own error body, and unknown paths with 404 + unhandled", async () => {
    fake.failNext({ status: 500, match: '/v1/balance' });
    const fault = await call('GET', '/v1/balance');
    assert.equal(fault.status, 500);
    assert.equal(fault.json.error.type, 'api_error');
    fake.failNext({ status: 402, match: '/v1/payment_intents', headers: { 'X-Extra': 'yes' } });
    const card = await call('POST', '/v1/payment_intents', 'amount=100&currency=usd');
    assert.equal(card.json.error.code, 'card_declined');
    assert.equal(card.headers.get('x-extra'), 'yes');
    const before = fake.unhandled.length;
    const unknown = await call('GET', '/v1/widgets');
    assert.equal(unknown.status, 404);
    assert.match(unknown.json.error.message, /Unrecognized request URL \(GET: \/v1\/widgets\)/);
    assert.equal(fake.unhandled.length, before + 1);
  });
});

describe('Stripe fake rate limit', () => {
  it('answers 429 rate_limit with Stripe-Rate-Limited-Reason past rateLimitPerSecond', async () => {
    const fake = await startStripeFake({ rateLimitPerSecond: 2, records: 3 });
    try {
      const statuses: number[] = [];
      let limited: Response | undefined;
      // The kit's bucket holds two and refills two a second: of five sent at once, the last find it empty.
      const answers = await Promise.all(
        Array.from({ length: 5 }, () =>
          fetch(`${fake.url}/v1/balance`, { headers: { authorization: BEARER } }),
        ),
      );
      for (const res of answers) {
        statuses.push(res.status);
        if (res.status === 429 && !limited) limited = res;
        else await res.arrayBuffer();
      }
      assert.ok(statuses.includes(429), String(statuses));
      assert.equal(limited?.headers.get('stripe-rate-limited-reason'), 'global-rate');
      assert.equal(limited?.headers.get('retry-after'), null);
      const body = (await limited?.json()) as Json;
      assert.equal(body.error.code, 'rate_limit');
      assert.equal(body.error.type, 'invalid_request_error');
    } finally {
      await fake.close();
    }
  });
});
