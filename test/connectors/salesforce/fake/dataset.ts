// The fake org's records: a few of each standard object the definition reads, with ids in Salesforce's shape
// (a three-character key prefix per object, 18 characters) and fixed timestamps as Salesforce writes them
// ("2026-01-05T09:00:00.000+0000"). SystemModstamp is the last change; `touch` moves it as an edit would.
import { Readable } from 'node:stream';

export type Value = string | number | boolean | null;
export type Row = Record<string, Value>;

export interface DatasetOptions {
  /** records of each object, default 3 */
  perObject?: number;
  /** the size in bytes of the first ContentVersion's file, default 2048 */
  fileBytes?: number;
}

const PREFIX: Record<string, string> = {
  Account: '001',
  Attachment: '00P',
  Campaign: '701',
  Case: '500',
  Contact: '003',
  ContentVersion: '068',
  Event: '00U',
  Lead: '00Q',
  Note: '002',
  Opportunity: '006',
  OpportunityStage: '01J',
  Organization: '00D',
  Task: '00T',
  User: '005',
};
export const OBJECTS = Object.keys(PREFIX);

const BASE = Date.parse('2026-01-05T09:00:00.000Z');
/** Salesforce's datetime form: milliseconds and a +0000 offset. */
export const sfTime = (ms: number) => new Date(ms).toISOString().replace('Z', '+0000');

export const idOf = (type: string, n: number) =>
  `${PREFIX[type]}Dn00000${String(n).padStart(5, '0')}AAA`.slice(0, 18);

export class Dataset {
  readonly rows = new Map<string, Row[]>();
  readonly files = new Map<string, { size: number; seed: number }>();
  private clock = BASE;

  constructor(opts: DatasetOptions = {}) {
    const n = opts.perObject ?? 3;
    const owner = idOf('User', 1);
    for (const type of OBJECTS) {
      const list: Row[] = [];
      const count = type === 'Organization' ? 1 : n;
      for (let i = 1; i <= count; i += 1) list.push(this.seed(type, i, owner, opts.fileBytes ?? 2048));
      this.rows.set(type, list);
    }
  }

  private stamp(): string {
    this.clock += 3_600_000;
    return sfTime(this.clock);
  }

