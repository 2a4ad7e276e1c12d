// Customers, products and prices: Stripe's create/retrieve/update/delete/list/search of each (prices: create,
// retrieve and list). Each route names the stripe.yaml operation it follows.
import type { Dataset } from './dataset.ts';
import {
  array,
  assign,
  bool,
  checkKnown,
  hash,
  int,
  mergeMetadata,
  nullableStr,
  oneOf,
  required,
  str,
} from './params.ts';
import { customer, type Obj, price, product } from './records.ts';
import { eq, listRoute, must, ok, one, type Route, route, searchRoute } from './router.ts';
import { fail, invalid, noSuch, type Param, type Params } from './wire.ts';

const CUSTOMER_CREATE = [
  'address',
  'balance',
  'cash_balance',
  'coupon',
  'description',
  'email',
  'invoice_prefix',
  'invoice_settings',
  'metadata',
  'name',
  'next_invoice_sequence',
  'payment_method',
  'phone',
  'preferred_locales',
  'promotion_code',
  'shipping',
  'source',
  'tax',
  'tax_exempt',
  'tax_id_data',
  'test_clock',
];
const CUSTOMER_UPDATE = [
  'address',
  'balance',
  'bank_account',
  'card',
  'cash_balance',
  'coupon',
  'default_alipay_account',
  'default_bank_account',
  'default_card',
  'default_source',
  'description',
  'email',
  'invoice_prefix',
  'invoice_settings',
  'metadata',
  'name',
  'next_invoice_sequence',
  'phone',
  'preferred_locales',
  'promotion_code',
  'shipping',
  'source',
  'tax',
  'tax_exempt',
];
const PRODUCT_CREATE = [
  'active',
  'default_price_data',
  'description',
  'features',
  'id',
  'images',
  'metadata',
  'name',
  'package_dimensions',
  'shippable',
  'statement_descriptor',
  'tax_code',
  'unit_label',
  'url',
];
const PRODUCT_UPDATE = [
  'active',
  'default_price',
  'description',
  'features',
  'images',
  'metadata',
  'name',
  'package_dimensions',
  'shippable',
  'statement_descriptor',
  'tax_code',
  'unit_label',
  'url',
];
const PRICE_CREATE = [
  'active',
  'billing_scheme',
  'currency',
  'currency_options',
  'custom_unit_amount',
  'lookup_key',
  'metadata',
  'nickname',
  'product',
  'product_data',
  'recurring',
  'tax_behavior',
  'tiers',
  'tiers_mode',
  'transfer_lookup_key',
  'transform_quantity',
  'unit_amount',
  'unit_amount_decimal',
];

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function customerFields(c: Obj, params: Params): void {
  const email = nullableStr(params, 'email');
  if (email !== undefined && email !== null && (email.length > 512 || !EMAIL.test(email)))
    fail(invalid(`Invalid email address: ${email}`, 'email', 'email_invalid'));
  assign(c, params, {
    description: 'string',
    email: 'string',
    name: 'string',
    phone: 'string',
    address: 'hash',
    shipping: 'hash',
    balance: 'integer',
    invoice_prefix: 'string',
    next_invoice_sequence: 'integer',
    preferred_locales: 'array',
  });
  const tax = oneOf(params, 'tax_exempt', ['none', 'exempt', 'reverse'] as const);
  if (tax !== undefined) c.tax_exempt = tax;
  const settings = hash(params, 'invoice_settings');
  if (settings !== undefined) {
    for (const key of Object.keys(settings))
      if (!['custom_fields', 'default_payment_method', 'footer', 'rendering_options'].includes(key))
        fail(
          invalid(
            `Received unknown parameter: invoice_settings[${key}]`,
            `invoice_settings[${key}]`,
            'parameter_unknown',
          ),
        );
    c.invoice_settings = {
      ...c.invoice_settings,
      ...Object.fromEntries(Object.entries(settings).map(([k, v]) => [k, v === '' ? null : v])),
    };
  }
  c.metadata = mergeMetadata(c.metadata, params);
}

/** Checks a currency code as Stripe does (three letters, any case) and answers it lowercased. */
export function currencyOf(params: Params, name = 'currency'): string {
  const raw = str(params, name) ?? '';
  if (!/^[A-Za-z]{3}$/.test(raw))
    fail(
      invalid(`Invalid currency: ${raw}. Stripe currently supports these currencies: usd, eur, gbp, …`, name),
    );
  return raw.toLowerCase();
}

