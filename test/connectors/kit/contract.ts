// The contract every provider fake is held to: each exchange a fake recorded (request and answer, kit/server.ts)
// is checked against the facts of the provider's published description (test/reference/providers/<slug>.json,
// from `npm run reference:facts`; scripts/reference-facts/operations.ts says what they keep; or a hand-written
// <slug>.pages.json where the provider publishes none). An exchange fails when
//   - its path matches none of the description's path templates (`path`), or matches but not with its method
//     (`method`): the fake serves a route the provider does not have;
//   - it sends a query parameter or body member the operation does not declare (`param`), or leaves out one
//     the operation requires (`required`);
//   - the fake's answer, for a status the operation documents, lacks a member the description requires, or
//     carries a member of another JSON type (`answer`) — at any depth the description types;
// and a listed description gap that no exchange shows any more fails too (`gap`).
// What it does not see: the semantics (which records a filter keeps, paging), which the fake's own tests keep.
import type { RecordedRequest } from './server.ts';

export interface Shape {
  $ref?: string;
  type?: string[];
  required?: string[];
  properties?: { [name: string]: Shape };
  items?: Shape;
  anyOf?: Shape[];
}

export interface Operation {
  /** `in` -> names, `!` appended when required */
  parameters?: { [where: string]: string[] };
  body?: { content: string[]; members: string[]; open?: true };
  responses: { [status: string]: Shape };
  /** with `alt=media` the operation answers its media, bytes of any type (a Google discovery document's) */
  media_download?: true;
}

export interface OperationFacts {
  source: string;
  /** only the operations listed in test/reference/providers/<slug>.operations.txt were kept */
  subset?: true;
  /** "METHOD /path/{template}" -> operation */
  operations: { [key: string]: Operation };
  schemas: { [name: string]: Shape };
}

export type ViolationKind = 'path' | 'method' | 'param' | 'required' | 'answer' | 'gap';

export interface Violation {
  kind: ViolationKind;
  /** "METHOD /path?query" as the fake received it */
  exchange: string;
  /** the operation it was checked against, when one matched */
  operation?: string;
  detail: string;
}

export interface ContractOptions {
  /** Path parameters whose values hold slashes (GitHub's `ref` is `heads/main`, a contents `path` is a path). */
  multiSegmentParams?: readonly string[];
  /**
   * Paths the provider serves under a second name, checked as the path they stand for (GitHub's Link headers
   * say `/repositories/{id}/issues` for `/repos/{owner}/{repo}/issues`); `to` replaces what `from` matched.
   */
  aliases?: ReadonlyArray<{ from: RegExp; to: string }>;
  /** A suffix the provider accepts on every path, stripped before matching (Zendesk's `.json`). */
  pathSuffix?: string;
  /**
   * The provider answers null for an unset member its description types without marking it nullable
   * (Zendesk's `solved_at` of an unsolved ticket): null passes for any typed member.
   */
  nullsUnmarked?: boolean;
  /**
   * Query parameters may be the operation's body members (Stripe's description puts a DELETE's parameters in a
   * form body; its clients send them in the query string).
   */
  bodyInQuery?: boolean;
  /** Required parameters the client sends as its credentials instead (Slack's `token`, in the Authorization header). */
  credentialParams?: readonly string[];
  /** Requests that are not the described API (a token endpoint, a download host), each with its reason. */
  exempt?: ReadonlyArray<{ route: RegExp; reason: string }>;
  /**
   * The provider answers its refusals with a 2xx and the `default` answer's shape (Slack's `{ok: false}`): a 2xx
   * answer may match either.
   */
  refusalsAsDefault?: boolean;
  /**
   * Where the description is wrong or behind the provider (a member the provider's reference pages document and
   * its description lacks): violations matching `violation` (its `describeViolations` line) pass, each with its
   * reason. A gap no exchange hits any more is itself a violation, so the list cannot go stale.
   */
  gaps?: ReadonlyArray<{ violation: RegExp; reason: string }>;
}

export interface ContractResult {
  violations: Violation[];
  /** exchanges checked against an operation, and the operations they covered */
  checked: number;
  operations: Set<string>;
  exempted: number;
}

interface Template {
  key: string;
  method: string;
  pattern: RegExp;
  /** literal characters, to prefer `/users/me` over `/users/{id}` */
  weight: number;
}

const compiled = new WeakMap<OperationFacts, Map<string, Template[]>>();

