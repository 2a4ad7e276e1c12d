// A builder for the Context Store's search DSL (README "Context Store"; the server's parser is
// src/context-store/query-parse.ts), typed by a map of the entity's indexed fields, so a field that is not
// indexed, an operator its type does not take, or a value of the wrong type fails to compile:
//
//   searchQuery<SearchFields['github']['issues']>()
//     .where('state').eq('open')
//     .and('title').fuzzy('login bug')
//     .sort('updated_at', 'desc')
//
// gives {filter: {and: [{eq: {state: 'open'}}, {fuzzy: {title: 'login bug'}}]}, sort: [{updated_at: 'desc'}]}.
// Conditions added one after another are ANDed; or()/not() add one condition built from others.

/** Types of indexed fields, as connector definitions declare them (`context_store.fields`). */
export type ScalarType = 'string' | 'text' | 'integer' | 'number' | 'boolean' | 'timestamp';
/**
 * A field's type in a field map: a scalar, an array of scalars (`contains`), an array of objects with their
 * searchable members (`any`), or `'any'` for a field the map does not type (every operator, any value).
 */
export type FieldType =
  | ScalarType
  | { items: 'string' | 'integer' | 'number' | 'boolean' }
  | { properties: { [member: string]: ScalarType } }
  | 'any';
/** A map of field names (dot paths such as `user.login`) to their types. */
export type FieldMap<F> = { [K in keyof F]: FieldType };
/** The map of a builder made without one: any field name, every operator. */
export type AnyFields = { [field: string]: 'any' };

/** One condition of the DSL: `{"eq": {"state": "open"}}`, `{"or": [...]}`, … */
export type Condition = { [operator: string]: unknown };
export type SortDirection = 'asc' | 'desc';

/** What `params` of a `search` take, without the connector's own paging cursor. */
export interface SearchSpec {
  filter?: Condition;
  sort?: Array<{ [field: string]: SortDirection }>;
}
export interface SearchParams {
  query: SearchSpec;
  limit?: number;
  fields?: string[];
  cursor?: string;
}

type Scalar = string | number | boolean;
type ValueOf<T> = T extends 'string' | 'text'
  ? string
  : T extends 'integer' | 'number'
    ? number
    : T extends 'boolean'
      ? boolean
      : T extends 'timestamp'
        ? string | Date
        : Scalar | Date;

export interface Equality<V, R> {
  eq(value: V): R;
  /** Also matches a record without the field. */
  neq(value: V): R;
  in(values: readonly V[]): R;
}
export interface Comparisons<V, R> extends Equality<V, R> {
  gt(value: V): R;
  gte(value: V): R;
  lt(value: V): R;
  lte(value: V): R;
}
export interface Like<R> {
  /** `%` is the wildcard; case-insensitive. */
  like(pattern: string): R;
}
export interface FullText<R> {
  /** These words, in this order (others may come between); case and punctuation ignored. */
  fuzzy(words: string): R;
  /** Any of these words. */
  keyword(words: string): R;
}
export interface Contains<V, R> {
  contains(value: V): R;
}
export interface AnyElement<P, R> {
  /** Some element of the array matches the condition built over the elements' members. */
  any(build: (element: Fields<P, true>) => Condition): R;
}

/** The operators a field of type `T` takes (inside `any`, `InElement`: no full-text operators). */
export type Operators<T, R, InElement extends boolean = false> = T extends 'string'
  ? Comparisons<string, R> & Like<R> & (InElement extends true ? unknown : FullText<R>)
  : T extends 'text'
    ? Like<R> & (InElement extends true ? unknown : FullText<R>)
    : T extends 'integer' | 'number'
      ? Comparisons<number, R>
      : T extends 'timestamp'
        ? Comparisons<string | Date, R>
        : T extends 'boolean'
          ? Equality<boolean, R>
          : T extends { items: infer I }
            ? Contains<ValueOf<I>, R>
            : T extends { properties: infer P }
              ? AnyElement<P, R>
              : Comparisons<Scalar | Date, R> &
                  Like<R> &
                  FullText<R> &
                  Contains<Scalar, R> &
                  AnyElement<AnyFields, R>;

/** Builds conditions over the fields of `F` (inside `or`, `not` and `any`). */
export interface Fields<F, InElement extends boolean = false> {
  <K extends keyof F & string>(field: K): Operators<F[K], Condition, InElement>;
  and(...conditions: Condition[]): Condition;
  or(...conditions: Condition[]): Condition;
  not(condition: Condition): Condition;
}

/** Fields that can be sorted on: scalars other than `text`. */
export type SortableField<F> = {
  [K in keyof F]: F[K] extends 'text' | { items: unknown } | { properties: unknown } ? never : K;
}[keyof F] &
  string;

