// The fake's routes as the kit's route data (the search handler is in search.ts). Each names the operation
// of HubSpot's reference it follows (developers.hubspot.com/docs/api-reference: CRM "Objects" basic API,
// "Search", "Schemas", "Account info").
// Lists page by record id: `after` is the id the next page starts at, and `paging.next.link` repeats the
// request with it; the last page has no `paging`.
import type { RouteRequest as KitRequest, Route } from '../../kit/index.ts';
import type { CrmRecord, Dataset } from './dataset.ts';
import { type ObjectType, propertyOf, resolveType } from './model.ts';
import { accountDetails, CUSTOM_TYPES, type Projection, renderRecord, renderSchema } from './render.ts';
import { searchObjects } from './search.ts';
import {
  type Answer,
  type Auth,
  boolParam,
  commaList,
  fail,
  notFound,
  parseJsonObject,
  unknownObjectType,
  validation,
} from './wire.ts';

/** Who the request acts as, and the fake's origin (for `paging.next.link`). */
export interface HubSpotCtx {
  auth: Auth;
  origin: string;
}

interface RouteRequest {
  pathname: string;
  query: URLSearchParams;
  body: string;
  origin: string;
}

export interface RouteOptions {
  /** `limit` when the request names none (HubSpot: 10) */
  pageSize: number;
  now: () => Date;
}

const LIST_MAX = 100;

