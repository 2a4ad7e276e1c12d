// Shopify cases of the definition-driven suite, over the fake's seeded store (fake/dataset.ts). Reads of an id
// the store lacks are Shopify's 404 {"errors": "Not Found"}, for a missing parent too; lists that name no id
// get Shopify's 403 for a token without the resource's scope, injected.
import type { Case, Cases, Fault } from '../suite/types.ts';
import type { Dataset, Row } from './fake/dataset.ts';

const ROOT = '/admin/api/2026-10';
const MISSING = 999_999_999;
const notFound = (params: Record<string, unknown>) => ({ params, code: 'UPSTREAM_NOT_FOUND' as const });
const forbidden = (path: string, params: Record<string, unknown> = {}) => ({
  params,
  code: 'UPSTREAM_FORBIDDEN' as const,
  fault: { status: 403, match: `${ROOT}${path}` } satisfies Fault,
});

function first(rows: Row[], what: string): Row & { id: number } {
  const row = rows[0];
  if (row?.id === undefined) throw new Error(`the Shopify fake seeded no ${what}`);
  return row as Row & { id: number };
}

export function shopifyCases(data: Dataset): Cases {
  const product = first(data.products, 'product');
  const variant = first(data.variants, 'variant');
  const image = first(data.images, 'image');
  const order = first(data.orders, 'order');
  const customer = first(data.customers, 'customer');
  const address = first(
    data.addresses.filter((a) => a.customer_id === customer.id),
    'address',
  );
  const priceRule = first(data.priceRules, 'price rule');
  const code = first(
    data.discountCodes.filter((c) => c.price_rule_id === priceRule.id),
    'discount code',
  );
  const location = first(data.locations, 'location');
  const draft = first(data.draftOrders, 'draft order');
  const smart = first(data.smartCollections, 'smart collection');
  const custom = first(data.customCollections, 'custom collection');
  const ofOrder = (rows: Row[], what: string) =>
    first(
      rows.filter((r) => r.order_id === order.id),
      what,
    );
  const items = data.inventoryItems
    .slice(0, 3)
    .map((i) => i.id)
    .join(',');
  const shopField = first(data.metafieldsOf('shop', data.shop.id as number), 'shop metafield');

  const top = (path: string, happy: Record<string, unknown> = {}): Case => ({
    happy,
    error: forbidden(path, happy),
  });
  const byParent = (param: string, id: number, extra: Record<string, unknown> = {}): Case => ({
    happy: { [param]: id, ...extra },
    error: notFound({ [param]: MISSING, ...extra }),
  });
  const get = (params: Record<string, unknown>, missing: Record<string, unknown>): Case => ({
    happy: params,
    error: notFound({ ...params, ...missing }),
  });

  return {
    'abandoned_checkouts.list': top('/checkouts.json', { status: 'open' }),
    'collects.list': top('/collects.json', { collection_id: custom.id }),
    'collects.get': get({ collect_id: first(data.collects, 'collect').id }, { collect_id: MISSING }),
    'countries.list': top('/countries.json'),
    'countries.get': get({ country_id: first(data.countries, 'country').id }, { country_id: MISSING }),
    'custom_collections.list': top('/custom_collections.json', { updated_at_min: '2026-01-01T00:00:00Z' }),
    'custom_collections.get': get({ collection_id: custom.id }, { collection_id: MISSING }),
    'customer_address.list': byParent('customer_id', customer.id),
    'customer_address.get': get(
      { customer_id: customer.id, address_id: address.id },
      { address_id: MISSING },
    ),
    'customers.list': top('/customers.json', { created_at_min: '2026-01-01T00:00:00Z' }),
    'customers.get': get({ customer_id: customer.id }, { customer_id: MISSING }),
    'discount_codes.list': byParent('price_rule_id', priceRule.id),
    'discount_codes.get': get(
      { price_rule_id: priceRule.id, discount_code_id: code.id },
      { discount_code_id: MISSING },
    ),
    'draft_orders.list': top('/draft_orders.json', { status: 'open' }),
    'draft_orders.get': get({ draft_order_id: draft.id }, { draft_order_id: MISSING }),
    'fulfillment_orders.list': byParent('order_id', order.id),
    'fulfillment_orders.get': get(
      { fulfillment_order_id: ofOrder(data.fulfillmentOrders, 'fulfillment order').id },
      { fulfillment_order_id: MISSING },
    ),
    'fulfillments.list': byParent('order_id', order.id),
    'fulfillments.get': get(
      { order_id: order.id, fulfillment_id: ofOrder(data.fulfillments, 'fulfillment').id },
      { fulfillment_id: MISSING },
    ),
    'inventory_items.list': top('/inventory_items.json', { ids: items }),
    'inventory_items.get': get(
      { inventory_item_id: first(data.inventoryItems, 'inventory item').id },
      { inventory_item_id: MISSING },
    ),
    'inventory_levels.list': byParent('location_id', location.id),
    'locations.list': top('/locations.json'),
    'locations.get': get({ location_id: location.id }, { location_id: MISSING }),
    'metafield_customers.list': byParent('customer_id', customer.id),
    'metafield_draft_orders.list': byParent('draft_order_id', draft.id),
    'metafield_locations.list': byParent('location_id', location.id),
    'metafield_orders.list': byParent('order_id', order.id, { namespace: 'custom' }),
    'metafield_product_images.list': {
      happy: { product_id: product.id, image_id: image.id },
      error: notFound({ product_id: product.id, image_id: MISSING }),
    },
    'metafield_product_variants.list': byParent('variant_id', variant.id),
    'metafield_products.list': byParent('product_id', product.id),
    'metafield_shops.list': top('/metafields.json'),
    'metafield_shops.get': get({ metafield_id: shopField.id }, { metafield_id: MISSING }),
    'metafield_smart_collections.list': byParent('collection_id', smart.id),
    'order_refunds.list': byParent('order_id', order.id),
    'order_refunds.get': get(
      { order_id: order.id, refund_id: ofOrder(data.refunds, 'refund').id },
      { refund_id: MISSING },
    ),
    'orders.list': top('/orders.json', { status: 'any' }),
    'orders.get': get({ order_id: order.id }, { order_id: MISSING }),
    'price_rules.list': top('/price_rules.json'),
    'price_rules.get': get({ price_rule_id: priceRule.id }, { price_rule_id: MISSING }),
    'product_images.list': byParent('product_id', product.id),
    'product_images.get': get({ product_id: product.id, image_id: image.id }, { image_id: MISSING }),
    'product_variants.list': byParent('product_id', product.id),
    'product_variants.get': get({ variant_id: variant.id }, { variant_id: MISSING }),
    'products.list': top('/products.json', { vendor: 'Acme' }),
    'products.get': get({ product_id: product.id }, { product_id: MISSING }),
    // The store itself has no id to miss: a token without read access to it is injected.
    'shop.get': { happy: {}, error: forbidden('/shop.json') },
    'smart_collections.list': top('/smart_collections.json'),
    'smart_collections.get': get({ collection_id: smart.id }, { collection_id: MISSING }),
    'tender_transactions.list': top('/tender_transactions.json', { order: 'processed_at DESC' }),
    'transactions.list': byParent('order_id', order.id),
    'transactions.get': get(
      { order_id: order.id, transaction_id: ofOrder(data.transactions, 'transaction').id },
      { transaction_id: MISSING },
    ),
  };
}
