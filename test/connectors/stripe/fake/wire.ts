// Stripe wire conventions every route shares. Sources: the OpenAPI description of the API
// (reference/providers/stripe.yaml: securitySchemes basicAuth/bearerAuth, the `error` / `api_errors` schemas) and
// Stripe's pages on authentication, errors (docs.stripe.com/error-codes), idempotent requests and rate limits.
//   - Credentials: a secret (sk_) or restricted (rk_) key as `Authorization: Bearer <key>`, or HTTP Basic with the
//     key as the user name (base64 `key:`), or the bare key after `Basic`.
//   - Every refusal is `{error: {type, code?, message, param?, doc_url?, request_log_url?, ...}}`; doc_url is given
//     only with a code, and is the code's page under stripe.com/docs/error-codes.
//   - Answers carry `Request-Id: req_…` and `Stripe-Version` (the requested one, else the account's).
//   - Over the limit: 429, code `rate_limit`, header `Stripe-Rate-Limited-Reason` and no Retry-After.
import { createHash, randomBytes } from 'node:crypto';
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import { send as sendShared } from '../../kit/server.ts';

/** The API version of the reference this fake follows (the answer's Stripe-Version when none is requested). */
export const STRIPE_API_VERSION = '2023-08-16';

export interface Answer {
  status: number;
  headers?: Record<string, string>;
  body: unknown;
}

export interface ErrorFields {
  type: 'invalid_request_error' | 'api_error' | 'card_error' | 'idempotency_error';
  message: string;
  code?: string;
  param?: string;
  decline_code?: string;
  charge?: string;
  payment_intent?: unknown;
}

/** A Stripe refusal. `requestLog` adds the dashboard log link Stripe gives on authenticated requests. */
export function stripeError(status: number, fields: ErrorFields, headers?: Record<string, string>): Answer {
  const error: Record<string, unknown> = {};
  if (fields.charge !== undefined) error.charge = fields.charge;
  if (fields.code !== undefined) error.code = fields.code;
  if (fields.decline_code !== undefined) error.decline_code = fields.decline_code;
  if (fields.code !== undefined)
    error.doc_url = `https://stripe.com/docs/error-codes/${fields.code.replaceAll('_', '-')}`;
  error.message = fields.message;
  if (fields.param !== undefined) error.param = fields.param;
  if (fields.payment_intent !== undefined) error.payment_intent = fields.payment_intent;
  error.type = fields.type;
  return { status, ...(headers ? { headers } : {}), body: { error } };
}

export const invalid = (message: string, param?: string, code?: string): Answer =>
  stripeError(400, {
    type: 'invalid_request_error',
    message,
    ...(param !== undefined ? { param } : {}),
    ...(code !== undefined ? { code } : {}),
  });

export const missingParam = (param: string): Answer =>
  invalid(`Missing required param: ${param}.`, param, 'parameter_missing');

export const unknownParam = (param: string): Answer =>
  invalid(`Received unknown parameter: ${param}`, param, 'parameter_unknown');

/** 404 for an id that names nothing: `No such customer: 'cus_…'`. */
export const noSuch = (noun: string, id: string, param = 'id'): Answer =>
  stripeError(404, {
    type: 'invalid_request_error',
    code: 'resource_missing',
    message: `No such ${noun}: '${id}'`,
    param,
  });

export const unrecognizedUrl = (method: string, path: string): Answer =>
  stripeError(404, {
    type: 'invalid_request_error',
    message: `Unrecognized request URL (${method}: ${path}). Please see https://stripe.com/docs or we can help at https://support.stripe.com/.`,
  });

export const RATE_LIMIT_MESSAGE =
  'Request rate limit exceeded. You can learn more about rate limits here https://stripe.com/docs/rate-limits.';

export const rateLimited = (): Answer =>
  stripeError(
    429,
    { type: 'invalid_request_error', code: 'rate_limit', message: RATE_LIMIT_MESSAGE },
    { 'stripe-rate-limited-reason': 'global-rate' },
  );

