// HubSpot cases of the definition-driven suite, over the HubSpot fake's seeded dataset
// (test/connectors/hubspot/fake/dataset.ts): companies 5001–5028, contacts 1001–1064, deals 9001–9030, tickets
// 13001–13027 and the custom object `cars` 20001–20012 (every 20th archived, so 27/61/29/26/11 live). Lists and
// searches ask for small pages so each spans three. HubSpot refuses an unknown association or object type, a
// search filter without the values its operator needs and an invalid property value with 400 (INVALID_PARAMS),
// a repeated unique value with 409 (INVALID_PARAMS by the definition's rule) and an unknown id with 404; the
// schema list has no ids to miss, so a 403 (a token without the schema scope) is injected there.
import type { Cases } from '../suite/types.ts';
import { CUSTOM_FQN, CUSTOM_TYPE_ID } from './fake/index.ts';

const notFound = 'UPSTREAM_NOT_FOUND' as const;
const invalid = 'INVALID_PARAMS' as const;
const missingId = '424242';
const since2024 = '2024-01-01T00:00:00Z';
/** IN without its values array: HubSpot's 400. */
const badFilter = { filter: { propertyName: 'hs_object_id', operator: 'IN' } };

export const hubspotCases: Cases = {
  'companies.list': {
    happy: { limit: 10, properties: ['name', 'domain', 'industry'] },
    error: { params: { associations: ['widgets'] }, code: invalid },
  },
  'companies.get': {
    happy: { companyId: '5001', properties: ['name', 'industry'], associations: ['contacts'] },
    error: { params: { companyId: missingId }, code: notFound },
  },
  'companies.api_search': {
    happy: { updated_after: since2024, sorts: [{ propertyName: 'hs_lastmodifieddate' }], limit: 10 },
    error: { params: badFilter, code: invalid },
  },
  'companies.create': {
    happy: { properties: { name: 'Suite Works', domain: 'suiteworks.example.com', city: 'Lyon' } },
    error: { params: { properties: { nope: 'x' } }, code: invalid },
  },
  'companies.update': {
    happy: { companyId: '5002', properties: { city: 'Osaka' } },
    error: { params: { companyId: missingId, properties: { city: 'Osaka' } }, code: notFound },
  },
  'contacts.list': {
    happy: { limit: 25 },
    error: { params: { associations: ['widgets'] }, code: invalid },
  },
  'contacts.get': {
    happy: {
      contactId: 'ADA.NORDIN0@NORTHWINDTRADERS.EXAMPLE.COM',
      idProperty: 'email',
      propertiesWithHistory: ['lifecyclestage'],
    },
    error: { params: { contactId: 'nobody@example.com', idProperty: 'email' }, code: notFound },
  },
  'contacts.api_search': {
    happy: { created_after: since2024, limit: 25, properties: ['email', 'jobtitle'] },
    error: {
      params: { filter: { propertyName: 'createdate', operator: 'BETWEEN', value: since2024 } },
      code: invalid,
    },
  },
  'contacts.create': {
    happy: { properties: { email: 'suite.person@example.com', firstname: 'Suite', lifecyclestage: 'lead' } },
    // The email of contact 1001.
    error: { params: { properties: { email: 'ada.nordin0@northwindtraders.example.com' } }, code: invalid },
  },
  'contacts.update': {
    happy: { contactId: '1002', properties: { jobtitle: 'CEO' } },
    error: { params: { contactId: '1002', properties: { lifecyclestage: 'nope' } }, code: invalid },
  },
  'deals.list': {
    happy: { limit: 10, associations: ['companies'] },
    error: { params: { associations: ['widgets'] }, code: invalid },
  },
  'deals.get': {
    happy: { dealId: '9001', propertiesWithHistory: ['dealstage'] },
    error: { params: { dealId: missingId }, code: notFound },
  },
  'deals.api_search': {
    happy: {
      pipeline: 'default',
      limit: 10,
      sorts: [{ propertyName: 'amount', direction: 'DESCENDING' }],
    },
    error: { params: badFilter, code: invalid },
  },
  'deals.create': {
    happy: {
      properties: { dealname: 'Suite deal', pipeline: 'default', dealstage: 'qualifiedtobuy', amount: 1200 },
    },
    error: { params: { properties: { dealstage: 'nope' } }, code: invalid },
  },
  'deals.update': {
    happy: { dealId: '9003', properties: { dealstage: 'closedwon' } },
    error: { params: { dealId: missingId, properties: { dealstage: 'closedwon' } }, code: notFound },
  },
  'tickets.list': {
    happy: { limit: 10 },
    error: { params: { associations: ['widgets'] }, code: invalid },
  },
  'tickets.get': {
    happy: { ticketId: '13001', associations: ['contacts', 'companies'] },
    error: { params: { ticketId: missingId }, code: notFound },
  },
  'tickets.api_search': {
    // HubSpot's short sort form (what the Context Store sends), here descending.
    happy: { query: 'issue', limit: 10, sort: ['-createdate'] },
    error: { params: badFilter, code: invalid },
  },
  'tickets.create': {
    happy: { properties: { subject: 'Suite: cannot export', hs_pipeline: '0', hs_pipeline_stage: '1' } },
    error: { params: { properties: { hs_ticket_priority: 'URGENT' } }, code: invalid },
  },
  'tickets.update': {
    happy: { ticketId: '13002', properties: { hs_pipeline_stage: '4' } },
    error: { params: { ticketId: missingId, properties: { hs_pipeline_stage: '4' } }, code: notFound },
  },
  'objects.list': {
    happy: { objectType: CUSTOM_FQN, limit: 5 },
    error: { params: { objectType: 'widgets' }, code: invalid },
  },
  'objects.get': {
    happy: { objectType: CUSTOM_TYPE_ID, objectId: '20001', properties: ['vin', 'make'] },
    error: { params: { objectType: CUSTOM_TYPE_ID, objectId: missingId }, code: notFound },
  },
  'objects.api_search': {
    happy: { objectType: 'p_cars', limit: 5, sorts: [{ propertyName: 'year', direction: 'DESCENDING' }] },
    error: { params: { objectType: 'widgets' }, code: invalid },
  },
  'objects.create': {
    happy: { objectType: CUSTOM_FQN, properties: { vin: 'SUITE0000000001', make: 'Volvo', model: 'XC40' } },
    // The VIN of car 20001.
    error: { params: { objectType: CUSTOM_FQN, properties: { vin: 'YV1CZ910000A100' } }, code: invalid },
  },
  'objects.update': {
    happy: { objectType: CUSTOM_TYPE_ID, objectId: '20002', properties: { color: 'red' } },
    error: {
      params: { objectType: CUSTOM_TYPE_ID, objectId: missingId, properties: { color: 'red' } },
      code: notFound,
    },
  },
  'schemas.list': {
    happy: {},
    error: { params: {}, code: 'UPSTREAM_FORBIDDEN', fault: { status: 403, match: '/crm/v3/schemas' } },
  },
  'schemas.get': {
    happy: { objectType: CUSTOM_TYPE_ID },
    error: { params: { objectType: 'widgets' }, code: notFound },
  },
};
