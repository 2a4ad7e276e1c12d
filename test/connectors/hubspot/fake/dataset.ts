// The seeded CRM: deterministic records (no randomness, no clock) for every object type of model.ts, with
// associations between them and a property history, and the writes that change it. Records are shaped as the
// CRM objects API answers them: `{id, properties, createdAt, updatedAt, archived, archivedAt?}`, with every
// property value a string. Creation dates spread over 2024 and modification dates from days to months later
// (into 2025), so `hs_lastmodifieddate`/`lastmodifieddate` filters split the data. Every 20th record is
// archived (in the recycle bin), listed only with `archived=true`.
import {
  CUSTOM_FQN,
  DEAL_STAGES,
  LIFECYCLE,
  OBJECT_TYPES,
  type ObjectType,
  propertyOf,
  TICKET_PRIORITIES,
} from './model.ts';

export interface HistoryEntry {
  value: string;
  timestamp: string;
  sourceType: string;
  sourceId?: string;
  updatedByUserId?: number;
}

export interface CrmRecord {
  id: string;
  properties: Record<string, string | null>;
  /** newest first, per property */
  history: Record<string, HistoryEntry[]>;
  createdAt: string;
  updatedAt: string;
  archived: boolean;
  archivedAt?: string;
}

export interface SeedCounts {
  contacts: number;
  companies: number;
  deals: number;
  tickets: number;
  cars: number;
}

export const DEFAULT_COUNTS: SeedCounts = { contacts: 64, companies: 28, deals: 30, tickets: 27, cars: 12 };

const DAY = 86_400_000;
const T0 = Date.UTC(2024, 0, 1, 9, 0, 0);
const ID_BASE: Record<string, number> = {
  contacts: 1001,
  companies: 5001,
  deals: 9001,
  tickets: 13001,
  [CUSTOM_FQN]: 20001,
};
const OWNER_IDS = ['41629779', '41629780', '52001377'];

const FIRST = [
  'Ada',
  'Bruno',
  'Chloe',
  'Dmitri',
  'Elena',
  'Farid',
  'Grace',
  'Hugo',
  'Ines',
  'Jonas',
  'Keiko',
];
const LAST = ['Nordin', 'Okafor', 'Petrov', 'Quint', 'Rossi', 'Sato', 'Tanaka', 'Umar', 'Varga', 'Weiss'];
const CO_A = ['North', 'Blue', 'Iron', 'Silver', 'Green', 'Bright', 'Harbor'];
const CO_B = ['wind Traders', 'field Labs', 'stone Logistics', 'line Health'];
const INDUSTRIES = ['COMPUTER_SOFTWARE', 'LOGISTICS_AND_SUPPLY_CHAIN', 'HOSPITAL_HEALTH_CARE', 'RETAIL'];
const CITIES: Array<[string, string]> = [
  ['Boston', 'United States'],
  ['Dublin', 'Ireland'],
  ['Berlin', 'Germany'],
  ['Lyon', 'France'],
  ['Osaka', 'Japan'],
];
const TITLES = ['CTO', 'Head of Sales', 'Operations Manager', 'Buyer', 'Engineer', 'CFO'];
const CATEGORIES = ['PRODUCT_ISSUE', 'BILLING_ISSUE', 'FEATURE_REQUEST', 'GENERAL_INQUIRY'];
const MAKES: Array<[string, string[]]> = [
  ['Volvo', ['XC40', 'V60']],
  ['Toyota', ['Corolla', 'RAV4']],
  ['Ford', ['Focus', 'Puma']],
];
const COLORS = ['black', 'white', 'red', 'blue', 'silver'];

const at = (list: readonly string[], i: number): string => list[i % list.length] as string;
const iso = (ms: number): string => new Date(ms).toISOString();

export class Dataset {
  /** records per type key, in id order */
  readonly records = new Map<string, CrmRecord[]>();
  /** association edges, both directions: `${typeKey}:${id}` → set of `${typeKey}:${id}` */
  private readonly links = new Map<string, Set<string>>();
  /** primary company of a contact (HubSpot labels that edge twice: labelled and unlabelled) */
  private readonly primary = new Set<string>();

  constructor(readonly counts: SeedCounts = DEFAULT_COUNTS) {
    for (const t of OBJECT_TYPES) this.records.set(t.key, []);
    this.seed();
  }

  all(type: ObjectType): CrmRecord[] {
    return this.records.get(type.key) ?? [];
  }

  find(type: ObjectType, id: string): CrmRecord | undefined {
    return this.all(type).find((r) => r.id === id);
  }

  /** The record whose unique property `name` has this value (HubSpot's `idProperty` lookup). */
  findBy(type: ObjectType, name: string, value: string): CrmRecord | undefined {
    if (name === 'hs_object_id') return this.find(type, value);
    const lower = value.toLowerCase();
    return this.all(type).find((r) => (r.properties[name] ?? '').toLowerCase() === lower);
  }