const encode = (value: unknown): unknown => (value instanceof Date ? value.toISOString() : value);

function operators<R>(field: string, done: (condition: Condition) => R): Record<string, unknown> {
  const op = (name: string) => (value: unknown) => done({ [name]: { [field]: encode(value) } });
  return {
    eq: op('eq'),
    neq: op('neq'),
    gt: op('gt'),
    gte: op('gte'),
    lt: op('lt'),
    lte: op('lte'),
    in: (values: readonly unknown[]) => done({ in: { [field]: values.map(encode) } }),
    like: op('like'),
    fuzzy: op('fuzzy'),
    keyword: op('keyword'),
    contains: op('contains'),
    any: (build: (element: unknown) => Condition) => done({ any: { [field]: build(fields()) } }),
  };
}

function fields<F, InElement extends boolean>(): Fields<F, InElement> {
  const fn = (field: string) => operators(field, (condition) => condition);
  return Object.assign(fn, {
    and: (...conditions: Condition[]): Condition => ({ and: conditions }),
    or: (...conditions: Condition[]): Condition => ({ or: conditions }),
    not: (condition: Condition): Condition => ({ not: condition }),
  }) as unknown as Fields<F, InElement>;
}

interface State {
  conditions: readonly Condition[];
  sort: ReadonlyArray<{ [field: string]: SortDirection }>;
  limit?: number;
  fields?: readonly string[];
}

/** An immutable search: every method answers a new query, so a base query can be shared and extended. */
export class SearchQuery<F extends FieldMap<F> = AnyFields> {
  private constructor(private readonly state: State) {}

  /** An empty query (every record). */
  static create<F extends FieldMap<F> = AnyFields>(): SearchQuery<F> {
    return new SearchQuery<F>({ conditions: [], sort: [] });
  }

  private with(change: Partial<State>): SearchQuery<F> {
    return new SearchQuery<F>({ ...this.state, ...change });
  }

  /** Adds a condition on `field` (ANDed with the others). */
  where<K extends keyof F & string>(field: K): Operators<F[K], SearchQuery<F>> {
    return operators(field, (c) => this.match(c)) as unknown as Operators<F[K], SearchQuery<F>>;
  }

  /** The same as where(): reads better after the first condition. */
  and<K extends keyof F & string>(field: K): Operators<F[K], SearchQuery<F>> {
    return this.where(field);
  }

  /** Adds one condition that holds when any of the built ones does. */
  or(build: (f: Fields<F>) => Condition[]): SearchQuery<F> {
    return this.match({ or: build(fields()) });
  }

  /** Adds one condition that holds when the built one does not. */
  not(build: (f: Fields<F>) => Condition): SearchQuery<F> {
    return this.match({ not: build(fields()) });
  }

  /** Adds a condition written in the DSL itself. */
  match(condition: Condition): SearchQuery<F> {
    return this.with({ conditions: [...this.state.conditions, condition] });
  }

  /** Sorts by `field` (several calls: the first is the main key; at most 4). */
  sort(field: SortableField<F>, direction: SortDirection = 'asc'): SearchQuery<F> {
    return this.with({ sort: [...this.state.sort, { [field]: direction }] });
  }

  /** Records per page, 1–1000 (the server's default is 100). */
  limit(limit: number): SearchQuery<F> {
    return this.with({ limit });
  }

  /** Only these paths of each record (indexed or not, e.g. `user.login`). */
  select(...paths: Array<(keyof F & string) | (string & {})>): SearchQuery<F> {
    return this.with({ fields: paths });
  }

  /** The `filter`: undefined for none, the one condition, or an `and` of all of them. */
  get filter(): Condition | undefined {
    const { conditions } = this.state;
    if (conditions.length === 0) return undefined;
    return conditions.length === 1 ? conditions[0] : { and: [...conditions] };
  }

  /** `params.query` of a search. */
  toQuery(): SearchSpec {
    const filter = this.filter;
    return {
      ...(filter ? { filter } : {}),
      ...(this.state.sort.length > 0 ? { sort: [...this.state.sort] } : {}),
    };
  }

  /** The whole `params` of a search (without a cursor). */
  toParams(): SearchParams {
    return {
      query: this.toQuery(),
      ...(this.state.limit !== undefined ? { limit: this.state.limit } : {}),
      ...(this.state.fields ? { fields: [...this.state.fields] } : {}),
    };
  }

  toJSON(): SearchParams {
    return this.toParams();
  }
}

/** A search builder over the fields of `F` (e.g. `SearchFields['github']['issues']`), or any fields. */
export function searchQuery<F extends FieldMap<F> = AnyFields>(): SearchQuery<F> {
  return SearchQuery.create<F>();
}
