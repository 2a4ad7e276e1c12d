// The seeded Slack workspace: deterministic (no randomness, fixed timestamps). Shapes follow the reference's
// objs_user / objs_conversation / objs_message / objs_file schemas; render.ts turns these records into the wire
// objects. Seed:
//   - team T07CESFAKE1 "CES Fake Workspace" (domain ces-fake)
//   - users: USLACKBOT, `users` people (default 32, the first the primary owner, every 11th deleted), and the
//     app's bot user; `updated` one every 3 days from 2023-07-22
//   - channels: 28 (#general, #random, #engineering, ...), 5 private, 3 archived, `created` one every 5 days
//     from 2023-01-01. The bot is in all of them but #partners (public) and #legal (private); the owner (user
//     token) in all but #legal.
//   - messages: #engineering has `engineeringMessages` (default 48) top-level messages an hour apart from
//     2023-11-14T22:13:20Z (ts 1700000000.000100 ...), every 8th (from the 4th) a thread with 3-7 replies and
//     the 12th a thread of 25 replies; #general 12, #random 6, the other live channels 2 each.
//   - files: 14 (txt, csv, png, pdf, json) two hours apart from 2023-11-16, in #engineering or #general.
import { fileBytes } from './files.ts';
import { tsOf } from './wire.ts';

export const TEAM = {
  id: 'T07CESFAKE1',
  name: 'CES Fake Workspace',
  domain: 'ces-fake',
  email_domain: 'ces-fake.example.com',
} as const;

export const APP_ID = 'A07CESAPP01';
export const BOT_ID = 'B07CESBOT01';
export const BOT_USER_ID = 'U07BOT00001';

export interface UserRecord {
  id: string;
  name: string;
  real_name: string;
  first: string;
  last: string;
  title: string;
  deleted: boolean;
  is_admin: boolean;
  is_owner: boolean;
  is_primary_owner: boolean;
  is_bot: boolean;
  tz: string;
  tz_label: string;
  tz_offset: number;
  updated: number;
  color: string;
  status_text: string;
  status_emoji: string;
}

export interface Topic {
  value: string;
  creator: string;
  last_set: number;
}

export interface ChannelRecord {
  id: string;
  name: string;
  created: number;
  creator: string;
  is_private: boolean;
  is_archived: boolean;
  is_general: boolean;
  topic: Topic;
  purpose: Topic;
  previous_names: string[];
  members: string[];
}

export interface Reaction {
  name: string;
  users: string[];
  count: number;
}

export interface MessageRecord {
  channel: string;
  ts: string;
  text: string;
  user: string;
  subtype?: string;
  /** set for messages posted by the app (bot token) */
  bot?: boolean;
  thread_ts?: string;
  parent_user_id?: string;
  reactions: Reaction[];
  pinned_to: string[];
  edited?: { user: string; ts: string };
  blocks?: unknown;
  attachments?: unknown;
}

export interface FileRecord {
  id: string;
  name: string;
  title: string;
  mimetype: string;
  filetype: string;
  pretty_type: string;
  user: string;
  created: number;
  channels: string[];
  bytes: Buffer;
}

export interface BookmarkRecord {
  id: string;
  channel_id: string;
  title: string;
  link: string;
  emoji: string | null;
  type: string;
  entity_id: string | null;
  parent_id: string | null;
  date_created: number;
  last_updated_by_user_id: string;
  rank: string;
}

export interface ScheduledRecord {
  id: string;
  channel: string;
  post_at: number;
  text: string;
  user: string;
  bot: boolean;
  thread_ts?: string;
  date_created: number;
}

export interface EphemeralRecord {
  channel: string;
  user: string;
  ts: string;
  text: string;
}

const FIRST = ['Ada', 'Grace', 'Alan', 'Edsger', 'Barbara', 'Donald', 'Frances', 'Ken', 'Margaret', 'Dennis'];
const LAST = ['Lovelace', 'Hopper', 'Turing', 'Dijkstra', 'Liskov', 'Knuth', 'Allen', 'Thompson'];
const TITLES = ['Engineer', 'Designer', 'Product Manager', 'Support Lead', 'Data Scientist'];
const ZONES: Array<[string, string, number]> = [
  ['America/Los_Angeles', 'Pacific Standard Time', -28800],
  ['Europe/London', 'Greenwich Mean Time', 0],
  ['Asia/Tokyo', 'Japan Standard Time', 32400],
];
const CHANNELS = (
  'general random engineering design product marketing sales support ops security data mobile web infra ' +
  'hiring finance legal announcements watercooler incidents releases qa docs partners events research ' +
  'old-projects archive-2022'
).split(' ');
const PRIVATE = new Set(['security', 'hiring', 'finance', 'legal', 'archive-2022']);
const ARCHIVED = new Set(['events', 'old-projects', 'archive-2022']);
const BOT_ABSENT = new Set(['partners', 'legal']);
const OWNER_ABSENT = new Set(['legal']);
const WORDS = ['deploy', 'review', 'standup', 'incident', 'roadmap', 'design doc', 'benchmark', 'release'];

