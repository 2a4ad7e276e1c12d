/**
 * The first half of the search compiler (query.ts): a client's `filter` and `sort` checked against an
 * entity's layout and turned into a condition tree. Every name is looked up in the layout (an unknown one is
 * an INVALID_QUERY naming its path), every value is checked against its field's type and kept as a value, and
 * the request's cost is bounded before anything runs (SEARCH_LIMITS). Nothing here writes SQL.
 */
import { invalidField } from '../errors.ts';
import {
  type ElementField,
  type EntityLayout,
  type IndexedField,
  type ScalarFieldType,
  timestampMs,
} from './layout.ts';

/** A value as a column holds it. */
export type SqlValue = string | number | null;

/**
 * The most one query may ask for; a query past any of them is a 422 naming the path and the limit. What makes a
 * search expensive is reading every row of the connector and doing per-row work there. Measured at 1,000,000
 * GitHub issues of one connector (2-core machine, one query at a time, warm cache): a full scan with one `like`
 * takes 0.5 s and ten take 0.9 s (200, the old limit, took 4.9 s); each `any` walks every row's JSON array
 * (four: 1.9 s); each `fuzzy`/`keyword` under `or`/`not` builds the whole list of its matches (four of 8
 * common words: 1.1 s); 50 indexed comparisons, 1000 `in` values or 4 sort keys cost milliseconds. The most
 * expensive query these limits allow (bench/search-isolation.ts `heaviestQuery`: every limit used up, nothing
 * matching) took 2.4 s, 3.9 s with 4 sort keys, up to 14 s with a cold cache: the time budget
 * (CES_SEARCH_TIMEOUT_MS, 2 s) stops it, on a reader thread. `depth` keeps every walk of the condition tree
 * shallow, however deep the request nests.
 */
export const SEARCH_LIMITS = {
  /** nesting of and/or/not/any */
  depth: 8,
  /** field conditions in all (`{"eq": {"a": 1, "b": 2}}` is two) */
  conditions: 50,
  like: 10,
  any: 4,
  /** `fuzzy` and `keyword` conditions */
  fullText: 4,
  /** words of all `fuzzy` and `keyword` conditions together */
  words: 32,
  /** values of all `in` conditions together */
  inValues: 1000,
  sortKeys: 4,
  stringLength: 4096,
  likeLength: 512,
} as const;

/** The counted limits, and what their message calls the thing counted. */
const COUNTED = {
  conditions: 'conditions',
  like: '"like" conditions',
  any: '"any" conditions',
  fullText: '"fuzzy"/"keyword" conditions',
  words: 'words in its "fuzzy"/"keyword" conditions together',
  inValues: '"in" values in all',
} as const;
type Counted = keyof typeof COUNTED;

// ---- words, as `fuzzy` and `keyword` see them

export const WORD = /[\p{L}\p{N}\p{M}]+/gu;
export const NON_ASCII = /[\u0080-\uffff]/;

/** A word compared case- and diacritic-insensitively. */
export function foldWord(word: string): string {
  const lower = word.toLowerCase();
  return NON_ASCII.test(lower) ? lower.normalize('NFD').replace(/\p{M}+/gu, '') : lower;
}

/** The lower-cased words of a search value (runs of letters and digits), leaving out any that fold to nothing. */
export function searchWords(value: string): string[] {
  return [...value.toLowerCase().matchAll(WORD)].map((m) => m[0]).filter((w) => foldWord(w) !== '');
}

let lastPattern = '';
let lastPatternWords: string[] = [];

/** Do the space-separated `pattern` words occur in `text` as whole words, in that order (others may come between)? */
export function wordsInOrder(text: unknown, pattern: unknown): boolean {
  if (typeof text !== 'string' || typeof pattern !== 'string') return false;
  if (pattern !== lastPattern) {
    lastPatternWords = pattern.split(' ').map(foldWord).filter(Boolean);
    lastPattern = pattern;
  }
  const words = lastPatternWords;
  if (words.length === 0) return false;
  let i = 0;
  for (const m of text.toLowerCase().matchAll(WORD)) {
    if (foldWord(m[0]) === words[i] && ++i === words.length) return true;
  }
  return false;
}