  /** The ids of records of `to` associated with this record, with HubSpot's association type names. */
  associations(type: ObjectType, id: string, to: ObjectType): Array<{ id: string; type: string }> {
    const out: Array<{ id: string; type: string }> = [];
    const ids = [...(this.links.get(`${type.key}:${id}`) ?? [])]
      .filter((k) => k.startsWith(`${to.key}:`))
      .map((k) => k.slice(to.key.length + 1))
      .filter((other) => this.find(to, other)?.archived === false)
      .sort((a, b) => Number(a) - Number(b));
    for (const other of ids) {
      const name = `${type.singular}_to_${to.singular}`;
      const isPrimary =
        this.primary.has(`${type.key}:${id}>${to.key}:${other}`) ||
        this.primary.has(`${to.key}:${other}>${type.key}:${id}`);
      out.push({ id: other, type: name });
      if (isPrimary) out.push({ id: other, type: `${name}_unlabeled` });
    }
    return out;
  }

  link(a: ObjectType, aId: string, b: ObjectType, bId: string, primary = false): void {
    const ka = `${a.key}:${aId}`;
    const kb = `${b.key}:${bId}`;
    if (!this.links.has(ka)) this.links.set(ka, new Set());
    if (!this.links.has(kb)) this.links.set(kb, new Set());
    this.links.get(ka)?.add(kb);
    this.links.get(kb)?.add(ka);
    if (primary) this.primary.add(`${ka}>${kb}`);
  }

  create(type: ObjectType, properties: Record<string, string>, now: Date): CrmRecord {
    const list = this.all(type);
    const next = list.reduce((max, r) => Math.max(max, Number(r.id)), (ID_BASE[type.key] ?? 1) - 1) + 1;
    const stamp = now.toISOString();
    const record: CrmRecord = {
      id: String(next),
      properties: {},
      history: {},
      createdAt: stamp,
      updatedAt: stamp,
      archived: false,
    };
    this.assign(type, record, { ...properties }, stamp, 'API');
    this.stampSystem(type, record, stamp, stamp);
    list.push(record);
    return record;
  }

  update(type: ObjectType, record: CrmRecord, properties: Record<string, string>, now: Date): CrmRecord {
    const stamp = now.toISOString();
    this.assign(type, record, properties, stamp, 'API');
    record.updatedAt = stamp;
    for (const name of type.modifiedProperties) this.set(record, name, stamp, stamp, 'CALCULATED');
    return record;
  }

  archive(record: CrmRecord, now: Date): void {
    record.archived = true;
    record.archivedAt = now.toISOString();
  }

  private assign(
    type: ObjectType,
    record: CrmRecord,
    properties: Record<string, string>,
    stamp: string,
    source: string,
  ): void {
    for (const [name, value] of Object.entries(properties)) {
      if (propertyOf(type, name) === undefined) continue;
      this.set(record, name, value, stamp, source);
    }
  }

  private set(record: CrmRecord, name: string, value: string, stamp: string, source: string): void {
    record.properties[name] = value === '' ? null : value;
    const entry: HistoryEntry = { value, timestamp: stamp, sourceType: source };
    if (source === 'API') entry.sourceId = 'sample-app-1234567';
    if (source === 'CRM_UI') entry.updatedByUserId = 5123401;
    record.history[name] = [entry, ...(record.history[name] ?? [])];
  }

  private stampSystem(type: ObjectType, record: CrmRecord, created: string, updated: string): void {
    this.set(record, 'hs_object_id', record.id, created, 'CALCULATED');
    this.set(record, type.createdProperty, created, created, 'CALCULATED');
    for (const name of type.modifiedProperties) this.set(record, name, updated, updated, 'CALCULATED');
  }

  /** One seeded record: created/updated spread by index, properties set at creation, stages moved since. */
  private seedRecord(
    type: ObjectType,
    i: number,
    count: number,
    props: Record<string, string>,
    moved: Record<string, [string, string]> = {},
  ): CrmRecord {
    const step = Math.floor((330 * DAY) / count);
    const created = T0 + i * step + ((i * 137) % 1000);
    const updated = created + ((i * 37) % 150) * DAY + ((i * 11) % 24) * 3_600_000 + 4_321;
    const record: CrmRecord = {
      id: String((ID_BASE[type.key] ?? 1) + i),
      properties: {},
      history: {},
      createdAt: iso(created),
      updatedAt: iso(updated),
      archived: false,
    };
    for (const [name, [before]] of Object.entries(moved))
      this.set(record, name, before, iso(created), 'CRM_UI');
    this.assign(type, record, props, iso(created), 'IMPORT');
    for (const [name, [, after]] of Object.entries(moved))
      this.set(record, name, after, iso(updated), 'CRM_UI');
    this.stampSystem(type, record, iso(created), iso(updated));
    if (i % 20 === 19) {
      record.archived = true;
      record.archivedAt = iso(updated + DAY);
    }
    this.all(type).push(record);
    return record;
  }

