// Builders of Stripe's billing objects (invoice, line item, subscription, subscription item, checkout session),
// shaped after their sample objects in reference/providers/stripe-fixtures.json; see records.ts.
import { ACCOUNT_ID, type Obj } from './records.ts';

export function lineItem(f: {
  id: string;
  invoice: string;
  price: Obj;
  quantity: number;
  period: { start: number; end: number };
  subscription: string | null;
  description: string;
}): Obj {
  const amount = (f.price.unit_amount ?? 0) * f.quantity;
  return {
    id: f.id,
    object: 'line_item',
    amount,
    amount_excluding_tax: amount,
    currency: f.price.currency,
    description: f.description,
    discount_amounts: [],
    discountable: true,
    discounts: [],
    invoice: f.invoice,
    livemode: false,
    metadata: {},
    period: f.period,
    plan: null,
    price: f.price,
    proration: false,
    proration_details: { credited_items: null },
    quantity: f.quantity,
    subscription: f.subscription,
    tax_amounts: [],
    tax_rates: [],
    type: f.subscription === null ? 'invoiceitem' : 'subscription',
    unit_amount_excluding_tax: String(f.price.unit_amount ?? 0),
  };
}

export function invoice(f: {
  id: string;
  created: number;
  customer: Obj;
  subscription: string | null;
  collectionMethod: 'charge_automatically' | 'send_invoice';
  currency: string;
  lines: Obj[];
}): Obj {
  const total = f.lines.reduce((sum, l) => sum + (l.amount as number), 0);
  return {
    id: f.id,
    object: 'invoice',
    account_country: 'US',
    account_name: 'CES Fake Store',
    account_tax_ids: null,
    amount_due: total,
    amount_paid: 0,
    amount_remaining: total,
    amount_shipping: 0,
    application: null,
    application_fee_amount: null,
    attempt_count: 0,
    attempted: false,
    auto_advance: true,
    automatic_tax: { enabled: false, liability: null, status: null },
    billing_reason: f.subscription === null ? 'manual' : 'subscription_cycle',
    charge: null,
    collection_method: f.collectionMethod,
    created: f.created,
    currency: f.currency,
    custom_fields: null,
    customer: f.customer.id,
    customer_address: null,
    customer_email: f.customer.email,
    customer_name: f.customer.name,
    customer_phone: null,
    customer_shipping: null,
    customer_tax_exempt: 'none',
    customer_tax_ids: [],
    default_payment_method: null,
    default_source: null,
    default_tax_rates: [],
    description: null,
    discount: null,
    discounts: [],
    due_date: f.collectionMethod === 'send_invoice' ? f.created + 30 * 86_400 : null,
    effective_at: null,
    ending_balance: null,
    footer: null,
    from_invoice: null,
    hosted_invoice_url: null,
    invoice_pdf: null,
    issuer: { type: 'self' },
    last_finalization_error: null,
    latest_revision: null,
    lines: {
      object: 'list',
      data: f.lines,
      has_more: false,
      total_count: f.lines.length,
      url: `/v1/invoices/${f.id}/lines`,
    },
    livemode: false,
    metadata: {},
    next_payment_attempt: null,
    number: null,
    on_behalf_of: null,
    paid: false,
    paid_out_of_band: false,
    payment_intent: null,
    payment_settings: { default_mandate: null, payment_method_options: null, payment_method_types: null },
    period_end: f.created,
    period_start: f.created,
    post_payment_credit_notes_amount: 0,
    pre_payment_credit_notes_amount: 0,
    quote: null,
    receipt_number: null,
    rendering: null,
    shipping_cost: null,
    shipping_details: null,
    starting_balance: 0,
    statement_descriptor: null,
    status: 'draft',
    status_transitions: { finalized_at: null, marked_uncollectible_at: null, paid_at: null, voided_at: null },
    subscription: f.subscription,
    subscription_details: { metadata: f.subscription === null ? null : {} },
    subtotal: total,
    subtotal_excluding_tax: total,
    tax: null,
    test_clock: null,
    total,
    total_discount_amounts: [],
    total_excluding_tax: total,
    total_tax_amounts: [],
    transfer_data: null,
    webhooks_delivered_at: f.created,
    customer_account: null,
  };
}

/** The invoice leaves draft: numbered, with its hosted page and PDF (Stripe's finalize). */
export function finalizeInvoice(inv: Obj, number: string, at: number): void {
  inv.status = 'open';
  inv.number = number;
  inv.hosted_invoice_url = `https://invoice.stripe.com/i/${ACCOUNT_ID}/test_${inv.id.slice(3)}`;
  inv.invoice_pdf = `https://pay.stripe.com/invoice/${ACCOUNT_ID}/test_${inv.id.slice(3)}/pdf`;
  inv.effective_at = at;
  inv.status_transitions.finalized_at = at;
  if (inv.collection_method === 'charge_automatically') inv.next_payment_attempt = at + 3600;
}

export function payInvoice(inv: Obj, at: number): void {
  inv.status = 'paid';
  inv.paid = true;
  inv.amount_paid = inv.amount_due;
  inv.amount_remaining = 0;
  inv.attempted = true;
  inv.attempt_count = 1;
  inv.next_payment_attempt = null;
  inv.ending_balance = 0;
  inv.status_transitions.paid_at = at;
}

