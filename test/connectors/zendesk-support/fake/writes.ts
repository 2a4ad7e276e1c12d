// Create Ticket and Update Ticket ("Tickets" reference page, operations CreateTicket / UpdateTicket): JSON body
// `{"ticket": {...}}`. Zendesk is permissive about members it does not know (they are ignored, see "REST API
// gives 200 response but the request didn't work" in its help center); values it can't accept are a 422
// RecordInvalid whose `details` names each attribute. A new ticket needs a comment (its description); a closed
// ticket can't be updated. A body that isn't a JSON object with a `ticket` object is an API-level 400, answered
// as text/plain ("Requests": "You may get a text/plain response in case of an error like a bad request").

import type { Answer, RouteRequest } from '../../kit/index.ts';
import { type Dataset, PRIORITIES, STATUSES, type Status, type TicketRecord, TYPES } from './dataset.ts';
import * as render from './render.ts';
import { type FieldError, isAnswer, isObject, readMember, recordInvalid, recordNotFound } from './wire.ts';

export interface TicketWriteContext {
  data: Dataset;
  render: render.RenderContext;
  /** The authenticated user: submitter of new tickets and default comment author. */
  authorId: number;
}

type TicketInput = Record<string, unknown>;

/** Checks and applies the writable members; returns the validation errors (nothing is applied when any). */
function apply(ctx: TicketWriteContext, t: TicketRecord, input: TicketInput): Record<string, FieldError[]> {
  const errors: Record<string, FieldError[]> = {};
  const invalid = (attr: string, label: string) => {
    errors[attr] = [{ description: `${label}: is invalid`, error: 'InvalidValue' }];
  };
  const next = { ...t };
  const pick = <T extends string>(key: string, allowed: readonly T[], label: string): void => {
    const v = input[key];
    if (v === undefined) return;
    if (v === null && key !== 'status') (next as Record<string, unknown>)[key] = null;
    else if (typeof v === 'string' && (allowed as readonly string[]).includes(v))
      (next as Record<string, unknown>)[key] = v;
    else invalid(key, label);
  };
  pick('priority', PRIORITIES, 'Priority');
  pick('type', TYPES, 'Type');
  pick('status', STATUSES, 'Status');
  const ref = (key: string, attr: string, label: string, exists: (id: number) => boolean): void => {
    const v = input[key];
    if (v === undefined) return;
    if (v === null && key !== 'requester_id') (next as Record<string, unknown>)[camel(key)] = null;
    else if (typeof v === 'number' && exists(v)) (next as Record<string, unknown>)[camel(key)] = v;
    else invalid(attr, label);
  };
  ref('requester_id', 'requester', 'Requester', (id) => ctx.data.user(id) !== undefined);
  ref(
    'assignee_id',
    'assignee',
    'Assignee',
    (id) => ctx.data.user(id)?.role !== 'end-user' && ctx.data.user(id) !== undefined,
  );
  ref('group_id', 'group', 'Group', (id) => ctx.data.group(id) !== undefined);
  ref('organization_id', 'organization', 'Organization', (id) => ctx.data.organization(id) !== undefined);
  if (typeof input.subject === 'string') next.subject = input.subject;
  if (typeof input.external_id === 'string' || input.external_id === null)
    next.externalId = input.external_id;
  if (Array.isArray(input.tags)) next.tags = input.tags.filter((x): x is string => typeof x === 'string');
  else if (typeof input.tags === 'string') next.tags = input.tags.split(/\s+/).filter((x) => x !== '');
  if (Object.keys(errors).length === 0) Object.assign(t, next);
  return errors;
}

function camel(key: string): string {
  return key.replace(/_([a-z])/g, (_, ch: string) => ch.toUpperCase());
}

