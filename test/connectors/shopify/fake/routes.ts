// The REST Admin API routes the fake serves, as data: each list and single read names the shopify.dev reference
// page (and anchor) it follows, which test/reference/providers/shopify.pages.json also names per operation.
// Paths are under /admin/api/{api_version}; wire.ts has the conventions every route shares.
import type { Answer, Route, RouteRequest } from '../../kit/index.ts';
import type { Dataset, Row } from './dataset.ts';
import { errorBody, MESSAGES, type PageInfo } from './wire.ts';

const PAGE = 'https://shopify.dev/docs/api/admin-rest/latest/resources/';
const ROOT = '/admin/api/{api_version}';
const MAX_LIMIT = 250;

const notFound: Answer = { status: 404, body: errorBody(MESSAGES.notFound) };
const badRequest = (field: string, message: string): Answer => ({
  status: 400,
  body: errorBody({ [field]: [message] }),
});

/** A path id: Shopify answers 404 for one that is not a number, as for one that names nothing. */
const idOf = (raw: string | undefined): number | undefined =>
  raw !== undefined && /^[0-9]{1,20}$/.test(raw) ? Number(raw) : undefined;

type Filter = (row: Row, value: string, data: Dataset) => boolean;

const at = (row: Row, member: string) => {
  const v = row[member];
  return typeof v === 'string' ? Date.parse(v) : Number.NaN;
};
const time =
  (member: string, cmp: (a: number, b: number) => boolean): Filter =>
  (row, value) =>
    cmp(at(row, member), Date.parse(value));
const equals =
  (member: string): Filter =>
  (row, value) =>
    String(row[member]) === value;

/** The filters lists take (each list says which of them it reads), as each resource's page defines them. */
const FILTERS: Record<string, Filter> = {
  since_id: (row, value) => (row.id ?? 0) > Number(value),
  created_at_min: time('created_at', (a, b) => a >= b),
  created_at_max: time('created_at', (a, b) => a <= b),
  updated_at_min: time('updated_at', (a, b) => a >= b),
  updated_at_max: time('updated_at', (a, b) => a <= b),
  processed_at_min: time('processed_at', (a, b) => a >= b),
  processed_at_max: time('processed_at', (a, b) => a <= b),
  title: equals('title'),
  vendor: equals('vendor'),
  product_type: equals('product_type'),
  namespace: equals('namespace'),
  key: equals('key'),
  type: equals('type'),
  ids: (row, value) => value.split(',').includes(String(row.id)),
  financial_status: (row, value) =>
    value === 'any' || row.financial_status === (value === 'unpaid' ? 'pending' : value),
  fulfillment_status: (row, value) =>
    value === 'any' ||
    (['unshipped', 'unfulfilled'].includes(value)
      ? row.fulfillment_status === null
      : row.fulfillment_status === (value === 'shipped' ? 'fulfilled' : value)),
};

/** `status` as each list reads it (the order page: open, closed, cancelled, any; checkouts: open, closed). */
const STATUS: Record<string, Filter> = {
  orders: (row, value) =>
    value === 'any' ||
    (value === 'open' && row.closed_at === null && row.cancelled_at === null) ||
    (value === 'closed' && row.closed_at !== null) ||
    (value === 'cancelled' && row.cancelled_at !== null),
  checkouts: (row, value) => (value === 'open' ? row.completed_at === null : row.completed_at !== null),
  plain: equals('status'),
};

interface Listing {
  /** the reference page (and anchor) of the operation */
  page: string;
  path: string;
  /** the answer's member holding the records */
  member: string;
  /** the rows the request's path names, or undefined when its parent does not exist (404) */
  rows(req: RouteRequest): Row[] | undefined;
  filters?: string[];
  status?: keyof typeof STATUS;
  /** filters the list applies when the request leaves them out (orders: status=open) */
  defaults?: Record<string, string>;
  /** pages with limit and page_info; false: one answer of every row, as the page documents no limit */
  paged: boolean;
  /** the list's order when a param picks one (tender transactions' `order`); default by id */
  sort?: (rows: Row[], query: URLSearchParams) => Row[];
}

