// How records and schemas go on the wire (CRM objects API `SimplePublicObject(WithAssociations)`, Schemas API
// `ObjectSchema` and `Property`). Properties answered: the object's defaults when the request names none;
// otherwise the named ones that exist (unset ones as null) plus the id, creation and modification dates,
// which HubSpot always adds. Keys come sorted, as HubSpot sends them.
import type { CrmRecord, Dataset } from './dataset.ts';
import {
  CUSTOM_SCHEMA,
  OBJECT_TYPES,
  type ObjectType,
  PORTAL_ID,
  type PropertyDef,
  propertyOf,
  resolveType,
} from './model.ts';

export interface Projection {
  /** names asked for with `properties`; empty: the defaults */
  properties: string[];
  propertiesWithHistory?: string[];
  associations?: ObjectType[];
}

export function propertyNames(type: ObjectType, asked: string[]): string[] {
  if (asked.length === 0) return type.defaultProperties;
  const always = ['hs_object_id', type.createdProperty, type.modifiedProperties[0] as string];
  return [...new Set([...asked.filter((n) => propertyOf(type, n) !== undefined), ...always])];
}

export function renderRecord(
  data: Dataset,
  type: ObjectType,
  record: CrmRecord,
  view: Projection,
): Record<string, unknown> {
  const properties: Record<string, string | null> = {};
  for (const name of propertyNames(type, view.properties).sort())
    properties[name] = record.properties[name] ?? null;
  const out: Record<string, unknown> = { id: record.id, properties };
  if (view.propertiesWithHistory !== undefined && view.propertiesWithHistory.length > 0) {
    const history: Record<string, unknown> = {};
    for (const name of [...new Set(view.propertiesWithHistory)].sort()) {
      if (propertyOf(type, name) === undefined) continue;
      history[name] = record.history[name] ?? [];
    }
    out.propertiesWithHistory = history;
  }
  out.createdAt = record.createdAt;
  out.updatedAt = record.updatedAt;
  out.archived = record.archived;
  if (record.archivedAt !== undefined) out.archivedAt = record.archivedAt;
  if (view.associations !== undefined && view.associations.length > 0) {
    const associations: Record<string, unknown> = {};
    for (const to of view.associations) {
      const results = data.associations(type, record.id, to);
      if (results.length > 0) associations[to.key] = { results };
    }
    if (Object.keys(associations).length > 0) out.associations = associations;
  }
  return out;
}

function renderProperty(def: PropertyDef, index: number): Record<string, unknown> {
  const readOnly = def.readOnly === true;
  return {
    updatedAt: CUSTOM_SCHEMA.updatedAt,
    createdAt: CUSTOM_SCHEMA.createdAt,
    name: def.name,
    label: def.label,
    type: def.type,
    fieldType: def.fieldType,
    description: '',
    groupName: def.groupName,
    options: (def.options ?? []).map((value, i) => ({
      label: value.charAt(0).toUpperCase() + value.slice(1),
      value,
      displayOrder: i,
      hidden: false,
    })),
    displayOrder: readOnly ? -1 : index,
    calculated: false,
    externalOptions: false,
    archived: false,
    hasUniqueValue: def.hasUniqueValue === true,
    hidden: false,
    hubspotDefined: readOnly,
    modificationMetadata: {
      archivable: !readOnly && def.hasUniqueValue !== true,
      readOnlyDefinition: readOnly,
      readOnlyValue: readOnly,
    },
    formField: !readOnly,
    dataSensitivity: 'non_sensitive',
  };
}

/** The custom object's schema (the only schema the portal has). */
export function renderSchema(type: ObjectType): Record<string, unknown> {
  const s = CUSTOM_SCHEMA;
  return {
    labels: s.labels,
    requiredProperties: s.requiredProperties,
    searchableProperties: s.searchableProperties,
    primaryDisplayProperty: s.primaryDisplayProperty,
    secondaryDisplayProperties: s.secondaryDisplayProperties,
    description: s.description,
    archived: false,
    restorable: true,
    metaType: 'PORTAL_SPECIFIC',
    id: s.id,
    fullyQualifiedName: type.key,
    createdAt: s.createdAt,
    updatedAt: s.updatedAt,
    createdByUserId: s.createdByUserId,
    updatedByUserId: s.updatedByUserId,
    objectTypeId: type.objectTypeId,
    properties: type.properties.map(renderProperty),
    associations: Object.entries(s.associationIds).map(([other, id]) => {
      const to = resolveType(other) as ObjectType;
      return {
        fromObjectTypeId: type.objectTypeId,
        toObjectTypeId: to.objectTypeId,
        name: `${type.singular}_to_${to.singular}`,
        cardinality: 'ONE_TO_MANY',
        inverseCardinality: 'ONE_TO_MANY',
        id,
        createdAt: s.createdAt,
        updatedAt: s.createdAt,
      };
    }),
    name: s.name,
    portalId: PORTAL_ID,
    allowsSensitiveProperties: false,
  };
}

export const CUSTOM_TYPES = (): ObjectType[] => OBJECT_TYPES.filter((t) => t.custom);

/** GET /account-info/v3/details: the portal the credentials belong to. */
export function accountDetails(): Record<string, unknown> {
  return {
    portalId: PORTAL_ID,
    accountType: 'STANDARD',
    timeZone: 'US/Eastern',
    companyCurrency: 'USD',
    additionalCurrencies: ['EUR'],
    utcOffset: '-05:00',
    utcOffsetMilliseconds: -18_000_000,
    uiDomain: 'app.hubspot.com',
    dataHostingLocation: 'na1',
  };
}