function recurringOf(
  raw: Param | undefined,
  param: string,
): { interval: string; interval_count: number } | null {
  if (raw === undefined || raw === '') return null;
  if (typeof raw !== 'object' || Array.isArray(raw)) fail(invalid('Invalid hash', param));
  const interval = raw.interval;
  if (interval === undefined)
    fail(invalid(`Missing required param: ${param}[interval].`, `${param}[interval]`, 'parameter_missing'));
  if (typeof interval !== 'string' || !['day', 'week', 'month', 'year'].includes(interval))
    fail(
      invalid(`Invalid ${param}[interval]: must be one of day, week, month, or year`, `${param}[interval]`),
    );
  const count =
    raw.interval_count === undefined
      ? 1
      : (int(raw as Params, 'interval_count', `${param}[interval_count]`) ?? 1);
  return { interval, interval_count: count };
}

/** Creates a price from `price_data`-like params (prices create, default_price_data, product_data). */
export function createPrice(data: Dataset, params: Params, productId: string, param = ''): Obj {
  const p = (name: string) => (param === '' ? name : `${param}[${name}]`);
  const currency = currencyOf(params, 'currency');
  const unit = params.unit_amount === undefined ? undefined : int(params, 'unit_amount', p('unit_amount'));
  const decimal = str(params, 'unit_amount_decimal');
  const scheme = oneOf(params, 'billing_scheme', ['per_unit', 'tiered'] as const) ?? 'per_unit';
  if (
    scheme === 'per_unit' &&
    unit === undefined &&
    decimal === undefined &&
    params.custom_unit_amount === undefined
  )
    fail(invalid(`Missing required param: ${p('unit_amount')}.`, p('unit_amount'), 'parameter_missing'));
  if (unit !== undefined && unit < 0)
    fail(invalid('This value must be greater than or equal to 0.', p('unit_amount')));
  const pr = price({
    id: data.newId('price_'),
    created: data.tick(),
    product: productId,
    currency,
    unitAmount: unit ?? (decimal === undefined ? null : Math.round(Number(decimal))),
    recurring: recurringOf(params.recurring, p('recurring')),
  });
  pr.billing_scheme = scheme;
  assign(pr, params, { nickname: 'string', lookup_key: 'string', active: 'boolean' });
  if (decimal !== undefined) pr.unit_amount_decimal = decimal;
  const tax = oneOf(params, 'tax_behavior', ['exclusive', 'inclusive', 'unspecified'] as const);
  if (tax !== undefined) pr.tax_behavior = tax;
  pr.metadata = mergeMetadata({}, params);
  return data.put('price', pr);
}

function productFields(pr: Obj, params: Params): void {
  assign(pr, params, {
    description: 'string',
    shippable: 'boolean',
    statement_descriptor: 'string',
    tax_code: 'string',
    unit_label: 'string',
    url: 'string',
    active: 'boolean',
    package_dimensions: 'hash',
  });
  const name = str(params, 'name');
  if (name !== undefined) {
    if (name === '') fail(invalid('You must supply a non-empty value for name.', 'name'));
    pr.name = name;
  }
  const images = array(params, 'images');
  if (images !== undefined) pr.images = images;
  pr.metadata = mergeMetadata(pr.metadata, params);
}

