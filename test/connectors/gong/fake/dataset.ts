// Deterministic seeded data for the Gong fake: the same options always give the same ids, names and dates,
// so tests can assert on them. Field sets follow the reference's schemas (UserMetadata, CallBasicData,
// WorkspaceMetadata, CallTranscript); optional members Gong omits when empty are left out here too.

export interface Workspace {
  id: string;
  name: string;
  description: string;
}

export interface User {
  id: string;
  emailAddress: string;
  created: string;
  active: boolean;
  emailAliases: string[];
  trustedEmailAddress: string;
  firstName: string;
  lastName: string;
  title: string;
  phoneNumber: string;
  extension: string;
  personalMeetingUrls: string[];
  settings: {
    webConferencesRecorded: boolean;
    preventWebConferenceRecording: boolean;
    telephonyCallsImported: boolean;
    emailsImported: boolean;
    preventEmailImport: boolean;
    nonRecordedMeetingsImported: boolean;
    gongConnectEnabled: boolean;
  };
  managerId: string | null;
  meetingConsentPageUrl: string;
  spokenLanguages: Array<{ language: string; primary: boolean }>;
  /** Avatars are synthetic users for Gong staff; /v2/users lists them only with includeAvatars=true. */
  avatar: boolean;
}

export interface Party {
  id: string;
  emailAddress: string;
  name: string;
  title: string;
  userId?: string;
  speakerId: string;
  affiliation: 'Internal' | 'External' | 'Unknown';
  methods: string[];
}

export interface Monologue {
  speakerId: string;
  topic: string | null;
  sentences: Array<{ start: number; end: number; text: string }>;
}

export interface CallRecord {
  id: string;
  url: string;
  title: string;
  scheduled: string;
  started: string;
  duration: number;
  primaryUserId: string;
  direction: 'Inbound' | 'Outbound' | 'Conference' | 'Unknown';
  system: string;
  scope: 'Internal' | 'External' | 'Unknown';
  media: 'Video' | 'Audio';
  language: string;
  workspaceId: string;
  sdrDisposition: string | null;
  clientUniqueId: string;
  customData: string | null;
  purpose: string | null;
  meetingUrl: string;
  isPrivate: boolean;
  calendarEventId: string;
  parties: Party[];
  topics: Array<{ name: string; duration: number }>;
  trackers: Array<{ id: string; name: string; count: number; type: 'KEYWORD' | 'SMART' }>;
  brief: string;
  transcript: Monologue[];
}

const FIRST = ['Ada', 'Grace', 'Alan', 'Edsger', 'Barbara', 'Ken', 'Margaret', 'Dennis', 'Frances', 'John'];
const LAST = [
  'Lovelace',
  'Hopper',
  'Turing',
  'Dijkstra',
  'Liskov',
  'Thompson',
  'Hamilton',
  'Ritchie',
  'Allen',
];
const TITLES = ['Account Executive', 'Sales Development Rep', 'Customer Success Manager', 'Sales Manager'];
const CONFERENCE = ['Zoom', 'Google Meet', 'WebEx'];
const TELEPHONY = ['Aircall', 'RingCentral'];
const COMPANIES = ['Acme', 'Globex', 'Initech', 'Umbrella', 'Hooli', 'Stark Industries'];
const TOPICS = ['Call Setup', 'Small Talk', 'Pricing', 'Product Demo', 'Next Steps'];
const LINES = [
  'Thanks for making the time today.',
  'Could you walk me through your current process?',
  'We mostly track this in spreadsheets right now.',
  'Pricing depends on the number of seats.',
  'Let me share my screen and show you the dashboard.',
  'That would save our team hours every week.',
  'I will send a summary and a proposal by Friday.',
  'Does Tuesday work for a follow-up?',
];

/** The first call is scheduled here; call n is scheduled n * 5 hours later. */
export const FIRST_CALL_AT = Date.parse('2024-01-01T08:00:00Z');
const CALL_SPACING_MS = 5 * 3_600_000;

