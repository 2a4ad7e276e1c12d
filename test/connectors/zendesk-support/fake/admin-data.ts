// The account's configuration and Help Center records, already in Zendesk's JSON (the member lists of the
// schemas BrandObject, ViewObject, MacroObject, TriggerObject, AutomationObject, SLAPolicyObject,
// TicketFieldObject, TicketFormObject, SatisfactionRatingObject and the deleted_tickets items of
// ListDeletedTicketsResponse in reference/zendesk-support.openapi.yaml; Help Center articles and article
// attachments as the JSON format sections of developer.zendesk.com/api-reference/help_center/help-center-api/
// list them). Deterministic, so tests can assert exact values. Records derived from tickets and users (audits,
// metrics, tags, memberships, satisfaction ratings) are built per request in more-routes.ts, so writes show.
import { ADMIN_ID, AGENT_IDS, GROUP_IDS } from './dataset.ts';

const T0 = Date.parse('2024-01-02T08:00:00Z');
const DAY = 86_400_000;
export const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
const at = (days: number) => iso(T0 + days * DAY);

export type Json = Record<string, unknown> & { id: number };

export const BRAND_IDS = [360000400001, 360000400002] as const;
export const ARTICLE_IDS = [360001000001, 360001000002, 360001000003] as const;
export const ARTICLE_ATTACHMENT_IDS = [360002000001, 360002000002] as const;

export interface ArticleFile {
  id: number;
  articleId: number;
  fileName: string;
  contentType: string;
  bytes: Buffer;
  inline: boolean;
}

export function articleFiles(): ArticleFile[] {
  return [
    {
      id: ARTICLE_ATTACHMENT_IDS[0],
      articleId: ARTICLE_IDS[0],
      fileName: 'reset-guide.pdf',
      contentType: 'application/pdf',
      bytes: Buffer.from('%PDF-1.4\n% printer reset guide for ces tests\n'.repeat(8)),
      inline: false,
    },
    {
      id: ARTICLE_ATTACHMENT_IDS[1],
      articleId: ARTICLE_IDS[0],
      fileName: 'panel.txt',
      contentType: 'text/plain',
      bytes: Buffer.from('1. Open the panel.\n2. Hold reset for 10 s.\n'),
      inline: false,
    },
  ];
}

/** `/hc/article_attachments/{id}/{file_name}` on the help center host (see more-routes.ts). */
export function articleFileUrl(origin: string, f: ArticleFile): string {
  return `${origin}/hc/article_attachments/${f.id}/${encodeURIComponent(f.fileName)}`;
}

export function renderArticleAttachment(origin: string, f: ArticleFile) {
  return {
    id: f.id,
    url: `${origin}/api/v2/help_center/articles/attachments/${f.id}.json`,
    article_id: f.articleId,
    file_name: f.fileName,
    content_url: articleFileUrl(origin, f),
    content_type: f.contentType,
    size: f.bytes.length,
    inline: f.inline,
    created_at: at(5),
    updated_at: at(5),
  };
}

export function articles(origin: string): Json[] {
  const article = (id: number, title: string, position: number, days: number, labels: string[]) => ({
    id,
    url: `${origin}/api/v2/help_center/en-us/articles/${id}.json`,
    html_url: `${origin}/hc/en-us/articles/${id}-${title.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`,
    author_id: ADMIN_ID,
    comments_disabled: false,
    draft: false,
    promoted: position === 0,
    position,
    vote_sum: 3 - position,
    vote_count: 5,
    section_id: 360000900001,
    created_at: at(days),
    updated_at: at(days + 20),
    edited_at: at(days + 20),
    name: title,
    title,
    source_locale: 'en-us',
    locale: 'en-us',
    outdated: false,
    outdated_locales: [],
    permission_group_id: 360000800001,
    user_segment_id: null,
    user_segment_ids: [],
    label_names: labels,
    content_tag_ids: [],
    body: `<p>${title}: step by step.</p>`,
  });
  return [
    article(ARTICLE_IDS[0], 'Resetting the printer', 1, 1, ['printer', 'hardware']),
    article(ARTICLE_IDS[1], 'Changing your password', 0, 3, ['account']),
    article(ARTICLE_IDS[2], 'Asking for a refund', 2, 2, ['billing']),
  ];
}

