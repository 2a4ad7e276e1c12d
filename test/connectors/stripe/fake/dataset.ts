// The Stripe fake's data: one table per object type, deterministic for given options (ids derive from a hash of
// the type and index, timestamps from a fixed timeline). Seeded `records` (default 30) of each listed resource,
// created 3 days apart from 2024-01-01T00:00:00Z (customers at 00:00, products 01:00, prices 01:01, payment
// methods 02:00, payment intents / charges 03:00, subscriptions 04:00, invoices 05:00, payouts 20:00; a second
// series of charges without payment intents at 12:00; refunds 2 days and disputes 1 day after their charge), so
// `created` filters cut the lists anywhere. Objects created through the API get `created` from a fake clock
// starting at 2024-06-01T00:00:00Z and advancing one second per object.
// Products from index 25 on have no prices (Stripe refuses to delete a product with prices). Two top-ups (usd,
// eur) fund the balance a week before the first charge; paid payouts sweep the balance history before them.
// Charges made with a payment method are refundable unless disputed (the seed disputes 30 of the 48 succeeded).
import type { Obj } from './records.ts';
import { balanceTransaction } from './records-money.ts';
import { CLOCK_START, seed } from './seed.ts';

export { CLOCK_START, SEED_START } from './seed.ts';

import { stripeId } from './wire.ts';

const DAY = 86_400;

/** The id prefix of each object type, for expansion and messages. */
export const PREFIX_KIND: Array<[string, string]> = [
  ['cus_', 'customer'],
  ['prod_', 'product'],
  ['price_', 'price'],
  ['pm_', 'payment_method'],
  ['pi_', 'payment_intent'],
  ['ch_', 'charge'],
  ['py_', 'charge'],
  ['re_', 'refund'],
  ['dp_', 'dispute'],
  ['du_', 'dispute'],
  ['txn_', 'balance_transaction'],
  ['po_', 'payout'],
  ['in_', 'invoice'],
  ['sub_', 'subscription'],
  ['si_', 'subscription_item'],
  ['cs_', 'checkout.session'],
];

export class Dataset {
  private readonly tables = new Map<string, Map<string, Obj>>();
  private readonly order = new Map<string, number>();
  private seq = 0;
  private counter = 0;
  /** The fake clock (unix seconds) that stamps objects created through the API. */
  clock = CLOCK_START;
  /** Balance transactions paid out by a payout (Stripe's `payout` filter of the balance history). */
  readonly payoutOf = new Map<string, string>();
  /** Ids of deleted customers / products: retrieving them answers `{id, object, deleted: true}`. */
  readonly deleted = new Map<string, string>();
  /** Invoices sent with POST /v1/invoices/{id}/send, in order (Stripe would email them). */
  readonly sent: string[] = [];
  /** Payment methods made from Stripe's declining test tokens, with their decline code. */
  readonly declines = new Map<string, string>();

  constructor(readonly records = 30) {
    seed(this, records);
  }

  table(kind: string): Map<string, Obj> {
    let t = this.tables.get(kind);
    if (t === undefined) {
      t = new Map();
      this.tables.set(kind, t);
    }
    return t;
  }

  put(kind: string, obj: Obj): Obj {
    this.table(kind).set(obj.id, obj);
    if (!this.order.has(obj.id)) this.order.set(obj.id, this.seq++);
    return obj;
  }

  get(kind: string, id: string): Obj | undefined {
    return this.table(kind).get(id);
  }

  remove(kind: string, id: string): void {
    this.table(kind).delete(id);
    this.deleted.set(id, kind);
  }

  /** Every object of a type, newest first (Stripe's list order), ties broken by creation order. */
  all(kind: string): Obj[] {
    return [...this.table(kind).values()].sort(
      (a, b) => b.created - a.created || (this.order.get(b.id) ?? 0) - (this.order.get(a.id) ?? 0),
    );
  }

  /** The object an id names, whatever its type (for expansion). */
  byId(id: string): Obj | undefined {
    for (const [prefix, kind] of PREFIX_KIND) if (id.startsWith(prefix)) return this.get(kind, id);
    return undefined;
  }

  /** A fresh id for an object created through the API (deterministic: a counter, not randomness). */
  newId(prefix: string, length = 24): string {
    this.counter++;
    return stripeId(prefix, `api:${prefix}:${this.counter}`, length);
  }

  /** The creation time of the next object created through the API. */
  tick(): number {
    this.clock += 1;
    return this.clock;
  }

  /** The account balance: the sum of the balance history by status and currency. */
  balance(): Obj {
    const sums = (status: string) => {
      const by = new Map<string, number>();
      for (const t of this.table('balance_transaction').values())
        if (t.status === status) by.set(t.currency, (by.get(t.currency) ?? 0) + t.net);
      if (!by.has('usd')) by.set('usd', 0);
      return [...by].map(([currency, amount]) => ({ amount, currency, source_types: { card: amount } }));
    };
    return {
      object: 'balance',
      available: sums('available'),
      connect_reserved: [{ amount: 0, currency: 'usd' }],
      livemode: false,
      pending: sums('pending'),
    };
  }

  /** Records a balance transaction for an object's money movement and links it from the object. */
  ledger(f: {
    source: Obj;
    amount: number;
    fee: number;
    type: string;
    category: string;
    created: number;
    status?: string;
  }): Obj {
    const n = this.table('balance_transaction').size;
    const txn = balanceTransaction({
      id: stripeId('txn_', `txn:${f.source.id}:${n}`, 24),
      created: f.created,
      amount: f.amount,
      fee: f.fee,
      currency: f.source.currency,
      source: f.source.id,
      type: f.type,
      category: f.category,
      description: f.type === 'charge' ? f.source.description : null,
      status: f.status ?? (f.created + 2 * DAY <= CLOCK_START ? 'available' : 'pending'),
    });
    this.put('balance_transaction', txn);
    return txn;
  }

  /** A refund's effect on its charge: refunded amount, the `refunds` list, `refunded` when nothing is left. */
  applyRefund(ch: Obj, re: Obj): void {
    ch.amount_refunded += re.amount;
    ch.refunded = ch.amount_refunded >= ch.amount;
    ch.refunds.data.unshift(re);
    ch.refunds.total_count = ch.refunds.data.length;
  }
}
