// Builders of Stripe's money-movement objects (charge, refund, dispute, balance transaction, payout), shaped
// after their sample objects in reference/providers/stripe-fixtures.json; see records.ts.
import { nullAddress, type Obj } from './records.ts';

export function charge(f: {
  id: string;
  created: number;
  amount: number;
  currency: string;
  customer: string | null;
  paymentIntent: string | null;
  paymentMethod: string;
  card: Obj;
  name: string | null;
  email: string | null;
  succeeded: boolean;
}): Obj {
  const { brand, checks, country, exp_month, exp_year, fingerprint, funding, last4 } = f.card as Obj;
  return {
    id: f.id,
    object: 'charge',
    amount: f.amount,
    amount_captured: f.succeeded ? f.amount : 0,
    amount_refunded: 0,
    application: null,
    application_fee: null,
    application_fee_amount: null,
    balance_transaction: null,
    billing_details: { address: nullAddress(), email: f.email, name: f.name, phone: null, tax_id: null },
    calculated_statement_descriptor: 'CES FAKE STORE',
    captured: f.succeeded,
    created: f.created,
    currency: f.currency,
    customer: f.customer,
    description: null,
    disputed: false,
    failure_balance_transaction: null,
    failure_code: f.succeeded ? null : 'card_declined',
    failure_message: f.succeeded ? null : 'Your card was declined.',
    fraud_details: {},
    livemode: false,
    metadata: {},
    on_behalf_of: null,
    outcome: {
      advice_code: null,
      network_advice_code: null,
      network_decline_code: null,
      network_status: f.succeeded ? 'approved_by_network' : 'declined_by_network',
      reason: f.succeeded ? null : 'generic_decline',
      risk_level: 'normal',
      risk_score: 20 + (f.amount % 40),
      seller_message: f.succeeded
        ? 'Payment complete.'
        : 'The bank did not return any further details with this decline.',
      type: f.succeeded ? 'authorized' : 'issuer_declined',
    },
    paid: f.succeeded,
    payment_intent: f.paymentIntent,
    payment_method: f.paymentMethod,
    payment_method_details: {
      card: {
        amount_authorized: f.succeeded ? f.amount : null,
        authorization_code: null,
        brand,
        checks,
        country,
        exp_month,
        exp_year,
        extended_authorization: { status: 'disabled' },
        fingerprint,
        funding,
        incremental_authorization: { status: 'unavailable' },
        installments: null,
        last4,
        mandate: null,
        multicapture: { status: 'unavailable' },
        network: brand,
        network_token: { used: false },
        network_transaction_id: null,
        overcapture: { maximum_amount_capturable: f.amount, status: 'unavailable' },
        regulated_status: 'unregulated',
        three_d_secure: null,
        wallet: null,
      },
      type: 'card',
    },
    receipt_email: null,
    receipt_number: null,
    receipt_url: `https://pay.stripe.com/receipts/payment/${f.id.slice(3)}`,
    refunded: false,
    refunds: {
      object: 'list',
      data: [],
      has_more: false,
      total_count: 0,
      url: `/v1/charges/${f.id}/refunds`,
    },
    review: null,
    shipping: null,
    source: null,
    source_transfer: null,
    statement_descriptor: null,
    statement_descriptor_suffix: null,
    status: f.succeeded ? 'succeeded' : 'failed',
    transfer_data: null,
    transfer_group: null,
  };
}

export function refund(f: {
  id: string;
  created: number;
  amount: number;
  charge: Obj;
  reason: string | null;
  status: string;
}): Obj {
  return {
    id: f.id,
    object: 'refund',
    amount: f.amount,
    balance_transaction: null,
    charge: f.charge.id,
    created: f.created,
    currency: f.charge.currency,
    destination_details: {
      card: { reference_status: 'available', reference_type: 'acquirer_reference_number', type: 'refund' },
      type: 'card',
    },
    metadata: {},
    payment_intent: f.charge.payment_intent,
    reason: f.reason,
    receipt_number: null,
    source_transfer_reversal: null,
    status: f.status,
    transfer_reversal: null,
  };
}

