// The Support API routes of the fake, each following the developer.zendesk.com reference page named in DOCS
// (and the operation of the same name in reference/zendesk-support.openapi.yaml). Paths are matched without a
// trailing `.json`, which Zendesk accepts on every endpoint and uses in the URLs it generates.
import type { Dataset, TicketRecord } from './dataset.ts';
import { moreRoutes } from './more-routes.ts';
import { paginate } from './paging.ts';
import * as render from './render.ts';
import { createUser, updateManyTickets, updateUser } from './user-writes.ts';
import { type Auth, recordNotFound } from './wire.ts';
import { createTicket, type TicketWriteContext, updateTicket } from './writes.ts';

export const DOCS = {
  listTickets: 'https://developer.zendesk.com/api-reference/ticketing/tickets/tickets/#list-tickets',
  showTicket: 'https://developer.zendesk.com/api-reference/ticketing/tickets/tickets/#show-ticket',
  createTicket: 'https://developer.zendesk.com/api-reference/ticketing/tickets/tickets/#create-ticket',
  updateTicket: 'https://developer.zendesk.com/api-reference/ticketing/tickets/tickets/#update-ticket',
  listComments:
    'https://developer.zendesk.com/api-reference/ticketing/tickets/ticket_comments/#list-comments',
  listUsers: 'https://developer.zendesk.com/api-reference/ticketing/users/users/#list-users',
  showUser: 'https://developer.zendesk.com/api-reference/ticketing/users/users/#show-user',
  showSelf:
    'https://developer.zendesk.com/api-reference/ticketing/users/users/#show-the-currently-authenticated-user',
  listOrganizations:
    'https://developer.zendesk.com/api-reference/ticketing/organizations/organizations/#list-organizations',
  showOrganization:
    'https://developer.zendesk.com/api-reference/ticketing/organizations/organizations/#show-organization',
  listGroups: 'https://developer.zendesk.com/api-reference/ticketing/groups/groups/#list-groups',
  showAttachment:
    'https://developer.zendesk.com/api-reference/ticketing/tickets/ticket-attachments/#show-attachment',
} as const;

export interface RouteRequest {
  method: string;
  /** Without the `.json` suffix. */
  pathname: string;
  query: URLSearchParams;
  auth: Auth;
  body: string;
  contentType: string | undefined;
}