interface Single {
  page: string;
  path: string;
  member: string;
  find(req: RouteRequest): Row | undefined;
}

export function createRoutes(data: Dataset, pageInfo: PageInfo, pageSize: number): Route[] {
  const byId = (rows: Row[], raw: string | undefined) => {
    const id = idOf(raw);
    return id === undefined ? undefined : rows.find((r) => r.id === id);
  };
  const childrenOf =
    (parents: Row[], param: string, rows: () => Row[], member: string) => (req: RouteRequest) => {
      const parent = byId(parents, req.params[param]);
      return parent === undefined ? undefined : rows().filter((r) => r[member] === parent.id);
    };
  const metafieldsOf = (parents: () => Row[], param: string, owner: string) => (req: RouteRequest) => {
    const parent = byId(parents(), req.params[param]);
    return parent === undefined ? undefined : data.metafieldsOf(owner, parent.id as number);
  };
  const TIMES = ['created_at_min', 'created_at_max', 'updated_at_min', 'updated_at_max'];
  const METAFIELD_FILTERS = [
    'namespace',
    'key',
    'type',
    'since_id',
    'updated_at_min',
    'updated_at_max',
    'created_at_min',
    'created_at_max',
  ];

  const listings: Listing[] = [
    {
      page: 'abandoned-checkouts#get-checkouts',
      path: '/checkouts.json',
      member: 'checkouts',
      rows: () => data.checkouts,
      filters: ['since_id', ...TIMES],
      status: 'checkouts',
      defaults: { status: 'open' },
      paged: true,
    },
    {
      page: 'collect#get-collects',
      path: '/collects.json',
      member: 'collects',
      rows: (req) => {
        const product = req.query.get('product_id');
        const collection = req.query.get('collection_id');
        return data.collects.filter(
          (c) =>
            (product === null || String(c.product_id) === product) &&
            (collection === null || String(c.collection_id) === collection),
        );
      },
      filters: ['since_id'],
      paged: true,
    },
    {
      page: 'country#get-countries',
      path: '/countries.json',
      member: 'countries',
      rows: () => data.countries,
      filters: ['since_id'],
      paged: false,
    },
    {
      page: 'customcollection#get-custom-collections',
      path: '/custom_collections.json',
      member: 'custom_collections',
      rows: (req) => {
        const product = req.query.get('product_id');
        return product === null
          ? data.customCollections
          : data.customCollections.filter((c) =>
              data.collects.some((k) => k.collection_id === c.id && String(k.product_id) === product),
            );
      },
      filters: ['since_id', 'title', 'updated_at_min', 'updated_at_max'],
      paged: true,
    },
    {
      page: 'customer-address#get-customers-customer-id-addresses',
      path: '/customers/{customer_id}/addresses.json',
      member: 'addresses',
      rows: childrenOf(data.customers, 'customer_id', () => data.addresses, 'customer_id'),
      paged: true,
    },
    {
      page: 'customer#get-customers',
      path: '/customers.json',
      member: 'customers',
      rows: () => data.customers,
      filters: ['since_id', ...TIMES],
      paged: true,
    },
    {
      page: 'discountcode#get-price-rules-price-rule-id-discount-codes',
      path: '/price_rules/{price_rule_id}/discount_codes.json',
      member: 'discount_codes',
      rows: childrenOf(data.priceRules, 'price_rule_id', () => data.discountCodes, 'price_rule_id'),
      paged: true,
    },
    {
      page: 'draftorder#get-draft-orders',
      path: '/draft_orders.json',
      member: 'draft_orders',
      rows: () => data.draftOrders,
      filters: ['since_id', 'updated_at_min', 'updated_at_max'],
      status: 'plain',
      paged: true,
    },
    {
      page: 'fulfillmentorder#get-orders-order-id-fulfillment-orders',
      path: '/orders/{order_id}/fulfillment_orders.json',
      member: 'fulfillment_orders',
      rows: childrenOf(data.orders, 'order_id', () => data.fulfillmentOrders, 'order_id'),
      paged: false,
    },
    {
      page: 'fulfillment#get-orders-order-id-fulfillments',
      path: '/orders/{order_id}/fulfillments.json',
      member: 'fulfillments',
      rows: childrenOf(data.orders, 'order_id', () => data.fulfillments, 'order_id'),
      filters: ['since_id', ...TIMES],
      paged: true,
    },
    {
      page: 'inventoryitem#get-inventory-items?ids=808950810,39072856,457924702',
      path: '/inventory_items.json',
      member: 'inventory_items',
      rows: () => data.inventoryItems,
      filters: ['ids'],
      paged: true,
    },
    {
      page: 'location#get-locations-location-id-inventory-levels',
      path: '/locations/{location_id}/inventory_levels.json',
      member: 'inventory_levels',
      rows: childrenOf(data.locations, 'location_id', () => data.inventoryLevels, 'location_id'),
      paged: true,
    },
    {
      page: 'location#get-locations',
      path: '/locations.json',
      member: 'locations',
      rows: () => data.locations,
      paged: false,
    },
    {
      page: 'metafield#get-customers-customer-id-metafields',
      path: '/customers/{customer_id}/metafields.json',
      member: 'metafields',
      rows: metafieldsOf(() => data.customers, 'customer_id', 'customer'),
      filters: METAFIELD_FILTERS,
      paged: true,
    },
    {
      page: 'metafield#get-draft-orders-draft-order-id-metafields',
      path: '/draft_orders/{draft_order_id}/metafields.json',
      member: 'metafields',
      rows: metafieldsOf(() => data.draftOrders, 'draft_order_id', 'draft_order'),
      filters: METAFIELD_FILTERS,
      paged: true,
    },
    {
      page: 'metafield#get-locations-location-id-metafields',
      path: '/locations/{location_id}/metafields.json',
      member: 'metafields',
      rows: metafieldsOf(() => data.locations, 'location_id', 'location'),
      filters: METAFIELD_FILTERS,
      paged: true,
    },
    {
      page: 'metafield#get-orders-order-id-metafields',
      path: '/orders/{order_id}/metafields.json',
      member: 'metafields',
      rows: metafieldsOf(() => data.orders, 'order_id', 'order'),
      filters: METAFIELD_FILTERS,
      paged: true,
    },
    {
      page: 'metafield#get-variants-variant-id-metafields',
      path: '/variants/{variant_id}/metafields.json',
      member: 'metafields',
      rows: metafieldsOf(() => data.variants, 'variant_id', 'variant'),
      filters: METAFIELD_FILTERS,
      paged: true,
    },
    {
      page: 'metafield#get-products-product-id-metafields',
      path: '/products/{product_id}/metafields.json',
      member: 'metafields',
      rows: metafieldsOf(() => data.products, 'product_id', 'product'),
      filters: METAFIELD_FILTERS,
      paged: true,
    },
    {
      page: 'metafield#get-collections-collection-id-metafields',
      path: '/collections/{collection_id}/metafields.json',
      member: 'metafields',
      rows: metafieldsOf(
        () => [...data.smartCollections, ...data.customCollections],
        'collection_id',
        'collection',
      ),
      filters: METAFIELD_FILTERS,
      paged: true,
    },
    // GET /metafields.json: the shop's own, or, with metafield[owner_id] and metafield[owner_resource], those of
    // a product image (the "metafields that belong to a Product Image resource" example of the same page).
    {
      page: 'metafield#get-metafields',
      path: '/metafields.json',
      member: 'metafields',
      rows: (req) => {
        const ownerId = req.query.get('metafield[owner_id]');
        const resource = req.query.get('metafield[owner_resource]');
        if (ownerId === null && resource === null) return data.metafieldsOf('shop', data.shop.id as number);
        if (resource !== 'product_image' || byId(data.images, ownerId ?? undefined) === undefined)
          return undefined;
        return data.metafieldsOf('product_image', Number(ownerId));
      },
      filters: METAFIELD_FILTERS,
      paged: true,
    },
    {
      page: 'refund#get-orders-order-id-refunds',
      path: '/orders/{order_id}/refunds.json',
      member: 'refunds',
      rows: childrenOf(data.orders, 'order_id', () => data.refunds, 'order_id'),
      paged: true,
    },
    {
      page: 'order#get-orders?status=any',
      path: '/orders.json',
      member: 'orders',
      rows: () => data.orders,
      filters: ['since_id', 'financial_status', 'fulfillment_status', ...TIMES],
      status: 'orders',
      defaults: { status: 'open' },
      paged: true,
    },
    {
      page: 'pricerule#get-price-rules',
      path: '/price_rules.json',
      member: 'price_rules',
      rows: () => data.priceRules,
      filters: ['since_id', ...TIMES],
      paged: true,
    },
    {
      page: 'product-image#get-products-product-id-images',
      path: '/products/{product_id}/images.json',
      member: 'images',
      rows: childrenOf(data.products, 'product_id', () => data.images, 'product_id'),
      filters: ['since_id'],
      paged: false,
    },
    {
      page: 'product-variant#get-products-product-id-variants',
      path: '/products/{product_id}/variants.json',
      member: 'variants',
      rows: childrenOf(data.products, 'product_id', () => data.variants, 'product_id'),
      filters: ['since_id'],
      paged: true,
    },
    {
      page: 'product#get-products',
      path: '/products.json',
      member: 'products',
      rows: (req) => {
        const collection = req.query.get('collection_id');
        return collection === null
          ? data.products
          : data.products.filter((p) =>
              data.collects.some((k) => String(k.collection_id) === collection && k.product_id === p.id),
            );
      },
      filters: ['since_id', 'vendor', 'product_type', ...TIMES],
      status: 'plain',
      paged: true,
    },
    {
      page: 'smartcollection#get-smart-collections',
      path: '/smart_collections.json',
      member: 'smart_collections',
      // Every smart collection of the fake holds the products of vendor Acme (its one rule).
      rows: (req) => {
        const product = req.query.get('product_id');
        if (product === null) return data.smartCollections;
        return data.products.some((p) => String(p.id) === product && p.vendor === 'Acme')
          ? data.smartCollections
          : [];
      },
      filters: ['since_id', 'title', 'updated_at_min', 'updated_at_max'],
      paged: true,
    },
    {
      page: 'tendertransaction#get-tender-transactions',
      path: '/tender_transactions.json',
      member: 'tender_transactions',
      rows: () => data.tenderTransactions,
      filters: ['since_id', 'processed_at_min', 'processed_at_max'],
      sort: (rows, query) =>
        query.get('order') === 'processed_at DESC'
          ? [...rows].sort((a, b) => at(b, 'processed_at') - at(a, 'processed_at'))
          : rows,
      paged: true,
    },
    {
      page: 'transaction#get-orders-order-id-transactions',
      path: '/orders/{order_id}/transactions.json',
      member: 'transactions',
      rows: childrenOf(data.orders, 'order_id', () => data.transactions, 'order_id'),
      filters: ['since_id'],
      paged: false,
    },
  ];

  const child =
    (parents: () => Row[], parentParam: string, rows: () => Row[], member: string, param: string) =>
    (req: RouteRequest) => {
      const parent = byId(parents(), req.params[parentParam]);
      const row = parent === undefined ? undefined : byId(rows(), req.params[param]);
      return row !== undefined && row[member] === parent?.id ? row : undefined;
    };
  const singles: Single[] = [
    {
      page: 'collect#get-collects-collect-id',
      path: '/collects/{collect_id}.json',
      member: 'collect',
      find: (req) => byId(data.collects, req.params.collect_id),
    },
    {
      page: 'country#get-countries-country-id',
      path: '/countries/{country_id}.json',
      member: 'country',
      find: (req) => byId(data.countries, req.params.country_id),
    },
    {
      page: 'customcollection#get-custom-collections-custom-collection-id',
      path: '/custom_collections/{collection_id}.json',
      member: 'custom_collection',
      find: (req) => byId(data.customCollections, req.params.collection_id),
    },
    {
      page: 'customer-address#get-customers-customer-id-addresses-address-id',
      path: '/customers/{customer_id}/addresses/{address_id}.json',
      member: 'customer_address',
      find: child(
        () => data.customers,
        'customer_id',
        () => data.addresses,
        'customer_id',
        'address_id',
      ),
    },
    {
      page: 'customer#get-customers-customer-id',
      path: '/customers/{customer_id}.json',
      member: 'customer',
      find: (req) => byId(data.customers, req.params.customer_id),
    },
    {
      page: 'discountcode#get-price-rules-price-rule-id-discount-codes-discount-code-id',
      path: '/price_rules/{price_rule_id}/discount_codes/{discount_code_id}.json',
      member: 'discount_code',
      find: child(
        () => data.priceRules,
        'price_rule_id',
        () => data.discountCodes,
        'price_rule_id',
        'discount_code_id',
      ),
    },
    {
      page: 'draftorder#get-draft-orders-draft-order-id',
      path: '/draft_orders/{draft_order_id}.json',
      member: 'draft_order',
      find: (req) => byId(data.draftOrders, req.params.draft_order_id),
    },
    {
      page: 'fulfillmentorder#get-fulfillment-orders-fulfillment-order-id',
      path: '/fulfillment_orders/{fulfillment_order_id}.json',
      member: 'fulfillment_order',
      find: (req) => byId(data.fulfillmentOrders, req.params.fulfillment_order_id),
    },
    {
      page: 'fulfillment#get-orders-order-id-fulfillments-fulfillment-id',
      path: '/orders/{order_id}/fulfillments/{fulfillment_id}.json',
      member: 'fulfillment',
      find: child(
        () => data.orders,
        'order_id',
        () => data.fulfillments,
        'order_id',
        'fulfillment_id',
      ),
    },
    {
      page: 'inventoryitem#get-inventory-items-inventory-item-id',
      path: '/inventory_items/{inventory_item_id}.json',
      member: 'inventory_item',
      find: (req) => byId(data.inventoryItems, req.params.inventory_item_id),
    },
    {
      page: 'location#get-locations-location-id',
      path: '/locations/{location_id}.json',
      member: 'location',
      find: (req) => byId(data.locations, req.params.location_id),
    },
    {
      page: 'metafield#get-metafields-metafield-id',
      path: '/metafields/{metafield_id}.json',
      member: 'metafield',
      find: (req) => byId(data.metafields, req.params.metafield_id),
    },
    {
      page: 'refund#get-orders-order-id-refunds-refund-id',
      path: '/orders/{order_id}/refunds/{refund_id}.json',
      member: 'refund',
      find: child(
        () => data.orders,
        'order_id',
        () => data.refunds,
        'order_id',
        'refund_id',
      ),
    },
    {
      page: 'order#get-orders-order-id',
      path: '/orders/{order_id}.json',
      member: 'order',
      find: (req) => byId(data.orders, req.params.order_id),
    },
    {
      page: 'pricerule#get-price-rules-price-rule-id',
      path: '/price_rules/{price_rule_id}.json',
      member: 'price_rule',
      find: (req) => byId(data.priceRules, req.params.price_rule_id),
    },
    {
      page: 'product-image#get-products-product-id-images-image-id',
      path: '/products/{product_id}/images/{image_id}.json',
      member: 'image',
      find: child(
        () => data.products,
        'product_id',
        () => data.images,
        'product_id',
        'image_id',
      ),
    },
    {
      page: 'product-variant#get-variants-variant-id',
      path: '/variants/{variant_id}.json',
      member: 'variant',
      find: (req) => byId(data.variants, req.params.variant_id),
    },
    {
      page: 'product#get-products-product-id',
      path: '/products/{product_id}.json',
      member: 'product',
      find: (req) => byId(data.products, req.params.product_id),
    },
    { page: 'shop#get-shop', path: '/shop.json', member: 'shop', find: () => data.shop },
    {
      page: 'smartcollection#get-smart-collections-smart-collection-id',
      path: '/smart_collections/{collection_id}.json',
      member: 'smart_collection',
      find: (req) => byId(data.smartCollections, req.params.collection_id),
    },
    {
      page: 'transaction#get-orders-order-id-transactions-transaction-id',
      path: '/orders/{order_id}/transactions/{transaction_id}.json',
      member: 'transaction',
      find: child(
        () => data.orders,
        'order_id',
        () => data.transactions,
        'order_id',
        'transaction_id',
      ),
    },
  ];

  return [
    ...listings.map(
      (l): Route => ({
        method: 'GET',
        path: ROOT + l.path,
        operation: PAGE + l.page,
        handle: (req) => list(l, req, data, pageInfo, pageSize),
      }),
    ),
    ...singles.map(
      (s): Route => ({
        method: 'GET',
        path: ROOT + s.path,
        operation: PAGE + s.page,
        handle: (req) => {
          const row = s.find(req);
          return row === undefined ? notFound : { status: 200, body: { [s.member]: row } };
        },
      }),
    ),
  ];
}