export function subscriptionItem(f: {
  id: string;
  created: number;
  subscription: string;
  price: Obj;
  quantity: number;
  period: { start: number; end: number };
}): Obj {
  return {
    id: f.id,
    object: 'subscription_item',
    billing_thresholds: null,
    created: f.created,
    current_period_end: f.period.end,
    current_period_start: f.period.start,
    discounts: [],
    metadata: {},
    plan: {
      id: f.price.id,
      object: 'plan',
      active: f.price.active,
      aggregate_usage: null,
      amount: f.price.unit_amount,
      amount_decimal: f.price.unit_amount_decimal,
      billing_scheme: 'per_unit',
      created: f.price.created,
      currency: f.price.currency,
      interval: f.price.recurring?.interval ?? 'month',
      interval_count: f.price.recurring?.interval_count ?? 1,
      livemode: false,
      metadata: {},
      meter: null,
      nickname: null,
      product: f.price.product,
      tiers_mode: null,
      transform_usage: null,
      trial_period_days: null,
      usage_type: 'licensed',
    },
    price: f.price,
    quantity: f.quantity,
    subscription: f.subscription,
    tax_rates: [],
  };
}

export function subscription(f: {
  id: string;
  created: number;
  customer: string;
  items: Obj[];
  period: { start: number; end: number };
  collectionMethod: 'charge_automatically' | 'send_invoice';
}): Obj {
  const currency = (f.items[0]?.price.currency as string | undefined) ?? 'usd';
  return {
    id: f.id,
    object: 'subscription',
    application: null,
    application_fee_percent: null,
    automatic_tax: { enabled: false, liability: null },
    billing_cycle_anchor: f.period.start,
    billing_cycle_anchor_config: null,
    billing_thresholds: null,
    cancel_at: null,
    cancel_at_period_end: false,
    canceled_at: null,
    cancellation_details: { comment: null, feedback: null, reason: null },
    collection_method: f.collectionMethod,
    created: f.created,
    currency,
    current_period_end: f.period.end,
    current_period_start: f.period.start,
    customer: f.customer,
    days_until_due: f.collectionMethod === 'send_invoice' ? 30 : null,
    default_payment_method: null,
    default_source: null,
    default_tax_rates: [],
    description: null,
    discount: null,
    discounts: [],
    ended_at: null,
    invoice_settings: { account_tax_ids: null, issuer: { type: 'self' } },
    items: {
      object: 'list',
      data: f.items,
      has_more: false,
      total_count: f.items.length,
      url: `/v1/subscription_items?subscription=${f.id}`,
    },
    latest_invoice: null,
    livemode: false,
    metadata: {},
    next_pending_invoice_item_invoice: null,
    on_behalf_of: null,
    pause_collection: null,
    payment_settings: {
      payment_method_options: null,
      payment_method_types: null,
      save_default_payment_method: 'off',
    },
    pending_invoice_item_interval: null,
    pending_setup_intent: null,
    pending_update: null,
    plan: f.items.length === 1 ? f.items[0]?.plan : null,
    quantity: f.items.length === 1 ? f.items[0]?.quantity : null,
    schedule: null,
    start_date: f.created,
    status: 'active',
    test_clock: null,
    transfer_data: null,
    trial_end: null,
    trial_settings: { end_behavior: { missing_payment_method: 'create_invoice' } },
    trial_start: null,
    customer_account: null,
  };
}

export function checkoutSession(f: {
  id: string;
  created: number;
  mode: string;
  successUrl: string;
  cancelUrl: string | null;
  customer: string | null;
  customerEmail: string | null;
  currency: string | null;
  amount: number | null;
  paymentIntent: string | null;
}): Obj {
  return {
    id: f.id,
    object: 'checkout.session',
    after_expiration: null,
    allow_promotion_codes: null,
    amount_subtotal: f.amount,
    amount_total: f.amount,
    automatic_tax: { enabled: false, liability: null, status: null },
    billing_address_collection: null,
    cancel_url: f.cancelUrl,
    client_reference_id: null,
    client_secret: null,
    consent: null,
    consent_collection: null,
    created: f.created,
    currency: f.currency,
    currency_conversion: null,
    custom_fields: [],
    custom_text: {
      after_submit: null,
      shipping_address: null,
      submit: null,
      terms_of_service_acceptance: null,
    },
    customer: f.customer,
    customer_creation: f.customer === null ? 'if_required' : null,
    customer_details:
      f.customerEmail === null
        ? null
        : {
            address: null,
            email: f.customerEmail,
            name: null,
            phone: null,
            tax_exempt: 'none',
            tax_ids: null,
          },
    customer_email: f.customerEmail,
    expires_at: f.created + 86_400,
    invoice: null,
    invoice_creation: null,
    livemode: false,
    locale: null,
    metadata: {},
    mode: f.mode,
    payment_intent: f.paymentIntent,
    payment_link: null,
    payment_method_collection: f.mode === 'payment' ? null : 'always',
    payment_method_configuration_details: null,
    payment_method_options: { card: { request_three_d_secure: 'automatic' } },
    payment_method_types: ['card'],
    payment_status: f.mode === 'setup' ? 'no_payment_required' : 'unpaid',
    phone_number_collection: { enabled: false },
    recovered_from: null,
    saved_payment_method_options: null,
    setup_intent: null,
    shipping_address_collection: null,
    shipping_cost: null,
    shipping_details: null,
    shipping_options: [],
    status: 'open',
    submit_type: null,
    subscription: null,
    success_url: f.successUrl,
    total_details: f.amount === null ? null : { amount_discount: 0, amount_shipping: 0, amount_tax: 0 },
    ui_mode: 'hosted',
    url: `https://checkout.stripe.com/c/pay/${f.id}`,
  };
}
