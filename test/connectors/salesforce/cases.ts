// Salesforce cases of the definition-driven suite, over the fake's seeded org (fake/dataset.ts). A SOQL or SOSL
// text Salesforce can't run is its 400 (INVALID_TYPE, MALFORMED_SEARCH); a read of an id the org lacks its 404
// NOT_FOUND; lists that take no params get Salesforce's 403 INSUFFICIENT_ACCESS, injected.
import type { Case, Cases } from '../suite/types.ts';
import { type Dataset, idOf } from './fake/dataset.ts';
import { REPORTS } from './fake/routes.ts';
import { DATA_ROOT } from './fake/wire.ts';

const MISSING = (type: string) => idOf(type, 99_999);

const OBJECTS: Record<string, { type: string; term?: string }> = {
  accounts: { type: 'Account', term: 'Acme' },
  attachments: { type: 'Attachment' },
  campaigns: { type: 'Campaign', term: 'Spring' },
  cases: { type: 'Case', term: 'Widget' },
  contacts: { type: 'Contact', term: 'Ada' },
  content_versions: { type: 'ContentVersion' },
  events: { type: 'Event', term: 'Meeting' },
  leads: { type: 'Lead', term: 'Grace' },
  notes: { type: 'Note', term: 'Note' },
  opportunities: { type: 'Opportunity', term: 'expansion' },
  opportunity_stages: { type: 'OpportunityStage' },
  tasks: { type: 'Task', term: 'Call' },
  users: { type: 'User' },
};

const badQuery = { params: { q: 'SELECT Id FROM NoSuchObject' }, code: 'INVALID_PARAMS' as const };
const forbidden = (path: string): Case['error'] => ({
  params: {},
  code: 'UPSTREAM_FORBIDDEN',
  fault: { status: 403, match: `${DATA_ROOT}${path}` },
});

export function salesforceCases(data: Dataset): Cases {
  const cases: Cases = {
    'query.list': { happy: { q: 'SELECT Id, Name FROM Account ORDER BY Name' }, error: badQuery },
    'sobjects.list': { happy: {}, error: forbidden('/sobjects') },
    'reports.list': { happy: {}, error: forbidden('/analytics/reports') },
    'reports.get': {
      happy: { id: REPORTS[0]?.id, includeDetails: false },
      error: { params: { id: '00ODn0000099999AAA' }, code: 'UPSTREAM_NOT_FOUND' },
    },
  };
  for (const [entity, { type, term }] of Object.entries(OBJECTS)) {
    const first = data.of(type)?.[0]?.Id;
    if (typeof first !== 'string') throw new Error(`the Salesforce fake seeded no ${type}`);
    // users: the default query keeps active users (two, one batch), so the list asks for every change instead.
    cases[`${entity}.list`] = {
      happy: entity === 'users' ? { since: '2026-01-01T00:00:00Z' } : {},
      error: badQuery,
    };
    cases[`${entity}.get`] = {
      happy: { id: first, fields: 'Id,LastModifiedDate' },
      error: { params: { id: MISSING(type) }, code: 'UPSTREAM_NOT_FOUND' },
    };
    if (term !== undefined)
      cases[`${entity}.api_search`] = {
        happy: { q: `FIND {${term}*} IN ALL FIELDS RETURNING ${type}(Id, LastModifiedDate) LIMIT 10` },
        error: { params: { q: `FIND ${term} RETURNING ${type}` }, code: 'INVALID_PARAMS' },
      };
    if (entity === 'content_versions' || entity === 'attachments')
      cases[`${entity}.download`] = {
        happy: { id: first },
        error: { params: { id: MISSING(type) }, code: 'UPSTREAM_NOT_FOUND' },
      };
  }
  return cases;
}
