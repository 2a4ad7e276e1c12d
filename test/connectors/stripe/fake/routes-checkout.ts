// Refunds (create) and Checkout sessions (create, retrieve). Each route names the stripe.yaml operation it follows.
import { array, assign, checkKnown, int, mergeMetadata, oneOf, required, str } from './params.ts';
import { type Obj, product } from './records.ts';
import { checkoutSession } from './records-billing.ts';
import { refund } from './records-money.ts';
import { must, one, type Route, route } from './router.ts';
import { createPrice, currencyOf } from './routes-catalog.ts';
import { fail, invalid, type Params, stripeError } from './wire.ts';

const REFUND_CREATE = [
  'amount',
  'charge',
  'currency',
  'customer',
  'instructions_email',
  'metadata',
  'origin',
  'payment_intent',
  'reason',
  'refund_application_fee',
  'reverse_transfer',
];
const CHECKOUT_CREATE = [
  'after_expiration',
  'allow_promotion_codes',
  'automatic_tax',
  'billing_address_collection',
  'cancel_url',
  'client_reference_id',
  'consent_collection',
  'currency',
  'custom_fields',
  'custom_text',
  'customer',
  'customer_creation',
  'customer_email',
  'customer_update',
  'discounts',
  'expires_at',
  'invoice_creation',
  'line_items',
  'locale',
  'metadata',
  'mode',
  'payment_intent_data',
  'payment_method_collection',
  'payment_method_options',
  'payment_method_types',
  'phone_number_collection',
  'setup_intent_data',
  'shipping_address_collection',
  'shipping_options',
  'submit_type',
  'subscription_data',
  'success_url',
  'tax_id_collection',
];

