// The seeded objects of the Stripe fake (the timeline is described in dataset.ts): customers with addresses and
// metadata, products (the first 25 with a price, odd ones recurring), card payment methods, payment intents in
// several states with their charges, direct charges, refunds, disputes, payouts gathering the balance history,
// subscriptions and invoices in every status.
import type { Dataset } from './dataset.ts';
import type { Obj } from './records.ts';
import * as R from './records.ts';
import * as M from './records-money.ts';
import { seedBilling } from './seed-billing.ts';
import { stripeId } from './wire.ts';

export const SEED_START = 1_704_067_200; // 2024-01-01T00:00:00Z
export const CLOCK_START = 1_717_200_000; // 2024-06-01T00:00:00Z
const DAY = 86_400;
const HOUR = 3600;
const FIRST = ['Jenny', 'Amir', 'Lena', 'Marco', 'Priya', 'Tomás', 'Yuki', 'Olu', 'Sofia', 'Chen'];
const LAST = ['Rosen', 'Haddad', 'Berg', 'Rossi', 'Nair', 'García', 'Sato', 'Adeyemi', 'Costa', 'Wei'];
const GOODS = [
  'T-shirt',
  'Hoodie',
  'Mug',
  'Notebook',
  'Sticker pack',
  'Poster',
  'Cap',
  'Tote bag',
  'Water bottle',
  'Socks',
];