// ---- the condition tree

export type Comparison = 'eq' | 'neq' | 'gt' | 'gte' | 'lt' | 'lte';
export type Target =
  | { column: IndexedField; type: ScalarFieldType }
  | { element: ElementField; type: ScalarFieldType };
export type Node =
  | { kind: 'and' | 'or'; items: Node[] }
  | { kind: 'not'; item: Node }
  | { kind: 'cmp'; op: Comparison; target: Target; value: SqlValue }
  | { kind: 'in'; target: Target; values: SqlValue[] }
  | { kind: 'like'; target: Target; pattern: string }
  | { kind: 'text'; field: IndexedField; words: string[]; mode: 'all' | 'any'; ordered: boolean }
  | { kind: 'contains'; field: IndexedField; value: SqlValue }
  | { kind: 'any'; field: IndexedField; item: Node };

const COMPARISONS: readonly string[] = ['eq', 'neq', 'gt', 'gte', 'lt', 'lte'];
const ORDERED = [...COMPARISONS, 'in'];
const OPS_BY_TYPE: Record<ScalarFieldType, readonly string[]> = {
  string: [...ORDERED, 'like', 'fuzzy', 'keyword'],
  text: ['like', 'fuzzy', 'keyword'],
  integer: ORDERED,
  number: ORDERED,
  timestamp: ORDERED,
  boolean: ['eq', 'neq', 'in'],
};
const LOGICAL = ['and', 'or', 'not'];
const FIELD_OPS = [...ORDERED, 'like', 'fuzzy', 'keyword', 'contains', 'any'];
const ELEMENT_OPS = [...ORDERED, 'like'];
const SORTABLE: readonly string[] = ['string', 'integer', 'number', 'boolean', 'timestamp'];

interface Scope {
  /** the field names' owner, for messages */
  what: string;
  fields: ReadonlyMap<string, { type: string }>;
  operators: readonly string[];
  opsOf(name: string): readonly string[];
  target(name: string): Target;
}

const bad = (path: string, message: string, details?: Record<string, unknown>) =>
  invalidField('INVALID_QUERY', path, message, details);
/** A query past one of SEARCH_LIMITS; `details` name the limit for programs. */
const overLimit = (path: string, limit: keyof typeof SEARCH_LIMITS, message: string) =>
  bad(path, message, { limit, max: SEARCH_LIMITS[limit] });
const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const show = (name: string) => JSON.stringify(name.length > 80 ? `${name.slice(0, 80)}…` : name);
const pathKey = (path: string, key: string) =>
  /^[A-Za-z_][A-Za-z0-9_.]*$/.test(key) ? `${path}.${key}` : `${path}[${show(key)}]`;
const jsonKind = (v: unknown) =>
  v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v === 'object' ? 'an object' : `a ${typeof v}`;
const EXPECTED: Record<ScalarFieldType, string> = {
  string: 'a string',
  text: 'a string',
  integer: 'an integer',
  number: 'a number',
  boolean: 'true or false',
  timestamp: 'an ISO 8601 timestamp string such as "2024-05-01T00:00:00Z"',
};

function tableScope(layout: EntityLayout): Scope {
  return {
    what: `the ${layout.entity} index`,
    fields: layout.fields,
    operators: [...FIELD_OPS, ...LOGICAL],
    opsOf(name) {
      const f = layout.fields.get(name)!;
      if (f.type !== 'array') return OPS_BY_TYPE[f.type];
      return f.items ? ['contains'] : f.properties ? ['any'] : [];
    },
    target(name) {
      const f = layout.fields.get(name)!;
      // An array field only takes `contains` / `any`, which do not compare the column itself.
      return { column: f, type: f.type === 'array' ? 'string' : f.type };
    },
  };
}

function elementScope(field: IndexedField, properties: ReadonlyMap<string, ElementField>): Scope {
  return {
    what: `the elements of ${field.name}`,
    fields: properties,
    operators: [...ELEMENT_OPS, ...LOGICAL],
    opsOf: (name) => OPS_BY_TYPE[properties.get(name)!.type].filter((op) => ELEMENT_OPS.includes(op)),
    target(name) {
      const e = properties.get(name)!;
      return { element: e, type: e.type };
    },
  };
}