function templatesOf(facts: OperationFacts, multiSegment: readonly string[]): Template[] {
  const byOptions = compiled.get(facts) ?? new Map<string, Template[]>();
  compiled.set(facts, byOptions);
  const cacheKey = multiSegment.join(',');
  let out = byOptions.get(cacheKey);
  if (out !== undefined) return out;
  out = Object.keys(facts.operations).map((key) => {
    const space = key.indexOf(' ');
    const template = key.slice(space + 1);
    const source = template
      .split(/(\{[^}]*\})/)
      .map((part) =>
        part.startsWith('{')
          ? multiSegment.includes(part.slice(1, -1))
            ? '.+'
            : '[^/]+'
          : part.replace(/[.*+?^$()|[\]\\]/g, '\\$&'),
      )
      .join('');
    return {
      key,
      method: key.slice(0, space),
      pattern: new RegExp(`^${source}/?$`),
      weight: template.replace(/\{[^}]*\}/g, '').length,
    };
  });
  out.sort((a, b) => b.weight - a.weight);
  byOptions.set(cacheKey, out);
  return out;
}

function safeDecode(pathname: string): string {
  try {
    return decodeURI(pathname);
  } catch {
    return pathname;
  }
}

/** `created[gte]`, `expand[]`, `metadata[a][b]` are members of `created`, `expand`, `metadata`. */
const baseName = (name: string) => name.replace(/\[.*$/, '');

const declared = (names: string[] | undefined) => new Set((names ?? []).map((n) => n.replace(/!$/, '')));
const requiredOf = (names: string[] | undefined) =>
  (names ?? []).filter((n) => n.endsWith('!')).map((n) => n.slice(0, -1));

export function checkContract(
  facts: OperationFacts,
  exchanges: readonly RecordedRequest[],
  opts: ContractOptions = {},
): ContractResult {
  const result: ContractResult = { violations: [], checked: 0, operations: new Set(), exempted: 0 };
  const templates = templatesOf(facts, opts.multiSegmentParams ?? []);
  for (const ex of exchanges) {
    const exchange = `${ex.method} ${ex.path}`;
    const url = new URL(ex.path, 'http://fake.invalid');
    if (opts.exempt?.some((e) => e.route.test(`${ex.method} ${url.pathname}`))) {
      result.exempted += 1;
      continue;
    }
    // Fakes are mounted at the provider's own paths (base path included), so the path is the provider's.
    let providerPath = safeDecode(url.pathname);
    for (const alias of opts.aliases ?? []) providerPath = providerPath.replace(alias.from, alias.to);
    if (opts.pathSuffix !== undefined && providerPath.endsWith(opts.pathSuffix))
      providerPath = providerPath.slice(0, -opts.pathSuffix.length);
    const onPath = templates.filter((t) => t.pattern.test(providerPath));
    const template = onPath.find((t) => t.method === ex.method);
    if (template === undefined) {
      result.violations.push(
        onPath.length === 0
          ? {
              kind: 'path',
              exchange,
              detail:
                `no path of ${facts.source} matches ${providerPath}` +
                (facts.subset ? ' (among the operations its .operations.txt keeps)' : ''),
            }
          : {
              kind: 'method',
              exchange,
              detail: `${providerPath} is ${[...new Set(onPath.map((t) => t.method))].join('/')} only`,
            },
      );
      continue;
    }
    const op = facts.operations[template.key] as Operation;
    result.checked += 1;
    result.operations.add(template.key);
    const violation = (kind: ViolationKind, detail: string) =>
      result.violations.push({ kind, exchange, operation: template.key, detail });

    const query = declared(op.parameters?.query);
    if (opts.bodyInQuery && op.body !== undefined)
      for (const name of declared(op.body.members)) query.add(name);
    const sentQuery = new Set([...url.searchParams.keys()].map(baseName));
    for (const name of sentQuery)
      if (!query.has(name)) violation('param', `query parameter ${name} is not declared`);
    for (const name of requiredOf(op.parameters?.query))
      if (!sentQuery.has(name) && !opts.credentialParams?.includes(name))
        violation('required', `required query parameter ${name} is missing`);

    const body = bodyMembers(ex);
    if (body === 'unreadable') violation('param', 'the request body is neither JSON nor a form');
    else if (body !== undefined) {
      if (op.body === undefined) {
        if (body.size > 0) violation('param', `the operation takes no body, got ${[...body].join(', ')}`);
      } else {
        const members = declared(op.body.members);
        if (op.body.open !== true)
          for (const name of body)
            if (!members.has(name)) violation('param', `body member ${name} is not declared`);
        for (const name of requiredOf(op.body.members))
          if (!body.has(name)) violation('required', `required body member ${name} is missing`);
      }
    } else if (op.body !== undefined && requiredOf(op.body.members).length > 0)
      violation('required', `required body members ${requiredOf(op.body.members).join(', ')} are missing`);

    for (const detail of answerViolations(facts, op, ex, opts)) violation('answer', detail);
  }
  return withGaps(result, opts.gaps ?? []);
}

function withGaps(result: ContractResult, gaps: NonNullable<ContractOptions['gaps']>): ContractResult {
  const used = new Set<number>();
  const violations = result.violations.filter((v) => {
    const line = describeViolations([v]);
    const gap = gaps.findIndex((g) => g.violation.test(line));
    if (gap === -1) return true;
    used.add(gap);
    return false;
  });
  gaps.forEach((g, i) => {
    if (!used.has(i))
      violations.push({
        kind: 'gap',
        exchange: '(none)',
        detail: `the gap ${g.violation} no longer occurs: remove it`,
      });
  });
  return { ...result, violations };
}

/** The top-level members of a request body: undefined when there is none. */
function bodyMembers(ex: RecordedRequest): Set<string> | 'unreadable' | undefined {
  if (ex.body === '') return undefined;
  const type = String(ex.headers['content-type'] ?? '');
  if (/json/.test(type) || (type === '' && /^\s*[{[]/.test(ex.body))) {
    try {
      const value: unknown = JSON.parse(ex.body);
      return isRecord(value) ? new Set(Object.keys(value)) : new Set();
    } catch {
      return 'unreadable';
    }
  }
  if (/x-www-form-urlencoded/.test(type) || type === '')
    return new Set([...new URLSearchParams(ex.body).keys()].map(baseName));
  // multipart uploads and raw bytes: their members are not the contract's to read
  return new Set();
}

function answerViolations(
  facts: OperationFacts,
  op: Operation,
  ex: RecordedRequest,
  opts: ContractOptions,
): string[] {
  const answer = ex.response;
  if (answer === undefined) return [];
  const media = new URL(ex.path, 'http://fake.invalid').searchParams.get('alt') === 'media';
  if (op.media_download && media && answer.status < 300) return [];
  const status = String(answer.status);
  const shape = op.responses[status] ?? op.responses[`${status[0]}XX`] ?? op.responses.default;
  // An undocumented status, or a documented one without a JSON body: nothing to hold the answer to.
  if (shape === undefined || isEmpty(shape) || answer.status === 204 || answer.truncated) return [];
  if (!/json/.test(answer.contentType))
    return [`answer ${status} is ${answer.contentType || 'untyped'}, not JSON`];
  let value: unknown;
  try {
    value = JSON.parse(answer.body);
  } catch {
    return [`answer ${status} is not JSON`];
  }
  const found = shapeViolations(facts, shape, value, '$', 0, opts.nullsUnmarked === true);
  if (found.length === 0) return [];
  const fallback = op.responses.default;
  if (opts.refusalsAsDefault && answer.status < 300 && fallback !== undefined && fallback !== shape)
    if (shapeViolations(facts, fallback, value, '$', 0, opts.nullsUnmarked === true).length === 0) return [];
  return found.map((d) => `answer ${status}: ${d}`);
}

const isEmpty = (s: Shape) => Object.keys(s).length === 0;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

/** Where `value` breaks `shape`, as `$.a.b[2]: …` lines; [] when it holds. */
export function shapeViolations(
  facts: OperationFacts,
  shape: Shape,
  value: unknown,
  at: string,
  depth: number,
  nullsPass = false,
): string[] {
  if (depth > 64) return [];
  if (nullsPass && value === null) return [];
  if (shape.$ref !== undefined) {
    const named = facts.schemas[shape.$ref];
    return named === undefined
      ? [`${at}: schema ${shape.$ref} is not in the facts`]
      : shapeViolations(facts, named, value, at, depth + 1, nullsPass);
  }
  const out: string[] = [];
  if (shape.type !== undefined) {
    const type = jsonType(value);
    const ok = shape.type.includes(type) || (type === 'integer' && shape.type.includes('number'));
    if (!ok) return [`${at}: ${type}, the description says ${shape.type.join(' or ')}`];
  }
  if (shape.anyOf !== undefined && shape.anyOf.length > 0) {
    const tries = shape.anyOf.map((alt) => shapeViolations(facts, alt, value, at, depth + 1, nullsPass));
    if (!tries.some((t) => t.length === 0)) {
      const closest = tries.reduce((a, b) => (b.length < a.length ? b : a));
      out.push(...closest.map((d) => `${d} (closest of ${tries.length} alternatives)`));
    }
  }
  if (isRecord(value)) {
    for (const name of shape.required ?? [])
      if (!(name in value)) out.push(`${at}: required member ${name} is missing`);
    for (const [name, sub] of Object.entries(shape.properties ?? {}))
      if (name in value)
        out.push(...shapeViolations(facts, sub, value[name], `${at}.${name}`, depth + 1, nullsPass));
  }
  if (Array.isArray(value) && shape.items !== undefined) {
    // One line per kind of break, not per record: `$.data[]` stands for every item.
    const seen = new Set<string>();
    for (const item of value)
      for (const d of shapeViolations(facts, shape.items, item, `${at}[]`, depth + 1, nullsPass)) seen.add(d);
    out.push(...seen);
  }
  return out;
}

/** One line per violation, for an assertion message. */
export function describeViolations(violations: readonly Violation[]): string {
  return violations
    .map((v) => `${v.kind}: ${v.exchange}${v.operation ? ` (as ${v.operation})` : ''}: ${v.detail}`)
    .join('\n');
}