export function catalogRoutes(): Route[] {
  return [
    listRoute('/v1/customers', 'GetCustomers', 'customer', 'customer', {
      email: eq('email'),
      test_clock: eq('test_clock'),
    }),
    route('POST', '/v1/customers', 'PostCustomers', (ctx) => {
      checkKnown(ctx.params, CUSTOMER_CREATE);
      const { data, params } = ctx;
      const c = customer({
        id: data.newId('cus_', 14),
        created: data.tick(),
        name: null,
        email: null,
        invoicePrefix: data
          .newId('', 7)
          .toUpperCase()
          .replace(/[^A-Z0-9]/g, 'F'),
      });
      customerFields(c, params);
      const pm = str(params, 'payment_method');
      if (pm !== undefined) {
        const method = must(data, 'payment_method', pm, 'PaymentMethod', 'payment_method');
        method.customer = c.id;
      }
      data.put('customer', c);
      return one(ctx, c);
    }),
    searchRoute('customers', 'GetCustomersSearch', 'customer'),
    route('GET', '/v1/customers/:id', 'GetCustomersCustomer', (ctx) => {
      const id = ctx.ids[0] as string;
      if (ctx.data.deleted.get(id) === 'customer') return ok({ id, object: 'customer', deleted: true });
      return one(ctx, must(ctx.data, 'customer', id));
    }),
    route('POST', '/v1/customers/:id', 'PostCustomersCustomer', (ctx) => {
      checkKnown(ctx.params, CUSTOMER_UPDATE);
      const c = must(ctx.data, 'customer', ctx.ids[0] as string);
      customerFields(c, ctx.params);
      return one(ctx, c);
    }),
    route('DELETE', '/v1/customers/:id', 'DeleteCustomersCustomer', (ctx) => {
      checkKnown(ctx.params, []);
      const c = must(ctx.data, 'customer', ctx.ids[0] as string);
      // Deleting a customer cancels its subscriptions at once.
      for (const s of ctx.data.all('subscription'))
        if (s.customer === c.id && s.status !== 'canceled' && s.status !== 'incomplete_expired') {
          const at = ctx.data.tick();
          Object.assign(s, { status: 'canceled', canceled_at: at, ended_at: at });
        }
      ctx.data.remove('customer', c.id);
      return ok({ id: c.id, object: 'customer', deleted: true });
    }),

    listRoute('/v1/products', 'GetProducts', 'product', 'product', {
      active: (o, p) => o.active === bool(p, 'active'),
      shippable: (o, p) => o.shippable === bool(p, 'shippable'),
      url: eq('url'),
      ids: (o, p) => (array(p, 'ids') ?? []).includes(o.id),
    }),
    route('POST', '/v1/products', 'PostProducts', (ctx) => {
      checkKnown(ctx.params, PRODUCT_CREATE);
      const { data, params } = ctx;
      required(params, 'name');
      const custom = str(params, 'id');
      if (custom !== undefined && (data.get('product', custom) !== undefined || data.deleted.has(custom)))
        fail(invalid(`Product already exists.`, 'id', 'resource_already_exists'));
      const pr = product({ id: custom ?? data.newId('prod_', 14), created: data.tick(), name: '' });
      productFields(pr, params);
      const dpd = hash(params, 'default_price_data');
      if (dpd !== undefined) {
        if (dpd.currency === undefined)
          fail(
            invalid(
              'Missing required param: default_price_data[currency].',
              'default_price_data[currency]',
              'parameter_missing',
            ),
          );
        pr.default_price = createPrice(data, dpd as Params, pr.id, 'default_price_data').id;
      }
      data.put('product', pr);
      return one(ctx, pr);
    }),
    searchRoute('products', 'GetProductsSearch', 'product'),
    route('GET', '/v1/products/:id', 'GetProductsId', (ctx) =>
      one(ctx, must(ctx.data, 'product', ctx.ids[0] as string)),
    ),
    route('POST', '/v1/products/:id', 'PostProductsId', (ctx) => {
      checkKnown(ctx.params, PRODUCT_UPDATE);
      const pr = must(ctx.data, 'product', ctx.ids[0] as string);
      productFields(pr, ctx.params);
      const dp = nullableStr(ctx.params, 'default_price');
      if (dp !== undefined) {
        if (dp !== null && ctx.data.get('price', dp)?.product !== pr.id)
          fail(noSuch('price', dp, 'default_price'));
        pr.default_price = dp;
      }
      pr.updated = ctx.data.tick();
      return one(ctx, pr);
    }),
    route('DELETE', '/v1/products/:id', 'DeleteProductsId', (ctx) => {
      checkKnown(ctx.params, []);
      const pr = must(ctx.data, 'product', ctx.ids[0] as string);
      if (ctx.data.all('price').some((p) => p.product === pr.id))
        fail(invalid('This product cannot be deleted because it has one or more user-created prices.', 'id'));
      ctx.data.remove('product', pr.id);
      return ok({ id: pr.id, object: 'product', deleted: true });
    }),

    listRoute('/v1/prices', 'GetPrices', 'price', 'price', {
      active: (o, p) => o.active === bool(p, 'active'),
      currency: eq('currency'),
      product: eq('product'),
      type: eq('type'),
    }),
    route('POST', '/v1/prices', 'PostPrices', (ctx) => {
      checkKnown(ctx.params, PRICE_CREATE);
      const { data, params } = ctx;
      required(params, 'currency');
      const productId = str(params, 'product');
      const productData = hash(params, 'product_data');
      if (productId === undefined && productData === undefined)
        fail(
          invalid('You must specify either `product` or `product_data` when creating a price.', 'product'),
        );
      if (productId !== undefined && productData !== undefined)
        fail(invalid('You may only specify one of these parameters: product, product_data.', 'product'));
      const owner =
        productId === undefined ? undefined : must(data, 'product', productId, 'product', 'product').id;
      if (owner === undefined) {
        const pd = productData as Params;
        if (pd.name === undefined || pd.name === '')
          fail(
            invalid('Missing required param: product_data[name].', 'product_data[name]', 'parameter_missing'),
          );
        const pr = product({ id: data.newId('prod_', 14), created: data.tick(), name: '' });
        productFields(pr, pd);
        // The product is stored only once the price is valid.
        const created = createPrice(data, params, pr.id);
        data.put('product', pr);
        return one(ctx, created);
      }
      return one(ctx, createPrice(data, params, owner));
    }),
    route('GET', '/v1/prices/:id', 'GetPricesPrice', (ctx) =>
      one(ctx, must(ctx.data, 'price', ctx.ids[0] as string)),
    ),
  ];
}
