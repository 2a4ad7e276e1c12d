// Subscriptions: create, retrieve, update, list, search, and cancel (DELETE). Each route names the stripe.yaml
// operation it follows.
import type { Dataset } from './dataset.ts';
import { array, assign, bool, checkKnown, hash, int, mergeMetadata, oneOf, required, str } from './params.ts';
import type { Obj } from './records.ts';
import { invoice, lineItem, payInvoice, subscription, subscriptionItem } from './records-billing.ts';
import { eq, listRoute, must, one, type Route, route, searchRoute, within } from './router.ts';
import { createPrice } from './routes-catalog.ts';
import { finalize } from './routes-invoices.ts';
import { fail, invalid, noSuch, type Params } from './wire.ts';

const SUBSCRIPTION_CREATE = [
  'add_invoice_items',
  'application_fee_percent',
  'automatic_tax',
  'backdate_start_date',
  'billing_cycle_anchor',
  'billing_thresholds',
  'cancel_at',
  'cancel_at_period_end',
  'collection_method',
  'coupon',
  'currency',
  'customer',
  'days_until_due',
  'default_payment_method',
  'default_source',
  'default_tax_rates',
  'description',
  'items',
  'metadata',
  'off_session',
  'on_behalf_of',
  'payment_behavior',
  'payment_settings',
  'pending_invoice_item_interval',
  'promotion_code',
  'proration_behavior',
  'transfer_data',
  'trial_end',
  'trial_from_plan',
  'trial_period_days',
  'trial_settings',
];
const SUBSCRIPTION_UPDATE = [
  'add_invoice_items',
  'application_fee_percent',
  'automatic_tax',
  'billing_cycle_anchor',
  'billing_thresholds',
  'cancel_at',
  'cancel_at_period_end',
  'cancellation_details',
  'collection_method',
  'coupon',
  'days_until_due',
  'default_payment_method',
  'default_source',
  'default_tax_rates',
  'description',
  'items',
  'metadata',
  'off_session',
  'on_behalf_of',
  'pause_collection',
  'payment_behavior',
  'payment_settings',
  'pending_invoice_item_interval',
  'promotion_code',
  'proration_behavior',
  'proration_date',
  'transfer_data',
  'trial_end',
  'trial_from_plan',
  'trial_settings',
];
const DAY = 86_400;
const INTERVAL: Record<string, number> = { day: DAY, week: 7 * DAY, month: 30 * DAY, year: 365 * DAY };

/** The items of a subscription create or update (`items[0][price]`, `items[0][price_data]`, `items[0][quantity]`). */
function itemsOf(data: Dataset, subId: string, raw: unknown, period: { start: number; end: number }): Obj[] {
  if (!Array.isArray(raw)) fail(invalid('Invalid array', 'items'));
  return raw.map((entry, i) => {
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry))
      fail(invalid('Invalid hash', `items[${i}]`));
    const item = entry as Params;
    const quantity = int(item, 'quantity', `items[${i}][quantity]`) ?? 1;
    let pr: Obj;
    const priceId = str(item, 'price');
    if (priceId !== undefined) pr = must(data, 'price', priceId, 'price', `items[${i}][price]`);
    else if (item.price_data !== undefined) {
      const pd = item.price_data as Params;
      const productId = str(pd, 'product');
      if (productId === undefined)
        fail(
          invalid(
            `Missing required param: items[${i}][price_data][product].`,
            `items[${i}][price_data][product]`,
            'parameter_missing',
          ),
        );
      must(data, 'product', productId, 'product', `items[${i}][price_data][product]`);
      if (pd.recurring === undefined)
        fail(
          invalid(
            `Missing required param: items[${i}][price_data][recurring].`,
            `items[${i}][price_data][recurring]`,
            'parameter_missing',
          ),
        );
      pr = createPrice(data, pd, productId, `items[${i}][price_data]`);
    } else
      fail(invalid(`Missing required param: items[${i}][price].`, `items[${i}][price]`, 'parameter_missing'));
    if (pr.type !== 'recurring')
      fail(
        invalid(
          'The price specified is set to `type=one_time` but this field only accepts prices with `type=recurring`.',
          `items[${i}][price]`,
        ),
      );
    const si = subscriptionItem({
      id: data.newId('si_', 14),
      created: data.tick(),
      subscription: subId,
      price: pr,
      quantity,
      period,
    });
    si.metadata = mergeMetadata({}, item);
    return si;
  });
}

function setItems(sub: Obj, items: Obj[]): void {
  sub.items.data = items;
  sub.items.total_count = items.length;
  sub.plan = items.length === 1 ? items[0]?.plan : null;
  sub.quantity = items.length === 1 ? items[0]?.quantity : null;
}

