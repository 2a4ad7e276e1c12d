// Routes of the fake beyond tickets, users, organizations and groups, each following the operation of
// reference/zendesk-support.openapi.yaml named beside it (Help Center ones: the developer.zendesk.com page named).
// Lists page both ways (paging.ts) unless their operation says otherwise. Offset-mode `sort_by` orders by the
// field it names; the usage_* orders fall back to position, as the fake keeps no usage counts.
import type { Answer, Route, RouteRequest } from '../../kit/index.ts';
import { route } from '../../kit/route.ts';
import {
  type ArticleFile,
  articleFiles,
  articles,
  automations,
  brands,
  deletedTickets,
  iso,
  type Json,
  macros,
  renderArticleAttachment,
  slaPolicies,
  ticketFields,
  ticketForms,
  triggers,
  views,
} from './admin-data.ts';
import type { Dataset } from './dataset.ts';
import { paginate } from './paging.ts';
import * as render from './render.ts';
import { recordNotFound } from './wire.ts';

const notFound = (): Answer => ({ status: 404, body: recordNotFound() });

function isCursor(q: URLSearchParams): boolean {
  return q.has('page[size]') || q.has('page[after]') || q.has('page[before]');
}

/** Offset-mode ordering by `sort_by`/`sort_order` (cursor mode ignores both); ties broken by id. */
function sorted(all: Json[], q: URLSearchParams, fallback: string, keys: Record<string, string>) {
  const byField = isCursor(q) ? undefined : q.get('sort_by');
  const field = byField !== null && byField !== undefined && keys[byField] ? byField : fallback;
  const member = keys[field] ?? field;
  const desc = !isCursor(q) && q.get('sort_order') === 'desc';
  const list = [...all].sort((a, b) => {
    const ka = a[member] as string | number;
    const kb = b[member] as string | number;
    const cmp = ka < kb ? -1 : ka > kb ? 1 : a.id - b.id;
    return desc ? -cmp : cmp;
  });
  return { list, order: `${desc ? '-' : ''}${field}` };
}

const RULE_SORTS = {
  position: 'position',
  alphabetical: 'title',
  created_at: 'created_at',
  updated_at: 'updated_at',
  usage_1h: 'position',
  usage_24h: 'position',
  usage_7d: 'position',
  usage_30d: 'position',
};

function flag(q: URLSearchParams, name: string): boolean | undefined {
  const v = q.get(name);
  return v === null ? undefined : v === 'true';
}

