// Payment intents (create, retrieve, update, list, search, cancel, confirm) and attaching payment methods. Each
// route names the stripe.yaml operation it follows.
// Confirming takes a stored payment method or one of Stripe's test ones: `pm_card_visa`, `pm_card_mastercard`,
// `pm_card_amex` succeed; `pm_card_chargeDeclined` and `pm_card_chargeDeclinedInsufficientFunds` are declined
// (402 card_error); `pm_card_authenticationRequired` leaves the intent in `requires_action`.
import type { Dataset } from './dataset.ts';
import { array, assign, bool, checkKnown, int, mergeMetadata, oneOf, required, str } from './params.ts';
import { card, type Obj, paymentIntent, paymentMethod } from './records.ts';
import { charge } from './records-money.ts';
import { eq, listRoute, must, one, type Route, route, searchRoute } from './router.ts';
import { currencyOf } from './routes-catalog.ts';
import { fail, invalid, noSuch, type Params, stripeError } from './wire.ts';

const PI_CREATE = [
  'amount',
  'application_fee_amount',
  'automatic_payment_methods',
  'capture_method',
  'confirm',
  'confirmation_method',
  'currency',
  'customer',
  'description',
  'error_on_requires_action',
  'mandate',
  'mandate_data',
  'metadata',
  'off_session',
  'on_behalf_of',
  'payment_method',
  'payment_method_data',
  'payment_method_options',
  'payment_method_types',
  'radar_options',
  'receipt_email',
  'return_url',
  'setup_future_usage',
  'shipping',
  'statement_descriptor',
  'statement_descriptor_suffix',
  'transfer_data',
  'transfer_group',
  'use_stripe_sdk',
];
const PI_UPDATE = [
  'amount',
  'application_fee_amount',
  'capture_method',
  'currency',
  'customer',
  'description',
  'metadata',
  'payment_method',
  'payment_method_data',
  'payment_method_options',
  'payment_method_types',
  'receipt_email',
  'setup_future_usage',
  'shipping',
  'statement_descriptor',
  'statement_descriptor_suffix',
  'transfer_data',
  'transfer_group',
];
const PI_CONFIRM = [
  'capture_method',
  'client_secret',
  'error_on_requires_action',
  'mandate',
  'mandate_data',
  'off_session',
  'payment_method',
  'payment_method_data',
  'payment_method_options',
  'payment_method_types',
  'radar_options',
  'receipt_email',
  'return_url',
  'setup_future_usage',
  'shipping',
  'use_stripe_sdk',
];
const TEST_CARDS: Record<string, { index: number; decline?: string }> = {
  pm_card_visa: { index: 0 },
  pm_card_mastercard: { index: 1 },
  pm_card_amex: { index: 2 },
  pm_card_chargeDeclined: { index: 0, decline: 'generic_decline' },
  pm_card_visa_chargeDeclined: { index: 0, decline: 'generic_decline' },
  pm_card_chargeDeclinedInsufficientFunds: { index: 0, decline: 'insufficient_funds' },
  pm_card_authenticationRequired: { index: 0, decline: 'authentication_required' },
};

/** A stored payment method, or a new one for a test token (Stripe makes a fresh PaymentMethod for each use). */
function methodOf(data: Dataset, id: string, param: string): Obj {
  const stored = data.get('payment_method', id);
  if (stored !== undefined) return stored;
  const test = TEST_CARDS[id];
  if (test === undefined) fail(noSuch('PaymentMethod', id, param));
  const pm = paymentMethod({
    id: data.newId('pm_'),
    created: data.tick(),
    customer: null,
    card: card(test.index),
    name: null,
    email: null,
  });
  if (test.decline !== undefined) data.declines.set(pm.id, test.decline);
  return data.put('payment_method', pm);
}

const unexpectedState = (pi: Obj, action: string, allowed: string[]): never =>
  fail(
    stripeError(400, {
      type: 'invalid_request_error',
      code: 'payment_intent_unexpected_state',
      message: `You cannot ${action} this PaymentIntent because it has a status of ${pi.status}. Only a PaymentIntent with one of the following statuses may be ${action === 'cancel' ? 'canceled' : `${action}ed`}: ${allowed.join(', ')}.`,
      payment_intent: pi,
    }),
  );

