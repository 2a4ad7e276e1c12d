// The seeded subscriptions (on the recurring prices; some canceled, trialing, past due or incomplete) and invoices
// (every other one on a subscription; draft, open, paid, void and uncollectible) of the Stripe fake.
import type { Dataset } from './dataset.ts';
import type { Obj } from './records.ts';
import {
  finalizeInvoice,
  invoice,
  lineItem,
  payInvoice,
  subscription,
  subscriptionItem,
} from './records-billing.ts';
import { stripeId } from './wire.ts';

const DAY = 86_400;
const HOUR = 3600;

export function seedBilling(
  data: Dataset,
  n: number,
  customers: Obj[],
  prices: Obj[],
  at: (i: number, offset: number) => number,
): void {
  const recurring = prices.filter((p) => p.recurring !== null);
  const subs: Obj[] = [];
  for (let i = 0; i < n; i++) {
    const created = at(i, 4 * HOUR);
    const pr = recurring[i % recurring.length] as Obj;
    const id = stripeId('sub_', `sub:${i}`, 24);
    const period = {
      start: created + 30 * DAY * Math.floor(i / 3),
      end: created + 30 * DAY * (Math.floor(i / 3) + 1),
    };
    const item = subscriptionItem({
      id: stripeId('si_', `si:${i}`),
      created,
      subscription: id,
      price: pr,
      quantity: 1 + (i % 3),
      period,
    });
    const s = subscription({
      id,
      created,
      customer: (customers[i % n] as Obj).id,
      items: [item],
      period,
      collectionMethod: i % 5 === 2 ? 'send_invoice' : 'charge_automatically',
    });
    s.metadata = { plan_tier: ['basic', 'pro', 'team'][i % 3] };
    s.status =
      i % 7 === 3
        ? 'canceled'
        : i % 9 === 4
          ? 'trialing'
          : i % 10 === 6
            ? 'past_due'
            : i % 11 === 8
              ? 'incomplete'
              : 'active';
    if (s.status === 'canceled') {
      s.canceled_at = period.end - 5 * DAY;
      s.ended_at = s.canceled_at;
      s.cancellation_details.reason = 'cancellation_requested';
    }
    if (s.status === 'trialing') {
      s.trial_start = created;
      s.trial_end = created + 14 * DAY;
    }
    subs.push(data.put('subscription', s));
  }

  for (let i = 0; i < n; i++) {
    const created = at(i, 5 * HOUR);
    const cust = customers[i % n] as Obj;
    const sub = i % 2 === 0 ? (subs[i] as Obj) : undefined;
    const id = stripeId('in_', `invoice:${i}`, 24);
    const pr = sub?.items.data[0].price ?? (prices[i % prices.length] as Obj);
    const period =
      sub === undefined
        ? { start: created, end: created }
        : { start: sub.current_period_start, end: sub.current_period_end };
    const line = lineItem({
      id: stripeId('il_', `line:${i}`, 24),
      invoice: id,
      price: pr,
      quantity: 1 + (i % 3),
      period,
      subscription: sub?.id ?? null,
      description: `${1 + (i % 3)} × item (at $${(pr.unit_amount / 100).toFixed(2)})`,
    });
    const inv = invoice({
      id,
      created,
      customer: cust,
      subscription: sub?.id ?? null,
      collectionMethod: i % 3 === 1 ? 'send_invoice' : 'charge_automatically',
      currency: 'usd',
      lines: [line],
    });
    inv.period_start = period.start;
    inv.period_end = period.end;
    inv.metadata = i % 4 === 0 ? { po_number: `PO-${700 + i}` } : {};
    if (sub !== undefined) sub.latest_invoice = id;
    const status =
      i >= n - 4
        ? 'draft'
        : i % 5 === 1
          ? 'open'
          : i % 11 === 3
            ? 'void'
            : i % 13 === 9
              ? 'uncollectible'
              : 'paid';
    if (status !== 'draft')
      finalizeInvoice(inv, `${cust.invoice_prefix}-${String(1 + i).padStart(4, '0')}`, created + HOUR);
    if (status === 'paid') payInvoice(inv, created + 2 * HOUR);
    if (status === 'void') {
      inv.status = 'void';
      inv.status_transitions.voided_at = created + 3 * HOUR;
    }
    if (status === 'uncollectible') {
      inv.status = 'uncollectible';
      inv.status_transitions.marked_uncollectible_at = created + 3 * HOUR;
    }
    data.put('invoice', inv);
  }
}