/** A brand's logo: Zendesk answers it as an AttachmentObject (with its thumbnails), or null when none is set. */
function logo(origin: string, id: number, subdomain: string): Json {
  const image = (imageId: number, fileName: string, size: number, side: number) => ({
    url: `${origin}/api/v2/attachments/${imageId}.json`,
    id: imageId,
    file_name: fileName,
    content_url: `https://${subdomain}.zendesk.com/system/brands/${imageId}/${fileName}`,
    mapped_content_url: `https://${subdomain}.zendesk.com/system/brands/${imageId}/${fileName}`,
    content_type: 'image/png',
    size,
    width: side,
    height: side,
    inline: false,
    deleted: false,
  });
  return { ...image(id, 'logo.png', 5120, 256), thumbnails: [image(id + 1, 'logo_thumb.png', 980, 80)] };
}

export function brands(origin: string): Json[] {
  const brand = (id: number, name: string, subdomain: string, isDefault: boolean, days: number) => ({
    url: `${origin}/api/v2/brands/${id}.json`,
    id,
    name,
    brand_url: `https://${subdomain}.zendesk.com`,
    subdomain,
    host_mapping: null,
    has_help_center: isDefault,
    help_center_state: isDefault ? 'enabled' : 'disabled',
    active: true,
    default: isDefault,
    is_deleted: false,
    logo: isDefault ? logo(origin, 360000410001, subdomain) : null,
    ticket_form_ids: [360000300001],
    signature_template: '{{agent.signature}}',
    created_at: at(days),
    updated_at: at(days + 30),
  });
  // "sorted by name"
  return [
    brand(BRAND_IDS[0], 'Acme Support', 'ces-demo', true, 0),
    brand(BRAND_IDS[1], 'Globex Help', 'ces-demo-globex', false, 10),
  ];
}

export function views(origin: string): Json[] {
  const view = (id: number, title: string, position: number, active: boolean, restriction: unknown) => ({
    url: `${origin}/api/v2/views/${id}.json`,
    id,
    title,
    active,
    updated_at: at(40 + position),
    created_at: at(position),
    default: false,
    position,
    description: `${title} view`,
    execution: {
      group_by: 'status',
      group_order: 'asc',
      sort_by: 'updated',
      sort_order: 'desc',
      columns: [{ id: 'subject', title: 'Subject' }],
    },
    conditions: { all: [{ field: 'status', operator: 'less_than', value: 'solved' }], any: [] },
    restriction,
    raw_title: title,
  });
  return [
    view(360000600001, 'Unsolved tickets', 0, true, null),
    view(360000600002, 'Billing queue', 1, true, { type: 'Group', id: GROUP_IDS[1], ids: [GROUP_IDS[1]] }),
    view(360000600003, 'My old view', 2, false, { type: 'User', id: AGENT_IDS[0] }),
  ];
}

export function macros(origin: string): Json[] {
  const macro = (id: number, title: string, position: number, active: boolean, restriction: unknown) => ({
    url: `${origin}/api/v2/macros/${id}.json`,
    id,
    title,
    active,
    updated_at: at(50 + position),
    created_at: at(position),
    default: false,
    position,
    description: `Applies "${title}"`,
    actions: [
      { field: 'status', value: 'solved' },
      { field: 'comment_value', value: `Closing: ${title}.` },
    ],
    restriction,
    raw_title: title,
  });
  return [
    macro(360000700001, 'Close and thank', 0, true, null),
    macro(360000700002, 'Billing::Refund issued', 1, true, {
      type: 'Group',
      id: GROUP_IDS[1],
      ids: [GROUP_IDS[1]],
    }),
    macro(360000700003, 'Old greeting', 2, false, { type: 'User', id: AGENT_IDS[0] }),
  ];
}

export function triggers(origin: string): Json[] {
  const trigger = (id: number, title: string, position: number, active: boolean, category: string) => ({
    url: `${origin}/api/v2/triggers/${id}.json`,
    id,
    title,
    active,
    updated_at: at(60 + position),
    created_at: at(position),
    default: false,
    position,
    description: `${title} trigger`,
    actions: [{ field: 'notification_user', value: ['requester_id', 'Received', 'We got it.'] }],
    conditions: { all: [{ field: 'update_type', operator: 'is', value: 'Create' }], any: [] },
    category_id: category,
    raw_title: title,
  });
  return [
    trigger(360000710001, 'Notify requester of received request', 0, true, '10026'),
    trigger(360000710002, 'Notify assignee of assignment', 1, true, '10026'),
    trigger(360000710003, 'Escalate VIP', 2, false, '10031'),
  ];
}

