// Stripe cases of the definition-driven suite, over the Stripe fake's seeded dataset (test/connectors/stripe/fake/
// dataset.ts, seed.ts, seed-billing.ts): 30 of each resource (60 charges), ids derived from a hash, so they are
// read from the dataset. Lists page with a small `limit` (keyset paging on starting_after) and searches with a small
// `limit` (Stripe's next_page token). Stripe refuses a list whose starting_after names no object (404
// resource_missing), an unparsable search query (400), an unknown id (404) and writes it can't carry out (400, or
// 402 for a declined card), so no refusal but the balance's needs to be injected.
// The suite runs the cases in the definition's order and the writes change the dataset, so each write works on
// objects no other case relies on (the deleted customer is the newest one, whose subscription and invoices no other
// case uses).
import type { Cases } from '../suite/types.ts';
import type { Dataset, Obj } from './fake/index.ts';

const notFound = 'UPSTREAM_NOT_FOUND' as const;
const invalid = 'INVALID_PARAMS' as const;
/** A list whose page cursor names nothing: Stripe's 404 `No such <object>: '<id>'` (param starting_after). */
const missingCursor = (prefix: string) => ({
  params: { starting_after: `${prefix}_ces0missing` },
  code: notFound,
});
const missingId = (prefix: string) => ({ params: { id: `${prefix}_ces0missing` }, code: notFound });
const badQuery = { params: { query: "colour:'red'" }, code: invalid };

function pick<T>(items: T[], test: (item: T) => boolean, what: string, skip = 0): T {
  const found = items.filter(test)[skip];
  if (found === undefined) throw new Error(`the Stripe fake seeded no ${what}`);
  return found;
}