function confirm(data: Dataset, pi: Obj): void {
  if (pi.payment_method === null)
    fail(
      stripeError(400, {
        type: 'invalid_request_error',
        code: 'payment_intent_unexpected_state',
        message:
          "You cannot confirm this PaymentIntent because it's missing a payment method. You can either update the PaymentIntent with a payment method and then confirm it again, or confirm it again directly with a payment method.",
        payment_intent: pi,
      }),
    );
  const pm = must(data, 'payment_method', pi.payment_method, 'PaymentMethod', 'payment_method');
  const decline = data.declines.get(pm.id);
  if (decline === 'authentication_required') {
    pi.status = 'requires_action';
    pi.next_action = {
      type: 'use_stripe_sdk',
      use_stripe_sdk: {
        type: 'three_d_secure_redirect',
        stripe_js: `https://hooks.stripe.com/3d_secure_2/hosted?payment_intent=${pi.id}`,
      },
    };
    return;
  }
  const ch = charge({
    id: data.newId('ch_'),
    created: data.tick(),
    amount: pi.amount,
    currency: pi.currency,
    customer: pi.customer,
    paymentIntent: pi.id,
    paymentMethod: pm.id,
    card: pm.card,
    name: pm.billing_details.name,
    email: pm.billing_details.email,
    succeeded: decline === undefined,
  });
  ch.description = pi.description;
  ch.metadata = { ...pi.metadata };
  data.put('charge', ch);
  pi.latest_charge = ch.id;
  if (decline !== undefined) {
    const message =
      decline === 'insufficient_funds' ? 'Your card has insufficient funds.' : 'Your card was declined.';
    ch.outcome.reason = decline;
    ch.failure_message = message;
    pi.status = 'requires_payment_method';
    pi.payment_method = null;
    pi.last_payment_error = {
      charge: ch.id,
      code: 'card_declined',
      decline_code: decline,
      message,
      payment_method: pm,
      type: 'card_error',
    };
    fail(
      stripeError(402, {
        type: 'card_error',
        code: 'card_declined',
        decline_code: decline,
        charge: ch.id,
        message,
        payment_intent: pi,
      }),
    );
  }
  pi.last_payment_error = null;
  pi.next_action = null;
  if (pi.capture_method === 'manual') {
    ch.captured = false;
    ch.amount_captured = 0;
    pi.status = 'requires_capture';
    pi.amount_capturable = pi.amount;
    return;
  }
  ch.balance_transaction = data.ledger({
    source: ch,
    amount: ch.amount,
    fee: Math.round(ch.amount * 0.029) + 30,
    type: 'charge',
    category: 'charge',
    created: ch.created,
  }).id;
  pi.status = 'succeeded';
  pi.amount_received = pi.amount;
}

function amountOf(params: Params, currency: string): number {
  const amount = int(params, 'amount') as number;
  if (amount < 50 && ['usd', 'eur', 'gbp', 'cad', 'aud'].includes(currency))
    fail(
      stripeError(400, {
        type: 'invalid_request_error',
        code: 'amount_too_small',
        message: `Amount must be at least 50 cents`,
        param: 'amount',
      }),
    );
  if (amount > 99_999_999)
    fail(
      stripeError(400, {
        type: 'invalid_request_error',
        code: 'amount_too_large',
        message: 'Amount must be no more than $999,999.99',
        param: 'amount',
      }),
    );
  return amount;
}