export function moreRoutes(data: Dataset, ctx: render.RenderContext): Route<unknown>[] {
  const files: ArticleFile[] = articleFiles();
  const listed = (key: string, all: readonly Json[], req: RouteRequest, order = 'id'): Answer => {
    const page = paginate(all, { origin: ctx.origin, path: req.pathname, query: req.query, order });
    if (!page.ok) return { status: 400, body: page.error };
    return { status: 200, body: { [key]: page.items.map(strip), ...page.members } };
  };
  const one = (key: string, all: readonly Json[], id: string | undefined): Answer => {
    const found = all.find((r) => r.id === Number(id));
    return found === undefined ? notFound() : { status: 200, body: { [key]: strip(found) } };
  };
  const rules = (key: string, all: Json[], req: RouteRequest, keep: (r: Json) => boolean): Answer => {
    const active = flag(req.query, 'active');
    const { list, order } = sorted(
      all.filter((r) => (active === undefined || r.active === active) && keep(r)),
      req.query,
      'position',
      RULE_SORTS,
    );
    return listed(key, list, req, order);
  };
  const restriction = (r: Json) => r.restriction as { type: string; ids?: number[] } | null;
  const accessOf = (r: Json) => {
    const type = restriction(r)?.type;
    return type === undefined ? 'shared' : type === 'User' ? 'personal' : 'shared';
  };

  return [
    // ListAuditsForTicket: one audit per change, oldest first.
    route('GET', '/api/v2/tickets/{id}/audits', 'ListAuditsForTicket', (req) => {
      const t = data.ticket(Number(req.params.id));
      if (t === undefined) return notFound();
      const audits = t.comments.map((c, i) => ({
        id: c.auditId,
        ticket_id: t.id,
        created_at: iso(c.createdAt),
        author_id: c.authorId,
        metadata: { system: { client: 'ces-test', ip_address: '192.0.2.10' }, custom: {} },
        via: { channel: 'web', source: { from: {}, to: {}, rel: null } },
        events: [
          {
            id: c.id,
            type: 'Comment',
            author_id: c.authorId,
            body: c.body,
            html_body: render.comment(ctx, c).html_body,
            plain_body: c.body,
            public: c.public,
            attachments: c.attachments.map((a) => render.attachment(ctx, a)),
            audit_id: c.auditId,
          },
          ...(i === 0
            ? [{ id: c.auditId * 10 + 1, type: 'Create', field_name: 'status', value: 'new' }]
            : []),
        ],
      }));
      return listed('audits', audits, req, 'created_at');
    }),
    // ListTicketMetrics: one per ticket, newest ticket first.
    route('GET', '/api/v2/ticket_metrics', 'ListTicketMetrics', (req) => {
      const metrics = [...data.tickets].reverse().map((t) => {
        const replies = t.comments.filter((c) => c.authorId !== t.requesterId && c.public).length;
        const solved = t.status === 'solved' || t.status === 'closed';
        const minutes = (ms: number) => ({
          calendar: Math.round(ms / 60000),
          business: Math.round(ms / 120000),
        });
        return {
          url: `${ctx.origin}/api/v2/ticket_metrics/${5000000000 + t.id}.json`,
          id: 5000000000 + t.id,
          ticket_id: t.id,
          created_at: iso(t.createdAt),
          updated_at: iso(t.updatedAt),
          group_stations: 1,
          assignee_stations: t.assigneeId === null ? 0 : 1,
          reopens: 0,
          replies,
          assignee_updated_at: null,
          requester_updated_at: iso(t.createdAt),
          status_updated_at: iso(t.updatedAt),
          initially_assigned_at: t.assigneeId === null ? null : iso(t.createdAt),
          assigned_at: t.assigneeId === null ? null : iso(t.createdAt),
          solved_at: solved ? iso(t.updatedAt) : null,
          latest_comment_added_at: iso(t.comments.at(-1)?.createdAt ?? t.createdAt),
          reply_time_in_minutes: minutes(replies > 0 ? 2 * 3_600_000 : 0),
          first_resolution_time_in_minutes: solved
            ? minutes(t.updatedAt - t.createdAt)
            : { calendar: null, business: null },
          full_resolution_time_in_minutes: solved
            ? minutes(t.updatedAt - t.createdAt)
            : { calendar: null, business: null },
          agent_wait_time_in_minutes: minutes(0),
          requester_wait_time_in_minutes: minutes(t.updatedAt - t.createdAt),
          on_hold_time_in_minutes: minutes(0),
        };
      });
      return listed('ticket_metrics', metrics, req, '-created_at');
    }),
    // ListDeletedTickets: by creation (id) unless sort_by says otherwise.
    route('GET', '/api/v2/deleted_tickets', 'ListDeletedTickets', (req) => {
      const { list, order } = sorted(deletedTickets(), req.query, 'id', {
        id: 'id',
        subject: 'subject',
        deleted_at: 'deleted_at',
      });
      return listed('deleted_tickets', list, req, order);
    }),
    // ListTicketFields: cursor paging by id, or (no page[size]) every field by position in one answer.
    route('GET', '/api/v2/ticket_fields', 'ListTicketFields', (req) => {
      const all = ticketFields(ctx.origin);
      if (isCursor(req.query)) return listed('ticket_fields', all, req);
      const byPosition = [...all].sort((a, b) => (a.position as number) - (b.position as number));
      return {
        status: 200,
        body: { ticket_fields: byPosition, next_page: null, previous_page: null, count: all.length },
      };
    }),
    route('GET', '/api/v2/ticket_fields/{id}', 'ShowTicketfield', (req) =>
      one('ticket_field', ticketFields(ctx.origin), req.params.id),
    ),
    // ListTicketForms: `active` and `end_user_visible` filters, by position.
    route('GET', '/api/v2/ticket_forms', 'ListTicketForms', (req) => {
      const active = flag(req.query, 'active');
      const endUser = flag(req.query, 'end_user_visible');
      const forms = ticketForms(ctx.origin).filter(
        (f) =>
          (active === undefined || f.active === active) &&
          (endUser === undefined || f.end_user_visible === endUser),
      );
      return listed('ticket_forms', forms, req);
    }),
    route('GET', '/api/v2/ticket_forms/{id}', 'ShowTicketForm', (req) =>
      one('ticket_form', ticketForms(ctx.origin), req.params.id),
    ),
    route('GET', '/api/v2/brands', 'ListBrands', (req) => listed('brands', brands(ctx.origin), req, 'name')),
    route('GET', '/api/v2/brands/{id}', 'ShowBrand', (req) =>
      one('brand', brands(ctx.origin), req.params.id),
    ),
    // ListViews: `access` (personal|shared|account), `active`, `group_id`.
    route('GET', '/api/v2/views', 'ListViews', (req) => {
      const access = req.query.get('access');
      const group = req.query.get('group_id');
      return rules('views', views(ctx.origin), req, (v) => {
        const r = restriction(v);
        return (
          (access === null || access === 'account' || accessOf(v) === access) &&
          (group === null || (r?.type === 'Group' && (r.ids ?? []).includes(Number(group))))
        );
      });
    }),
    route('GET', '/api/v2/views/{id}', 'ShowView', (req) => one('view', views(ctx.origin), req.params.id)),
    // ListMacros: `access`, `active`, `group_id`; `only_viewable` changes nothing for the admin the fake
    // authenticates as (an admin can view every macro).
    route('GET', '/api/v2/macros', 'ListMacros', (req) => {
      const access = req.query.get('access');
      const group = req.query.get('group_id');
      return rules('macros', macros(ctx.origin), req, (v) => {
        const r = restriction(v);
        const kind = r === null ? 'shared' : r.type === 'User' ? 'personal' : 'agents';
        return (
          (access === null || access === 'account' || kind === access) &&
          (group === null || (r?.type === 'Group' && (r.ids ?? []).includes(Number(group))))
        );
      });
    }),
    route('GET', '/api/v2/macros/{id}', 'ShowMacro', (req) =>
      one('macro', macros(ctx.origin), req.params.id),
    ),
    // ListTriggers: `active`, `category_id`.
    route('GET', '/api/v2/triggers', 'ListTriggers', (req) => {
      const category = req.query.get('category_id');
      return rules(
        'triggers',
        triggers(ctx.origin),
        req,
        (t) => category === null || t.category_id === category,
      );
    }),
    route('GET', '/api/v2/triggers/{id}', 'GetTrigger', (req) =>
      one('trigger', triggers(ctx.origin), req.params.id),
    ),
    route('GET', '/api/v2/automations', 'ListAutomations', (req) =>
      rules('automations', automations(ctx.origin), req, () => true),
    ),
    route('GET', '/api/v2/automations/{id}', 'ShowAutomation', (req) =>
      one('automation', automations(ctx.origin), req.params.id),
    ),
    // ListSLAPolicies: no paging params, every policy at once.
    route('GET', '/api/v2/slas/policies', 'ListSLAPolicies', () => {
      const all = slaPolicies(ctx.origin);
      return {
        status: 200,
        body: { sla_policies: all, next_page: null, previous_page: null, count: all.length },
      };
    }),
    route('GET', '/api/v2/slas/policies/{id}', 'ShowSLAPolicy', (req) =>
      one('sla_policy', slaPolicies(ctx.origin), req.params.id),
    ),
    // ListSatisfactionRatings: `score`, `start_time`/`end_time` (Unix seconds on created_at), newest first.
    route('GET', '/api/v2/satisfaction_ratings', 'ListSatisfactionRatings', (req) => {
      const score = req.query.get('score');
      const start = req.query.get('start_time');
      const end = req.query.get('end_time');
      const ratings = satisfactionRatings(data, ctx.origin).filter((r) => {
        const created = Date.parse(r.created_at as string) / 1000;
        const scoreOk =
          score === null || scoreMatches(score, r.score as string, (r.comment as string) !== '');
        return (
          scoreOk && (start === null || created >= Number(start)) && (end === null || created <= Number(end))
        );
      });
      return listed('satisfaction_ratings', ratings, req, '-created_at');
    }),
    route('GET', '/api/v2/satisfaction_ratings/{id}', 'ShowSatisfactionRating', (req) =>
      one('satisfaction_rating', satisfactionRatings(data, ctx.origin), req.params.id),
    ),
    // ListTags: most used first.
    route('GET', '/api/v2/tags', 'ListTags', (req) => listed('tags', tags(data), req, '-count')),
    // ListGroupMemberships: one per agent and default group.
    route('GET', '/api/v2/group_memberships', 'ListGroupMemberships', (req) => {
      const memberships = data.users
        .filter((u) => u.role !== 'end-user' && u.defaultGroupId !== null)
        .map((u) => ({
          url: `${ctx.origin}/api/v2/group_memberships/${u.id + 10_000_000_000}.json`,
          id: u.id + 10_000_000_000,
          user_id: u.id,
          group_id: u.defaultGroupId,
          default: true,
          created_at: iso(u.createdAt),
          updated_at: iso(u.updatedAt),
        }));
      return listed('group_memberships', memberships, req);
    }),
    // ListOrganizationMemberships: one per user with an organization.
    route('GET', '/api/v2/organization_memberships', 'ListOrganizationMemberships', (req) => {
      const memberships = data.users
        .filter((u) => u.organizationId !== null)
        .map((u) => ({
          url: `${ctx.origin}/api/v2/organization_memberships/${u.id + 20_000_000_000}.json`,
          id: u.id + 20_000_000_000,
          user_id: u.id,
          organization_id: u.organizationId,
          organization_name: data.organization(u.organizationId as number)?.name ?? null,
          default: true,
          view_tickets: false,
          created_at: iso(u.createdAt),
          updated_at: iso(u.updatedAt),
        }));
      return listed('organization_memberships', memberships, req);
    }),
    // Help Center "List Articles" (by position unless sort_by) and "Show Article".
    route('GET', '/api/v2/help_center/articles', 'Help Center: List Articles', (req) => {
      const { list, order } = sorted(articles(ctx.origin), req.query, 'position', {
        position: 'position',
        title: 'title',
        created_at: 'created_at',
        updated_at: 'updated_at',
        edited_at: 'edited_at',
      });
      return listed('articles', list, req, order);
    }),
    route('GET', '/api/v2/help_center/articles/{id}', 'Help Center: Show Article', (req) =>
      one('article', articles(ctx.origin), req.params.id),
    ),
    // "List Article Attachments" and "Show Article Attachment" (article-scoped paths).
    route(
      'GET',
      '/api/v2/help_center/articles/{id}/attachments',
      'Help Center: List Article Attachments',
      (req) => {
        if (!articles(ctx.origin).some((a) => a.id === Number(req.params.id))) return notFound();
        const own = files
          .filter((f) => f.articleId === Number(req.params.id))
          .map((f) => renderArticleAttachment(ctx.origin, f));
        return listed('article_attachments', own, req);
      },
    ),
    route(
      'GET',
      '/api/v2/help_center/articles/{id}/attachments/{attachment}',
      'Help Center: Show Article Attachment',
      (req) => {
        const f = files.find(
          (x) => x.articleId === Number(req.params.id) && x.id === Number(req.params.attachment),
        );
        return f === undefined
          ? notFound()
          : { status: 200, body: { article_attachment: renderArticleAttachment(ctx.origin, f) } };
      },
    ),
  ];
}