class Parser {
  private readonly used: Record<Counted, number> = {
    conditions: 0,
    like: 0,
    any: 0,
    fullText: 0,
    words: 0,
    inValues: 0,
  };

  /** Counts `n` more of `what` at `path`, refusing the query past its limit. */
  private count(what: Counted, n: number, path: string) {
    this.used[what] += n;
    if (this.used[what] > SEARCH_LIMITS[what]) {
      throw overLimit(path, what, `a query may have at most ${SEARCH_LIMITS[what]} ${COUNTED[what]}`);
    }
  }

  // Checked before looking at the condition: the recursion is never deeper than the limit, whatever the input.
  condition(raw: unknown, path: string, depth: number, scope: Scope): Node {
    if (depth > SEARCH_LIMITS.depth) {
      throw overLimit(path, 'depth', `conditions may nest at most ${SEARCH_LIMITS.depth} levels deep`);
    }
    if (!isObject(raw)) {
      throw bad(
        path,
        `a condition must be an object such as {"eq": {"<field>": <value>}}, not ${jsonKind(raw)}`,
      );
    }
    const entries = Object.entries(raw);
    if (entries.length === 0) {
      throw bad(path, `empty condition: give one of the operators ${scope.operators.join(', ')}`);
    }
    const items = entries.map(([op, arg]) => this.operator(op, arg, pathKey(path, op), depth, scope));
    return items.length === 1 ? items[0]! : { kind: 'and', items };
  }

  private operator(op: string, arg: unknown, path: string, depth: number, scope: Scope): Node {
    if (op === 'and' || op === 'or') {
      if (!Array.isArray(arg) || arg.length === 0) {
        throw bad(path, `"${op}" takes a non-empty array of conditions, not ${jsonKind(arg)}`);
      }
      return { kind: op, items: arg.map((c, i) => this.condition(c, `${path}[${i}]`, depth + 1, scope)) };
    }
    if (op === 'not') return { kind: 'not', item: this.condition(arg, path, depth + 1, scope) };
    if (!scope.operators.includes(op)) {
      throw bad(path, `unknown operator ${show(op)}; allowed here: ${scope.operators.join(', ')}`);
    }
    if (!isObject(arg) || Object.keys(arg).length === 0) {
      throw bad(path, `"${op}" takes an object of field names to values, such as {"${op}": {"<field>": …}}`);
    }
    const items = Object.entries(arg).map(([name, value]): Node => {
      const at = pathKey(path, name);
      if (!scope.fields.has(name)) {
        throw bad(
          at,
          `unknown field ${show(name)} in ${scope.what}; fields: ${[...scope.fields.keys()].join(', ')}`,
        );
      }
      this.count('conditions', 1, at);
      const allowed = scope.opsOf(name);
      if (!allowed.includes(op)) {
        const type = scope.fields.get(name)!.type;
        const takes = allowed.length ? `it takes ${allowed.join(', ')}` : 'it cannot be searched';
        throw bad(at, `operator "${op}" does not apply to field ${show(name)} (${type}); ${takes}`);
      }
      return this.leaf(op, name, value, at, depth, scope);
    });
    return items.length === 1 ? items[0]! : { kind: 'and', items };
  }

