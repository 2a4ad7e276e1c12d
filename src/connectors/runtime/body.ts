/**
 * Request bodies: the body template of a request (`request.body`) filled from params, and the encoding of a
 * body as JSON or as an HTML form with bracketed keys. Bodies stay structured (plain JSON values) until they
 * are sent, so a paged request's body can be sealed into a cursor and replayed in either encoding.
 */
import { randomBytes } from 'node:crypto';
import { placeholders } from '../template.ts';

/** A string that is exactly one placeholder takes the param's value with its type. */
const WHOLE = /^\{([A-Za-z][A-Za-z0-9_]*(?:-[A-Za-z0-9_]+)*)\}$/;
/** Marks a member or element that named an absent param, so the container drops it. */
const ABSENT = Symbol('absent');

/** The params a body template names, in order of first use. */
export function templateParams(template: unknown): string[] {
  const out = new Set<string>();
  const walk = (node: unknown) => {
    if (typeof node === 'string') for (const name of placeholders(node)) out.add(name);
    else if (Array.isArray(node)) node.forEach(walk);
    else if (node !== null && typeof node === 'object') Object.values(node).forEach(walk);
  };
  walk(template);
  return [...out];
}

/**
 * Fills a body template. `values` holds the params the client gave (after validation, with `send_default`s).
 * A placeholder of any other param removes the object member holding it, and the innermost array element
 * holding it goes whole; a container left empty by such removals goes too (one declared empty stays).
 */
export function fillTemplate(
  template: Record<string, unknown>,
  values: Record<string, unknown>,
): Record<string, unknown> {
  const filled = fill(template, values).value;
  return filled === ABSENT ? {} : (filled as Record<string, unknown>);
}

/** `lost`: an object lost a member to an absent param, so the array element holding it goes whole. */
function fill(node: unknown, values: Record<string, unknown>): { value: unknown; lost: boolean } {
  if (typeof node === 'string') {
    const whole = WHOLE.exec(node);
    if (whole)
      return {
        value: present(values, whole[1] as string) ? values[whole[1] as string] : ABSENT,
        lost: false,
      };
    let missing = false;
    const text = node.replace(/\{([A-Za-z][A-Za-z0-9_]*(?:-[A-Za-z0-9_]+)*)\}/g, (_, name: string) => {
      if (!present(values, name)) missing = true;
      const v = values[name];
      return typeof v === 'string' ? v : JSON.stringify(v);
    });
    return { value: missing ? ABSENT : text, lost: false };
  }
  if (Array.isArray(node)) {
    // An element that lost part of itself goes whole: a search filter without its value means nothing.
    const out = node
      .map((item) => fill(item, values))
      .filter((item) => item.value !== ABSENT && !item.lost)
      .map((item) => item.value);
    return { value: out.length === 0 && node.length > 0 ? ABSENT : out, lost: false };
  }
  if (node !== null && typeof node === 'object') {
    let lost = false;
    const entries: Array<[string, unknown]> = [];
    for (const [key, member] of Object.entries(node)) {
      const filled = fill(member, values);
      lost ||= filled.lost || filled.value === ABSENT;
      if (filled.value !== ABSENT) entries.push([key, filled.value]);
    }
    const empty = entries.length === 0 && Object.keys(node).length > 0;
    return { value: empty ? ABSENT : Object.fromEntries(entries), lost };
  }
  return { value: node, lost: false };
}

/**
 * Fills a query template (`request.query`): each member is a constant, a string with `{param}` placeholders, or
 * an array of such parts sent joined by spaces (a query language's clauses: CQL, SOQL, a search box's syntax).
 * A member whose string names an absent param is not sent; a part naming one drops out, and a member with no
 * part left is not sent. Values are written as text (an array's items joined by commas).
 */
