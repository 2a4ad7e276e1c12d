// The CRM object types the fake knows and their property definitions, shaped after HubSpot's CRM reference:
//   - "CRM objects" (docs/api/crm/understanding-the-crm): standard objects and their objectTypeIds
//     (contacts 0-1, companies 0-2, deals 0-3, tickets 0-5); custom objects 2-<n>, addressed by objectTypeId,
//     fullyQualifiedName (p<portalId>_<name>) or the short-hand p_<name> (base names were dropped in 2025).
//   - "Search the CRM": the properties each object answers by default, and those its `query` looks in.
//   - "Properties API": a property's definition (name, label, type, fieldType, groupName, options, ...).
// All property values travel as strings (numbers and dates too), or null when unset.

export type PropertyType = 'string' | 'number' | 'datetime' | 'date' | 'enumeration' | 'bool';

export interface PropertyDef {
  name: string;
  label: string;
  type: PropertyType;
  fieldType: string;
  groupName: string;
  hasUniqueValue?: boolean;
  /** set by HubSpot only (ids, timestamps) */
  readOnly?: boolean;
  options?: string[];
}

export interface ObjectType {
  /** the name the fake answers under, e.g. `contacts`, `p24681357_cars` */
  key: string;
  objectTypeId: string;
  /** every spelling a path may use */
  aliases: string[];
  /** used in association type names, e.g. contact_to_company */
  singular: string;
  defaultProperties: string[];
  /** the properties a search `query` looks in */
  queryProperties: string[];
  /** properties an `idProperty` may name */
  uniqueProperties: string[];
  createdProperty: string;
  /** the modification-date properties kept equal to `updatedAt` */
  modifiedProperties: string[];
  properties: PropertyDef[];
  custom: boolean;
}

export const PORTAL_ID = 24681357;
export const CUSTOM_TYPE_ID = `2-${7654321}`;
export const CUSTOM_FQN = `p${PORTAL_ID}_cars`;

const p = (
  name: string,
  label: string,
  type: PropertyType,
  groupName: string,
  more: Partial<PropertyDef> = {},
): PropertyDef => ({
  name,
  label,
  type,
  fieldType:
    type === 'number'
      ? 'number'
      : type === 'datetime' || type === 'date'
        ? 'date'
        : type === 'enumeration'
          ? 'select'
          : type === 'bool'
            ? 'booleancheckbox'
            : 'text',
  groupName,
  ...more,
});

const sys = (name: string, label: string, type: PropertyType, groupName: string): PropertyDef =>
  p(name, label, type, groupName, { readOnly: true });

export const LIFECYCLE = [
  'subscriber',
  'lead',
  'marketingqualifiedlead',
  'salesqualifiedlead',
  'opportunity',
  'customer',
];
export const DEAL_STAGES = [
  'appointmentscheduled',
  'qualifiedtobuy',
  'presentationscheduled',
  'decisionmakerboughtin',
  'contractsent',
  'closedwon',
  'closedlost',
];
export const TICKET_PRIORITIES = ['LOW', 'MEDIUM', 'HIGH'];

const contacts: ObjectType = {
  key: 'contacts',
  objectTypeId: '0-1',
  aliases: ['contacts', 'contact', '0-1'],
  singular: 'contact',
  defaultProperties: ['createdate', 'email', 'firstname', 'hs_object_id', 'lastmodifieddate', 'lastname'],
  queryProperties: ['firstname', 'lastname', 'email', 'phone', 'company'],
  uniqueProperties: ['hs_object_id', 'email'],
  createdProperty: 'createdate',
  modifiedProperties: ['lastmodifieddate', 'hs_lastmodifieddate'],
  custom: false,
  properties: [
    p('email', 'Email', 'string', 'contactinformation', { hasUniqueValue: true }),
    p('firstname', 'First Name', 'string', 'contactinformation'),
    p('lastname', 'Last Name', 'string', 'contactinformation'),
    p('phone', 'Phone Number', 'string', 'contactinformation'),
    p('company', 'Company Name', 'string', 'contactinformation'),
    p('jobtitle', 'Job Title', 'string', 'contactinformation'),
    p('city', 'City', 'string', 'contactinformation'),
    p('country', 'Country/Region', 'string', 'contactinformation'),
    p('lifecyclestage', 'Lifecycle Stage', 'enumeration', 'contactinformation', { options: LIFECYCLE }),
    p('hubspot_owner_id', 'Contact owner', 'enumeration', 'contactinformation'),
    sys('hs_object_id', 'Record ID', 'number', 'contactinformation'),
    sys('createdate', 'Create Date', 'datetime', 'contactinformation'),
    sys('lastmodifieddate', 'Last Modified Date', 'datetime', 'contactinformation'),
    sys('hs_lastmodifieddate', 'Object last modified date/time', 'datetime', 'contactinformation'),
  ],
};