export function dispute(f: {
  id: string;
  created: number;
  charge: Obj;
  reason: string;
  status: string;
}): Obj {
  const evidence = Object.fromEntries(
    [
      'access_activity_log',
      'billing_address',
      'cancellation_policy',
      'cancellation_policy_disclosure',
      'cancellation_rebuttal',
      'customer_communication',
      'customer_email_address',
      'customer_name',
      'customer_purchase_ip',
      'customer_signature',
      'duplicate_charge_documentation',
      'duplicate_charge_explanation',
      'duplicate_charge_id',
      'product_description',
      'receipt',
      'refund_policy',
      'refund_policy_disclosure',
      'refund_refusal_explanation',
      'service_date',
      'service_documentation',
      'shipping_address',
      'shipping_carrier',
      'shipping_date',
      'shipping_documentation',
      'shipping_tracking_number',
      'uncategorized_file',
      'uncategorized_text',
    ].map((k) => [k, null]),
  );
  return {
    id: f.id,
    object: 'dispute',
    amount: f.charge.amount,
    balance_transactions: [],
    charge: f.charge.id,
    created: f.created,
    currency: f.charge.currency,
    evidence,
    evidence_details: {
      due_by: f.created + 7 * 86_400,
      has_evidence: false,
      past_due: false,
      submission_count: 0,
    },
    is_charge_refundable: f.status.startsWith('warning'),
    livemode: false,
    metadata: {},
    payment_intent: f.charge.payment_intent,
    payment_method_details: {
      card: {
        brand: f.charge.payment_method_details.card.brand,
        case_type: 'chargeback',
        network_reason_code: '10.4',
      },
      type: 'card',
    },
    reason: f.reason,
    status: f.status,
  };
}

export function balanceTransaction(f: {
  id: string;
  created: number;
  amount: number;
  fee: number;
  currency: string;
  source: string;
  type: string;
  category: string;
  description: string | null;
  status: string;
}): Obj {
  return {
    id: f.id,
    object: 'balance_transaction',
    amount: f.amount,
    available_on: f.created + 2 * 86_400,
    created: f.created,
    currency: f.currency,
    description: f.description,
    exchange_rate: null,
    fee: f.fee,
    fee_details:
      f.fee === 0
        ? []
        : [
            {
              amount: f.fee,
              application: null,
              currency: f.currency,
              description: 'Stripe processing fees',
              type: 'stripe_fee',
            },
          ],
    net: f.amount - f.fee,
    reporting_category: f.category,
    source: f.source,
    status: f.status,
    type: f.type,
  };
}

export function payout(f: {
  id: string;
  created: number;
  amount: number;
  destination: string;
  status: string;
}): Obj {
  const failed = f.status === 'failed';
  return {
    id: f.id,
    object: 'payout',
    amount: f.amount,
    application_fee: null,
    application_fee_amount: null,
    arrival_date: f.created + 2 * 86_400,
    automatic: true,
    balance_transaction: null,
    created: f.created,
    currency: 'usd',
    description: 'STRIPE PAYOUT',
    destination: f.destination,
    failure_balance_transaction: null,
    failure_code: failed ? 'account_closed' : null,
    failure_message: failed ? 'The bank account has been closed.' : null,
    livemode: false,
    metadata: {},
    method: 'standard',
    original_payout: null,
    reconciliation_status: f.status === 'paid' ? 'completed' : 'not_applicable',
    reversed_by: null,
    source_type: 'card',
    statement_descriptor: null,
    status: f.status,
    trace_id: { status: f.status === 'paid' ? 'supported' : 'pending', value: null },
    type: f.destination.startsWith('card_') ? 'card' : 'bank_account',
  };
}