  private seed(type: string, i: number, owner: string, fileBytes: number): Row {
    const Id = idOf(type, i);
    const at = this.stamp();
    const system = { CreatedDate: at, LastModifiedDate: at, SystemModstamp: at };
    const account = idOf('Account', 1);
    const own = { OwnerId: owner, ...system };
    switch (type) {
      case 'Account':
        return {
          Id,
          Name: `Acme ${i}`,
          Type: 'Customer - Direct',
          Industry: i % 2 ? 'Technology' : 'Energy',
          BillingCity: 'Lyon',
          BillingCountry: 'France',
          Website: `https://acme${i}.example.com`,
          Phone: `+33 4 00 00 00 0${i}`,
          AnnualRevenue: 1_000_000 * i,
          NumberOfEmployees: 50 * i,
          Description: `Account number ${i} of the demo org.`,
          IsDeleted: false,
          ...own,
        };
      case 'Contact':
        return {
          Id,
          Name: `Ada Lovelace ${i}`,
          FirstName: 'Ada',
          LastName: `Lovelace ${i}`,
          Email: `ada${i}@acme.example.com`,
          Phone: `+33 6 00 00 00 0${i}`,
          Title: 'Engineer',
          AccountId: account,
          MailingCity: 'Lyon',
          Description: `Contact ${i}.`,
          IsDeleted: false,
          ...own,
        };
      case 'Lead':
        return {
          Id,
          Name: `Grace Hopper ${i}`,
          FirstName: 'Grace',
          LastName: `Hopper ${i}`,
          Company: `Hopper Labs ${i}`,
          Email: `grace${i}@hopper.example.com`,
          Status: 'Open - Not Contacted',
          LeadSource: 'Web',
          Industry: 'Technology',
          IsConverted: false,
          Description: `Lead ${i}.`,
          IsDeleted: false,
          ...own,
        };
      case 'Opportunity':
        return {
          Id,
          Name: `Acme expansion ${i}`,
          AccountId: account,
          StageName: 'Prospecting',
          Amount: 25_000 * i,
          Probability: 10,
          CloseDate: '2026-06-30',
          IsClosed: false,
          IsWon: false,
          Description: `Opportunity ${i}.`,
          IsDeleted: false,
          ...own,
        };
      case 'Task':
        return {
          Id,
          Subject: `Call Acme ${i}`,
          Status: 'Not Started',
          Priority: 'Normal',
          ActivityDate: '2026-02-01',
          WhoId: idOf('Contact', 1),
          WhatId: account,
          IsClosed: false,
          Description: `Task ${i}.`,
          IsDeleted: false,
          ...own,
        };
      case 'Event':
        return {
          Id,
          Subject: `Meeting ${i}`,
          Location: 'Lyon',
          StartDateTime: at,
          EndDateTime: at,
          DurationInMinutes: 60,
          WhoId: idOf('Contact', 1),
          WhatId: account,
          Description: `Event ${i}.`,
          IsDeleted: false,
          ...own,
        };
      case 'Campaign':
        return {
          Id,
          Name: `Spring launch ${i}`,
          Type: 'Webinar',
          Status: 'Planned',
          IsActive: true,
          StartDate: '2026-03-01',
          Description: `Campaign ${i}.`,
          IsDeleted: false,
          ...own,
        };
      case 'Case':
        return {
          Id,
          CaseNumber: String(1000 + i),
          Subject: `Widget jams ${i}`,
          Status: 'New',
          Priority: 'Medium',
          Origin: 'Web',
          AccountId: account,
          Description: `Case ${i}: the widget jams.`,
          IsDeleted: false,
          ...own,
        };
      case 'Note':
        return {
          Id,
          Title: `Note ${i}`,
          Body: `Discussed the renewal (${i}).`,
          ParentId: account,
          IsPrivate: false,
          IsDeleted: false,
          ...own,
        };
      case 'OpportunityStage':
        return {
          Id,
          MasterLabel: ['Prospecting', 'Negotiation', 'Closed Won'][i - 1] ?? `Stage ${i}`,
          ApiName: `Stage${i}`,
          IsActive: true,
          IsClosed: i === 3,
          IsWon: i === 3,
          DefaultProbability: Math.min(100, i * 30),
          ForecastCategoryName: 'Pipeline',
          SortOrder: i,
          ...system,
        };
      case 'User':
        return {
          Id,
          Name: `User ${i}`,
          Username: `user${i}@ces-demo.example.com`,
          Email: `user${i}@ces-demo.example.com`,
          IsActive: i !== 3,
          UserType: 'Standard',
          Title: 'Sales',
          Department: 'Sales',
          ProfileId: '00eDn0000000001AAA',
          ManagerId: i === 1 ? null : owner,
          LastLoginDate: at,
          ...system,
        };
      case 'ContentVersion': {
        const size = i === 1 ? fileBytes : 512 * i;
        this.files.set(Id, { size, seed: i });
        return {
          Id,
          Title: `Contract ${i}`,
          PathOnClient: `contract-${i}.pdf`,
          FileExtension: 'pdf',
          FileType: 'PDF',
          ContentSize: size,
          ContentDocumentId: `069Dn00000${String(i).padStart(5, '0')}AAA`.slice(0, 18),
          VersionNumber: '1',
          IsLatest: true,
          ...own,
        };
      }
      case 'Attachment': {
        const size = 256 * i;
        this.files.set(Id, { size, seed: 100 + i });
        return {
          Id,
          Name: `scan-${i}.png`,
          ContentType: 'image/png',
          BodyLength: size,
          ParentId: account,
          Description: null,
          IsPrivate: false,
          IsDeleted: false,
          ...own,
        };
      }
      default:
        return {
          Id,
          Name: 'CES Demo Org',
          OrganizationType: 'Enterprise Edition',
          IsSandbox: false,
          InstanceName: 'EU42',
          ...system,
        };
    }
  }

  of(type: string): Row[] | undefined {
    return this.rows.get(type);
  }

  find(type: string, id: string): Row | undefined {
    return this.rows.get(type)?.find((r) => r.Id === id || String(r.Id).slice(0, 15) === id);
  }

  /** An edit: the record's fields change and its stamps move past every other record's. */
  touch(type: string, id: string, changes: Row): Row {
    const row = this.find(type, id);
    if (row === undefined) throw new Error(`no ${type} ${id}`);
    const at = this.stamp();
    Object.assign(row, changes, { LastModifiedDate: at, SystemModstamp: at });
    return row;
  }

  /** The bytes of a file: deterministic, so a test can rebuild them (see `fileBytes`). */
  stream(id: string): { size: number; body: Readable } | undefined {
    const file = this.files.get(id);
    if (file === undefined) return undefined;
    return { size: file.size, body: Readable.from(chunks(file.size, file.seed)) };
  }
}

const CHUNK = 64 * 1024;
function* chunks(size: number, seed: number): Generator<Buffer> {
  for (let at = 0; at < size; at += CHUNK) yield block(at, Math.min(CHUNK, size - at), seed);
}

function block(at: number, length: number, seed: number): Buffer {
  const out = Buffer.allocUnsafe(length);
  for (let i = 0; i < length; i += 1) out[i] = ((at + i) * 31 + seed * 7 + ((at + i) >> 8)) & 0xff;
  return out;
}

/** The whole file a fake stream answers, for assertions. */
export function fileBytes(size: number, seed: number): Buffer {
  return block(0, size, seed);
}