const companies: ObjectType = {
  key: 'companies',
  objectTypeId: '0-2',
  aliases: ['companies', 'company', '0-2'],
  singular: 'company',
  defaultProperties: ['createdate', 'domain', 'hs_lastmodifieddate', 'hs_object_id', 'name'],
  queryProperties: ['name', 'domain', 'website', 'phone'],
  uniqueProperties: ['hs_object_id'],
  createdProperty: 'createdate',
  modifiedProperties: ['hs_lastmodifieddate'],
  custom: false,
  properties: [
    p('name', 'Company name', 'string', 'companyinformation'),
    p('domain', 'Company Domain Name', 'string', 'companyinformation'),
    p('website', 'Website URL', 'string', 'companyinformation'),
    p('phone', 'Phone Number', 'string', 'companyinformation'),
    p('industry', 'Industry', 'enumeration', 'companyinformation'),
    p('city', 'City', 'string', 'companyinformation'),
    p('country', 'Country/Region', 'string', 'companyinformation'),
    p('numberofemployees', 'Number of Employees', 'number', 'companyinformation'),
    p('annualrevenue', 'Annual Revenue', 'number', 'companyinformation'),
    p('hubspot_owner_id', 'Company owner', 'enumeration', 'companyinformation'),
    sys('hs_object_id', 'Record ID', 'number', 'companyinformation'),
    sys('createdate', 'Create Date', 'datetime', 'companyinformation'),
    sys('hs_lastmodifieddate', 'Last Modified Date', 'datetime', 'companyinformation'),
  ],
};

const deals: ObjectType = {
  key: 'deals',
  objectTypeId: '0-3',
  aliases: ['deals', 'deal', '0-3'],
  singular: 'deal',
  defaultProperties: [
    'amount',
    'closedate',
    'createdate',
    'dealname',
    'dealstage',
    'hs_lastmodifieddate',
    'hs_object_id',
    'pipeline',
  ],
  queryProperties: ['dealname', 'pipeline', 'dealstage', 'description', 'dealtype'],
  uniqueProperties: ['hs_object_id'],
  createdProperty: 'createdate',
  modifiedProperties: ['hs_lastmodifieddate'],
  custom: false,
  properties: [
    p('dealname', 'Deal Name', 'string', 'dealinformation'),
    p('amount', 'Amount', 'number', 'dealinformation'),
    p('dealstage', 'Deal Stage', 'enumeration', 'dealinformation', { options: DEAL_STAGES }),
    p('pipeline', 'Pipeline', 'enumeration', 'dealinformation', { options: ['default'] }),
    p('closedate', 'Close Date', 'datetime', 'dealinformation'),
    p('dealtype', 'Deal Type', 'enumeration', 'dealinformation', {
      options: ['newbusiness', 'existingbusiness'],
    }),
    p('description', 'Deal Description', 'string', 'dealinformation'),
    p('hubspot_owner_id', 'Deal owner', 'enumeration', 'dealinformation'),
    sys('hs_object_id', 'Record ID', 'number', 'dealinformation'),
    sys('createdate', 'Create Date', 'datetime', 'dealinformation'),
    sys('hs_lastmodifieddate', 'Last Modified Date', 'datetime', 'dealinformation'),
  ],
};

