// Builders of Stripe objects, shaped after Stripe's sample object of each resource (reference/providers/
// stripe-fixtures.json) with the sample's placeholder members (filler numbers, `obj_123` references) given the
// values a real object of that state carries (null, or a real reference). Used by the seed and by the create routes.

// biome-ignore lint/suspicious/noExplicitAny: Stripe objects are deep JSON documents, read and patched by name
export type Obj = Record<string, any>;

export const ACCOUNT_ID = 'acct_1CesFakeAcct0001';

export const nullAddress = (): Obj => ({
  city: null,
  country: null,
  line1: null,
  line2: null,
  postal_code: null,
  state: null,
});

export function address(i: number): Obj {
  const cities = [
    ['San Francisco', 'CA', '94103'],
    ['Austin', 'TX', '73301'],
    ['New York', 'NY', '10001'],
    ['Seattle', 'WA', '98101'],
  ] as const;
  const [city, state, zip] = cities[i % cities.length] as readonly [string, string, string];
  return { city, country: 'US', line1: `${100 + i} Market Street`, line2: null, postal_code: zip, state };
}

export function customer(f: {
  id: string;
  created: number;
  name: string | null;
  email: string | null;
  invoicePrefix: string;
}): Obj {
  return {
    id: f.id,
    object: 'customer',
    address: null,
    balance: 0,
    created: f.created,
    currency: null,
    default_source: null,
    delinquent: false,
    description: null,
    discount: null,
    email: f.email,
    invoice_prefix: f.invoicePrefix,
    invoice_settings: {
      custom_fields: null,
      default_payment_method: null,
      footer: null,
      rendering_options: null,
    },
    livemode: false,
    metadata: {},
    name: f.name,
    next_invoice_sequence: 1,
    phone: null,
    preferred_locales: [],
    shipping: null,
    tax_exempt: 'none',
    test_clock: null,
    customer_account: null,
  };
}

export function product(f: { id: string; created: number; name: string }): Obj {
  return {
    id: f.id,
    object: 'product',
    active: true,
    created: f.created,
    default_price: null,
    description: null,
    features: [],
    images: [],
    livemode: false,
    marketing_features: [],
    metadata: {},
    name: f.name,
    package_dimensions: null,
    shippable: null,
    statement_descriptor: null,
    tax_code: null,
    type: 'service',
    unit_label: null,
    updated: f.created,
    url: null,
  };
}

export function price(f: {
  id: string;
  created: number;
  product: string;
  currency: string;
  unitAmount: number | null;
  recurring: { interval: string; interval_count: number } | null;
}): Obj {
  return {
    id: f.id,
    object: 'price',
    active: true,
    billing_scheme: 'per_unit',
    created: f.created,
    currency: f.currency,
    custom_unit_amount: null,
    livemode: false,
    lookup_key: null,
    metadata: {},
    nickname: null,
    product: f.product,
    recurring:
      f.recurring === null
        ? null
        : {
            ...f.recurring,
            meter: null,
            usage_type: 'licensed',
            aggregate_usage: null,
            trial_period_days: null,
          },
    tax_behavior: 'unspecified',
    tiers_mode: null,
    transform_quantity: null,
    type: f.recurring === null ? 'one_time' : 'recurring',
    unit_amount: f.unitAmount,
    unit_amount_decimal: f.unitAmount === null ? null : String(f.unitAmount),
  };
}

const BRANDS = ['visa', 'mastercard', 'amex', 'discover'] as const;

export function card(i: number): Obj {
  const brand = BRANDS[i % BRANDS.length] as string;
  return {
    brand,
    checks: { address_line1_check: null, address_postal_code_check: 'pass', cvc_check: 'pass' },
    country: 'US',
    display_brand: brand,
    exp_month: (i % 12) + 1,
    exp_year: 2027 + (i % 4),
    fingerprint: `Fp${String(1000 + i).padStart(4, '0')}CesFake${i % 10}`,
    funding: i % 5 === 4 ? 'debit' : 'credit',
    generated_from: null,
    last4: String(4242 + i * 37).slice(-4),
    networks: { available: [brand], preferred: null },
    three_d_secure_usage: { supported: true },
    wallet: null,
    regulated_status: 'unregulated',
  };
}

export function paymentMethod(f: {
  id: string;
  created: number;
  customer: string | null;
  card: Obj;
  name: string | null;
  email: string | null;
}): Obj {
  return {
    id: f.id,
    object: 'payment_method',
    allow_redisplay: 'unspecified',
    billing_details: { address: nullAddress(), email: f.email, name: f.name, phone: null, tax_id: null },
    card: f.card,
    created: f.created,
    customer: f.customer,
    livemode: false,
    metadata: {},
    type: 'card',
    customer_account: null,
  };
}

export function paymentIntent(f: {
  id: string;
  secret: string;
  created: number;
  amount: number;
  currency: string;
  customer: string | null;
}): Obj {
  return {
    id: f.id,
    object: 'payment_intent',
    amount: f.amount,
    amount_capturable: 0,
    amount_details: { tip: {} },
    amount_received: 0,
    application: null,
    application_fee_amount: null,
    automatic_payment_methods: { allow_redirects: 'always', enabled: true },
    canceled_at: null,
    cancellation_reason: null,
    capture_method: 'automatic',
    client_secret: f.secret,
    confirmation_method: 'automatic',
    created: f.created,
    currency: f.currency,
    customer: f.customer,
    description: null,
    excluded_payment_method_types: null,
    last_payment_error: null,
    latest_charge: null,
    livemode: false,
    metadata: {},
    next_action: null,
    on_behalf_of: null,
    payment_method: null,
    payment_method_configuration_details: null,
    payment_method_options: {
      card: { installments: null, mandate_options: null, network: null, request_three_d_secure: 'automatic' },
    },
    payment_method_types: ['card'],
    processing: null,
    receipt_email: null,
    review: null,
    setup_future_usage: null,
    shipping: null,
    source: null,
    statement_descriptor: null,
    statement_descriptor_suffix: null,
    status: 'requires_payment_method',
    transfer_data: null,
    transfer_group: null,
    customer_account: null,
  };
}