const pad = (n: number, width = 8) => n.toString(36).toUpperCase().padStart(width, '0');

export interface DatasetOptions {
  users?: number;
  engineeringMessages?: number;
}

export class Dataset {
  readonly users: UserRecord[] = [];
  readonly channels: ChannelRecord[] = [];
  readonly messages = new Map<string, MessageRecord[]>();
  readonly files: FileRecord[] = [];
  readonly bookmarks: BookmarkRecord[] = [];
  readonly scheduled: ScheduledRecord[] = [];
  readonly ephemeral: EphemeralRecord[] = [];
  private channelSeq = 0;
  private idSeq = 0;

  constructor(opts: DatasetOptions = {}) {
    this.seedUsers(opts.users ?? 32);
    this.seedChannels();
    this.seedMessages(opts.engineeringMessages ?? 48);
    this.seedFiles();
  }

  /** The primary owner: the person a user token (xoxp) belongs to. */
  get owner(): UserRecord {
    return this.users[1] as UserRecord;
  }

  private seedUsers(count: number): void {
    this.users.push(this.person('USLACKBOT', 'slackbot', 'Slackbot', '', 'Slackbot', 0, 1_690_000_000));
    for (let i = 0; i < count; i++) {
      const first = FIRST[i % FIRST.length] as string;
      const last = LAST[Math.floor(i / FIRST.length) % LAST.length] as string;
      const user = this.person(
        `U07${pad(i + 1)}`,
        `${first}.${last}${i >= FIRST.length * LAST.length ? i : ''}`.toLowerCase(),
        first,
        last,
        TITLES[i % TITLES.length] as string,
        i,
        1_690_000_000 + i * 3 * 86_400,
      );
      user.is_primary_owner = i === 0;
      user.is_owner = i === 0;
      user.is_admin = i < 3;
      user.deleted = i > 0 && i % 11 === 0;
      this.users.push(user);
    }
    const bot = this.person(BOT_USER_ID, 'ces-bot', 'CES Bot', '', 'Bot', 0, 1_690_100_000);
    bot.is_bot = true;
    this.users.push(bot);
  }

  private person(
    id: string,
    name: string,
    first: string,
    last: string,
    title: string,
    i: number,
    updated: number,
  ): UserRecord {
    const zone = ZONES[i % ZONES.length] as [string, string, number];
    return {
      id,
      name,
      real_name: last === '' ? first : `${first} ${last}`,
      first,
      last,
      title,
      deleted: false,
      is_admin: false,
      is_owner: false,
      is_primary_owner: false,
      is_bot: false,
      tz: zone[0],
      tz_label: zone[1],
      tz_offset: zone[2],
      updated,
      color: ((i * 2_654_435) & 0xffffff).toString(16).padStart(6, '0'),
      status_text: i % 4 === 1 ? 'In a meeting' : '',
      status_emoji: i % 4 === 1 ? ':calendar:' : '',
    };
  }

  /** People who are not deleted and not bots (Slackbot aside). */
  activePeople(): UserRecord[] {
    return this.users.filter((u) => !u.deleted && !u.is_bot && u.id !== 'USLACKBOT');
  }

  private seedChannels(): void {
    const people = this.activePeople();
    CHANNELS.forEach((name, i) => {
      const created = 1_672_531_200 + i * 5 * 86_400;
      const creator = (people[i % people.length] as UserRecord).id;
      const members =
        name === 'general'
          ? people.map((u) => u.id)
          : people.filter((_, j) => j % ((i % 4) + 2) === 0 || j === 0).map((u) => u.id);
      if (OWNER_ABSENT.has(name)) members.splice(members.indexOf(this.owner.id), 1);
      else if (!members.includes(this.owner.id)) members.unshift(this.owner.id);
      if (!BOT_ABSENT.has(name)) members.push(BOT_USER_ID);
      this.channels.push({
        id: this.nextChannelId(),
        name,
        created,
        creator,
        is_private: PRIVATE.has(name),
        is_archived: ARCHIVED.has(name),
        is_general: name === 'general',
        topic: {
          value: i % 3 === 0 ? `All things ${name}` : '',
          creator: i % 3 === 0 ? creator : '',
          last_set: i % 3 === 0 ? created + 3600 : 0,
        },
        purpose: { value: `Channel for ${name}`, creator, last_set: created },
        previous_names: name === 'incidents' ? ['outages'] : [],
        members,
      });
    });
  }

  nextChannelId(): string {
    this.channelSeq++;
    return `C07${pad(this.channelSeq)}`;
  }

  /** A fresh id with Slack's prefix for its kind (Bk bookmarks, Q scheduled messages). */
  nextId(prefix: string): string {
    this.idSeq++;
    return `${prefix}07${pad(this.idSeq)}`;
  }