export function createRoutes(data: Dataset, opts: RouteOptions): Route<HubSpotCtx>[] {
  const request = (req: KitRequest, ctx: HubSpotCtx): RouteRequest => ({
    pathname: req.pathname,
    query: req.query,
    body: req.recorded.body,
    origin: ctx.origin,
  });
  /**
   * A route on an object type: the type the path names, or HubSpot's refusal of an unknown one. `search` is no
   * record id: undefined, so the fake answers 405 for anything but its POST.
   */
  const typed =
    (handle: (type: ObjectType, req: RouteRequest, id: string) => Answer) =>
    (req: KitRequest, ctx: HubSpotCtx): Answer | undefined => {
      if (req.params.objectId === 'search') return undefined;
      const name = req.params.objectType as string;
      const type = resolveType(name);
      return type === undefined
        ? unknownObjectType(name)
        : handle(type, request(req, ctx), req.params.objectId ?? '');
    };
  const routes: Route<HubSpotCtx>[] = [
    {
      method: 'GET',
      path: '/account-info/v3/details',
      operation: 'Account info: getAccountDetails',
      handle: () => ({ status: 200, body: accountDetails() }),
    },
    {
      method: 'GET',
      path: '/crm/v3/schemas',
      operation: 'Schemas: getAll',
      handle: (req) => {
        const archived = boolParam(req.query, 'archived');
        if (archived === 'invalid') return validation('Invalid value for query parameter "archived"');
        return { status: 200, body: { results: archived ? [] : CUSTOM_TYPES().map(renderSchema) } };
      },
    },
    {
      method: 'GET',
      path: '/crm/v3/schemas/{objectType}',
      operation: 'Schemas: getById',
      handle: (req) => {
        const d = req.params.objectType as string;
        const type = d.toLowerCase() === 'cars' ? CUSTOM_TYPES()[0] : resolveType(d);
        if (type === undefined || !type.custom) return notFound();
        return { status: 200, body: renderSchema(type) };
      },
    },
    {
      method: 'GET',
      path: '/crm/v3/objects/{objectType}',
      operation: 'Objects basic: getPage',
      handle: typed((type, req) => list(type, req)),
    },
    {
      method: 'POST',
      path: '/crm/v3/objects/{objectType}',
      operation: 'Objects basic: create',
      handle: typed((type, req) => create(type, req)),
    },
    {
      method: 'POST',
      path: '/crm/v3/objects/{objectType}/search',
      operation: 'Search: doSearch',
      handle: typed((type, req) => searchObjects(data, type, req.body)),
    },
    {
      method: 'GET',
      path: '/crm/v3/objects/{objectType}/{objectId}',
      operation: 'Objects basic: getById',
      handle: typed((type, req, id) => getOne(type, id, req)),
    },
    {
      method: 'PATCH',
      path: '/crm/v3/objects/{objectType}/{objectId}',
      operation: 'Objects basic: update',
      handle: typed((type, req, id) => update(type, id, req)),
    },
    {
      method: 'DELETE',
      path: '/crm/v3/objects/{objectType}/{objectId}',
      operation: 'Objects basic: archive',
      handle: typed((type, _req, id) => {
        const record = data.find(type, id);
        if (record !== undefined && !record.archived) data.archive(record, opts.now());
        return { status: 204, body: undefined };
      }),
    },
  ];
  return routes;

  /** The projection the query asks for, or HubSpot's refusal of an unknown association type. */
  function projection(req: RouteRequest): Projection | Answer {
    const associations: ObjectType[] = [];
    for (const name of commaList(req.query, 'associations')) {
      const to = resolveType(name);
      if (to === undefined) return unknownObjectType(name);
      if (!associations.includes(to)) associations.push(to);
    }
    return {
      properties: commaList(req.query, 'properties'),
      propertiesWithHistory: commaList(req.query, 'propertiesWithHistory'),
      associations,
    };
  }

  function list(type: ObjectType, req: RouteRequest): Answer {
    const view = projection(req);
    if ('status' in view) return view;
    const archived = boolParam(req.query, 'archived');
    if (archived === 'invalid') return validation('Invalid value for query parameter "archived"');
    const rawLimit = req.query.get('limit');
    let limit = opts.pageSize;
    if (rawLimit !== null && rawLimit !== '') {
      const n = Number(rawLimit);
      if (!Number.isInteger(n) || n < 1)
        return validation(`limit must be a positive integer, got ${rawLimit}`);
      limit = Math.min(n, LIST_MAX);
    }
    const after = req.query.get('after');
    if (after !== null && after !== '' && !/^\d+$/.test(after))
      return validation(`Invalid paging cursor: ${after}`);
    const start = after === null || after === '' ? 0 : Number(after);
    const matching = data
      .all(type)
      .filter((r) => r.archived === archived && Number(r.id) >= start)
      .sort((x, y) => Number(x.id) - Number(y.id));
    const page = matching.slice(0, limit);
    const body: Record<string, unknown> = {
      results: page.map((r) => renderRecord(data, type, r, view)),
    };
    const next = matching[limit];
    if (next !== undefined) {
      const q = new URLSearchParams(req.query);
      q.set('after', next.id);
      body.paging = { next: { after: next.id, link: `${req.origin}${req.pathname}?${q.toString()}` } };
    }
    return { status: 200, body };
  }

  /** The record a path id names (or `idProperty` value), among live or archived records. */
  function lookup(type: ObjectType, id: string, req: RouteRequest): CrmRecord | Answer {
    const idProperty = req.query.get('idProperty') ?? 'hs_object_id';
    if (!type.uniqueProperties.includes(idProperty)) {
      return propertyOf(type, idProperty) === undefined
        ? validation(`Property "${idProperty}" does not exist`)
        : validation(`Property "${idProperty}" is not a unique identifier property`);
    }
    const archived = boolParam(req.query, 'archived');
    if (archived === 'invalid') return validation('Invalid value for query parameter "archived"');
    const record = data.findBy(type, idProperty, id);
    if (record === undefined || record.archived !== archived) return notFound();
    return record;
  }

  function getOne(type: ObjectType, id: string, req: RouteRequest): Answer {
    const view = projection(req);
    if ('status' in view) return view;
    const record = lookup(type, id, req);
    if ('status' in record) return record;
    return { status: 200, body: renderRecord(data, type, record, view) };
  }

  function create(type: ObjectType, req: RouteRequest): Answer {
    const written = writeProperties(type, req.body);
    if (!('values' in written)) return written;
    const props = written.values;
    const clash = uniqueClash(type, props, undefined);
    if (clash !== undefined) return clash;
    const record = data.create(type, props, opts.now());
    return {
      status: 201,
      body: renderRecord(data, type, record, { properties: Object.keys(props) }),
    };
  }

  function update(type: ObjectType, id: string, req: RouteRequest): Answer {
    const record = lookup(type, id, req);
    if ('status' in record) return record;
    const written = writeProperties(type, req.body);
    if (!('values' in written)) return written;
    const props = written.values;
    const clash = uniqueClash(type, props, record.id);
    if (clash !== undefined) return clash;
    data.update(type, record, props, opts.now());
    return { status: 200, body: renderRecord(data, type, record, { properties: Object.keys(props) }) };
  }

  /** A unique property (a contact's email, a car's VIN) already held by another live record: 409. */
  function uniqueClash(type: ObjectType, props: Record<string, string>, self: string | undefined) {
    for (const name of type.uniqueProperties) {
      const value = props[name];
      if (name === 'hs_object_id' || value === undefined || value === '') continue;
      const other = data.findBy(type, name, value);
      if (other !== undefined && other.id !== self && !other.archived) {
        const label = type.key === 'contacts' ? 'Contact' : 'Object';
        return fail(409, `${label} already exists. Existing ID: ${other.id}`, 'CONFLICT');
      }
    }
    return undefined;
  }
}

