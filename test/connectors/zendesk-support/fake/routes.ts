// The Support API routes of the fake, each following the operation of reference/zendesk-support.openapi.yaml
// it names (the developer.zendesk.com page of the same name). Paths are matched without a trailing `.json`
// (index.ts strips it), which Zendesk accepts on every endpoint and uses in the URLs it generates.
import type { Answer, Route, RouteRequest } from '../../kit/index.ts';
import { route } from '../../kit/route.ts';
import type { Dataset, TicketRecord } from './dataset.ts';
import { moreRoutes } from './more-routes.ts';
import { paginate } from './paging.ts';
import * as render from './render.ts';
import { anonymousUser } from './render.ts';
import { createUser, updateManyTickets, updateUser } from './user-writes.ts';
import { type Auth, recordNotFound } from './wire.ts';
import { createTicket, type TicketWriteContext, updateTicket } from './writes.ts';

const notFound = (): Answer => ({ status: 404, body: recordNotFound() });

export function createRoutes(data: Dataset, ctx: render.RenderContext, authedUserId: number): Route<Auth>[] {
  const listed = <T extends { id: number }>(
    key: string,
    all: readonly T[],
    req: RouteRequest,
    order: string,
    one: (record: T) => unknown,
  ): Answer => {
    const page = paginate(all, { origin: ctx.origin, path: req.pathname, query: req.query, order });
    if (!page.ok) return { status: 400, body: page.error };
    return { status: 200, body: { [key]: page.items.map(one), ...page.members } };
  };
  const writes: TicketWriteContext = { data, render: ctx, authorId: authedUserId };

  return [
    // List Tickets: offset `sort_by` / `sort_order`; cursor `sort` (field, `-` prefix for descending). Each
    // style ignores the other's sort params, as Zendesk does.
    route('GET', '/api/v2/tickets', 'ListTickets', (req) => {
      const externalId = req.query.get('external_id');
      const tickets = data.tickets.filter((t) => externalId === null || t.externalId === externalId);
      const { list, order } = sortTickets(tickets, req.query);
      const result = listed('tickets', list, req, order, (t) => render.ticket(ctx, t));
      // The ticket-list endpoint limit header ("List Tickets limits").
      return {
        ...result,
        headers: { 'zendesk-ratelimit-tickets-index': 'total=100; remaining=99; resets=60' },
      };
    }),
    route('POST', '/api/v2/tickets', 'CreateTicket', (req) => createTicket(writes, req)),
    route('GET', '/api/v2/tickets/{id}', 'ShowTicket', (req) => {
      const t = data.ticket(Number(req.params.id));
      return t === undefined ? notFound() : { status: 200, body: { ticket: render.ticket(ctx, t) } };
    }),
    route('PUT', '/api/v2/tickets/{id}', 'UpdateTicket', (req) =>
      updateTicket(writes, Number(req.params.id), req),
    ),
    route('PUT', '/api/v2/tickets/update_many', 'UpdateManyTickets', (req) => updateManyTickets(writes, req)),
    // List Comments: oldest first; offset `sort_order`, cursor `sort` = created_at | -created_at.
    route('GET', '/api/v2/tickets/{id}/comments', 'ListTicketComments', (req) => {
      const t = data.ticket(Number(req.params.id));
      if (t === undefined) return notFound();
      const cursor = isCursor(req.query);
      const desc = cursor ? req.query.get('sort') === '-created_at' : req.query.get('sort_order') === 'desc';
      const list = desc ? [...t.comments].reverse() : t.comments;
      return listed('comments', list, req, desc ? '-created_at' : 'created_at', (c) =>
        render.comment(ctx, c),
      );
    }),
    // Show Self: the one route anonymous requests reach (index.ts), answered with the anonymous user.
    route('GET', '/api/v2/users/me', 'ShowCurrentUser', (_req, auth) =>
      auth.kind === 'anonymous'
        ? { status: 200, body: { user: anonymousUser() } }
        : self(data, ctx, authedUserId),
    ),
    // List Users: `role` (or repeated `role[]`) and `external_id` filters, id order.
    route('GET', '/api/v2/users', 'ListUsers', (req) => {
      const roles = [...req.query.getAll('role'), ...req.query.getAll('role[]')];
      const externalId = req.query.get('external_id');
      const users = data.users.filter(
        (u) =>
          (roles.length === 0 || roles.includes(u.role)) &&
          (externalId === null || u.externalId === externalId),
      );
      return listed('users', users, req, 'id', (u) => render.user(ctx, u));
    }),
    route('POST', '/api/v2/users', 'CreateUser', (req) => createUser(data, ctx, req)),
    route('PUT', '/api/v2/users/{id}', 'UpdateUser', (req) =>
      updateUser(data, ctx, Number(req.params.id), req),
    ),
    route('GET', '/api/v2/users/{id}', 'ShowUser', (req) => {
      const u = data.user(Number(req.params.id));
      return u === undefined ? notFound() : { status: 200, body: { user: render.user(ctx, u) } };
    }),
    route('GET', '/api/v2/organizations', 'ListOrganizations', (req) =>
      listed('organizations', data.organizations, req, 'id', (o) => render.organization(ctx, o)),
    ),
    route('GET', '/api/v2/organizations/{id}', 'ShowOrganization', (req) => {
      const o = data.organization(Number(req.params.id));
      return o === undefined
        ? notFound()
        : { status: 200, body: { organization: render.organization(ctx, o) } };
    }),
    // `exclude_deleted`: the fake's groups are never deleted, so it changes nothing here.
    route('GET', '/api/v2/groups', 'ListGroups', (req) =>
      listed('groups', data.groups, req, 'id', (g) => render.group(ctx, g)),
    ),
    route('GET', '/api/v2/groups/{id}', 'ShowGroup', (req) => {
      const g = data.group(Number(req.params.id));
      return g === undefined ? notFound() : { status: 200, body: { group: render.group(ctx, g) } };
    }),
    route('GET', '/api/v2/attachments/{id}', 'ShowAttachment', (req) => {
      const a = data.attachment(Number(req.params.id));
      return a === undefined ? notFound() : { status: 200, body: { attachment: render.attachment(ctx, a) } };
    }),
    ...moreRoutes(data, ctx),
  ];
}

export function self(data: Dataset, ctx: render.RenderContext, authedUserId: number): Answer {
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
