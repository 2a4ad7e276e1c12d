// Records -> Zendesk JSON, member for member as the JSON format sections of the API reference list them
// (schemas TicketObject, TicketCommentObject, AttachmentObject, UserObject, OrganizationObject, GroupObject of
// the official OpenAPI description, reference/zendesk-support.openapi.yaml). Every response body of the fake
// was checked against the response schemas of that description (TicketsResponse, TicketCommentsResponse,
// UsersResponse, CurrentUserResponse, OrganizationsResponse, GroupsResponse, AttachmentResponse,
// TicketUpdateResponse, ...); the one deliberate difference is noted at `width`/`height`.
import type {
  AttachmentRecord,
  CommentRecord,
  GroupRecord,
  OrganizationRecord,
  TicketRecord,
  UserRecord,
} from './dataset.ts';

export interface RenderContext {
  /** Origin of the fake, standing in for https://{subdomain}.zendesk.com. */
  origin: string;
  subdomain: string;
}

const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

export function ticket(c: RenderContext, t: TicketRecord) {
  const description = t.comments[0]?.body ?? '';
  return {
    url: `${c.origin}/api/v2/tickets/${t.id}.json`,
    id: t.id,
    external_id: t.externalId,
    via: { channel: 'web', source: { from: {}, to: {}, rel: null } },
    created_at: iso(t.createdAt),
    updated_at: iso(t.updatedAt),
    generated_timestamp: Math.floor(t.updatedAt / 1000),
    type: t.type,
    subject: t.subject,
    raw_subject: t.subject,
    description,
    priority: t.priority,
    status: t.status,
    recipient: `support@${c.subdomain}.zendesk.com`,
    requester_id: t.requesterId,
    submitter_id: t.submitterId,
    assignee_id: t.assigneeId,
    organization_id: t.organizationId,
    group_id: t.groupId,
    collaborator_ids: [],
    follower_ids: [],
    email_cc_ids: [],
    problem_id: null,
    has_incidents: false,
    is_public: t.comments.some((cm) => cm.public),
    due_at: t.dueAt === null ? null : iso(t.dueAt),
    tags: [...t.tags],
    custom_fields: [],
    // Unrated tickets carry the rating's state ("offered"/"unoffered"), not null.
    satisfaction_rating: { score: 'unoffered' },
    sharing_agreement_ids: [],
    custom_status_id: STATUS_IDS[t.status],
    fields: [],
    followup_ids: [],
    ticket_form_id: 360000300001,
    brand_id: 360000400001,
    allow_channelback: false,
    allow_attachments: true,
    from_messaging_channel: false,
  };
}

// Every account has one default custom status per status category.
const STATUS_IDS: Record<TicketRecord['status'], number> = {
  new: 360000500001,
  open: 360000500002,
  pending: 360000500003,
  hold: 360000500004,
  solved: 360000500005,
  closed: 360000500006,
};

export function comment(c: RenderContext, cm: CommentRecord) {
  return {
    id: cm.id,
    type: 'Comment',
    author_id: cm.authorId,
    body: cm.body,
    html_body: `<div class="zd-comment" dir="auto"><p dir="auto">${escapeHtml(cm.body)}</p></div>`,
    plain_body: cm.body,
    public: cm.public,
    attachments: cm.attachments.map((a) => attachment(c, a)),
    audit_id: cm.auditId,
    via: { channel: 'web', source: { from: {}, to: {}, rel: null } },
    created_at: iso(cm.createdAt),
    metadata: {
      system: { client: 'ces-test', ip_address: '192.0.2.10', location: 'Test', latitude: 0, longitude: 0 },
      custom: {},
    },
  };
}

/** content_url is on the account's own host and redirects to the storage host (see files.ts). */
export function contentUrl(c: RenderContext, a: AttachmentRecord): string {
  return `${c.origin}/attachments/token/${a.token}/?name=${encodeURIComponent(a.fileName)}`;
}

export function attachment(c: RenderContext, a: AttachmentRecord) {
  const content = contentUrl(c, a);
  return {
    url: `${c.origin}/api/v2/attachments/${a.id}.json`,
    id: a.id,
    file_name: a.fileName,
    content_url: content,
    mapped_content_url: content,
    content_type: a.contentType,
    size: a.bytes.length,
    // The reference types these as integers but describes them as null when unknown (non-images).
    width: a.width,
    height: a.height,
    inline: false,
    deleted: false,
    malware_access_override: false,
    malware_scan_result: 'malware_not_found',
    thumbnails: [],
  };
}

export function user(c: RenderContext, u: UserRecord) {
  const staff = u.role !== 'end-user';
  return {
    id: u.id,
    url: `${c.origin}/api/v2/users/${u.id}.json`,
    name: u.name,
    email: u.email,
    created_at: iso(u.createdAt),
    updated_at: iso(u.updatedAt),
    time_zone: 'Copenhagen',
    iana_time_zone: 'Europe/Copenhagen',
    phone: null,
    shared_phone_number: null,
    photo: null,
    locale_id: 1,
    locale: 'en-US',
    organization_id: u.organizationId,
    role: u.role,
    verified: true,
    external_id: u.externalId,
    tags: [],
    alias: '',
    active: true,
    shared: false,
    shared_agent: false,
    last_login_at: iso(u.updatedAt),
    two_factor_auth_enabled: null,
    signature: '',
    details: '',
    notes: '',
    role_type: staff ? (u.role === 'admin' ? null : 0) : null,
    custom_role_id: null,
    moderator: staff,
    ticket_restriction: staff ? null : 'requested',
    only_private_comments: false,
    restricted_agent: !staff,
    suspended: false,
    ...(u.defaultGroupId === null ? {} : { default_group_id: u.defaultGroupId }),
    report_csv: u.role === 'admin',
    user_fields: {},
  };
}

/** `GET /users/me` without credentials: Zendesk answers 200 with the anonymous user (id null). */
export function anonymousUser() {
  return {
    id: null,
    url: null,
    name: 'Anonymous user',
    email: 'invalid@example.com',
    created_at: null,
    updated_at: null,
    time_zone: 'Copenhagen',
    iana_time_zone: 'Europe/Copenhagen',
    phone: null,
    shared_phone_number: null,
    photo: null,
    locale_id: 1,
    locale: 'en-US',
    organization_id: null,
    role: 'end-user',
    verified: false,
    authenticity_token: 'anonymous-authenticity-token',
  };
}

export function organization(c: RenderContext, o: OrganizationRecord) {
  return {
    url: `${c.origin}/api/v2/organizations/${o.id}.json`,
    id: o.id,
    name: o.name,
    shared_tickets: false,
    shared_comments: false,
    external_id: o.externalId,
    created_at: iso(o.createdAt),
    updated_at: iso(o.updatedAt),
    domain_names: [...o.domainNames],
    details: '',
    notes: '',
    group_id: null,
    tags: [],
    organization_fields: {},
  };
}

export function group(c: RenderContext, g: GroupRecord) {
  return {
    url: `${c.origin}/api/v2/groups/${g.id}.json`,
    id: g.id,
    is_public: true,
    name: g.name,
    description: g.description,
    default: g.isDefault,
    deleted: false,
    created_at: iso(g.createdAt),
    updated_at: iso(g.updatedAt),
  };
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}