function commentBody(input: TicketInput): { body: string; public: boolean; authorId?: number } | undefined {
  const c = input.comment;
  if (!isObject(c)) return undefined;
  const text =
    typeof c.body === 'string'
      ? c.body
      : typeof c.html_body === 'string'
        ? c.html_body.replace(/<[^>]*>/g, '')
        : '';
  if (text.trim() === '') return undefined;
  return {
    body: text,
    public: c.public !== false,
    ...(typeof c.author_id === 'number' ? { authorId: c.author_id } : {}),
  };
}

export function createTicket(ctx: TicketWriteContext, req: RouteRequest): Answer {
  const input = readMember(req, 'ticket');
  if (isAnswer(input)) return input;
  const comment = commentBody(input);
  const now = Date.now();
  const id = (ctx.data.tickets.at(-1)?.id ?? 0) + 1;
  const t: TicketRecord = {
    id,
    subject: '',
    status: 'new',
    priority: null,
    type: null,
    requesterId: ctx.authorId,
    submitterId: ctx.authorId,
    assigneeId: null,
    groupId: null,
    organizationId: null,
    tags: [],
    externalId: null,
    dueAt: null,
    createdAt: now,
    updatedAt: now,
    comments: [],
  };
  const errors = apply(ctx, t, input);
  if (comment === undefined)
    errors.base = [{ description: 'Description: cannot be blank', error: 'BlankValue' }];
  if (Object.keys(errors).length > 0) return { status: 422, body: recordInvalid(errors) };
  if (input.status === undefined && t.assigneeId !== null) t.status = 'open' as Status;
  t.organizationId ??= ctx.data.user(t.requesterId)?.organizationId ?? null;
  const c = comment as NonNullable<typeof comment>;
  t.comments.push(ctx.data.comment(c.authorId ?? t.requesterId, c.body, c.public, now));
  ctx.data.tickets.push(t);
  return {
    status: 201,
    body: { ticket: render.ticket(ctx.render, t) },
    headers: { location: `${ctx.render.origin}/api/v2/tickets/${id}.json` },
  };
}

export function updateTicket(ctx: TicketWriteContext, id: number, req: RouteRequest): Answer {
  const t = ctx.data.ticket(id);
  if (t === undefined) return { status: 404, body: recordNotFound() };
  const input = readMember(req, 'ticket');
  if (isAnswer(input)) return input;
  if (t.status === 'closed') {
    return {
      status: 422,
      body: recordInvalid({
        status: [{ description: 'Status: closed prevents ticket update', error: 'InvalidValue' }],
      }),
    };
  }
  const before = render.ticket(ctx.render, t);
  const errors = apply(ctx, t, input);
  if (Object.keys(errors).length > 0) return { status: 422, body: recordInvalid(errors) };
  const now = Date.now();
  const comment = commentBody(input);
  const auditId = ctx.data.nextAudit();
  const events: Array<Record<string, unknown>> = [];
  if (comment !== undefined) {
    const added = ctx.data.comment(comment.authorId ?? ctx.authorId, comment.body, comment.public, now);
    t.comments.push(added);
    events.push({
      id: added.id,
      type: 'Comment',
      author_id: added.authorId,
      body: added.body,
      public: added.public,
      attachments: [],
    });
  }
  t.updatedAt = now;
  const after = render.ticket(ctx.render, t);
  for (const field of [
    'subject',
    'status',
    'priority',
    'type',
    'assignee_id',
    'group_id',
    'requester_id',
    'tags',
  ] as const) {
    if (JSON.stringify(before[field]) !== JSON.stringify(after[field]))
      events.push({
        id: auditId * 10 + events.length,
        type: 'Change',
        field_name: field,
        value: after[field],
        previous_value: before[field],
      });
  }
  return {
    status: 200,
    body: {
      ticket: after,
      audit: {
        id: auditId,
        ticket_id: t.id,
        created_at: after.updated_at,
        author_id: ctx.authorId,
        metadata: { system: { client: 'ces-test', ip_address: '192.0.2.10' }, custom: {} },
        via: { channel: 'api', source: { from: {}, to: {}, rel: null } },
        events,
      },
    },
  };
}