const tickets: ObjectType = {
  key: 'tickets',
  objectTypeId: '0-5',
  aliases: ['tickets', 'ticket', '0-5'],
  singular: 'ticket',
  defaultProperties: [
    'content',
    'createdate',
    'hs_lastmodifieddate',
    'hs_object_id',
    'hs_pipeline',
    'hs_pipeline_stage',
    'hs_ticket_category',
    'hs_ticket_priority',
    'subject',
  ],
  queryProperties: ['subject', 'content', 'hs_pipeline_stage', 'hs_ticket_category'],
  uniqueProperties: ['hs_object_id'],
  createdProperty: 'createdate',
  modifiedProperties: ['hs_lastmodifieddate'],
  custom: false,
  properties: [
    p('subject', 'Ticket name', 'string', 'ticketinformation'),
    p('content', 'Ticket description', 'string', 'ticketinformation'),
    p('hs_pipeline', 'Pipeline', 'enumeration', 'ticketinformation', { options: ['0'] }),
    p('hs_pipeline_stage', 'Ticket status', 'enumeration', 'ticketinformation', {
      options: ['1', '2', '3', '4'],
    }),
    p('hs_ticket_priority', 'Priority', 'enumeration', 'ticketinformation', { options: TICKET_PRIORITIES }),
    p('hs_ticket_category', 'Category', 'enumeration', 'ticketinformation', {
      options: ['PRODUCT_ISSUE', 'BILLING_ISSUE', 'FEATURE_REQUEST', 'GENERAL_INQUIRY'],
    }),
    p('hubspot_owner_id', 'Ticket owner', 'enumeration', 'ticketinformation'),
    sys('hs_object_id', 'Record ID', 'number', 'ticketinformation'),
    sys('createdate', 'Create date', 'datetime', 'ticketinformation'),
    sys('hs_lastmodifieddate', 'Last modified date', 'datetime', 'ticketinformation'),
  ],
};

const cars: ObjectType = {
  key: CUSTOM_FQN,
  objectTypeId: CUSTOM_TYPE_ID,
  aliases: [CUSTOM_FQN, CUSTOM_TYPE_ID, 'p_cars'],
  singular: 'car',
  defaultProperties: ['hs_createdate', 'hs_lastmodifieddate', 'hs_object_id'],
  queryProperties: ['vin', 'make', 'model'],
  uniqueProperties: ['hs_object_id', 'vin'],
  createdProperty: 'hs_createdate',
  modifiedProperties: ['hs_lastmodifieddate'],
  custom: true,
  properties: [
    p('vin', 'VIN', 'string', 'car_information', { hasUniqueValue: true }),
    p('make', 'Make', 'string', 'car_information'),
    p('model', 'Model', 'string', 'car_information'),
    p('year', 'Year', 'number', 'car_information'),
    p('color', 'Color', 'enumeration', 'car_information', {
      options: ['black', 'white', 'red', 'blue', 'silver'],
    }),
    sys('hs_object_id', 'Record ID', 'number', 'car_information'),
    sys('hs_createdate', 'Object create date/time', 'datetime', 'car_information'),
    sys('hs_lastmodifieddate', 'Object last modified date/time', 'datetime', 'car_information'),
  ],
};

export const OBJECT_TYPES: readonly ObjectType[] = [contacts, companies, deals, tickets, cars];

/** The type a path segment names (case-insensitive, as HubSpot), or undefined. */
export function resolveType(name: string): ObjectType | undefined {
  const lower = name.toLowerCase();
  return OBJECT_TYPES.find((t) => t.aliases.some((a) => a.toLowerCase() === lower));
}

export function propertyOf(type: ObjectType, name: string): PropertyDef | undefined {
  return type.properties.find((d) => d.name === name);
}

/** The custom object's schema metadata (Schemas API `ObjectSchema`, without `properties`). */
export const CUSTOM_SCHEMA = {
  id: '7654321',
  name: 'cars',
  labels: { singular: 'Car', plural: 'Cars' },
  description: 'Vehicles on the lot',
  requiredProperties: ['vin'],
  searchableProperties: ['vin', 'make', 'model'],
  primaryDisplayProperty: 'model',
  secondaryDisplayProperties: ['make'],
  createdAt: '2023-11-20T14:03:11.402Z',
  updatedAt: '2024-02-02T09:41:27.115Z',
  createdByUserId: 5123401,
  updatedByUserId: 5123401,
  /** the other ends of its association definitions */
  associationIds: { contacts: '161', companies: '163' } as Record<string, string>,
};
