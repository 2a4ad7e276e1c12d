// A subset of Stripe's search query language (docs.stripe.com/search): clauses `field:value` (exact, case-
// insensitive), `field~'sub'` (substring, 3+ characters), `field>n` / `<` / `>=` / `<=` (numbers), `-clause`
// (negation), `field:null`, `metadata['key']:'value'`, joined by AND or OR (not both in one query, at most 10
// clauses). Each searchable resource accepts only its listed query fields.
import type { Obj } from './records.ts';
import { fail, invalid } from './wire.ts';

type Kind = 'string' | 'number' | 'boolean';

/** The query fields of each resource and their types. */
export const SEARCH_FIELDS: Record<string, Record<string, Kind>> = {
  charges: {
    amount: 'number',
    'billing_details.address.postal_code': 'string',
    created: 'number',
    currency: 'string',
    customer: 'string',
    disputed: 'boolean',
    'payment_method_details.card.brand': 'string',
    'payment_method_details.card.exp_month': 'number',
    'payment_method_details.card.exp_year': 'number',
    'payment_method_details.card.fingerprint': 'string',
    'payment_method_details.card.last4': 'string',
    payment_intent: 'string',
    refunded: 'boolean',
    status: 'string',
  },
  customers: { created: 'number', email: 'string', name: 'string', phone: 'string' },
  invoices: {
    created: 'number',
    currency: 'string',
    customer: 'string',
    last_finalization_error_code: 'string',
    last_finalization_error_type: 'string',
    number: 'string',
    receipt_number: 'string',
    status: 'string',
    subscription: 'string',
    total: 'number',
  },
  payment_intents: {
    amount: 'number',
    created: 'number',
    currency: 'string',
    customer: 'string',
    status: 'string',
  },
  products: { active: 'boolean', description: 'string', name: 'string', shippable: 'boolean', url: 'string' },
  subscriptions: { created: 'number', status: 'string' },
};

interface Clause {
  negate: boolean;
  field: string;
  metadataKey?: string;
  op: ':' | '~' | '>' | '<' | '>=' | '<=';
  value: string | number | null;
}

const syntax = (detail: string): never =>
  fail(invalid(`There was a problem parsing your search query: ${detail}.`, 'query'));

/** Parses a query into a predicate over the resource's objects. */
export function compileQuery(resource: string, query: string): (obj: Obj) => boolean {
  const fields = SEARCH_FIELDS[resource] ?? {};
  const clauses: Clause[] = [];
  const joins: string[] = [];
  let i = 0;
  const ws = () => {
    while (i < query.length && /\s/.test(query[i] as string)) i++;
  };
  const quoted = (): string => {
    const q = query[i];
    if (q !== "'" && q !== '"') return syntax(`expected a quoted value at position ${i}`);
    i++;
    let out = '';
    while (i < query.length && query[i] !== q) {
      if (query[i] === '\\' && i + 1 < query.length) i++;
      out += query[i];
      i++;
    }
    if (i >= query.length) syntax('unterminated string');
    i++;
    return out;
  };
  ws();
  if (i >= query.length) fail(invalid('The query must not be empty.', 'query'));
  while (i < query.length) {
    const negate = query[i] === '-';
    if (negate) i++;
    const name = /^[a-z_][a-z0-9_.]*/.exec(query.slice(i))?.[0];
    if (name === undefined) syntax(`expected a field name at position ${i}`);
    i += (name as string).length;
    let metadataKey: string | undefined;
    if (name === 'metadata') {
      if (query[i] !== '[') syntax("metadata fields are written metadata['key']");
      i++;
      metadataKey = quoted();
      if (query[i] !== ']') syntax("expected ']'");
      i++;
    } else if (!((name as string) in fields)) {
      fail(
        invalid(
          `Field '${name}' is an unsupported search field for resource ${resource}. See https://stripe.com/docs/search#query-fields-for-${resource.replaceAll('_', '-')} for a list of supported fields.`,
          'query',
        ),
      );
    }
    const op = /^(>=|<=|:|~|>|<)/.exec(query.slice(i))?.[0] as Clause['op'] | undefined;
    if (op === undefined) syntax(`expected ':', '~', '>', '<', '>=' or '<=' after ${name}`);
    i += (op as string).length;
    let value: string | number | null;
    if (query[i] === "'" || query[i] === '"') value = quoted();
    else {
      const bare = /^[^\s]+/.exec(query.slice(i))?.[0] ?? '';
      i += bare.length;
      if (bare === 'null') value = null;
      else if (/^-?\d+(\.\d+)?$/.test(bare)) value = Number(bare);
      else if (bare === 'true' || bare === 'false') value = bare;
      else value = syntax(`unquoted value '${bare}'`);
    }
    const kind = metadataKey !== undefined ? 'string' : (fields[name as string] as Kind);
    if (op !== ':' && op !== '~' && kind !== 'number')
      syntax(`range operators apply to numeric fields, not ${name}`);
    if (op === '~' && (typeof value !== 'string' || value.length < 3))
      syntax('substring matches (~) need a quoted value of at least 3 characters');
    clauses.push({
      negate,
      field: name as string,
      ...(metadataKey !== undefined ? { metadataKey } : {}),
      op: op as Clause['op'],
      value,
    });
    ws();
    if (i >= query.length) break;
    const join = /^(AND|OR)\s/.exec(query.slice(i))?.[1];
    if (join === undefined) syntax(`expected AND or OR at position ${i}`);
    joins.push(join as string);
    i += (join as string).length;
    ws();
    if (i >= query.length) syntax(`a clause must follow ${join}`);
  }
  if (new Set(joins).size > 1) fail(invalid('Queries cannot mix AND and OR.', 'query'));
  if (clauses.length > 10) fail(invalid('A query can have at most 10 clauses.', 'query'));
  const tests = clauses.map((c) => (obj: Obj) => c.negate !== matches(obj, c));
  return joins[0] === 'OR' ? (obj) => tests.some((t) => t(obj)) : (obj) => tests.every((t) => t(obj));
}

function matches(obj: Obj, c: Clause): boolean {
  const actual: unknown =
    c.metadataKey !== undefined
      ? obj.metadata?.[c.metadataKey]
      : c.field.split('.').reduce<unknown>((node, key) => (node as Obj | null | undefined)?.[key], obj);
  if (c.value === null) return actual === null || actual === undefined;
  if (actual === null || actual === undefined) return false;
  if (c.op === '~') return String(actual).toLowerCase().includes(String(c.value).toLowerCase());
  if (c.op === ':') return String(actual).toLowerCase() === String(c.value).toLowerCase();
  const a = Number(actual);
  const b = Number(c.value);
  if (c.op === '>') return a > b;
  if (c.op === '<') return a < b;
  if (c.op === '>=') return a >= b;
  return a <= b;
}