/** The first invoice of a new subscription: paid when charged automatically, open when sent. */
function firstInvoice(data: Dataset, sub: Obj, cust: Obj): Obj {
  const id = data.newId('in_');
  const lines = (sub.items.data as Obj[]).map((si) =>
    lineItem({
      id: data.newId('il_'),
      invoice: id,
      price: sub.status === 'trialing' ? { ...si.price, unit_amount: 0 } : si.price,
      quantity: si.quantity,
      period: { start: sub.current_period_start, end: sub.current_period_end },
      subscription: sub.id,
      description: `${si.quantity} × subscription`,
    }),
  );
  const inv = invoice({
    id,
    created: data.tick(),
    customer: cust,
    subscription: sub.id,
    collectionMethod: sub.collection_method,
    currency: sub.currency,
    lines,
  });
  inv.billing_reason = 'subscription_create';
  inv.period_start = sub.current_period_start;
  inv.period_end = sub.current_period_start;
  finalize(data, inv);
  if (sub.collection_method === 'charge_automatically' && inv.status === 'open') payInvoice(inv, data.clock);
  return data.put('invoice', inv);
}

export function subscriptionRoutes(): Route[] {
  return [
    listRoute(
      '/v1/subscriptions',
      'GetSubscriptions',
      'subscription',
      'subscription',
      {
        automatic_tax: (o, p) =>
          o.automatic_tax?.enabled === bool((hash(p, 'automatic_tax') ?? {}) as Params, 'enabled'),
        collection_method: eq('collection_method'),
        current_period_end: within('current_period_end'),
        current_period_start: within('current_period_start'),
        customer: eq('customer'),
        customer_account: eq('customer_account'),
        price: (o, p) => (o.items?.data ?? []).some((si: Obj) => si.price.id === str(p, 'price')),
        status: (o, p) => {
          const s = oneOf(p, 'status', [
            'active',
            'all',
            'canceled',
            'ended',
            'incomplete',
            'incomplete_expired',
            'past_due',
            'paused',
            'trialing',
            'unpaid',
          ] as const);
          return (
            s === 'all' ||
            (s === 'ended' ? ['canceled', 'incomplete_expired'].includes(o.status) : o.status === s)
          );
        },
        test_clock: eq('test_clock'),
      },
      // Without a status filter, canceled subscriptions are left out.
      (ctx) =>
        ctx.data
          .all('subscription')
          .filter((s) => ctx.params.status !== undefined || s.status !== 'canceled'),
    ),
    route('POST', '/v1/subscriptions', 'PostSubscriptions', (ctx) => {
      checkKnown(ctx.params, SUBSCRIPTION_CREATE);
      const { data, params } = ctx;
      required(params, 'customer');
      const cust = must(data, 'customer', str(params, 'customer') as string, 'customer', 'customer');
      if (params.items === undefined || (Array.isArray(params.items) && params.items.length === 0))
        fail(invalid('Missing required param: items.', 'items', 'parameter_missing'));
      const method =
        oneOf(params, 'collection_method', ['charge_automatically', 'send_invoice'] as const) ??
        'charge_automatically';
      const behavior =
        oneOf(params, 'payment_behavior', [
          'allow_incomplete',
          'default_incomplete',
          'error_if_incomplete',
          'pending_if_incomplete',
        ] as const) ?? 'allow_incomplete';
      const trialDays = int(params, 'trial_period_days');
      const pm = str(params, 'default_payment_method');
      if (pm !== undefined) must(data, 'payment_method', pm, 'PaymentMethod', 'default_payment_method');
      const id = data.newId('sub_');
      const start = data.tick();
      const draftItems = itemsOf(data, id, params.items, { start, end: start });
      const interval = draftItems[0]?.price.recurring;
      const end =
        start + (INTERVAL[interval?.interval ?? 'month'] ?? 30 * DAY) * (interval?.interval_count ?? 1);
      for (const si of draftItems)
        Object.assign(si, { current_period_start: start, current_period_end: end });
      if (
        method === 'charge_automatically' &&
        trialDays === undefined &&
        behavior !== 'default_incomplete' &&
        pm === undefined &&
        cust.invoice_settings.default_payment_method === null &&
        cust.default_source === null
      )
        fail(
          invalid(
            'This customer has no attached payment source or default payment method. Please consider adding a default payment method.',
            undefined,
            'resource_missing',
          ),
        );
      if (method === 'send_invoice' && params.days_until_due === undefined)
        fail(invalid('Missing required param: days_until_due.', 'days_until_due', 'parameter_missing'));
      const sub = subscription({
        id,
        created: start,
        customer: cust.id,
        items: draftItems,
        period: { start, end: trialDays === undefined ? end : start + trialDays * DAY },
        collectionMethod: method,
      });
      assign(sub, params, {
        description: 'string',
        cancel_at_period_end: 'boolean',
        cancel_at: 'integer',
        days_until_due: 'integer',
        default_payment_method: 'string',
      });
      sub.metadata = mergeMetadata({}, params);
      if (trialDays !== undefined)
        Object.assign(sub, { status: 'trialing', trial_start: start, trial_end: start + trialDays * DAY });
      else if (behavior === 'default_incomplete') sub.status = 'incomplete';
      data.put('subscription', sub);
      sub.latest_invoice = firstInvoice(data, sub, cust).id;
      return one(ctx, sub);
    }),
    searchRoute('subscriptions', 'GetSubscriptionsSearch', 'subscription'),
    route('GET', '/v1/subscriptions/:id', 'GetSubscriptionsSubscriptionExposedId', (ctx) =>
      one(ctx, must(ctx.data, 'subscription', ctx.ids[0] as string)),
    ),
    route('POST', '/v1/subscriptions/:id', 'PostSubscriptionsSubscriptionExposedId', (ctx) => {
      checkKnown(ctx.params, SUBSCRIPTION_UPDATE);
      const { data, params } = ctx;
      const sub = must(data, 'subscription', ctx.ids[0] as string);
      if (
        sub.status === 'canceled' &&
        Object.keys(params).some((k) => !['metadata', 'cancellation_details', 'expand'].includes(k))
      )
        fail(invalid('A canceled subscription can only update its cancellation_details and metadata.'));
      assign(sub, params, {
        description: 'string',
        cancel_at_period_end: 'boolean',
        cancel_at: 'integer',
        days_until_due: 'integer',
        default_payment_method: 'string',
        pause_collection: 'hash',
      });
      const method = oneOf(params, 'collection_method', ['charge_automatically', 'send_invoice'] as const);
      if (method !== undefined) sub.collection_method = method;
      if (params.cancel_at_period_end !== undefined)
        sub.cancel_at = sub.cancel_at_period_end ? sub.current_period_end : null;
      const details = hash(params, 'cancellation_details');
      if (details !== undefined) sub.cancellation_details = { ...sub.cancellation_details, ...details };
      if (params.trial_end !== undefined) {
        const te = params.trial_end === 'now' ? data.tick() : (int(params, 'trial_end') as number);
        sub.trial_end = te;
        if (params.trial_end === 'now' && sub.status === 'trialing') sub.status = 'active';
      }
      const items = array(params, 'items');
      if (items !== undefined) {
        const kept = [...(sub.items.data as Obj[])];
        const added: unknown[] = [];
        for (const [i, entry] of items.entries()) {
          const e = entry as Params;
          const itemId = str(e, 'id');
          if (itemId === undefined) {
            added.push(e);
            continue;
          }
          const at = kept.findIndex((si) => si.id === itemId);
          if (at < 0) fail(noSuch('subscription_item', itemId, `items[${i}][id]`));
          if (e.deleted === 'true') {
            kept.splice(at, 1);
            continue;
          }
          const [replacement] =
            e.price !== undefined || e.price_data !== undefined
              ? itemsOf(data, sub.id, [e], { start: sub.current_period_start, end: sub.current_period_end })
              : [];
          const current = kept[at] as Obj;
          if (replacement !== undefined)
            Object.assign(current, { price: replacement.price, plan: replacement.plan });
          if (e.quantity !== undefined) current.quantity = int(e, 'quantity', `items[${i}][quantity]`);
          current.metadata = mergeMetadata(current.metadata, e);
        }
        setItems(sub, [
          ...kept,
          ...itemsOf(data, sub.id, added, { start: sub.current_period_start, end: sub.current_period_end }),
        ]);
      }
      sub.metadata = mergeMetadata(sub.metadata, params);
      return one(ctx, sub);
    }),
    route('DELETE', '/v1/subscriptions/:id', 'DeleteSubscriptionsSubscriptionExposedId', (ctx) => {
      checkKnown(ctx.params, ['cancellation_details', 'invoice_now', 'prorate']);
      const sub = must(ctx.data, 'subscription', ctx.ids[0] as string);
      if (sub.status === 'canceled' || sub.status === 'incomplete_expired')
        fail(noSuch('subscription', sub.id));
      bool(ctx.params, 'invoice_now');
      bool(ctx.params, 'prorate');
      const at = ctx.data.tick();
      const details = hash(ctx.params, 'cancellation_details') ?? {};
      Object.assign(sub, {
        status: 'canceled',
        canceled_at: at,
        ended_at: at,
        cancellation_details: { comment: null, feedback: null, ...details, reason: 'cancellation_requested' },
      });
      return one(ctx, sub);
    }),
  ];
}