export function paymentRoutes(): Route[] {
  return [
    listRoute('/v1/payment_intents', 'GetPaymentIntents', 'payment_intent', 'payment_intent', {
      customer: eq('customer'),
      customer_account: eq('customer_account'),
    }),
    route('POST', '/v1/payment_intents', 'PostPaymentIntents', (ctx) => {
      checkKnown(ctx.params, PI_CREATE);
      const { data, params } = ctx;
      required(params, 'amount', 'currency');
      const currency = currencyOf(params);
      const amount = amountOf(params, currency);
      const customer = str(params, 'customer');
      if (customer !== undefined) must(data, 'customer', customer, 'customer', 'customer');
      const id = data.newId('pi_');
      const pi = paymentIntent({
        id,
        secret: `${id}_secret_${data.newId('', 25)}`,
        created: data.tick(),
        amount,
        currency,
        customer: customer ?? null,
      });
      assign(pi, params, {
        description: 'string',
        receipt_email: 'string',
        statement_descriptor: 'string',
        statement_descriptor_suffix: 'string',
        transfer_group: 'string',
        shipping: 'hash',
        setup_future_usage: 'string',
      });
      const capture = oneOf(params, 'capture_method', ['automatic', 'automatic_async', 'manual'] as const);
      if (capture !== undefined) pi.capture_method = capture;
      const types = array(params, 'payment_method_types');
      if (types !== undefined)
        Object.assign(pi, { payment_method_types: types, automatic_payment_methods: null });
      pi.metadata = mergeMetadata({}, params);
      const pm = str(params, 'payment_method');
      if (pm !== undefined) {
        pi.payment_method = methodOf(data, pm, 'payment_method').id;
        pi.status = 'requires_confirmation';
      }
      data.put('payment_intent', pi);
      if (bool(params, 'confirm') === true) confirm(data, pi);
      return one(ctx, pi);
    }),
    searchRoute('payment_intents', 'GetPaymentIntentsSearch', 'payment_intent'),
    route('GET', '/v1/payment_intents/:id', 'GetPaymentIntentsIntent', (ctx) => {
      checkKnown(ctx.params, ['client_secret']);
      return one(ctx, must(ctx.data, 'payment_intent', ctx.ids[0] as string, 'payment_intent', 'intent'));
    }),
    route('POST', '/v1/payment_intents/:id', 'PostPaymentIntentsIntent', (ctx) => {
      checkKnown(ctx.params, PI_UPDATE);
      const { data, params } = ctx;
      const pi = must(data, 'payment_intent', ctx.ids[0] as string, 'payment_intent', 'intent');
      const open = ['requires_payment_method', 'requires_confirmation', 'requires_action'];
      if (
        !open.includes(pi.status) &&
        Object.keys(params).some(
          (k) => !['metadata', 'description', 'receipt_email', 'shipping', 'expand'].includes(k),
        )
      )
        unexpectedState(pi, 'update', open);
      if (params.currency !== undefined) pi.currency = currencyOf(params);
      if (params.amount !== undefined) pi.amount = amountOf(params, pi.currency);
      const customer = str(params, 'customer');
      if (customer !== undefined) pi.customer = must(data, 'customer', customer, 'customer', 'customer').id;
      assign(pi, params, {
        description: 'string',
        receipt_email: 'string',
        statement_descriptor: 'string',
        statement_descriptor_suffix: 'string',
        transfer_group: 'string',
        shipping: 'hash',
        setup_future_usage: 'string',
      });
      const pm = str(params, 'payment_method');
      if (pm !== undefined) {
        pi.payment_method = methodOf(data, pm, 'payment_method').id;
        pi.status = 'requires_confirmation';
      }
      pi.metadata = mergeMetadata(pi.metadata, params);
      return one(ctx, pi);
    }),
    route('POST', '/v1/payment_intents/:id/cancel', 'PostPaymentIntentsIntentCancel', (ctx) => {
      checkKnown(ctx.params, ['cancellation_reason']);
      const pi = must(ctx.data, 'payment_intent', ctx.ids[0] as string, 'payment_intent', 'intent');
      const reason = oneOf(ctx.params, 'cancellation_reason', [
        'abandoned',
        'duplicate',
        'fraudulent',
        'requested_by_customer',
      ] as const);
      const cancelable = [
        'requires_payment_method',
        'requires_capture',
        'requires_confirmation',
        'requires_action',
        'processing',
      ];
      if (!cancelable.includes(pi.status)) unexpectedState(pi, 'cancel', cancelable);
      Object.assign(pi, {
        status: 'canceled',
        canceled_at: ctx.data.tick(),
        cancellation_reason: reason ?? null,
        next_action: null,
      });
      return one(ctx, pi);
    }),
    route('POST', '/v1/payment_intents/:id/confirm', 'PostPaymentIntentsIntentConfirm', (ctx) => {
      checkKnown(ctx.params, PI_CONFIRM);
      const pi = must(ctx.data, 'payment_intent', ctx.ids[0] as string, 'payment_intent', 'intent');
      const confirmable = ['requires_payment_method', 'requires_confirmation', 'requires_action'];
      if (!confirmable.includes(pi.status)) unexpectedState(pi, 'confirm', confirmable);
      const pm = str(ctx.params, 'payment_method');
      if (pm !== undefined) pi.payment_method = methodOf(ctx.data, pm, 'payment_method').id;
      const capture = oneOf(ctx.params, 'capture_method', [
        'automatic',
        'automatic_async',
        'manual',
      ] as const);
      if (capture !== undefined) pi.capture_method = capture;
      assign(pi, ctx.params, { receipt_email: 'string', shipping: 'hash', setup_future_usage: 'string' });
      confirm(ctx.data, pi);
      return one(ctx, pi);
    }),

    route('POST', '/v1/payment_methods/:id/attach', 'PostPaymentMethodsPaymentMethodAttach', (ctx) => {
      checkKnown(ctx.params, ['customer']);
      required(ctx.params, 'customer');
      const cust = must(ctx.data, 'customer', str(ctx.params, 'customer') as string, 'customer', 'customer');
      const pm = methodOf(ctx.data, ctx.ids[0] as string, 'payment_method');
      if (pm.customer !== null && pm.customer !== cust.id)
        fail(
          invalid(
            'The payment method you provided has already been attached to a customer.',
            'payment_method',
          ),
        );
      pm.customer = cust.id;
      return one(ctx, pm);
    }),
  ];
}