/** Query members a page_info request may carry besides page_info ("only limit and fields"). */
const WITH_PAGE_INFO = new Set(['page_info', 'limit', 'fields']);

/** One list answer: Shopify's filters, then a page of `limit` (default: the fake's page size, Shopify's 50). */
function list(l: Listing, req: RouteRequest, data: Dataset, pageInfo: PageInfo, pageSize: number): Answer {
  const all = l.rows(req);
  if (all === undefined) return notFound;
  const route = req.pathname;
  let filters: Record<string, string>;
  let offset = 0;
  const token = req.query.get('page_info');
  if (token !== null) {
    if (!l.paged) return badRequest('page_info', 'is not supported on this endpoint');
    const extra = [...req.query.keys()].filter((k) => !WITH_PAGE_INFO.has(k));
    if (extra.length > 0) return badRequest('page_info', `cannot be passed with ${extra.join(', ')}`);
    const verified = pageInfo.verify(token, route);
    if (verified === undefined) return badRequest('page_info', 'Invalid value.');
    filters = verified.filters;
    offset = verified.after;
  } else {
    filters = { ...(l.defaults ?? {}) };
    for (const [k, v] of req.query) if (k !== 'limit' && k !== 'fields') filters[k] = v;
  }
  const query = new URLSearchParams(filters);
  let rows = all.filter((row) =>
    Object.entries(filters).every(([name, value]) => {
      if (name === 'status' && l.status !== undefined) return STATUS[l.status]?.(row, value, data) ?? true;
      if (!(l.filters ?? []).includes(name)) return true; // Shopify ignores what a list does not take
      return FILTERS[name]?.(row, value, data) ?? true;
    }),
  );
  if (l.sort) rows = l.sort(rows, query);
  const fields = req.query.get('fields');
  const shape = (row: Row) =>
    fields === null
      ? row
      : Object.fromEntries(
          fields
            .split(',')
            .filter((f) => f in row)
            .map((f) => [f, row[f]]),
        );
  if (!l.paged) return { status: 200, body: { [l.member]: rows.map(shape) } };

  const raw = req.query.get('limit');
  const limit = raw === null ? undefined : Number(raw);
  if (limit !== undefined && (!Number.isInteger(limit) || limit < 1))
    return badRequest('limit', 'must be a number from 1 to 250');
  const size = Math.min(MAX_LIMIT, limit ?? pageSize);
  const page = rows.slice(offset, offset + size);
  const links: string[] = [];
  const origin = `http://${req.recorded.headers.host ?? '127.0.0.1'}`;
  const at = (n: number) => `${origin}${route}?limit=${size}&page_info=${pageInfo.sign(route, n, filters)}`;
  if (offset > 0) links.push(`<${at(Math.max(0, offset - size))}>; rel="previous"`);
  if (offset + page.length < rows.length) links.push(`<${at(offset + page.length)}>; rel="next"`);
  return {
    status: 200,
    headers: links.length > 0 ? { link: links.join(', ') } : {},
    body: { [l.member]: page.map(shape) },
  };
}