export function stripeCases(data: Dataset): Cases {
  const customers = data.all('customer');
  const deletedCustomer = customers[0] as Obj; // the newest
  const customer = pick(customers, (c) => c.invoice_settings.default_payment_method !== null, 'payer', 2);
  const otherCustomer = pick(
    customers,
    (c) => c.invoice_settings.default_payment_method !== null,
    'payer',
    3,
  );
  const charge = pick(data.all('charge'), (c) => c.status === 'succeeded', 'succeeded charge');
  const refundable = pick(
    data.all('charge'),
    (c) => c.status === 'succeeded' && !c.disputed && !c.refunded && c.amount - c.amount_refunded > 500,
    'refundable charge',
  );
  const disputedCharge = pick(data.all('charge'), (c) => c.disputed && !c.refunded, 'disputed charge');
  const intents = data.all('payment_intent');
  const succeededIntent = pick(intents, (p) => p.status === 'succeeded', 'succeeded payment intent');
  const unpaid = intents.filter((p) => p.status === 'requires_payment_method');
  const [toCancel, toDecline, toUpdate] = unpaid;
  const toConfirm = pick(intents, (p) => p.status === 'requires_confirmation', 'confirmable payment intent');
  if (!toCancel || !toDecline || !toUpdate) throw new Error('the Stripe fake seeded too few unpaid intents');
  const invoices = data.all('invoice').filter((i) => i.customer !== deletedCustomer.id);
  const draftAuto = pick(
    invoices,
    (i) => i.status === 'draft' && i.collection_method === 'charge_automatically',
    'draft invoice',
  );
  const draftSent = pick(
    invoices,
    (i) => i.status === 'draft' && i.collection_method === 'send_invoice',
    'draft invoice to send',
  );
  const paidInvoice = pick(invoices, (i) => i.status === 'paid', 'paid invoice');
  const paidCharged = pick(
    invoices,
    (i) => i.status === 'paid' && i.collection_method === 'charge_automatically',
    'paid invoice charged automatically',
  );
  const prices = data.all('price');
  const oneTime = pick(prices, (p) => p.type === 'one_time', 'one-time price');
  const recurring = pick(prices, (p) => p.type === 'recurring', 'recurring price');
  const products = data.all('product');
  const pricedProduct = pick(products, (p) => p.default_price !== null, 'priced product');
  const bareProduct = pick(
    products,
    (p) => !prices.some((pr) => pr.product === p.id),
    'product without prices',
  );
  const editedProduct = pick(products, (p) => p.default_price !== null, 'priced product', 1);
  const subs = data
    .all('subscription')
    .filter((s) => s.customer !== deletedCustomer.id && s.status === 'active');
  const [toEdit, toCancelSub] = subs;
  if (!toEdit || !toCancelSub) throw new Error('the Stripe fake seeded too few active subscriptions');
  const canceledSub = pick(data.all('subscription'), (s) => s.status === 'canceled', 'canceled subscription');
  const dispute = data.all('dispute')[0] as Obj;
  const payout = data.all('payout')[0] as Obj;
  const refund = data.all('refund')[0] as Obj;
  const txn = data.all('balance_transaction')[0] as Obj;

  return {
    // The balance has no id and no filter Stripe would refuse: a restricted key without Balance read is injected.
    'balance.get': {
      happy: {},
      error: { params: {}, code: 'UPSTREAM_FORBIDDEN', fault: { status: 403, match: '/v1/balance' } },
    },
    'balance_transactions.list': { happy: { limit: 50 }, error: missingCursor('txn') },
    'balance_transactions.get': { happy: { id: txn.id }, error: missingId('txn') },
    'charges.list': { happy: { limit: 20 }, error: missingCursor('ch') },
    'charges.get': { happy: { id: charge.id }, error: missingId('ch') },
    'charges.api_search': { happy: { query: "status:'succeeded'", limit: 10 }, error: badQuery },
    'checkout_sessions.create': {
      happy: {
        mode: 'payment',
        success_url: 'https://shop.example.com/done?session={CHECKOUT_SESSION_ID}',
        line_items: [{ price: oneTime.id, quantity: 2 }],
        metadata: { cart: 'suite-1' },
      },
      // Stripe needs the mode.
      error: {
        params: {
          success_url: 'https://shop.example.com/done',
          line_items: [{ price: oneTime.id, quantity: 1 }],
        },
        code: invalid,
      },
    },
    'customers.list': { happy: { limit: 10 }, error: missingCursor('cus') },
    'customers.get': { happy: { id: customer.id }, error: missingId('cus') },
    'customers.create': {
      happy: { email: 'suite.buyer@example.com', name: 'Suite Buyer', metadata: { source: 'suite' } },
      error: { params: { email: 'not-an-email' }, code: invalid },
    },
    'customers.update': {
      happy: { id: customer.id, description: 'Suite: key account', metadata: { tier: 'gold' } },
      error: { params: { id: 'cus_ces0missing', name: 'Nobody' }, code: notFound },
    },
    'customers.delete': { happy: { id: deletedCustomer.id }, error: missingId('cus') },
    'customers.api_search': { happy: { query: 'created>1704067200', limit: 10 }, error: badQuery },
    'disputes.list': { happy: { limit: 10 }, error: missingCursor('dp') },
    'disputes.get': { happy: { id: dispute.id }, error: missingId('dp') },
    // A finalized invoice can't be finalized again.
    'invoice_finalizations.create': {
      happy: { id: draftAuto.id, auto_advance: false },
      error: { params: { id: paidInvoice.id }, code: invalid },
    },
    // Only invoices collected by sending them can be sent.
    'invoice_sends.create': {
      happy: { id: draftSent.id },
      error: { params: { id: paidCharged.id }, code: invalid },
    },
    'invoices.list': { happy: { limit: 10 }, error: missingCursor('in') },
    'invoices.get': { happy: { id: paidInvoice.id }, error: missingId('in') },
    'invoices.create': {
      happy: {
        customer: otherCustomer.id,
        collection_method: 'send_invoice',
        days_until_due: 14,
        description: 'Suite: consulting',
      },
      // An invoice to send needs a due date.
      error: { params: { customer: otherCustomer.id, collection_method: 'send_invoice' }, code: invalid },
    },
    'invoices.api_search': { happy: { query: 'created>1704067200', limit: 10 }, error: badQuery },
    // A succeeded payment can't be canceled.
    'payment_intent_cancellations.create': {
      happy: { id: toCancel.id, cancellation_reason: 'abandoned' },
      error: { params: { id: succeededIntent.id }, code: invalid },
    },
    // A declined card is Stripe's 402 card_error, which the definition maps to INVALID_PARAMS.
    'payment_intent_confirmations.create': {
      happy: { id: toConfirm.id },
      error: { params: { id: toDecline.id, payment_method: 'pm_card_chargeDeclined' }, code: invalid },
    },
    'payment_intents.list': { happy: { limit: 10 }, error: missingCursor('pi') },
    'payment_intents.get': { happy: { id: succeededIntent.id }, error: missingId('pi') },
    'payment_intents.create': {
      happy: {
        amount: 2000,
        currency: 'usd',
        customer: customer.id,
        payment_method: 'pm_card_visa',
        confirm: true,
        metadata: { order_id: 'suite-1' },
      },
      // Stripe's minimum charge is 50 cents.
      error: { params: { amount: 10, currency: 'usd' }, code: invalid },
    },
    'payment_intents.update': {
      happy: { id: toUpdate.id, description: 'Suite: order 42', metadata: { order_id: '42' } },
      error: { params: { id: 'pi_ces0missing', description: 'x' }, code: notFound },
    },
    'payment_intents.api_search': { happy: { query: "currency:'usd'", limit: 10 }, error: badQuery },
    'payment_method_attachments.create': {
      happy: { id: 'pm_card_visa', customer: customer.id },
      error: { params: { id: 'pm_card_visa', customer: 'cus_ces0missing' }, code: notFound },
    },
    'payouts.list': { happy: { limit: 10 }, error: missingCursor('po') },
    'payouts.get': { happy: { id: payout.id }, error: missingId('po') },
    'prices.create': {
      happy: {
        currency: 'usd',
        unit_amount: 1500,
        product_data: { name: 'Suite pin' },
        recurring: { interval: 'month' },
      },
      // A price needs a product or product_data.
      error: { params: { currency: 'usd', unit_amount: 100 }, code: invalid },
    },
    'products.list': { happy: { limit: 10 }, error: missingCursor('prod') },
    'products.get': { happy: { id: pricedProduct.id }, error: missingId('prod') },
    'products.create': {
      happy: { name: 'Suite lamp', description: 'A desk lamp', metadata: { sku: 'SUITE-1' } },
      // The id is taken.
      error: { params: { name: 'Copy', id: pricedProduct.id }, code: invalid },
    },
    'products.update': {
      happy: { id: editedProduct.id, description: 'Suite: new text', active: true },
      error: { params: { id: 'prod_ces0missing', name: 'x' }, code: notFound },
    },
    // A product with prices can't be deleted.
    'products.delete': {
      happy: { id: bareProduct.id },
      error: { params: { id: pricedProduct.id }, code: invalid },
    },
    'products.api_search': { happy: { query: "active:'true'", limit: 10 }, error: badQuery },
    'refunds.list': { happy: { limit: 10 }, error: missingCursor('re') },
    'refunds.get': { happy: { id: refund.id }, error: missingId('re') },
    'refunds.create': {
      happy: { charge: refundable.id, amount: 300, reason: 'requested_by_customer' },
      // A disputed charge can't be refunded.
      error: { params: { charge: disputedCharge.id }, code: invalid },
    },
    'subscriptions.list': { happy: { limit: 10 }, error: missingCursor('sub') },
    'subscriptions.get': { happy: { id: toEdit.id }, error: missingId('sub') },
    'subscriptions.create': {
      happy: { customer: customer.id, items: [{ price: recurring.id, quantity: 2 }] },
      // Subscriptions take recurring prices only.
      error: { params: { customer: customer.id, items: [{ price: oneTime.id }] }, code: invalid },
    },
    'subscriptions.update': {
      happy: { id: toEdit.id, cancel_at_period_end: true, metadata: { note: 'suite' } },
      error: { params: { id: 'sub_ces0missing', description: 'x' }, code: notFound },
    },
    // Canceling an already canceled subscription: Stripe answers it as missing.
    'subscriptions.delete': {
      happy: { id: toCancelSub.id, cancellation_details: { feedback: 'too_expensive' } },
      error: { params: { id: canceledSub.id }, code: notFound },
    },
    'subscriptions.api_search': { happy: { query: "status:'active'", limit: 5 }, error: badQuery },
  };
}