  private seed(): void {
    const [contacts, companies, deals, tickets, cars] = OBJECT_TYPES as [
      ObjectType,
      ObjectType,
      ObjectType,
      ObjectType,
      ObjectType,
    ];
    const c = this.counts;
    const coNames: string[] = [];
    for (let i = 0; i < c.companies; i++) {
      const name = `${at(CO_A, i)}${at(CO_B, Math.floor(i / CO_A.length))}${i >= 28 ? ` ${i}` : ''}`;
      coNames.push(name);
      const slug = name.toLowerCase().replace(/[^a-z0-9]+/g, '');
      const [city, country] = CITIES[i % CITIES.length] as [string, string];
      this.seedRecord(companies, i, c.companies, {
        name,
        domain: `${slug}.example.com`,
        website: `https://www.${slug}.example.com`,
        phone: `+1 617 555 ${String(1000 + i).slice(-4)}`,
        industry: at(INDUSTRIES, i),
        city,
        country,
        numberofemployees: String(10 + ((i * 73) % 990)),
        annualrevenue: String(250_000 + ((i * 7919) % 90) * 100_000),
        hubspot_owner_id: at(OWNER_IDS, i),
      });
    }
    for (let i = 0; i < c.contacts; i++) {
      const first = at(FIRST, i);
      const last = at(LAST, Math.floor(i / FIRST.length) + i);
      const co = i % c.companies;
      const domain = `${(coNames[co] ?? 'acme').toLowerCase().replace(/[^a-z0-9]+/g, '')}.example.com`;
      const [city, country] = CITIES[(i + 2) % CITIES.length] as [string, string];
      const stage = LIFECYCLE.length - 1 - (i % LIFECYCLE.length);
      const record = this.seedRecord(
        contacts,
        i,
        c.contacts,
        {
          email: `${first}.${last}${i}@${domain}`.toLowerCase(),
          firstname: first,
          lastname: last,
          phone: `+1 857 555 ${String(2000 + i).slice(-4)}`,
          company: coNames[co] ?? '',
          jobtitle: at(TITLES, i),
          city,
          country,
          hubspot_owner_id: at(OWNER_IDS, i + 1),
        },
        { lifecyclestage: [at(LIFECYCLE, Math.max(0, stage - 1)), at(LIFECYCLE, stage)] },
      );
      this.link(contacts, record.id, companies, String((ID_BASE.companies ?? 0) + co), true);
    }
    for (let i = 0; i < c.deals; i++) {
      const co = (i * 3) % c.companies;
      const stage = i % DEAL_STAGES.length;
      const record = this.seedRecord(
        deals,
        i,
        c.deals,
        {
          dealname: `${coNames[co] ?? 'Acme'} - ${at(['Platform', 'Renewal', 'Expansion', 'Pilot'], i)}`,
          amount: String(5_000 + ((i * 2_750) % 95_000)),
          pipeline: 'default',
          closedate: iso(T0 + (60 + i * 11) * DAY + 17 * 3_600_000),
          dealtype: i % 3 === 0 ? 'existingbusiness' : 'newbusiness',
          description: `Opportunity ${i + 1} for ${coNames[co] ?? 'Acme'}`,
          hubspot_owner_id: at(OWNER_IDS, i),
        },
        { dealstage: [at(DEAL_STAGES, Math.max(0, stage - 1)), at(DEAL_STAGES, stage)] },
      );
      this.link(deals, record.id, companies, String((ID_BASE.companies ?? 0) + co));
      this.link(deals, record.id, contacts, String((ID_BASE.contacts ?? 0) + ((i * 2) % c.contacts)));
    }
    for (let i = 0; i < c.tickets; i++) {
      const stage = 1 + (i % 4);
      const record = this.seedRecord(
        tickets,
        i,
        c.tickets,
        {
          subject: `${at(['Cannot log in', 'Invoice mismatch', 'Export request', 'API timeout'], i)} #${i + 1}`,
          content: `Customer reported issue number ${i + 1}; details attached in the conversation.`,
          hs_pipeline: '0',
          hs_ticket_priority: at(TICKET_PRIORITIES, i),
          hs_ticket_category: at(CATEGORIES, i),
          hubspot_owner_id: at(OWNER_IDS, i + 2),
        },
        { hs_pipeline_stage: [String(Math.max(1, stage - 1)), String(stage)] },
      );
      this.link(tickets, record.id, contacts, String((ID_BASE.contacts ?? 0) + ((i * 5) % c.contacts)));
      this.link(tickets, record.id, companies, String((ID_BASE.companies ?? 0) + (i % c.companies)));
    }
    for (let i = 0; i < c.cars; i++) {
      const [make, models] = MAKES[i % MAKES.length] as [string, string[]];
      const record = this.seedRecord(cars, i, c.cars, {
        vin: `YV1CZ${String(910_000 + i * 7).padStart(6, '0')}A${String(100 + i)}`,
        make,
        model: at(models, Math.floor(i / MAKES.length)),
        year: String(2018 + (i % 7)),
        color: at(COLORS, i),
      });
      this.link(cars, record.id, contacts, String((ID_BASE.contacts ?? 0) + ((i * 7) % c.contacts)));
    }
  }
}