  private leaf(op: string, name: string, value: unknown, path: string, depth: number, scope: Scope): Node {
    const target = scope.target(name);
    const field = 'column' in target ? target.column : undefined;
    switch (op) {
      case 'in': {
        if (!Array.isArray(value) || value.length === 0) {
          throw bad(path, `"in" on ${show(name)} takes a non-empty array of values, not ${jsonKind(value)}`);
        }
        this.count('inValues', value.length, path);
        const values = value.map((v, i) => scalar(target.type, v, `${path}[${i}]`, op, name));
        return { kind: 'in', target, values };
      }
      case 'like': {
        this.count('like', 1, path);
        const pattern = scalar('string', value, path, op, name) as string;
        if (pattern.length > SEARCH_LIMITS.likeLength) {
          throw overLimit(
            path,
            'likeLength',
            `"like" patterns are at most ${SEARCH_LIMITS.likeLength} characters`,
          );
        }
        return { kind: 'like', target, pattern: pattern.replace(/[\\_]/g, '\\$&') };
      }
      case 'fuzzy':
      case 'keyword': {
        let words = searchWords(scalar('string', value, path, op, name) as string);
        if (words.length === 0)
          throw bad(path, `"${op}" on ${show(name)} needs at least one word (letters or digits)`);
        if (op === 'keyword') words = [...new Set(words)];
        this.count('fullText', 1, path);
        this.count('words', words.length, path);
        const mode = op === 'fuzzy' ? 'all' : 'any';
        return { kind: 'text', field: field!, words, mode, ordered: op === 'fuzzy' };
      }
      case 'contains':
        return { kind: 'contains', field: field!, value: scalar(field!.items!, value, path, op, name) };
      case 'any': {
        this.count('any', 1, path);
        const item = this.condition(value, path, depth + 1, elementScope(field!, field!.properties!));
        return { kind: 'any', field: field!, item };
      }
      default:
        return {
          kind: 'cmp',
          op: op as Comparison,
          target,
          value: scalar(target.type, value, path, op, name),
        };
    }
  }
}

/** A request value as the column of a field of `type` holds it, or an error naming the field. */
function scalar(type: ScalarFieldType, v: unknown, path: string, op: string, name: string): SqlValue {
  switch (type) {
    case 'string':
    case 'text':
      if (typeof v === 'string') {
        if (v.length <= SEARCH_LIMITS.stringLength) return v;
        throw overLimit(path, 'stringLength', `values are at most ${SEARCH_LIMITS.stringLength} characters`);
      }
      break;
    case 'integer':
      if (Number.isSafeInteger(v)) return v as number;
      break;
    case 'number':
      if (typeof v === 'number' && Number.isFinite(v)) return v;
      break;
    case 'boolean':
      if (typeof v === 'boolean') return v ? 1 : 0;
      break;
    case 'timestamp': {
      const ms = timestampMs(v);
      if (ms !== undefined) return ms;
      break;
    }
  }
  const got = typeof v === 'string' || typeof v === 'number' ? JSON.stringify(v) : jsonKind(v);
  throw bad(path, `"${op}" on ${show(name)} (${type}) needs ${EXPECTED[type]}, got ${got}`);
}

export function parseSort(layout: EntityLayout, raw: unknown): { field: IndexedField; desc: boolean }[] {
  const path = 'query.sort';
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) {
    throw bad(
      path,
      `sort takes an array of up to ${SEARCH_LIMITS.sortKeys} items such as [{"<field>": "desc"}]`,
    );
  }
  if (raw.length > SEARCH_LIMITS.sortKeys) {
    throw overLimit(path, 'sortKeys', `sort takes at most ${SEARCH_LIMITS.sortKeys} keys`);
  }
  const sortable = [...layout.fields.values()].filter((f) => SORTABLE.includes(f.type)).map((f) => f.name);
  return raw.map((item, i) => {
    const entries = isObject(item) ? Object.entries(item) : [];
    const [name, dir] = entries[0] ?? [];
    if (entries.length !== 1 || name === undefined) {
      throw bad(`${path}[${i}]`, 'each sort item is an object with one field, such as {"<field>": "asc"}');
    }
    const at = pathKey(`${path}[${i}]`, name);
    const field = layout.fields.get(name);
    if (!field || !SORTABLE.includes(field.type)) {
      const why = field ? `a ${field.type} field cannot be sorted on` : 'unknown field';
      throw bad(at, `${why}: ${show(name)}; sortable fields: ${sortable.join(', ')}`);
    }
    if (dir !== 'asc' && dir !== 'desc')
      throw bad(at, `sort direction of ${show(name)} must be "asc" or "desc"`);
    return { field, desc: dir === 'desc' };
  });
}

/** The filter's condition tree; undefined for no filter (`{}` too). */
export function parseFilter(layout: EntityLayout, filter: unknown): Node | undefined {
  const isEmpty =
    filter === undefined || filter === null || (isObject(filter) && Object.keys(filter).length === 0);
  return isEmpty ? undefined : new Parser().condition(filter, 'query.filter', 1, tableScope(layout));
}