export function seed(data: Dataset, n: number): void {
  const at = (i: number, offset: number) => SEED_START + i * 3 * DAY + offset;
  const customers: Obj[] = [];
  for (let i = 0; i < n; i++) {
    const first = FIRST[i % FIRST.length] as string;
    const last = LAST[(i * 3) % LAST.length] as string;
    const c = R.customer({
      id: stripeId('cus_', `customer:${i}`),
      created: at(i, 0),
      name: `${first} ${last}`,
      email: `${first
        .toLowerCase()
        .normalize('NFD')
        .replace(/[^a-z]/g, '')}.${last
        .toLowerCase()
        .normalize('NFD')
        .replace(/[^a-z]/g, '')}${i}@example.com`,
      invoicePrefix: stripeId('', `prefix:${i}`, 8)
        .toUpperCase()
        .replace(/[^A-Z0-9]/g, 'X')
        .slice(0, 7),
    });
    c.phone = `+1555010${String(i).padStart(4, '0')}`;
    c.description = i % 4 === 0 ? 'Wholesale account' : null;
    c.metadata = { segment: ['smb', 'mid_market', 'enterprise'][i % 3], customer_index: String(i) };
    c.address = R.address(i);
    c.currency = 'usd';
    c.next_invoice_sequence = 2;
    customers.push(data.put('customer', c));
  }

  const prices: Obj[] = [];
  for (let i = 0; i < n; i++) {
    const p = R.product({
      id: stripeId('prod_', `product:${i}`),
      created: at(i, HOUR),
      name: `${GOODS[i % GOODS.length]} ${Math.floor(i / GOODS.length) + 1}`,
    });
    p.description = `Our ${p.name.toLowerCase()}, edition ${i + 1}`;
    p.active = i % 7 !== 6;
    p.shippable = i % 2 === 0 ? true : null;
    p.type = i % 2 === 0 ? 'good' : 'service';
    p.url = i % 3 === 0 ? `https://shop.example.com/products/${i}` : null;
    p.updated = p.created + (i % 5) * DAY;
    p.metadata = { sku: `SKU-${1000 + i}` };
    if (i < 25) {
      const recurring = i % 2 === 1 ? { interval: i % 3 === 0 ? 'year' : 'month', interval_count: 1 } : null;
      const pr = R.price({
        id: stripeId('price_', `price:${i}`, 24),
        created: at(i, HOUR + 60),
        product: p.id,
        currency: 'usd',
        unitAmount: 500 + i * 100,
        recurring,
      });
      p.default_price = pr.id;
      prices.push(data.put('price', pr));
    }
    data.put('product', p);
  }

  const methods: Obj[] = [];
  for (let i = 0; i < n; i++) {
    const owner = i < Math.ceil((n * 2) / 3) ? customers[i % n] : undefined;
    const pm = R.paymentMethod({
      id: stripeId('pm_', `pm:${i}`, 24),
      created: at(i, 2 * HOUR),
      customer: owner?.id ?? null,
      card: R.card(i),
      name: owner?.name ?? null,
      email: owner?.email ?? null,
    });
    if (owner !== undefined && owner.invoice_settings.default_payment_method === null)
      owner.invoice_settings.default_payment_method = pm.id;
    methods.push(data.put('payment_method', pm));
  }

  const succeeded: Obj[] = [];
  for (let i = 0; i < n; i++) {
    const cust = customers[i % n] as Obj;
    const pm = methods[i % n] as Obj;
    const created = at(i, 3 * HOUR);
    const pi = R.paymentIntent({
      id: stripeId('pi_', `pi:${i}`, 24),
      secret: '',
      created,
      amount: 1000 + i * 250,
      currency: i % 9 === 4 ? 'eur' : 'usd',
      customer: cust.id,
    });
    pi.client_secret = `${pi.id}_secret_${stripeId('', `secret:${i}`, 25)}`;
    pi.description = `Order #${5000 + i}`;
    pi.metadata = { order_id: String(5000 + i) };
    const status =
      i % 6 === 1
        ? 'requires_payment_method'
        : i % 6 === 3
          ? 'requires_confirmation'
          : i % 10 === 7
            ? 'canceled'
            : 'succeeded';
    pi.status = status;
    if (status !== 'requires_payment_method') pi.payment_method = pm.id;
    if (status === 'canceled') {
      pi.canceled_at = created + HOUR;
      pi.cancellation_reason = 'abandoned';
    }
    const charged = status === 'succeeded' || status === 'requires_payment_method';
    const ch = M.charge({
      id: stripeId('ch_', `charge:${i}`, 24),
      created: created + 5,
      amount: pi.amount,
      currency: pi.currency,
      customer: cust.id,
      paymentIntent: charged ? pi.id : null,
      paymentMethod: pm.id,
      card: pm.card,
      name: cust.name,
      email: cust.email,
      succeeded: status !== 'requires_payment_method',
    });
    ch.description = pi.description;
    if (charged) pi.latest_charge = ch.id;
    if (status === 'succeeded') pi.amount_received = pi.amount;
    if (status === 'requires_payment_method')
      pi.last_payment_error = {
        type: 'card_error',
        code: 'card_declined',
        decline_code: 'generic_decline',
        message: 'Your card was declined.',
        charge: ch.id,
      };
    data.put('payment_intent', pi);
    data.put('charge', ch);
    if (ch.status === 'succeeded') succeeded.push(ch);
    // A second series: charges made directly (no payment intent), as older integrations do.
    const direct = M.charge({
      id: stripeId('ch_', `direct:${i}`, 24),
      created: at(i, 12 * HOUR),
      amount: 6000 + i * 310,
      currency: 'usd',
      customer: (customers[(i + 7) % n] as Obj).id,
      paymentIntent: null,
      paymentMethod: (methods[(i + 7) % n] as Obj).id,
      card: (methods[(i + 7) % n] as Obj).card,
      name: null,
      email: null,
      succeeded: true,
    });
    direct.description = `Invoice payment ${i}`;
    succeeded.push(data.put('charge', direct));
  }
  for (const ch of succeeded) {
    ch.balance_transaction = data.ledger({
      source: ch,
      amount: ch.amount,
      fee: Math.round(ch.amount * 0.029) + 30,
      type: 'charge',
      category: 'charge',
      created: ch.created,
    }).id;
  }

  const ordered = [...succeeded].sort((a, b) => a.created - b.created);
  for (let i = 0; i < n; i++) {
    const ch = ordered[i % ordered.length] as Obj;
    const amount = Math.max(50, Math.floor(ch.amount / 5));
    const re = M.refund({
      id: stripeId('re_', `refund:${i}`, 24),
      created: ch.created + 2 * DAY,
      amount,
      charge: ch,
      reason: [null, 'requested_by_customer', 'duplicate'][i % 3] ?? null,
      status: i === n - 1 ? 'pending' : 'succeeded',
    });
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
    const disputed = ordered[Math.floor((i * ordered.length) / n) % ordered.length] as Obj;
    const statuses = [
      'needs_response',
      'under_review',
      'won',
      'lost',
      'warning_needs_response',
      'warning_closed',
    ];
    const dp = M.dispute({
      id: stripeId('dp_', `dispute:${i}`, 24),
      created: disputed.created + DAY,
      charge: disputed,
      reason: ['fraudulent', 'product_not_received', 'duplicate', 'general'][i % 4] as string,
      status: statuses[i % statuses.length] as string,
    });
    if (!dp.status.startsWith('warning')) {
      const txn = data.ledger({
        source: dp,
        amount: -dp.amount,
        fee: 1500,
        type: 'adjustment',
        category: 'dispute',
        created: dp.created,
      });
      dp.balance_transactions = [txn];
      // A won dispute gives the money back (the fee stays).
      if (dp.status === 'won')
        dp.balance_transactions.push(
          data.ledger({
            source: dp,
            amount: dp.amount,
            fee: 0,
            type: 'adjustment',
            category: 'dispute_reversal',
            created: dp.created + 20 * DAY,
          }),
        );
    }
    disputed.disputed = true;
    data.put('dispute', dp);
  }

  // The account was funded with top-ups before it took payments (kept out of payouts).
  for (const currency of ['usd', 'eur']) {
    const source = { id: stripeId('tu_', `topup:${currency}`, 24), currency };
    data.ledger({
      source,
      amount: 1_000_000,
      fee: 0,
      type: 'topup',
      category: 'topup',
      created: SEED_START - 7 * DAY,
    });
  }
  const history = data
    .all('balance_transaction')
    .reverse()
    .filter((t) => t.type !== 'topup');
  for (let i = 0; i < n; i++) {
    const created = at(i, 20 * HOUR);
    const status =
      i >= n - 2
        ? i === n - 1
          ? 'pending'
          : 'in_transit'
        : i % 11 === 5
          ? 'failed'
          : i % 13 === 7
            ? 'canceled'
            : 'paid';
    const po = M.payout({
      id: stripeId('po_', `payout:${i}`, 24),
      created,
      amount: 0,
      destination: i % 4 === 3 ? stripeId('card_', 'card:0', 24) : stripeId('ba_', `bank:${i % 2}`, 24),
      status,
    });
    // A paid payout sweeps what became available since the last one (when that adds up to anything); the
    // others carry a fixed amount.
    const swept = history.filter(
      (t) => t.currency === 'usd' && !data.payoutOf.has(t.id) && t.available_on <= created,
    );
    const total = swept.reduce((sum, t) => sum + t.net, 0);
    const sweeps = status === 'paid' && total > 0;
    if (sweeps) for (const t of swept) data.payoutOf.set(t.id, po.id);
    po.amount = sweeps ? total : 1000 + i * 10;
    const ledger = (amount: number, type: string, at: number) =>
      data.ledger({
        source: po,
        amount,
        fee: 0,
        type,
        category: type === 'payout' ? 'payout' : 'payout_reversal',
        created: at,
        status: 'available',
      });
    po.balance_transaction = ledger(-po.amount, 'payout', created).id;
    // A failed or canceled payout gives the money back to the balance.
    if (status === 'failed')
      po.failure_balance_transaction = ledger(po.amount, 'payout_failure', created + DAY).id;
    if (status === 'canceled') ledger(po.amount, 'payout_cancel', created + HOUR);
    data.put('payout', po);
  }

  seedBilling(data, n, customers, prices, at);
}
