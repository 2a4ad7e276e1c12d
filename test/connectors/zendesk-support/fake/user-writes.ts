// Create User / Update User (operations CreateUser, UpdateUser: JSON `{"user": {...}}`, 201/200 `{user}`) and
// Update Many Tickets with `ids` (TicketsUpdateMany: `?ids=1,2,3` + `{"ticket": {...}}`, at most 100 ids,
// answered `{job_status}` for a queued background job). The fake stores the user attributes its records keep
// (name, email, role, organization_id, external_id) and ignores others, as Zendesk ignores unknown ones;
// values it can't accept are a 422 RecordInvalid naming the attribute. The bulk job is applied at once (so a
// later read sees it) but answered as Zendesk answers a new job: status queued, results to come.
import { createHash } from 'node:crypto';
import type { Answer, RouteRequest } from '../../kit/index.ts';
import type { Dataset, Role, UserRecord } from './dataset.ts';
import * as render from './render.ts';
import { type FieldError, isAnswer, readMember, recordInvalid, recordNotFound } from './wire.ts';
import { type TicketWriteContext, updateTicket } from './writes.ts';

const ROLES: readonly Role[] = ['end-user', 'agent', 'admin'];

/** Applies the stored attributes to a copy; the errors name Zendesk's attributes. */
function applyUser(data: Dataset, u: UserRecord, input: Record<string, unknown>) {
  const errors: Record<string, FieldError[]> = {};
  const next = { ...u };
  if (input.name !== undefined) {
    if (typeof input.name === 'string' && input.name.trim() !== '') next.name = input.name;
    else errors.name = [{ description: 'Name: is too short (minimum one character)', error: 'InvalidValue' }];
  }
  if (input.email !== undefined) {
    const email = input.email;
    if (typeof email !== 'string' || !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email))
      errors.email = [
        { description: `Email: ${String(email)} is not properly formatted`, error: 'InvalidFormat' },
      ];
    else if (data.users.some((o) => o.id !== u.id && o.email.toLowerCase() === email.toLowerCase()))
      errors.email = [
        { description: `Email: ${email} is already being used by another user`, error: 'DuplicateValue' },
      ];
    else next.email = email;
  }
  if (input.role !== undefined) {
    if (ROLES.includes(input.role as Role)) next.role = input.role as Role;
    else errors.role = [{ description: 'Role: is invalid', error: 'InvalidValue' }];
  }
  if (input.organization_id !== undefined) {
    const id = input.organization_id;
    if (id === null) next.organizationId = null;
    else if (typeof id === 'number' && data.organization(id) !== undefined) next.organizationId = id;
    else errors.organization_id = [{ description: 'Organization: is invalid', error: 'InvalidValue' }];
  }
  if (typeof input.external_id === 'string' || input.external_id === null)
    next.externalId = input.external_id;
  return { next, errors };
}

export function createUser(data: Dataset, ctx: render.RenderContext, req: RouteRequest): Answer {
  const input = readMember(req, 'user');
  if (isAnswer(input)) return input;
  const now = Date.now();
  const draft: UserRecord = {
    id: Math.max(...data.users.map((u) => u.id)) + 1,
    name: '',
    email: '',
    role: 'end-user',
    organizationId: null,
    defaultGroupId: null,
    externalId: null,
    createdAt: now,
    updatedAt: now,
  };
  const { next, errors } = applyUser(data, draft, input);
  if (next.name === '' && errors.name === undefined)
    errors.name = [{ description: 'Name: is too short (minimum one character)', error: 'InvalidValue' }];
  if (Object.keys(errors).length > 0) return { status: 422, body: recordInvalid(errors) };
  data.users.push(next);
  return {
    status: 201,
    body: { user: render.user(ctx, next) },
    headers: { location: `${ctx.origin}/api/v2/users/${next.id}.json` },
  };
}

export function updateUser(data: Dataset, ctx: render.RenderContext, id: number, req: RouteRequest): Answer {
  const u = data.user(id);
  if (u === undefined) return { status: 404, body: recordNotFound() };
  const input = readMember(req, 'user');
  if (isAnswer(input)) return input;
  const { next, errors } = applyUser(data, u, input);
  if (Object.keys(errors).length > 0) return { status: 422, body: recordInvalid(errors) };
  Object.assign(u, next, { updatedAt: Date.now() });
  return { status: 200, body: { user: render.user(ctx, u) } };
}

let jobCounter = 0;

export function updateManyTickets(writes: TicketWriteContext, req: RouteRequest): Answer {
  const raw = req.query.get('ids');
  const invalid = (description: string): Answer => ({
    status: 400,
    body: { error: 'InvalidValue', description },
  });
  if (raw === null || raw.trim() === '') return invalid('ids or tickets must be given');
  const ids = raw.split(',').map((s) => s.trim());
  if (ids.some((s) => !/^\d+$/.test(s))) return invalid('ids must be a comma-separated list of ticket ids');
  if (ids.length > 100) return invalid('Too many ids: at most 100 tickets can be updated at once');
  const input = readMember(req, 'ticket');
  if (isAnswer(input)) return input;
  const results: Array<Record<string, unknown>> = [];
  for (const id of ids) {
    const one = updateTicket(writes, Number(id), { ...req, method: 'PUT' });
    results.push(
      one.status === 200
        ? { id: Number(id), action: 'update', success: true, status: 'Updated' }
        : { id: Number(id), action: 'update', success: false, status: 'Failed', error: String(one.status) },
    );
  }
  jobCounter += 1;
  const jobId = createHash('sha256').update(`job-${jobCounter}-${raw}`).digest('hex').slice(0, 32);
  return {
    status: 200,
    body: {
      job_status: {
        id: jobId,
        url: `${writes.render.origin}/api/v2/job_statuses/${jobId}.json`,
        total: ids.length,
        progress: null,
        status: 'queued',
        message: null,
        results: null,
        job_type: 'Bulk Update',
      },
    },
  };
}
