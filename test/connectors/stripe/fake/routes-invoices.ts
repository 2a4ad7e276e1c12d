// Invoices: create, retrieve, list, search, finalize and send. Each route names the stripe.yaml operation it
// follows.
import type { Dataset } from './dataset.ts';
import { assign, bool, checkKnown, int, mergeMetadata, oneOf, required, str } from './params.ts';
import type { Obj } from './records.ts';
import { finalizeInvoice, invoice, payInvoice } from './records-billing.ts';
import { eq, listRoute, must, one, type Route, route, searchRoute, within } from './router.ts';
import { currencyOf } from './routes-catalog.ts';
import { fail, invalid } from './wire.ts';

const INVOICE_CREATE = [
  'account_tax_ids',
  'application_fee_amount',
  'auto_advance',
  'automatic_tax',
  'collection_method',
  'currency',
  'custom_fields',
  'customer',
  'days_until_due',
  'default_payment_method',
  'default_source',
  'default_tax_rates',
  'description',
  'discounts',
  'due_date',
  'effective_at',
  'footer',
  'from_invoice',
  'metadata',
  'on_behalf_of',
  'payment_settings',
  'pending_invoice_items_behavior',
  'rendering_options',
  'shipping_cost',
  'shipping_details',
  'statement_descriptor',
  'subscription',
  'transfer_data',
];
const DAY = 86_400;

function nextNumber(customer: Obj): string {
  const n = customer.next_invoice_sequence as number;
  customer.next_invoice_sequence = n + 1;
  return `${customer.invoice_prefix}-${String(n).padStart(4, '0')}`;
}

/** Finalizes a draft: numbered; an invoice of nothing to pay is paid at once, as Stripe does. */
export function finalize(data: Dataset, inv: Obj): void {
  const at = data.tick();
  const cust = data.get('customer', inv.customer);
  finalizeInvoice(
    inv,
    cust === undefined ? `${inv.id.slice(3, 11).toUpperCase()}-0001` : nextNumber(cust),
    at,
  );
  if (inv.amount_due === 0) payInvoice(inv, at);
}

export function invoiceRoutes(): Route[] {
  return [
    listRoute('/v1/invoices', 'GetInvoices', 'invoice', 'invoice', {
      collection_method: eq('collection_method'),
      customer: eq('customer'),
      customer_account: eq('customer_account'),
      due_date: within('due_date'),
      status: eq('status'),
      subscription: eq('subscription'),
    }),
    route('POST', '/v1/invoices', 'PostInvoices', (ctx) => {
      checkKnown(ctx.params, INVOICE_CREATE);
      const { data, params } = ctx;
      if (params.from_invoice === undefined) required(params, 'customer');
      const cust = must(data, 'customer', str(params, 'customer') as string, 'customer', 'customer');
      const method =
        oneOf(params, 'collection_method', ['charge_automatically', 'send_invoice'] as const) ??
        'charge_automatically';
      const days = int(params, 'days_until_due');
      const due = int(params, 'due_date');
      if (method === 'send_invoice' && days === undefined && due === undefined)
        fail(invalid('Missing required param: days_until_due.', 'days_until_due', 'parameter_missing'));
      if (method === 'charge_automatically' && (days !== undefined || due !== undefined))
        fail(
          invalid(
            'Invoices with `collection_method=charge_automatically` cannot have `days_until_due` or `due_date`.',
            days !== undefined ? 'days_until_due' : 'due_date',
          ),
        );
      const subId = str(params, 'subscription');
      if (subId !== undefined) must(data, 'subscription', subId, 'subscription', 'subscription');
      const created = data.tick();
      const inv = invoice({
        id: data.newId('in_'),
        created,
        customer: cust,
        subscription: subId ?? null,
        collectionMethod: method,
        currency: params.currency === undefined ? (cust.currency ?? 'usd') : currencyOf(params),
        lines: [],
      });
      inv.billing_reason = 'manual';
      if (method === 'send_invoice') inv.due_date = due ?? created + (days as number) * DAY;
      assign(inv, params, {
        auto_advance: 'boolean',
        description: 'string',
        footer: 'string',
        statement_descriptor: 'string',
        default_payment_method: 'string',
        custom_fields: 'array',
      });
      if (params.auto_advance === undefined) inv.auto_advance = false;
      inv.metadata = mergeMetadata({}, params);
      data.put('invoice', inv);
      return one(ctx, inv);
    }),
    searchRoute('invoices', 'GetInvoicesSearch', 'invoice'),
    route('GET', '/v1/invoices/:id', 'GetInvoicesInvoice', (ctx) =>
      one(ctx, must(ctx.data, 'invoice', ctx.ids[0] as string)),
    ),
    route('POST', '/v1/invoices/:id/finalize', 'PostInvoicesInvoiceFinalize', (ctx) => {
      checkKnown(ctx.params, ['auto_advance']);
      const inv = must(ctx.data, 'invoice', ctx.ids[0] as string, 'invoice', 'invoice');
      if (inv.status !== 'draft')
        fail(
          invalid("This invoice is already finalized, you can't re-finalize a non-draft invoice.", undefined),
        );
      const auto = bool(ctx.params, 'auto_advance');
      if (auto !== undefined) inv.auto_advance = auto;
      finalize(ctx.data, inv);
      return one(ctx, inv);
    }),
    route('POST', '/v1/invoices/:id/send', 'PostInvoicesInvoiceSend', (ctx) => {
      checkKnown(ctx.params, []);
      const inv = must(ctx.data, 'invoice', ctx.ids[0] as string, 'invoice', 'invoice');
      if (inv.collection_method !== 'send_invoice')
        fail(invalid("You can only manually send an invoice if its collection method is 'send_invoice'."));
      if (inv.status === 'void') fail(invalid("You can't send an invoice with status 'void'."));
      if (inv.status === 'draft') finalize(ctx.data, inv);
      ctx.data.sent.push(inv.id);
      return one(ctx, inv);
    }),
  ];
}