export const NO_KEY_MESSAGE =
  "You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY'). See https://stripe.com/docs/api#authentication for details, or we can help at https://support.stripe.com/.";

const AUTH_HEADERS = { 'www-authenticate': 'Basic realm="Stripe"' };

export const noKey = (): Answer =>
  stripeError(401, { type: 'invalid_request_error', message: NO_KEY_MESSAGE }, AUTH_HEADERS);

export const badKey = (key: string): Answer =>
  stripeError(
    401,
    { type: 'invalid_request_error', message: `Invalid API Key provided: ${maskKey(key)}` },
    AUTH_HEADERS,
  );

/** Stripe shows a presented key as its prefix, stars, and its last four characters. */
export function maskKey(key: string): string {
  const prefix = /^(sk|rk|pk)_(test|live)_/.exec(key)?.[0] ?? '';
  if (key.length <= prefix.length + 4) return key;
  return `${prefix}${'*'.repeat(key.length - prefix.length - 4)}${key.slice(-4)}`;
}

/** Stripe's own answer to a status, for faults injected without a body. */
export function defaultError(status: number, method: string, path: string): Answer {
  if (status === 401) return badKey('sk_test_revoked_key_0000');
  if (status === 402)
    return stripeError(402, {
      type: 'card_error',
      code: 'card_declined',
      decline_code: 'generic_decline',
      message: 'Your card was declined.',
    });
  if (status === 403)
    return stripeError(403, {
      type: 'invalid_request_error',
      message: 'The provided key does not have the required permissions for this endpoint.',
    });
  if (status === 404) {
    const m = /^\/v1\/([a-z_/]+)\/([a-z]+_[A-Za-z0-9_]+)(?:[/?]|$)/.exec(path);
    return m
      ? noSuch(nounOf(m[1] as string), m[2] as string)
      : unrecognizedUrl(method, path.split('?')[0] ?? path);
  }
  if (status === 409)
    return stripeError(409, {
      type: 'idempotency_error',
      message:
        'There is currently another in-progress request using this Idempotent Key (that probably means you submitted twice, and the other request is still going through).',
    });
  if (status === 429) return rateLimited();
  if (status >= 500)
    return stripeError(status, {
      type: 'api_error',
      message: 'An unknown error occurred while processing your request. Retrying it may help.',
    });
  return invalid('Invalid request.');
}

/** The object noun Stripe's messages use for a collection path (`customers` → `customer`). */
export function nounOf(collection: string): string {
  const special: Record<string, string> = {
    'checkout/sessions': 'checkout.session',
    balance_transactions: 'balance transaction',
    payment_intents: 'payment_intent',
    payment_methods: 'PaymentMethod',
  };
  return special[collection] ?? collection.replace(/s$/, '');
}

// ---- credentials ----------------------------------------------------------------------------------------------

export type Auth =
  | { kind: 'none' }
  | { kind: 'bad'; key: string }
  | { kind: 'ok'; key: string; readOnly: boolean };

export interface Keys {
  /** full-access keys (sk_ and rk_) */
  full: ReadonlySet<string>;
  /** restricted keys with read permissions only: writes answer 403 */
  readOnly: ReadonlySet<string>;
}

export function parseAuth(headers: IncomingHttpHeaders, keys: Keys): Auth {
  const raw = headers.authorization?.trim();
  if (raw === undefined || raw === '') return { kind: 'none' };
  const space = raw.indexOf(' ');
  const scheme = (space < 0 ? raw : raw.slice(0, space)).toLowerCase();
  const value = space < 0 ? '' : raw.slice(space + 1).trim();
  let key: string;
  if (scheme === 'bearer') key = value;
  else if (scheme === 'basic') {
    // `Basic <key>` as it is, or base64 of `key:` (the key as user name, empty password).
    if (/^(sk|rk|pk)_/.test(value)) key = value;
    else {
      const decoded = Buffer.from(value, 'base64').toString('utf8');
      key = decoded.endsWith(':') ? decoded.slice(0, -1) : (decoded.split(':')[0] ?? '');
    }
  } else return { kind: 'none' };
  if (key === '') return { kind: 'none' };
  if (keys.full.has(key)) return { kind: 'ok', key, readOnly: false };
  if (keys.readOnly.has(key)) return { kind: 'ok', key, readOnly: true };
  return { kind: 'bad', key };
}