export function fillQuery(
  template: Record<string, string | readonly string[]>,
  values: Record<string, unknown>,
): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (const [key, member] of Object.entries(template)) {
    const filled = fill(member, values).value;
    if (filled === ABSENT) continue;
    out.push([key, Array.isArray(filled) ? filled.map(queryText).join(' ') : queryText(filled)]);
  }
  return out;
}

function queryText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.map(queryText).join(',');
  return typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value);
}

function present(values: Record<string, unknown>, name: string): boolean {
  return Object.hasOwn(values, name) && values[name] !== undefined && values[name] !== null;
}

export type BodyFormat = 'json' | 'form' | 'multipart_related';

/** Where a multipart/related body's file is among its members (the request's `media`, by the params' keys). */
export interface MediaMembers {
  content: string;
  contentType: string;
  encoding: 'base64' | 'text';
}

/** The bytes and content type of a structured body. */
export function encodeBody(
  body: unknown,
  format: BodyFormat,
  media?: MediaMembers,
): { content: string | Buffer; contentType: string } {
  if (format === 'multipart_related') return multipartRelated(body as Record<string, unknown>, media);
  if (format === 'form') {
    return {
      content: formPairs(body)
        .map(([k, v]) => `${formEscape(k)}=${formEscape(v)}`)
        .join('&'),
      contentType: 'application/x-www-form-urlencoded',
    };
  }
  // With the charset: Slack, for one, warns about a JSON body without it.
  return { content: JSON.stringify(body), contentType: 'application/json; charset=utf-8' };
}

/**
 * RFC 2387 multipart/related of two parts, as Google's uploads take it (`uploadType=multipart`): the members
 * but the file's as JSON metadata, then the file's bytes under its media type. The boundary is random and
 * checked against the content, so no part can contain it.
 */
function multipartRelated(
  body: Record<string, unknown>,
  media: MediaMembers | undefined,
): { content: Buffer; contentType: string } {
  if (media === undefined) throw new Error('multipart_related needs the request media members (load check)');
  const { [media.content]: raw, [media.contentType]: type, ...metadata } = body;
  const text = typeof raw === 'string' ? raw : '';
  const file = media.encoding === 'base64' ? Buffer.from(text, 'base64') : Buffer.from(text, 'utf8');
  const head = Buffer.from(JSON.stringify(metadata));
  let boundary: string;
  do boundary = `ces-${randomBytes(12).toString('hex')}`;
  while (file.includes(boundary) || head.includes(boundary));
  const partType = typeof type === 'string' ? type : 'application/octet-stream';
  const content = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Type: application/json; charset=UTF-8\r\n\r\n`),
    head,
    Buffer.from(`\r\n--${boundary}\r\nContent-Type: ${partType}\r\n\r\n`),
    file,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { content, contentType: `multipart/related; boundary=${boundary}` };
}

/**
 * Form fields with bracket nesting: `{metadata: {plan: "pro"}, items: [{price: "p"}], expand: ["a"]}` gives
 * `metadata[plan]=pro`, `items[0][price]=p`, `expand[0]=a`. Booleans and numbers are written as JSON writes
 * them; `null` as an empty value (how form-based APIs such as Stripe's unset a field).
 */
export function formPairs(body: unknown, prefix = ''): Array<[string, string]> {
  if (Array.isArray(body)) return body.flatMap((item, i) => formPairs(item, `${prefix}[${i}]`));
  if (body !== null && typeof body === 'object') {
    return Object.entries(body).flatMap(([key, value]) =>
      formPairs(value, prefix === '' ? key : `${prefix}[${key}]`),
    );
  }
  if (prefix === '') return [];
  if (body === null || body === undefined) return [[prefix, '']];
  return [[prefix, typeof body === 'string' ? body : String(body)]];
}

/** application/x-www-form-urlencoded escaping, keeping brackets readable (`a[b]`), as providers document them. */
function formEscape(text: string): string {
  return encodeURIComponent(text).replace(/%20/g, '+').replace(/%5B/g, '[').replace(/%5D/g, ']');
}
