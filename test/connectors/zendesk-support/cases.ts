// Zendesk Support cases of the definition-driven suite, over the Zendesk fake's seeded dataset
// (test/connectors/zendesk-support/fake/dataset.ts, admin-data.ts, more-routes.ts): tickets 1–30 (#1 has three comments with
// attachments 9000000001–3, #6 is closed), five users, two organizations and groups, Help Center article
// 360001000001 with attachments 360002000001–2. Lists page one record at a time (`page_size: 1`, cursor
// paging) or by offset (`per_page`) where the list has no cursor paging; a list without ids to miss gets a
// 403 from Zendesk injected (an agent without the admin permission it needs).
import type { Cases, Fault } from '../suite/types.ts';

const notFound = 'UPSTREAM_NOT_FOUND' as const;
const missingId = 999999;
const forbidden = (
  path: string,
): { params: Record<string, never>; code: 'UPSTREAM_FORBIDDEN'; fault: Fault } => ({
  params: {},
  code: 'UPSTREAM_FORBIDDEN',
  fault: { status: 403, match: `/api/v2${path}` },
});

export const zendeskCases: Cases = {
  'tickets.list': { happy: { page_size: 10 }, error: forbidden('/tickets') },
  'tickets.get': { happy: { ticket_id: 1 }, error: { params: { ticket_id: missingId }, code: notFound } },
  'tickets.create': {
    happy: { ticket: { subject: 'Suite: printer jam', comment: { body: 'It jams on page 2.' } } },
    // A new ticket needs its first comment (the description).
    error: { params: { ticket: { subject: 'Suite: no description' } }, code: 'INVALID_PARAMS' },
  },
  'tickets.update': {
    happy: { ticket_id: 3, ticket: { priority: 'high' } },
    error: { params: { ticket_id: missingId, ticket: { priority: 'high' } }, code: notFound },
  },
  'ticket_comments.list': {
    happy: { ticket_id: 1, page_size: 1 },
    error: { params: { ticket_id: missingId }, code: notFound },
  },
  'ticket_comments.create': {
    happy: { ticket_id: 2, ticket: { comment: { body: 'Suite: checking logs', public: false } } },
    // A closed ticket takes no more comments.
    error: { params: { ticket_id: 6, ticket: { comment: { body: 'too late' } } }, code: 'INVALID_PARAMS' },
  },
  'users.list': { happy: { page_size: 2 }, error: forbidden('/users') },
  'users.get': {
    happy: { user_id: 372000000002 },
    error: { params: { user_id: missingId }, code: notFound },
  },
  'users.create': {
    happy: { user: { name: 'Suite Prospect', email: 'suite.prospect@initech.example' } },
    // Zendesk refuses an email another user already has.
    error: {
      params: { user: { name: 'Again', email: 'avery.admin@ces-demo.example' } },
      code: 'INVALID_PARAMS',
    },
  },
  'users.update': {
    happy: { user_id: 372000000002, user: { notes: 'Suite: prefers email' } },
    error: { params: { user_id: missingId, user: { name: 'x' } }, code: notFound },
  },
  'organizations.list': { happy: { page_size: 1 }, error: forbidden('/organizations') },
  'organizations.get': {
    happy: { organization_id: 360000100001 },
    error: { params: { organization_id: missingId }, code: notFound },
  },
  'groups.list': { happy: { page_size: 1 }, error: forbidden('/groups') },
  'groups.get': {
    happy: { group_id: 360000200001 },
    error: { params: { group_id: missingId }, code: notFound },
  },
  'attachments.get': {
    happy: { attachment_id: 9000000001 },
    error: { params: { attachment_id: missingId }, code: notFound },
  },
  'attachments.download': {
    happy: { attachment_id: 9000000001 },
    error: { params: { attachment_id: missingId }, code: notFound },
  },
  'ticket_bulk_updates.create': {
    happy: { ids: [4, 5], ticket: { priority: 'urgent' } },
    // Zendesk's update_many takes at most 100 ids.
    error: {
      params: { ids: Array.from({ length: 101 }, (_, i) => i + 1), ticket: { priority: 'low' } },
      code: 'INVALID_PARAMS',
    },
  },
  'ticket_audits.list': {
    happy: { ticket_id: 1, page_size: 1 },
    error: { params: { ticket_id: missingId }, code: notFound },
  },
  'ticket_metrics.list': { happy: { page_size: 10 }, error: forbidden('/ticket_metrics') },
  'deleted_tickets.list': { happy: { page_size: 1 }, error: forbidden('/deleted_tickets') },
  'ticket_fields.list': { happy: { per_page: 2 }, error: forbidden('/ticket_fields') },
  'ticket_fields.get': {
    happy: { ticket_field_id: 360000810001 },
    error: { params: { ticket_field_id: missingId }, code: notFound },
  },
  'ticket_forms.list': { happy: { page_size: 1 }, error: forbidden('/ticket_forms') },
  'ticket_forms.get': {
    happy: { ticket_form_id: 360000300001 },
    error: { params: { ticket_form_id: missingId }, code: notFound },
  },
  'brands.list': { happy: { page_size: 1 }, error: forbidden('/brands') },
  'brands.get': {
    happy: { brand_id: 360000400001 },
    error: { params: { brand_id: missingId }, code: notFound },
  },
  'views.list': { happy: { page_size: 1 }, error: forbidden('/views') },
  'views.get': {
    happy: { view_id: 360000600001 },
    error: { params: { view_id: missingId }, code: notFound },
  },
  'macros.list': { happy: { per_page: 2 }, error: forbidden('/macros') },
  'macros.get': {
    happy: { macro_id: 360000700001 },
    error: { params: { macro_id: missingId }, code: notFound },
  },
  'triggers.list': { happy: { page_size: 1 }, error: forbidden('/triggers') },
  'triggers.get': {
    happy: { trigger_id: 360000710001 },
    error: { params: { trigger_id: missingId }, code: notFound },
  },
  'automations.list': { happy: { page_size: 1 }, error: forbidden('/automations') },
  'automations.get': {
    happy: { automation_id: 360000720001 },
    error: { params: { automation_id: missingId }, code: notFound },
  },
  'sla_policies.list': { happy: { page: 1, per_page: 100 }, error: forbidden('/slas/policies') },
  'sla_policies.get': {
    happy: { sla_policy_id: 360000730001 },
    error: { params: { sla_policy_id: missingId }, code: notFound },
  },
  'satisfaction_ratings.list': { happy: { page_size: 3 }, error: forbidden('/satisfaction_ratings') },
  'satisfaction_ratings.get': {
    happy: { satisfaction_rating_id: 6000000017 },
    error: { params: { satisfaction_rating_id: missingId }, code: notFound },
  },
  'tags.list': { happy: { page_size: 1 }, error: forbidden('/tags') },
  'group_memberships.list': { happy: { page_size: 1 }, error: forbidden('/group_memberships') },
  'organization_memberships.list': { happy: { page_size: 1 }, error: forbidden('/organization_memberships') },
  'articles.list': { happy: { page_size: 1 }, error: forbidden('/help_center/articles') },
  'articles.get': { happy: { id: 360001000001 }, error: { params: { id: missingId }, code: notFound } },
  'article_attachments.list': {
    happy: { article_id: 360001000001, page_size: 1 },
    error: { params: { article_id: missingId }, code: notFound },
  },
  'article_attachments.get': {
    happy: { article_id: 360001000001, attachment_id: 360002000001 },
    error: { params: { article_id: 360001000001, attachment_id: missingId }, code: notFound },
  },
  'article_attachments.download': {
    happy: { article_id: 360001000001, attachment_id: 360002000001 },
    error: { params: { article_id: 360001000001, attachment_id: missingId }, code: notFound },
  },
};
