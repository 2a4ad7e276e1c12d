// Read-only routes: the account, the balance and its history, charges, disputes, payouts and refunds (their
// reads; refunds are created in routes-payments.ts). Each names the stripe.yaml operation it follows.
import { inRange, range, str } from './params.ts';
import { ACCOUNT_ID, type Obj } from './records.ts';
import { eq, listRoute, must, one, type Route, route, searchRoute } from './router.ts';

const ACCOUNT: Obj = {
  id: ACCOUNT_ID,
  object: 'account',
  business_profile: {
    mcc: '5734',
    name: 'CES Fake Store',
    product_description: null,
    support_address: null,
    support_email: 'support@example.com',
    support_phone: null,
    support_url: null,
    url: 'https://shop.example.com',
  },
  business_type: 'company',
  capabilities: { card_payments: 'active', transfers: 'active' },
  charges_enabled: true,
  controller: { type: 'account' },
  country: 'US',
  created: 1_700_000_000,
  default_currency: 'usd',
  details_submitted: true,
  email: 'owner@example.com',
  external_accounts: {
    object: 'list',
    data: [],
    has_more: false,
    url: `/v1/accounts/${ACCOUNT_ID}/external_accounts`,
  },
  future_requirements: {
    alternatives: [],
    current_deadline: null,
    currently_due: [],
    disabled_reason: null,
    errors: [],
    eventually_due: [],
    past_due: [],
    pending_verification: [],
  },
  metadata: {},
  payouts_enabled: true,
  requirements: {
    alternatives: [],
    current_deadline: null,
    currently_due: [],
    disabled_reason: null,
    errors: [],
    eventually_due: [],
    past_due: [],
    pending_verification: [],
  },
  settings: {
    dashboard: { display_name: 'CES Fake Store', timezone: 'Etc/UTC' },
    payments: { statement_descriptor: 'CES FAKE STORE' },
    payouts: {
      debit_negative_balances: true,
      schedule: { delay_days: 2, interval: 'daily' },
      statement_descriptor: null,
    },
  },
  tos_acceptance: { date: 1_700_000_000 },
  type: 'standard',
};

const balanceTransactionFilters = {
  currency: eq('currency'),
  source: eq('source'),
  type: eq('type'),
};

export function readRoutes(): Route[] {
  return [
    route('GET', '/v1/account', 'GetAccount', (ctx) => one(ctx, ACCOUNT)),
    route('GET', '/v1/balance', 'GetBalance', (ctx) => one(ctx, ctx.data.balance())),

    listRoute(
      '/v1/balance_transactions',
      'GetBalanceTransactions',
      'balance_transaction',
      'balance transaction',
      {
        ...balanceTransactionFilters,
        payout: (o, p, data) => data.payoutOf.get(o.id) === str(p, 'payout'),
      },
    ),
    route('GET', '/v1/balance_transactions/:id', 'GetBalanceTransactionsId', (ctx) =>
      one(ctx, must(ctx.data, 'balance_transaction', ctx.ids[0] as string, 'balance transaction')),
    ),
    // The older name of the same history.
    listRoute('/v1/balance/history', 'GetBalanceHistory', 'balance_transaction', 'balance transaction', {
      ...balanceTransactionFilters,
      payout: (o, p, data) => data.payoutOf.get(o.id) === str(p, 'payout'),
    }),
    route('GET', '/v1/balance/history/:id', 'GetBalanceHistoryId', (ctx) =>
      one(ctx, must(ctx.data, 'balance_transaction', ctx.ids[0] as string, 'balance transaction')),
    ),

    listRoute('/v1/charges', 'GetCharges', 'charge', 'charge', {
      customer: eq('customer'),
      payment_intent: eq('payment_intent'),
      transfer_group: eq('transfer_group'),
    }),
    searchRoute('charges', 'GetChargesSearch', 'charge'),
    route('GET', '/v1/charges/:id', 'GetChargesCharge', (ctx) =>
      one(ctx, must(ctx.data, 'charge', ctx.ids[0] as string, 'charge')),
    ),

    listRoute('/v1/disputes', 'GetDisputes', 'dispute', 'dispute', {
      charge: eq('charge'),
      payment_intent: eq('payment_intent'),
    }),
    route('GET', '/v1/disputes/:id', 'GetDisputesDispute', (ctx) =>
      one(ctx, must(ctx.data, 'dispute', ctx.ids[0] as string, 'dispute')),
    ),

    listRoute('/v1/payouts', 'GetPayouts', 'payout', 'payout', {
      arrival_date: (o, p) => inRange(o.arrival_date, range(p, 'arrival_date')),
      destination: eq('destination'),
      status: eq('status'),
    }),
    route('GET', '/v1/payouts/:id', 'GetPayoutsPayout', (ctx) =>
      one(ctx, must(ctx.data, 'payout', ctx.ids[0] as string, 'payout')),
    ),

    listRoute('/v1/refunds', 'GetRefunds', 'refund', 'refund', {
      charge: eq('charge'),
      payment_intent: eq('payment_intent'),
    }),
    route('GET', '/v1/refunds/:id', 'GetRefundsRefund', (ctx) =>
      one(ctx, must(ctx.data, 'refund', ctx.ids[0] as string, 'refund')),
    ),
  ];
}
