// The Gmail fake's routes. Each names the method id of Gmail's discovery document (gmail.v1.json, reduced to
// test/reference/providers/gmail.json) it follows; the contract holds every exchange to it. userId is `me` or
// the mailbox's own address, as Google takes either.
import type { Answer, Route, RouteRequest } from '../../kit/index.ts';
import { CursorCodec, queryInputs } from '../../kit/paging.ts';
import { route } from '../../kit/route.ts';
import type { Dataset, Label, Message } from './dataset.ts';
import {
  type Format,
  googleError,
  invalid,
  notFound,
  parseRaw,
  renderMessage,
  searchQuery,
  snippet,
} from './wire.ts';

export interface GmailCtx {
  data: Dataset;
  /** records per page when a request names no maxResults (tests shrink it; Gmail's 100 otherwise) */
  pageSize: number | undefined;
  /** the most records a page holds whatever maxResults says: Gmail's 500 (tests shrink it) */
  maxPageSize: number;
}

/** Page tokens with the look of Gmail's (a run of digits would do; these carry a signature), bound to the request. */
const tokens = new CursorCodec();

const ME = '/gmail/v1/users/{userId}';

function mailbox(req: RouteRequest, ctx: GmailCtx): Answer | undefined {
  const user = req.params.userId;
  if (user === 'me' || user === ctx.data.email) return undefined;
  return googleError(403, 'forbidden', 'Delegation denied for ' + ctx.data.email);
}

function page<T>(
  req: RouteRequest,
  ctx: GmailCtx,
  all: readonly T[],
  member: string,
  render: (item: T) => unknown,
): Answer {
  const raw = req.query.get('maxResults');
  let size = ctx.pageSize ?? 100;
  if (raw !== null) {
    if (!/^\d+$/.test(raw) || Number(raw) < 1)
      return invalid(`Invalid value at 'max_results' (TYPE_UINT32), "${raw}"`);
    size = Math.min(Number(raw), ctx.maxPageSize);
  }
  const cursor = req.query.get('pageToken') ?? undefined;
  const at = tokens.page(all, {
    cursor,
    route: req.pathname,
    inputs: queryInputs(req.query, ['pageToken']),
    limit: size,
  });
  if (at === undefined) return invalid('Invalid pageToken');
  const body: Record<string, unknown> = {};
  if (at.items.length > 0) body[member] = at.items.map(render);
  if (at.nextCursor) body.nextPageToken = at.nextCursor;
  body.resultSizeEstimate = all.length;
  return { status: 200, body };
}

const HIDDEN = ['SPAM', 'TRASH'];

/** The messages a list's q, labelIds and includeSpamTrash select, newest first; an Answer for an unknown label. */
function selected(req: RouteRequest, ctx: GmailCtx, pool: Message[]): Message[] | Answer {
  const labelIds = req.query.getAll('labelIds');
  for (const id of labelIds) if (!ctx.data.label(id)) return invalid(`Invalid label: ${id}`);
  const q = req.query.get('q') ?? '';
  const test = searchQuery(q);
  const spamTrash =
    req.query.get('includeSpamTrash') === 'true' ||
    /\bin:(trash|spam|anywhere)\b/i.test(q) ||
    labelIds.some((l) => HIDDEN.includes(l));
  return pool.filter(
    (m) =>
      (spamTrash || !m.labelIds.some((l) => HIDDEN.includes(l))) &&
      labelIds.every((l) => m.labelIds.includes(l)) &&
      test(m, ctx.data),
  );
}

const isAnswer = (v: unknown): v is Answer => !Array.isArray(v);

function format(req: RouteRequest, allowed: readonly Format[]): Format | Answer {
  const f = req.query.get('format') ?? 'full';
  return (allowed as readonly string[]).includes(f)
    ? (f as Format)
    : invalid(`Invalid value at 'format', "${f}"`);
}

function getMessage(req: RouteRequest, ctx: GmailCtx): Answer {
  const m = ctx.data.messages.get(req.params.id as string);
  if (m === undefined) return notFound();
  const f = format(req, ['minimal', 'full', 'raw', 'metadata']);
  if (typeof f !== 'string') return f;
  return { status: 200, body: renderMessage(m, f, req.query.getAll('metadataHeaders')) };
}

function labelIdsOf(json: Record<string, unknown>, key: string): string[] | undefined {
  const v = json[key];
  return Array.isArray(v) ? v.map(String) : undefined;
}