/** mulberry32: small, fast and deterministic; quality is irrelevant here. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

function pick<T>(list: readonly T[], n: number): T {
  return list[n % list.length] as T;
}

const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');

export class Dataset {
  readonly workspaces: Workspace[] = [
    { id: '623457276584334', name: 'Sales', description: 'New business and expansion' },
    { id: '623457276584335', name: 'Customer Success', description: 'Onboarding and renewals' },
    { id: '623457276584336', name: 'Recruiting', description: 'Candidate interviews' },
  ];
  readonly users: User[] = [];
  readonly calls: CallRecord[] = [];
  private readonly callsById = new Map<string, CallRecord>();

  constructor(opts: { users: number; avatars: number; calls: number }) {
    for (let i = 0; i < opts.users; i++) this.users.push(this.user(i, false));
    for (let i = 0; i < opts.avatars; i++) this.users.push(this.user(opts.users + i, true));
    this.seedCalls(opts.calls);
  }

  /** Appends `count` calls after the existing ones (their dates keep increasing). */
  seedCalls(count: number): void {
    const hosts = this.users.filter((u) => !u.avatar).slice(0, 20);
    if (hosts.length === 0) throw new Error('the gong fake needs at least one user to host calls');
    for (let n = 0; n < count; n++) {
      const call = this.call(this.calls.length, hosts);
      this.calls.push(call);
      this.callsById.set(call.id, call);
    }
  }

  callById(id: string): CallRecord | undefined {
    return this.callsById.get(id);
  }

  userById(id: string): User | undefined {
    return this.users.find((u) => u.id === id);
  }

  /**
   * The date /v2/calls filters on: "for web-conference calls recorded by Gong, the date denotes its scheduled
   * time, otherwise, it denotes its actual start time".
   */
  static filterDate(call: CallRecord): number {
    return Date.parse(CONFERENCE.includes(call.system) ? call.scheduled : call.started);
  }

  private user(i: number, avatar: boolean): User {
    const rnd = prng(1000 + i);
    const first = pick(FIRST, i);
    const last = pick(LAST, Math.floor(i / FIRST.length));
    const handle = `${first}.${last}${i >= FIRST.length * LAST.length ? i : ''}`.toLowerCase();
    const id = String(234599484848000n + BigInt(i));
    return {
      id,
      emailAddress: avatar ? `support+${i}@gong.io` : `${handle}@ces-demo.example`,
      created: iso(Date.parse('2021-06-01T09:00:00Z') + i * 86_400_000),
      active: avatar || i % 17 !== 16,
      emailAliases: [],
      trustedEmailAddress: avatar ? `support+${i}@gong.io` : `${handle}@ces-demo.example`,
      firstName: avatar ? 'Gong' : first,
      lastName: avatar ? `Support ${i}` : last,
      title: avatar ? 'Gong Support' : pick(TITLES, i),
      phoneNumber: `+1-555-${String(1000 + i).padStart(4, '0')}`,
      extension: String(100 + (i % 900)),
      personalMeetingUrls: avatar ? [] : [`https://zoom.us/j/${5550000000 + i}`],
      settings: {
        webConferencesRecorded: !avatar,
        preventWebConferenceRecording: false,
        telephonyCallsImported: rnd() < 0.5,
        emailsImported: rnd() < 0.8,
        preventEmailImport: false,
        nonRecordedMeetingsImported: true,
        gongConnectEnabled: true,
      },
      managerId: i < 4 || avatar ? null : String(234599484848000n + BigInt(i % 4)),
      meetingConsentPageUrl: `https://join.gong.io/ces-demo/${handle}`,
      spokenLanguages: [{ language: 'en-US', primary: true }],
      avatar,
    };
  }

  private call(n: number, hosts: User[]): CallRecord {
    const rnd = prng(7 + n);
    const id = String(7782342274025937000n + BigInt(n));
    const host = pick(hosts, n);
    const conference = n % 3 !== 2;
    const system = conference ? pick(CONFERENCE, n) : pick(TELEPHONY, n);
    const scheduled = FIRST_CALL_AT + n * CALL_SPACING_MS;
    const started = scheduled + (n % 4) * 60_000;
    const duration = 600 + Math.floor(rnd() * 3000);
    const company = pick(COMPANIES, n);
    const external = n % 5 !== 4;
    const hostSpeaker = String(6432345678555530000n + BigInt(n * 2));
    const otherSpeaker = String(6432345678555530001n + BigInt(n * 2));
    const guest = pick(FIRST, n + 3);
    const parties: Party[] = [
      {
        id: String(5_000_000_000n + BigInt(n * 2)),
        emailAddress: host.emailAddress,
        name: `${host.firstName} ${host.lastName}`,
        title: host.title,
        userId: host.id,
        speakerId: hostSpeaker,
        affiliation: 'Internal',
        methods: ['Invitee'],
      },
      {
        id: String(5_000_000_001n + BigInt(n * 2)),
        emailAddress: external
          ? `${guest.toLowerCase()}@${company.toLowerCase().replace(/\s+/g, '')}.example`
          : `${pick(hosts, n + 1).emailAddress}`,
        name: external
          ? `${guest} of ${company}`
          : `${pick(hosts, n + 1).firstName} ${pick(hosts, n + 1).lastName}`,
        title: external ? 'VP Operations' : pick(hosts, n + 1).title,
        ...(external ? {} : { userId: pick(hosts, n + 1).id }),
        speakerId: otherSpeaker,
        affiliation: external ? 'External' : 'Internal',
        methods: ['Invitee'],
      },
    ];
    const transcript: Monologue[] = [];
    let at = 0;
    for (let m = 0; m < 4; m++) {
      const sentences = [];
      for (let s = 0; s < 2 + ((n + m) % 2); s++) {
        const length = 1500 + Math.floor(rnd() * 4000);
        sentences.push({ start: at, end: at + length, text: pick(LINES, n + m * 3 + s) });
        at += length + 200;
      }
      transcript.push({
        speakerId: m % 2 === 0 ? hostSpeaker : otherSpeaker,
        topic: m === 3 ? null : pick(TOPICS, n + m),
        sentences,
      });
    }
    return {
      id,
      url: `https://app.gong.io/call?id=${id}`,
      title: external ? `${company} | ${pick(TOPICS, n + 2)}` : `Internal sync #${n}`,
      scheduled: iso(scheduled),
      started: iso(started),
      duration,
      primaryUserId: host.id,
      direction: conference ? 'Conference' : n % 2 === 0 ? 'Outbound' : 'Inbound',
      system,
      scope: external ? 'External' : 'Internal',
      media: conference ? 'Video' : 'Audio',
      language: 'eng',
      workspaceId: pick(this.workspaces, n).id,
      sdrDisposition: conference ? null : 'Connected',
      clientUniqueId: `ces-fake-${n}`,
      customData: null,
      purpose: external ? 'Discovery' : null,
      meetingUrl: conference ? `https://zoom.us/j/${8880000000 + n}` : '',
      isPrivate: n % 11 === 10,
      calendarEventId: `cal-${n}`,
      parties,
      topics: TOPICS.slice(0, 3).map((name, k) => ({ name, duration: 60 + ((n * 37 + k * 53) % 400) })),
      trackers: [
        { id: '1001', name: 'Competitors', count: n % 3, type: 'KEYWORD' },
        { id: '1002', name: 'Pricing', count: (n + 1) % 4, type: 'SMART' },
      ],
      brief: `${host.firstName} met ${external ? company : 'the team'} to discuss ${pick(TOPICS, n + 2).toLowerCase()}.`,
      transcript,
    };
  }
}