export interface RouteResult {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

type Handler = (m: string[], req: RouteRequest) => RouteResult;

const notFound = (): RouteResult => ({ status: 404, body: recordNotFound() });

export function createRoutes(data: Dataset, ctx: render.RenderContext, authedUserId: number) {
  const listed = <T extends { id: number }>(
    key: string,
    all: readonly T[],
    req: RouteRequest,
    order: string,
    one: (record: T) => unknown,
  ): RouteResult => {
    const page = paginate(all, { origin: ctx.origin, path: req.pathname, query: req.query, order });
    if (!page.ok) return { status: 400, body: page.error };
    return { status: 200, body: { [key]: page.items.map(one), ...page.members } };
  };
  const writes: TicketWriteContext = { data, render: ctx, authorId: authedUserId };

  const routes: Array<[string, RegExp, Handler]> = [
    // List Tickets: offset `sort_by` / `sort_order`; cursor `sort` (field, `-` prefix for descending). Each
    // style ignores the other's sort params, as Zendesk does.
    [
      'GET',
      /^\/api\/v2\/tickets$/,
      (_m, req) => {
        const externalId = req.query.get('external_id');
        const tickets = data.tickets.filter((t) => externalId === null || t.externalId === externalId);
        const { list, order } = sortTickets(tickets, req.query);
        const result = listed('tickets', list, req, order, (t) => render.ticket(ctx, t));
        // The ticket-list endpoint limit header ("List Tickets limits").
        return {
          ...result,
          headers: { 'zendesk-ratelimit-tickets-index': 'total=100; remaining=99; resets=60' },
        };
      },
    ],
    ['POST', /^\/api\/v2\/tickets$/, (_m, req) => createTicket(writes, req)],
    [
      'GET',
      /^\/api\/v2\/tickets\/(\d+)$/,
      (m) => {
        const t = data.ticket(Number(m[1]));
        return t === undefined ? notFound() : { status: 200, body: { ticket: render.ticket(ctx, t) } };
      },
    ],
    ['PUT', /^\/api\/v2\/tickets\/(\d+)$/, (m, req) => updateTicket(writes, Number(m[1]), req)],
    ['PUT', /^\/api\/v2\/tickets\/update_many$/, (_m, req) => updateManyTickets(writes, req)],
    // List Comments: oldest first; offset `sort_order`, cursor `sort` = created_at | -created_at.
    [
      'GET',
      /^\/api\/v2\/tickets\/(\d+)\/comments$/,
      (m, req) => {
        const t = data.ticket(Number(m[1]));
        if (t === undefined) return notFound();
        const cursor = isCursor(req.query);
        const desc = cursor
          ? req.query.get('sort') === '-created_at'
          : req.query.get('sort_order') === 'desc';
        const list = desc ? [...t.comments].reverse() : t.comments;
        return listed('comments', list, req, desc ? '-created_at' : 'created_at', (c) =>
          render.comment(ctx, c),
        );
      },
    ],
    // Show Self: allowed for anonymous users (answered before the auth check, see index.ts).
    ['GET', /^\/api\/v2\/users\/me$/, () => self(data, ctx, authedUserId)],
    // List Users: `role` (or repeated `role[]`) and `external_id` filters, id order.
    [
      'GET',
      /^\/api\/v2\/users$/,
      (_m, req) => {
        const roles = [...req.query.getAll('role'), ...req.query.getAll('role[]')];
        const externalId = req.query.get('external_id');
        const users = data.users.filter(
          (u) =>
            (roles.length === 0 || roles.includes(u.role)) &&
            (externalId === null || u.externalId === externalId),
        );
        return listed('users', users, req, 'id', (u) => render.user(ctx, u));
      },
    ],
    ['POST', /^\/api\/v2\/users$/, (_m, req) => createUser(data, ctx, req)],
    ['PUT', /^\/api\/v2\/users\/(\d+)$/, (m, req) => updateUser(data, ctx, Number(m[1]), req)],
    [
      'GET',
      /^\/api\/v2\/users\/(\d+)$/,
      (m) => {
        const u = data.user(Number(m[1]));
        return u === undefined ? notFound() : { status: 200, body: { user: render.user(ctx, u) } };
      },
    ],
    [
      'GET',
      /^\/api\/v2\/organizations$/,
      (_m, req) => listed('organizations', data.organizations, req, 'id', (o) => render.organization(ctx, o)),
    ],
    [
      'GET',
      /^\/api\/v2\/organizations\/(\d+)$/,
      (m) => {
        const o = data.organization(Number(m[1]));
        return o === undefined
          ? notFound()
          : { status: 200, body: { organization: render.organization(ctx, o) } };
      },
    ],
    [
      'GET',
      /^\/api\/v2\/groups$/,
      // `exclude_deleted`: the fake's groups are never deleted, so it changes nothing here.
      (_m, req) => listed('groups', data.groups, req, 'id', (g) => render.group(ctx, g)),
    ],
    [
      'GET',
      /^\/api\/v2\/groups\/(\d+)$/,
      (m) => {
        const g = data.group(Number(m[1]));
        return g === undefined ? notFound() : { status: 200, body: { group: render.group(ctx, g) } };
      },
    ],
    [
      'GET',
      /^\/api\/v2\/attachments\/(\d+)$/,
      (m) => {
        const a = data.attachment(Number(m[1]));
        return a === undefined
          ? notFound()
          : { status: 200, body: { attachment: render.attachment(ctx, a) } };
      },
    ],
    ...moreRoutes(data, ctx),
  ];

  return (req: RouteRequest): RouteResult | undefined => {
    for (const [method, pattern, handle] of routes) {
      const match = pattern.exec(req.pathname);
      if (match !== null && method === req.method) return handle([...match], req);
    }
    return undefined;
  };
}

export function self(data: Dataset, ctx: render.RenderContext, authedUserId: number): RouteResult {
  const u = data.user(authedUserId);
  if (u === undefined) throw new Error('the authenticated user is missing from the dataset');
  return {
    status: 200,
    body: { user: { ...render.user(ctx, u), authenticity_token: 'fake-authenticity-token' } },
  };
}

function isCursor(q: URLSearchParams): boolean {
  return q.has('page[size]') || q.has('page[after]') || q.has('page[before]');
}

const TICKET_KEYS: Record<string, (t: TicketRecord) => number | string> = {
  id: (t) => t.id,
  created_at: (t) => t.createdAt,
  updated_at: (t) => t.updatedAt,
  status: (t) => t.status,
  subject: (t) => t.subject.toLowerCase(),
};

/** Ties are broken by id so every ordering is total (cursors name a position in it). */
function sortTickets(tickets: TicketRecord[], q: URLSearchParams): { list: TicketRecord[]; order: string } {
  let field = 'id';
  let desc = false;
  if (isCursor(q)) {
    const sort = q.get('sort') ?? 'id';
    desc = sort.startsWith('-');
    field = desc ? sort.slice(1) : sort;
  } else {
    field = q.get('sort_by') ?? 'id';
    desc = q.get('sort_order') === 'desc';
  }
  const key = TICKET_KEYS[field] ?? TICKET_KEYS.id;
  if (TICKET_KEYS[field] === undefined) field = 'id';
  const list = [...tickets].sort((a, b) => {
    const ka = (key as (t: TicketRecord) => number | string)(a);
    const kb = (key as (t: TicketRecord) => number | string)(b);
    const cmp = ka < kb ? -1 : ka > kb ? 1 : a.id - b.id;
    return desc ? -cmp : cmp;
  });
  return { list, order: `${desc ? '-' : ''}${field}` };
}