export const permissionDenied = (key: string, resource: string): Answer =>
  stripeError(403, {
    type: 'invalid_request_error',
    message: `The provided key '${maskKey(key)}' does not have the required permissions for this endpoint on account 'acct_1CesFakeAcct0001'. Having the 'rak_${resource}_write' permission would allow this request to continue.`,
  });

// ---- form / query parameters ------------------------------------------------------------------------------------

export type Param = string | Param[] | { [k: string]: Param };
export type Params = { [k: string]: Param };

/**
 * Decodes Stripe's bracket notation (`metadata[order]=6735`, `items[0][price]=…`, `expand[]=customer`) into nested
 * values: objects whose keys are all indices become arrays. A key used both as a value and a hash is refused.
 */
export function parseBrackets(search: URLSearchParams): Params {
  const root: Record<string, unknown> = {};
  for (const [rawKey, value] of search) {
    const m = /^([^[\]]+)((?:\[[^[\]]*\])*)$/.exec(rawKey);
    if (!m) fail(invalid(`Invalid parameter name: ${rawKey}`, rawKey));
    const parts = [
      m[1] as string,
      ...[...(m[2] as string).matchAll(/\[([^[\]]*)\]/g)].map((x) => x[1] as string),
    ];
    let node: Record<string, unknown> = root;
    for (let i = 0; i < parts.length; i++) {
      let part = parts[i] as string;
      const last = i === parts.length - 1;
      if (part === '') part = String(Object.keys(node).length); // `[]` appends
      if (last) {
        if (typeof node[part] === 'object') fail(invalid('Invalid hash', parts.slice(0, i + 1).join('.')));
        node[part] = value;
      } else {
        const next = node[part];
        if (typeof next === 'string') fail(invalid('Invalid hash', parts.slice(0, i + 1).join('.')));
        if (next === undefined) node[part] = {};
        node = node[part] as Record<string, unknown>;
      }
    }
  }
  return arrayify(root) as Params;
}

function arrayify(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  const obj = value as Record<string, unknown>;
  const keys = Object.keys(obj);
  for (const k of keys) obj[k] = arrayify(obj[k]);
  if (keys.length > 0 && keys.every((k) => /^\d+$/.test(k)))
    return keys.sort((a, b) => Number(a) - Number(b)).map((k) => obj[k]);
  return obj;
}

/** A refusal thrown from anywhere in a route; the dispatcher answers it. */
export class Refusal extends Error {
  constructor(readonly answer: Answer) {
    super(`stripe refusal ${answer.status}`);
  }
}

export function fail(answer: Answer): never {
  throw new Refusal(answer);
}

// ---- ids, request ids, responses --------------------------------------------------------------------------------

const B62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** A deterministic Stripe-looking id: `prefix` + `length` base-62 characters derived from `seed`. */
export function stripeId(prefix: string, seed: string, length = 14): string {
  const bytes = createHash('sha512').update(seed).digest();
  let out = '';
  for (let i = 0; i < length; i++) out += B62[(bytes[i % bytes.length] as number) % 62];
  return `${prefix}${out}`;
}

export function requestId(): string {
  return `req_${[...randomBytes(14)].map((b) => B62[b % 62]).join('')}`;
}

export function send(res: ServerResponse, answer: Answer, version: string, reqId: string): void {
  sendShared(
    res,
    answer.status,
    {
      'content-type': 'application/json',
      'request-id': reqId,
      'stripe-version': version,
      'cache-control': 'no-cache, no-store',
      ...(answer.headers ?? {}),
    },
    answer.body === undefined ? undefined : JSON.stringify(answer.body, null, 2),
  );
}

/** JSON with sorted keys, so two parameter sets with the same members compare equal. */
export { canonical } from '../../kit/paging.ts';
