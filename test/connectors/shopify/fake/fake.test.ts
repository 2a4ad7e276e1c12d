// The Shopify fake itself, spoken to with plain fetch: the quirks the connector tests rely on and the suite's
// contract does not see (page_info rules, the bucket's header and its 429, the version in the path).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { SHOPIFY_FAKE_TOKEN, type ShopifyFake, startShopifyFake } from './index.ts';

// biome-ignore lint/suspicious/noExplicitAny: test convenience for reading JSON bodies
type Json = Record<string, any>;

describe('Shopify fake', () => {
  let fake: ShopifyFake;

  before(async () => {
    fake = await startShopifyFake({ pageSize: 3, rateLimit: { capacity: 40, leakPerSecond: 2 } });
  });
  after(() => fake.close());

  const call = async (url: string, token: string | null = SHOPIFY_FAKE_TOKEN) => {
    const res = await fetch(url.startsWith('http') ? url : `${fake.url}${url}`, {
      headers: token === null ? {} : { 'x-shopify-access-token': token },
    });
    return { status: res.status, headers: res.headers, json: (await res.json()) as Json };
  };
  const next = (link: string | null) => /<([^>]+)>; rel="next"/.exec(link ?? '')?.[1];

  it('answers 401 {"errors": ...} without the access token header, and 404 under a version it does not serve', async () => {
    const none = await call('/shop.json', null);
    assert.equal(none.status, 401);
    assert.match(none.json.errors, /^\[API\] Invalid API key or access token/);
    const old = await call(`${fake.origin}/admin/api/2019-04/shop.json`);
    assert.deepEqual([old.status, old.json], [404, { errors: 'Not Found' }]);
  });

  it('pages by a Link header whose next URL holds only limit and page_info, and refuses page_info beside a filter', async () => {
    const first = await call('/orders.json?status=any');
    assert.equal(first.json.orders.length, 3);
    assert.doesNotMatch(first.headers.get('link') ?? '', /rel="previous"/);
    const url = next(first.headers.get('link'));
    assert.ok(url, 'a next link');
    assert.deepEqual([...new URL(url).searchParams.keys()], ['limit', 'page_info']);
    const second = await call(url);
    assert.equal(second.status, 200);
    // The filter travels inside page_info: page two is still every order (status=any), not the open ones.
    const ids = [...first.json.orders, ...second.json.orders].map((o: Json) => o.id);
    assert.deepEqual(
      ids,
      fake.data.orders.slice(0, 6).map((o) => o.id),
    );
    assert.match(second.headers.get('link') ?? '', /rel="previous"/);
    const mixed = await call(`${url}&status=open`);
    assert.equal(mixed.status, 400);
    assert.ok(mixed.json.errors.page_info);
    const forged = await call(`${url}A`);
    assert.equal(forged.status, 400);
  });

  it('says the bucket fill in X-Shopify-Shop-Api-Call-Limit, and answers 429 with Retry-After once it is full', async () => {
    const ok = await call('/shop.json');
    assert.match(ok.headers.get('x-shopify-shop-api-call-limit') ?? '', /^\d+\/40$/);
    let refused: Awaited<ReturnType<typeof call>> | undefined;
    for (let i = 0; i < 45 && refused === undefined; i++) {
      const res = await call('/shop.json');
      if (res.status === 429) refused = res;
    }
    assert.ok(refused, 'the bucket filled');
    assert.match(refused.headers.get('retry-after') ?? '', /^\d+\.0$/);
    assert.equal(refused.headers.get('x-shopify-shop-api-call-limit'), '40/40');
    assert.match(refused.json.errors, /^Exceeded 2 calls per second/);
    assert.deepEqual(fake.unhandled, []);
  });
});