function modify(req: RouteRequest, ctx: GmailCtx): Answer {
  const m = ctx.data.messages.get(req.params.id as string);
  if (m === undefined) return notFound();
  const json = req.json === undefined ? {} : req.json;
  if (json === 'invalid') return invalid('Invalid JSON payload received.');
  const add = labelIdsOf(json, 'addLabelIds') ?? [];
  const remove = labelIdsOf(json, 'removeLabelIds') ?? [];
  if (add.length === 0 && remove.length === 0) return invalid('No label add or removes specified');
  for (const id of [...add, ...remove]) if (!ctx.data.label(id)) return invalid(`Invalid label: ${id}`);
  m.labelIds = [
    ...m.labelIds.filter((l) => !remove.includes(l)),
    ...add.filter((l) => !m.labelIds.includes(l)),
  ];
  m.historyId = ctx.data.nextHistory();
  return { status: 200, body: renderMessage(m, 'minimal') };
}

function trash(req: RouteRequest, ctx: GmailCtx, into: boolean): Answer {
  const m = ctx.data.messages.get(req.params.id as string);
  if (m === undefined) return notFound();
  m.labelIds = into
    ? [...m.labelIds.filter((l) => l !== 'TRASH' && l !== 'INBOX'), 'TRASH']
    : m.labelIds.filter((l) => l !== 'TRASH');
  m.historyId = ctx.data.nextHistory();
  return { status: 200, body: renderMessage(m, 'minimal') };
}

function send(req: RouteRequest, ctx: GmailCtx): Answer {
  const json = req.json === undefined ? {} : req.json;
  if (json === 'invalid') return invalid('Invalid JSON payload received.');
  const parsed = parseRaw(json.raw);
  if (parsed === undefined)
    return invalid("'raw' RFC822 payload message string or uploading message via /upload/* URL required");
  if (parsed.to === '') return invalid('Recipient address required');
  const threadId = typeof json.threadId === 'string' ? json.threadId : undefined;
  if (threadId !== undefined && ctx.data.thread(threadId).length === 0) return notFound();
  const m = ctx.data.add({ ...parsed, threadId, from: ctx.data.email, labelIds: ['SENT'], attachments: [] });
  return { status: 200, body: { id: m.id, threadId: m.threadId, labelIds: m.labelIds } };
}

const renderLabel = (ctx: GmailCtx, l: Label, counts: boolean) => {
  const out: Record<string, unknown> = { id: l.id, name: l.name, type: l.type };
  if (l.messageListVisibility) out.messageListVisibility = l.messageListVisibility;
  if (l.labelListVisibility) out.labelListVisibility = l.labelListVisibility;
  if (l.color) out.color = l.color;
  if (counts) {
    const on = [...ctx.data.messages.values()].filter((m) => m.labelIds.includes(l.id));
    const threads = new Set(on.map((m) => m.threadId));
    const unread = on.filter((m) => m.labelIds.includes('UNREAD'));
    out.messagesTotal = on.length;
    out.messagesUnread = unread.length;
    out.threadsTotal = threads.size;
    out.threadsUnread = new Set(unread.map((m) => m.threadId)).size;
  }
  return out;
};

/** Members labels.create and labels.patch write (https://developers.google.com/gmail/api/reference/rest/v1/users.labels). */
function labelFields(ctx: GmailCtx, json: Record<string, unknown>, self?: Label): Partial<Label> | Answer {
  const out: Partial<Label> = {};
  if (typeof json.name === 'string') {
    const name = json.name.trim();
    if (name === '') return invalid('Invalid label name');
    if (ctx.data.labels.some((l) => l !== self && l.name.toLowerCase() === name.toLowerCase()))
      return googleError(409, 'alreadyExists', 'Label name exists or conflicts');
    out.name = name;
  }
  if (json.messageListVisibility === 'show' || json.messageListVisibility === 'hide')
    out.messageListVisibility = json.messageListVisibility;
  if (['labelShow', 'labelShowIfUnread', 'labelHide'].includes(String(json.labelListVisibility)))
    out.labelListVisibility = json.labelListVisibility as Label['labelListVisibility'];
  if (typeof json.color === 'object' && json.color !== null) out.color = json.color as Label['color'];
  return out;
}

function userLabel(req: RouteRequest, ctx: GmailCtx): Label | Answer {
  const l = ctx.data.label(req.params.id as string);
  return l ?? notFound();
}

const renderDraft = (d: { id: string; message: Message }, f: Format) => ({
  id: d.id,
  message: renderMessage(d.message, f),
});

function writeDraft(
  req: RouteRequest,
  ctx: GmailCtx,
): { to: string; subject: string; text: string; threadId?: string } | Answer {
  const json = req.json === undefined ? {} : req.json;
  if (json === 'invalid') return invalid('Invalid JSON payload received.');
  const message = json.message as Record<string, unknown> | undefined;
  if (typeof message !== 'object' || message === null) return invalid('Missing draft message');
  const parsed = parseRaw(message.raw);
  if (parsed === undefined)
    return invalid("'raw' RFC822 payload message string or uploading message via /upload/* URL required");
  const threadId = typeof message.threadId === 'string' ? message.threadId : undefined;
  if (threadId !== undefined && ctx.data.thread(threadId).length === 0) return notFound();
  return { ...parsed, ...(threadId ? { threadId } : {}) };
}