export function automations(origin: string): Json[] {
  const automation = (id: number, title: string, position: number, active: boolean) => ({
    url: `${origin}/api/v2/automations/${id}.json`,
    id,
    title,
    active,
    updated_at: at(70 + position),
    created_at: at(position),
    default: position === 0,
    position,
    actions: [{ field: 'status', value: 'closed' }],
    conditions: {
      all: [
        { field: 'status', operator: 'is', value: 'solved' },
        { field: 'SOLVED', operator: 'greater_than', value: '96' },
      ],
      any: [],
    },
    raw_title: title,
  });
  return [
    automation(360000720001, 'Close ticket 4 days after status is set to solved', 0, true),
    automation(360000720002, 'Pending notification 24 hours', 1, true),
    automation(360000720003, 'Bump stale tickets', 2, false),
  ];
}

export function slaPolicies(origin: string): Json[] {
  const policy = (id: number, title: string, position: number, target: number) => ({
    url: `${origin}/api/v2/slas/policies/${id}.json`,
    id,
    title,
    description: `${title}: first reply within ${target} minutes`,
    position,
    filter: { all: [{ field: 'type', operator: 'is', value: 'incident' }], any: [] },
    policy_metrics: [
      { priority: 'urgent', metric: 'first_reply_time', target, business_hours: false },
      { priority: 'high', metric: 'first_reply_time', target: target * 4, business_hours: true },
    ],
    created_at: at(position),
    updated_at: at(80 + position),
  });
  return [policy(360000730001, 'Incidents', 0, 15), policy(360000730002, 'VIP customers', 1, 30)];
}

export function ticketFields(origin: string): Json[] {
  const field = (id: number, type: string, title: string, position: number, extra: object = {}) => ({
    url: `${origin}/api/v2/ticket_fields/${id}.json`,
    id,
    type,
    title,
    raw_title: title,
    description: `The ${title.toLowerCase()} of the ticket`,
    raw_description: `The ${title.toLowerCase()} of the ticket`,
    position,
    active: true,
    required: type === 'subject',
    collapsed_for_agents: false,
    regexp_for_validation: null,
    title_in_portal: title,
    raw_title_in_portal: title,
    visible_in_portal: type !== 'tagger',
    editable_in_portal: type !== 'tagger',
    required_in_portal: false,
    tag: null,
    created_at: at(position),
    updated_at: at(90 + position),
    removable: !['subject', 'description', 'status'].includes(type),
    agent_description: null,
    ...extra,
  });
  return [
    field(360000810001, 'subject', 'Subject', 1),
    field(360000810002, 'description', 'Description', 2),
    field(360000810003, 'status', 'Status', 3),
    field(360000810004, 'tagger', 'Product', 4, {
      custom_field_options: [
        { id: 360000820001, name: 'Printer', raw_name: 'Printer', value: 'product_printer', default: false },
        { id: 360000820002, name: 'Scanner', raw_name: 'Scanner', value: 'product_scanner', default: false },
      ],
    }),
    field(360000810005, 'text', 'Order number', 5),
  ];
}

export function ticketForms(origin: string): Json[] {
  const form = (id: number, name: string, position: number, active: boolean, endUser: boolean) => ({
    url: `${origin}/api/v2/ticket_forms/${id}.json`,
    id,
    name,
    raw_name: name,
    display_name: name,
    raw_display_name: name,
    end_user_visible: endUser,
    position,
    ticket_field_ids: [360000810001, 360000810002, 360000810003, 360000810004],
    active,
    default: position === 0,
    in_all_brands: true,
    restricted_brand_ids: [],
    end_user_conditions: [],
    agent_conditions: [],
    created_at: at(position),
    updated_at: at(95 + position),
  });
  return [
    form(360000300001, 'Default ticket form', 0, true, true),
    form(360000300002, 'Internal escalation', 1, true, false),
    form(360000300003, 'Retired RMA form', 2, false, true),
  ];
}

export function deletedTickets(): Json[] {
  const deleted = (id: number, subject: string, previous: string, days: number) => ({
    id,
    subject,
    actor: { id: ADMIN_ID, name: 'Avery Admin' },
    deleted_at: at(days),
    previous_state: previous,
  });
  return [
    deleted(901, 'Spam: cheap watches', 'new', 100),
    deleted(902, 'Duplicate of printer ticket', 'open', 98),
    deleted(903, 'Accidental test', 'solved', 99),
  ];
}
