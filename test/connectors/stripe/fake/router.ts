// The routing helpers every route file shares: a route names its method, path template (the kit router's)
// and the reference operation (operationId of stripe.yaml) it follows.
import type { Dataset } from './dataset.ts';
import { expanded, listPage, searchPage } from './paging.ts';
import { checkKnown, inRange, range, required, str } from './params.ts';
import type { Obj } from './records.ts';
import { compileQuery } from './search.ts';
import { type Answer, fail, noSuch, type Params } from './wire.ts';

export interface Ctx {
  data: Dataset;
  params: Params;
  /** path captures (`:id`) */
  ids: string[];
  /** the key the request authenticated with (idempotency scopes, messages) */
  key: string;
}

export interface Route {
  method: 'GET' | 'POST' | 'DELETE';
  /** the kit router's template, e.g. `/v1/customers/{id}` */
  path: string;
  /** the reference operation (operationId) */
  op: string;
  handler: (ctx: Ctx) => Answer;
}

/** `path` as Stripe's reference writes it, `:id` for a segment. */
export function route(method: Route['method'], path: string, op: string, handler: Route['handler']): Route {
  return { method, path: path.replace(/:([a-z]+)/g, '{$1}'), op, handler };
}

export const ok = (body: unknown): Answer => ({ status: 200, body });

/** The stored object or Stripe's 404 `No such <noun>: '<id>'`. */
export function must(data: Dataset, kind: string, id: string, noun: string = kind, param = 'id'): Obj {
  const obj = data.get(kind, id);
  if (obj === undefined) fail(noSuch(noun, id, param));
  return obj;
}

/** Answers one object, expanded as asked. */
export const one = (ctx: Ctx, obj: Obj): Answer => ok(expanded(ctx.data, obj, ctx.params));

/** Each filter: the param name and a test of an object against the given value. */
export type Filters = Record<string, (obj: Obj, params: Params, data: Dataset) => boolean>;

/** A field equal to the param (a string filter). */
export const eq =
  (name: string, field: string = name) =>
  (obj: Obj, params: Params): boolean =>
    obj[field] === str(params, name);

/** A timestamp field inside the param's range (`created[gte]=…`). */
export const within =
  (name: string, field: string = name) =>
  (obj: Obj, params: Params): boolean =>
    inRange(obj[field], range(params, name));

/** A list operation: its filters, the object type and the list's url; `created` is always a filter. */
export function listRoute(
  path: string,
  op: string,
  kind: string,
  noun: string,
  filters: Filters,
  base: (ctx: Ctx) => Obj[] = (ctx) => ctx.data.all(kind),
): Route {
  const all: Filters = { created: within('created'), ...filters };
  return route('GET', path, op, (ctx) => {
    checkKnown(ctx.params, [...Object.keys(all), 'limit', 'starting_after', 'ending_before']);
    const given = Object.keys(all).filter((name) => ctx.params[name] !== undefined);
    // Run each filter once on an empty object so a malformed value is refused even when nothing matches.
    for (const name of given) all[name]?.({}, ctx.params, ctx.data);
    const items = base(ctx).filter((o) => given.every((name) => all[name]?.(o, ctx.params, ctx.data)));
    return ok(listPage(ctx.data, items, ctx.params, path, noun));
  });
}

/** A search operation over a resource (`GET /v1/<resource>/search`). */
export function searchRoute(resource: string, op: string, kind: string, base?: (ctx: Ctx) => Obj[]): Route {
  const path = `/v1/${resource}/search`;
  return route('GET', path, op, (ctx) => {
    checkKnown(ctx.params, ['query', 'limit', 'page']);
    required(ctx.params, 'query');
    const query = str(ctx.params, 'query') as string;
    const test = compileQuery(resource, query);
    const items = (base ? base(ctx) : ctx.data.all(kind)).filter(test);
    return ok(searchPage(ctx.data, items, ctx.params, path, query));
  });
}