export const ROUTES: Route<GmailCtx>[] = [
  route('GET', `${ME}/profile`, 'gmail.users.getProfile', (req, ctx) => {
    const refused = mailbox(req, ctx);
    if (refused) return refused;
    const all = [...ctx.data.messages.values()];
    return {
      status: 200,
      body: {
        emailAddress: ctx.data.email,
        messagesTotal: all.length,
        threadsTotal: new Set(all.map((m) => m.threadId)).size,
        historyId: String(ctx.data.historyId),
      },
    };
  }),
  route('GET', `${ME}/messages`, 'gmail.users.messages.list', (req, ctx) => {
    const refused = mailbox(req, ctx);
    if (refused) return refused;
    const all = selected(
      req,
      ctx,
      ctx.data.newestFirst().filter((m) => !m.labelIds.includes('DRAFT')),
    );
    if (isAnswer(all)) return all;
    return page(req, ctx, all, 'messages', (m) => ({ id: m.id, threadId: m.threadId }));
  }),
  route('GET', `${ME}/messages/{id}`, 'gmail.users.messages.get', getMessage),
  route('POST', `${ME}/messages/send`, 'gmail.users.messages.send', send),
  route('POST', `${ME}/messages/{id}/modify`, 'gmail.users.messages.modify', modify),
  route('POST', `${ME}/messages/{id}/trash`, 'gmail.users.messages.trash', (req, ctx) =>
    trash(req, ctx, true),
  ),
  route('POST', `${ME}/messages/{id}/untrash`, 'gmail.users.messages.untrash', (req, ctx) =>
    trash(req, ctx, false),
  ),
  route(
    'GET',
    `${ME}/messages/{messageId}/attachments/{id}`,
    'gmail.users.messages.attachments.get',
    (req, ctx) => {
      const m = ctx.data.messages.get(req.params.messageId as string);
      const a = m?.attachments.find((x) => x.id === req.params.id);
      if (a === undefined) return m === undefined ? notFound() : invalid('Invalid attachment token');
      return {
        status: 200,
        body: { attachmentId: a.id, size: a.data.length, data: a.data.toString('base64url') },
      };
    },
  ),
  route('GET', `${ME}/threads`, 'gmail.users.threads.list', (req, ctx) => {
    const refused = mailbox(req, ctx);
    if (refused) return refused;
    const all = selected(
      req,
      ctx,
      ctx.data.newestFirst().filter((m) => !m.labelIds.includes('DRAFT')),
    );
    if (isAnswer(all)) return all;
    // A thread matches when one of its messages does; threads come newest message first.
    const ids = [...new Set(all.map((m) => m.threadId))];
    return page(req, ctx, ids, 'threads', (id) => {
      const messages = ctx.data.thread(id);
      const last = messages.at(-1) as Message;
      return { id, snippet: snippet(last), historyId: String(Math.max(...messages.map((m) => m.historyId))) };
    });
  }),
  route('GET', `${ME}/threads/{id}`, 'gmail.users.threads.get', (req, ctx) => {
    const messages = ctx.data.thread(req.params.id as string);
    if (messages.length === 0) return notFound();
    const f = format(req, ['minimal', 'full', 'metadata']);
    if (typeof f !== 'string') return f;
    return {
      status: 200,
      body: {
        id: req.params.id,
        historyId: String(Math.max(...messages.map((m) => m.historyId))),
        messages: messages.map((m) => renderMessage(m, f, req.query.getAll('metadataHeaders'))),
      },
    };
  }),
  route('GET', `${ME}/labels`, 'gmail.users.labels.list', (req, ctx) => {
    const refused = mailbox(req, ctx);
    if (refused) return refused;
    return { status: 200, body: { labels: ctx.data.labels.map((l) => renderLabel(ctx, l, false)) } };
  }),
  route('GET', `${ME}/labels/{id}`, 'gmail.users.labels.get', (req, ctx) => {
    const l = userLabel(req, ctx);
    return 'status' in l ? l : { status: 200, body: renderLabel(ctx, l, true) };
  }),
  route('POST', `${ME}/labels`, 'gmail.users.labels.create', (req, ctx) => {
    const json = req.json === undefined ? {} : req.json;
    if (json === 'invalid') return invalid('Invalid JSON payload received.');
    if (typeof json.name !== 'string') return invalid('Invalid label name');
    // The discovery document's Label: both visibilities are required on create.
    if (json.messageListVisibility === undefined || json.labelListVisibility === undefined)
      return invalid('Invalid label visibility');
    const fields = labelFields(ctx, json);
    if ('status' in fields) return fields;
    const l = ctx.data.newLabel({ ...fields, name: fields.name as string });
    return { status: 200, body: renderLabel(ctx, l, false) };
  }),
  route('PATCH', `${ME}/labels/{id}`, 'gmail.users.labels.patch', (req, ctx) => {
    const l = userLabel(req, ctx);
    if ('status' in l) return l;
    const json = req.json === undefined ? {} : req.json;
    if (json === 'invalid') return invalid('Invalid JSON payload received.');
    if (l.type === 'system') return invalid('Invalid update request');
    const fields = labelFields(ctx, json, l);
    if ('status' in fields) return fields;
    Object.assign(l, fields);
    return { status: 200, body: renderLabel(ctx, l, false) };
  }),
  route('DELETE', `${ME}/labels/{id}`, 'gmail.users.labels.delete', (req, ctx) => {
    const l = userLabel(req, ctx);
    if ('status' in l) return l;
    if (l.type === 'system') return invalid('Invalid delete request');
    ctx.data.labels.splice(ctx.data.labels.indexOf(l), 1);
    for (const m of ctx.data.messages.values()) m.labelIds = m.labelIds.filter((id) => id !== l.id);
    return { status: 204, body: undefined };
  }),
  route('GET', `${ME}/drafts`, 'gmail.users.drafts.list', (req, ctx) => {
    const refused = mailbox(req, ctx);
    if (refused) return refused;
    const test = searchQuery(req.query.get('q') ?? '');
    const all = [...ctx.data.drafts.values()]
      .filter((d) => test(d.message, ctx.data))
      .sort((a, b) => b.message.internalDate - a.message.internalDate);
    return page(req, ctx, all, 'drafts', (d) => ({
      id: d.id,
      message: { id: d.message.id, threadId: d.message.threadId },
    }));
  }),
  route('GET', `${ME}/drafts/{id}`, 'gmail.users.drafts.get', (req, ctx) => {
    const d = ctx.data.drafts.get(req.params.id as string);
    if (d === undefined) return notFound();
    const f = format(req, ['minimal', 'full', 'raw', 'metadata']);
    return typeof f !== 'string' ? f : { status: 200, body: renderDraft(d, f) };
  }),
  route('POST', `${ME}/drafts`, 'gmail.users.drafts.create', (req, ctx) => {
    const fields = writeDraft(req, ctx);
    if ('status' in fields) return fields;
    const d = ctx.data.newDraft(fields);
    return {
      status: 200,
      body: {
        id: d.id,
        message: { id: d.message.id, threadId: d.message.threadId, labelIds: d.message.labelIds },
      },
    };
  }),
  route('PUT', `${ME}/drafts/{id}`, 'gmail.users.drafts.update', (req, ctx) => {
    const d = ctx.data.drafts.get(req.params.id as string);
    if (d === undefined) return notFound();
    const fields = writeDraft(req, ctx);
    if ('status' in fields) return fields;
    // Gmail replaces the draft's message with a new one (a new message id), keeping the draft's id.
    ctx.data.messages.delete(d.message.id);
    d.message = ctx.data.add({ ...fields, from: ctx.data.email, labelIds: ['DRAFT'], attachments: [] });
    return {
      status: 200,
      body: {
        id: d.id,
        message: { id: d.message.id, threadId: d.message.threadId, labelIds: d.message.labelIds },
      },
    };
  }),
  route('DELETE', `${ME}/drafts/{id}`, 'gmail.users.drafts.delete', (req, ctx) => {
    const d = ctx.data.drafts.get(req.params.id as string);
    if (d === undefined) return notFound();
    ctx.data.drafts.delete(d.id);
    ctx.data.messages.delete(d.message.id);
    return { status: 204, body: undefined };
  }),
  route('POST', `${ME}/drafts/send`, 'gmail.users.drafts.send', (req, ctx) => {
    const json = req.json === undefined ? {} : req.json;
    if (json === 'invalid') return invalid('Invalid JSON payload received.');
    const d = typeof json.id === 'string' ? ctx.data.drafts.get(json.id) : undefined;
    if (d === undefined) return typeof json.id === 'string' ? notFound() : invalid('Invalid draft');
    ctx.data.drafts.delete(d.id);
    const m = d.message;
    m.labelIds = ['SENT'];
    m.historyId = ctx.data.nextHistory();
    return { status: 200, body: { id: m.id, threadId: m.threadId, labelIds: m.labelIds } };
  }),
];