/**
 * The `score` filter: good/bad include ratings with and without a comment, received is good or bad,
 * the _with_comment/_without_comment forms narrow by comment.
 */
function scoreMatches(filter: string, score: string, hasComment: boolean): boolean {
  const m = /^(offered|unoffered|received|good|bad)(?:_(with|without)_comment)?$/.exec(filter);
  if (m === null) return false;
  const base = m[1] === 'received' ? score === 'good' || score === 'bad' : score === m[1];
  return base && (m[2] === undefined || (m[2] === 'with') === hasComment);
}

/** Solved and closed tickets are rated: good, except every third one, bad; every other rating has a comment. */
function satisfactionRatings(data: Dataset, origin: string): Json[] {
  return data.tickets
    .filter((t) => t.status === 'solved' || t.status === 'closed')
    .map((t, i) => ({
      url: `${origin}/api/v2/satisfaction_ratings/${6000000000 + t.id}.json`,
      id: 6000000000 + t.id,
      assignee_id: t.assigneeId,
      group_id: t.groupId,
      requester_id: t.requesterId,
      ticket_id: t.id,
      score: i % 3 === 2 ? 'bad' : 'good',
      comment: i % 2 === 0 ? `Rating for ticket ${t.id}` : '',
      reason: i % 3 === 2 ? 'The issue took too long to resolve' : 'No reason provided',
      reason_code: i % 3 === 2 ? 7 : 0,
      created_at: iso(t.updatedAt),
      updated_at: iso(t.updatedAt),
    }))
    .sort((a, b) => (a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : b.id - a.id));
}

/** Tag counts over tickets; `id` is the fake's cursor position only and never rendered. */
function tags(data: Dataset): Json[] {
  const counts = new Map<string, number>();
  for (const t of data.tickets) for (const tag of t.tags) counts.set(tag, (counts.get(tag) ?? 0) + 1);
  return [...counts.entries()]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([name, count], i) => ({ id: i + 1, name, count, __hide_id: true }));
}

/** Drops the fake-only members. */
function strip(r: Json): Record<string, unknown> {
  if (r.__hide_id !== true) return r;
  const { id: _id, __hide_id: _h, ...rest } = r;
  return rest;
}