  private seedMessages(engineering: number): void {
    const people = this.activePeople();
    const userAt = (n: number) => (people[n % people.length] as UserRecord).id;
    this.channels.forEach((ch, c) => {
      const count =
        ch.name === 'engineering' ? engineering : ch.name === 'general' ? 12 : ch.name === 'random' ? 6 : 2;
      if (ch.is_archived && ch.name !== 'events') return;
      const list: MessageRecord[] = [];
      const base = ch.name === 'engineering' ? 1_700_000_000 : 1_699_000_000 + c * 7_200;
      for (let i = 0; i < count; i++) {
        const ts = tsOf(base + i * 3600, (i + 1) * 100);
        const bot = ch.members.includes(BOT_USER_ID) && i % 10 === 9;
        const msg: MessageRecord = {
          channel: ch.id,
          ts,
          user: bot ? BOT_USER_ID : userAt(i + c),
          text: bot
            ? `Build #${1000 + i} passed`
            : `${WORDS[i % WORDS.length]} update ${i + 1} in #${ch.name}`,
          reactions: [],
          pinned_to: [],
        };
        if (bot) msg.bot = true;
        if (i === 0 && ch.name === 'engineering') {
          msg.subtype = 'channel_join';
          msg.text = `<@${msg.user}> has joined the channel`;
        }
        if (i % 5 === 2) {
          const users = [userAt(i + 1), userAt(i + 2)];
          msg.reactions.push({ name: 'thumbsup', users, count: users.length });
        }
        if (i === 6 && ch.name === 'engineering') msg.pinned_to.push(ch.id);
        if (i === 4) msg.edited = { user: msg.user, ts: tsOf(base + i * 3600 + 120) };
        list.push(msg);
        const replies = ch.name !== 'engineering' ? 0 : i === 11 ? 25 : i % 8 === 3 ? 3 + (i % 5) : 0;
        for (let r = 0; r < replies; r++) {
          list.push({
            channel: ch.id,
            ts: tsOf(base + i * 3600 + (r + 1) * 60, (i + 1) * 100 + r + 1),
            user: userAt(i + r + 3),
            text: `reply ${r + 1} to update ${i + 1}`,
            thread_ts: ts,
            parent_user_id: msg.user,
            reactions: [],
            pinned_to: [],
          });
        }
      }
      this.messages.set(ch.id, list);
    });
  }

  private seedFiles(): void {
    const people = this.activePeople();
    const engineering = this.channelByName('engineering') as ChannelRecord;
    const general = this.channelByName('general') as ChannelRecord;
    const kinds: Array<[string, string, string, string]> = [
      ['txt', 'text/plain', 'text', 'Plain Text'],
      ['csv', 'text/csv', 'csv', 'CSV'],
      ['png', 'image/png', 'png', 'PNG'],
      ['pdf', 'application/pdf', 'pdf', 'PDF'],
      ['json', 'application/json', 'json', 'JSON'],
    ];
    for (let i = 0; i < 14; i++) {
      const [ext, mimetype, filetype, pretty] = kinds[i % kinds.length] as [string, string, string, string];
      const name = `report-${i + 1}.${ext}`;
      this.files.push({
        id: `F07${pad(i + 1)}`,
        name,
        title: `Report ${i + 1}`,
        mimetype,
        filetype,
        pretty_type: pretty,
        user: (people[i % people.length] as UserRecord).id,
        created: 1_700_100_000 + i * 7_200,
        channels: [(i % 2 === 0 ? engineering : general).id],
        bytes: fileBytes(ext, i),
      });
    }
  }

  userById(id: string): UserRecord | undefined {
    return this.users.find((u) => u.id === id);
  }

  channelById(id: string): ChannelRecord | undefined {
    return this.channels.find((c) => c.id === id);
  }

  channelByName(name: string): ChannelRecord | undefined {
    return this.channels.find((c) => c.name === name);
  }

  messagesOf(channel: string): MessageRecord[] {
    let list = this.messages.get(channel);
    if (list === undefined) {
      list = [];
      this.messages.set(channel, list);
    }
    return list;
  }

  message(channel: string, ts: string): MessageRecord | undefined {
    return this.messages.get(channel)?.find((m) => m.ts === ts);
  }

  repliesOf(channel: string, ts: string): MessageRecord[] {
    return this.messagesOf(channel).filter((m) => m.thread_ts === ts && m.ts !== ts);
  }

  fileById(id: string): FileRecord | undefined {
    return this.files.find((f) => f.id === id);
  }

  /** The newest ts anywhere, so a posted message always sorts after the seed. */
  latestTs(): string {
    let latest = '0000000000.000000';
    for (const list of this.messages.values()) for (const m of list) if (m.ts > latest) latest = m.ts;
    return latest;
  }
}