/**
 * The `properties` of a create/update body as strings (numbers and booleans are taken, datetimes may be epoch
 * milliseconds), or HubSpot's 400 listing each invalid value the way its message embeds them.
 */
function writeProperties(type: ObjectType, raw: string): { values: Record<string, string> } | Answer {
  const body = parseJsonObject(raw);
  if (body === undefined || body === 'invalid')
    return validation('Invalid input JSON on line 1, column 1: Cannot build SimplePublicObjectInput');
  const input = body.properties;
  if (typeof input !== 'object' || input === null || Array.isArray(input))
    return validation('Invalid input JSON: "properties" must be an object');
  const out: Record<string, string> = {};
  const errors: Array<Record<string, unknown>> = [];
  for (const [name, value] of Object.entries(input as Record<string, unknown>)) {
    const def = propertyOf(type, name);
    const problem = (error: string, message: string) =>
      errors.push({ isValid: false, message, error, name, localizedErrorMessage: message });
    if (def === undefined) {
      problem('PROPERTY_DOESNT_EXIST', `Property "${name}" does not exist`);
      continue;
    }
    if (def.readOnly === true) {
      problem('READ_ONLY_VALUE', `${name} is a read only property; its value cannot be set.`);
      continue;
    }
    let text = value === null || value === undefined ? '' : String(value);
    if (typeof value === 'object' && value !== null) {
      problem('INVALID_OPTION', `${JSON.stringify(value)} was not a valid value for ${name}`);
      continue;
    }
    if (def.type === 'number' && text !== '' && !Number.isFinite(Number(text))) {
      problem('INVALID_INTEGER', `${text} was not a valid number.`);
      continue;
    }
    if ((def.type === 'datetime' || def.type === 'date') && text !== '') {
      const ms = /^\d+$/.test(text) ? Number(text) : Date.parse(text);
      if (Number.isNaN(ms)) {
        problem('INVALID_DATE', `${text} was not a valid date.`);
        continue;
      }
      text = new Date(ms).toISOString();
    }
    if (def.options !== undefined && text !== '' && !def.options.includes(text)) {
      problem('INVALID_OPTION', `${text} was not one of the allowed options: [${def.options.join(', ')}]`);
      continue;
    }
    out[name] = text;
  }
  if (errors.length > 0) return validation(`Property values were not valid: ${JSON.stringify(errors)}`);
  return { values: out };
}