export function checkoutRoutes(): Route[] {
  return [
    route('POST', '/v1/refunds', 'PostRefunds', (ctx) => {
      checkKnown(ctx.params, REFUND_CREATE);
      const { data, params } = ctx;
      const chargeId = str(params, 'charge');
      const piId = str(params, 'payment_intent');
      if (chargeId === undefined && piId === undefined)
        fail(
          invalid(
            'One of the following params should be provided for this request: payment_intent or charge.',
          ),
        );
      let ch: Obj;
      if (chargeId !== undefined) ch = must(data, 'charge', chargeId, 'charge', 'charge');
      else {
        const pi = must(data, 'payment_intent', piId as string, 'payment_intent', 'payment_intent');
        const latest = pi.latest_charge === null ? undefined : data.get('charge', pi.latest_charge);
        if (pi.status !== 'succeeded' || latest === undefined)
          fail(
            invalid(
              `This PaymentIntent (${pi.id}) does not have a successful charge to refund.`,
              'payment_intent',
            ),
          );
        ch = latest;
      }
      if (ch.disputed)
        fail(
          stripeError(400, {
            type: 'invalid_request_error',
            code: 'charge_disputed',
            message: `Charge ${ch.id} has been charged back; cannot issue a refund.`,
          }),
        );
      if (ch.refunded || ch.status !== 'succeeded')
        fail(
          stripeError(400, {
            type: 'invalid_request_error',
            code: 'charge_already_refunded',
            message: `Charge ${ch.id} has already been refunded.`,
          }),
        );
      const remaining = ch.amount - ch.amount_refunded;
      const amount = int(params, 'amount') ?? remaining;
      if (amount <= 0) fail(invalid('This value must be greater than or equal to 1.', 'amount'));
      if (amount > remaining)
        fail(
          stripeError(400, {
            type: 'invalid_request_error',
            code: 'amount_too_large',
            message: `Refund amount (${(amount / 100).toFixed(2)} ${ch.currency}) is greater than unrefunded amount on charge (${(remaining / 100).toFixed(2)} ${ch.currency})`,
            param: 'amount',
          }),
        );
      const reason = oneOf(params, 'reason', ['duplicate', 'fraudulent', 'requested_by_customer'] as const);
      const re = refund({
        id: data.newId('re_'),
        created: data.tick(),
        amount,
        charge: ch,
        reason: reason ?? null,
        status: 'succeeded',
      });
      re.metadata = mergeMetadata({}, params);
      re.balance_transaction = data.ledger({
        source: re,
        amount: -amount,
        fee: 0,
        type: 'refund',
        category: 'refund',
        created: re.created,
      }).id;
      data.put('refund', re);
      data.applyRefund(ch, re);
      return one(ctx, re);
    }),

    route('POST', '/v1/checkout/sessions', 'PostCheckoutSessions', (ctx) => {
      checkKnown(ctx.params, CHECKOUT_CREATE);
      const { data, params } = ctx;
      required(params, 'mode');
      const mode = oneOf(params, 'mode', ['payment', 'setup', 'subscription'] as const) as string;
      required(params, 'success_url');
      const customer = str(params, 'customer');
      const email = str(params, 'customer_email');
      if (customer !== undefined && email !== undefined)
        fail(invalid('You may only specify one of these parameters: customer, customer_email.', 'customer'));
      if (customer !== undefined) must(data, 'customer', customer, 'customer', 'customer');
      const lines = array(params, 'line_items') ?? [];
      if (mode !== 'setup' && lines.length === 0)
        fail(invalid(`\`line_items\` is required in \`${mode}\` mode.`, 'line_items', 'parameter_missing'));
      let amount = 0;
      let recurring = false;
      let currency: string | null =
        mode === 'setup' && params.currency !== undefined ? currencyOf(params) : null;
      lines.forEach((entry, i) => {
        const line = entry as Params;
        const at = (name: string) => `line_items[${i}][${name}]`;
        if (line.quantity === undefined)
          fail(invalid(`Missing required param: ${at('quantity')}.`, at('quantity'), 'parameter_missing'));
        const quantity = int(line, 'quantity', at('quantity')) as number;
        const priceId = str(line, 'price');
        let pr: Obj;
        if (priceId !== undefined) pr = must(data, 'price', priceId, 'price', at('price'));
        else if (line.price_data !== undefined) {
          const pd = line.price_data as Params;
          let productId = str(pd, 'product');
          if (productId !== undefined)
            must(data, 'product', productId, 'product', `${at('price_data')}[product]`);
          else {
            const name = (pd.product_data as Params | undefined)?.name;
            if (typeof name !== 'string' || name === '')
              fail(
                invalid(
                  `Missing required param: ${at('price_data')}[product].`,
                  `${at('price_data')}[product]`,
                  'parameter_missing',
                ),
              );
            productId = data.put(
              'product',
              product({ id: data.newId('prod_', 14), created: data.tick(), name }),
            ).id;
          }
          const { product: _p, product_data: _d, ...priceParams } = pd;
          pr = createPrice(data, priceParams, productId as string, at('price_data'));
        } else fail(invalid(`Missing required param: ${at('price')}.`, at('price'), 'parameter_missing'));
        if (mode === 'payment' && pr.type === 'recurring')
          fail(
            invalid(
              'You specified `payment` mode but passed a recurring price. Either switch to `subscription` mode or use only one-time prices.',
              at('price'),
            ),
          );
        recurring ||= pr.type === 'recurring';
        amount += (pr.unit_amount ?? 0) * quantity;
        currency ??= pr.currency;
      });
      if (mode === 'subscription' && !recurring)
        fail(
          invalid(
            'You must provide at least one recurring price in `subscription` mode when using prices.',
            'line_items',
          ),
        );
      const cs = checkoutSession({
        id: data.newId('cs_test_', 58),
        created: data.tick(),
        mode,
        successUrl: str(params, 'success_url') as string,
        cancelUrl: str(params, 'cancel_url') ?? null,
        customer: customer ?? null,
        customerEmail: email ?? null,
        currency,
        amount: mode === 'setup' ? null : amount,
        paymentIntent: null,
      });
      assign(cs, params, {
        client_reference_id: 'string',
        locale: 'string',
        submit_type: 'string',
        payment_method_types: 'array',
      });
      cs.metadata = mergeMetadata({}, params);
      data.put('checkout.session', cs);
      return one(ctx, cs);
    }),
    route('GET', '/v1/checkout/sessions/:id', 'GetCheckoutSessionsSession', (ctx) =>
      one(ctx, must(ctx.data, 'checkout.session', ctx.ids[0] as string, 'checkout.session', 'session')),
    ),
  ];
}
