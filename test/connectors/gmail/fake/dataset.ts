// The Gmail fake's data: one mailbox of threads of messages (some with attachments, some in the trash or spam),
// the system labels and user labels, and drafts, seeded deterministically. Ids have Gmail's look (16 hex digits
// for messages and threads, r + 19 digits for drafts, Label_<n> for user labels); times are fixed.
import { createHash } from 'node:crypto';

export interface Attachment {
  id: string;
  filename: string;
  mimeType: string;
  data: Buffer;
}

export interface Message {
  id: string;
  threadId: string;
  labelIds: string[];
  /** epoch ms, as Gmail's internalDate */
  internalDate: number;
  historyId: number;
  from: string;
  to: string;
  subject: string;
  text: string;
  attachments: Attachment[];
}

export interface Label {
  id: string;
  name: string;
  type: 'system' | 'user';
  messageListVisibility?: 'show' | 'hide';
  labelListVisibility?: 'labelShow' | 'labelShowIfUnread' | 'labelHide';
  color?: { textColor?: string; backgroundColor?: string };
}

export interface Draft {
  id: string;
  message: Message;
}

export const T0 = Date.parse('2024-05-01T08:00:00.000Z');

/** 16 hex digits from a seed: Gmail's message and thread ids. */
export const hexId = (seed: string) => createHash('sha256').update(seed).digest('hex').slice(0, 16);

const SYSTEM_LABELS = [
  'INBOX',
  'SENT',
  'DRAFT',
  'SPAM',
  'TRASH',
  'UNREAD',
  'STARRED',
  'IMPORTANT',
  'CHAT',
  'CATEGORY_PERSONAL',
  'CATEGORY_SOCIAL',
  'CATEGORY_PROMOTIONS',
  'CATEGORY_UPDATES',
  'CATEGORY_FORUMS',
];

/** `size` deterministic bytes (a counter hashed in blocks): the same attachment on every run, not compressible. */
export function bytesOf(seed: string, size: number): Buffer {
  const out = Buffer.alloc(size);
  let block = 0;
  for (let offset = 0; offset < size; offset += 32, block += 1)
    createHash('sha256').update(`${seed}:${block}`).digest().copy(out, offset);
  return out;
}

export interface DatasetOptions {
  /** threads in the mailbox; default 24 (1 to 3 messages each) */
  threads?: number;
  /** bytes of the one large attachment; default 12 MiB + 123 (over 10 MB; Gmail takes up to 25 MB) */
  largeAttachmentBytes?: number;
}

export class Dataset {
  readonly email = 'ada@ces-demo.example';
  readonly messages = new Map<string, Message>();
  readonly labels: Label[] = [];
  readonly drafts = new Map<string, Draft>();
  /** the message with the large attachment */
  readonly largeMessageId: string;
  private history = 100_000;
  private minute = 0;
  private labelSeq = 0;

  constructor(opts: DatasetOptions = {}) {
    for (const id of SYSTEM_LABELS)
      this.labels.push({
        id,
        name: id,
        type: 'system',
        ...(id.startsWith('CATEGORY_') || id === 'CHAT'
          ? {}
          : { messageListVisibility: 'show' as const, labelListVisibility: 'labelShow' as const }),
      });
    for (const name of ['Invoices', 'Travel', 'Family', 'Projects/ces', 'Receipts', 'Newsletters'])
      this.newLabel({ name, messageListVisibility: 'show', labelListVisibility: 'labelShow' });
    const correspondents = ['grace@ces-demo.example', 'linus@example.org', 'billing@vendor.example'];
    const threads = opts.threads ?? 24;
    for (let t = 0; t < threads; t += 1) {
      const other = correspondents[t % correspondents.length] as string;
      const subject = t % 4 === 0 ? `Invoice ${1000 + t}` : `Plans for week ${t + 1}`;
      let threadId: string | undefined;
      for (let m = 0; m <= t % 3; m += 1) {
        const mine = m % 2 === 1;
        const labels = mine ? ['SENT'] : ['INBOX', 'CATEGORY_PERSONAL'];
        if (!mine && t % 5 === 0) labels.push('UNREAD');
        if (t % 4 === 0) labels.push('Label_1');
        if (t === threads - 1) labels.splice(0, labels.length, 'SPAM');
        if (t === threads - 2) labels.splice(0, labels.length, 'TRASH');
        const message = this.add({
          threadId,
          labelIds: labels,
          from: mine ? this.email : other,
          to: mine ? other : this.email,
          subject: m === 0 ? subject : `Re: ${subject}`,
          text: `Message ${m + 1} of thread ${t}: ${subject.toLowerCase()}, see the notes below.\r\n`,
          attachments:
            t % 4 === 0 && m === 0
              ? [
                  {
                    id: '',
                    filename: `invoice-${1000 + t}.pdf`,
                    mimeType: 'application/pdf',
                    data: Buffer.from(`%PDF-1.4\n% invoice ${1000 + t}\n${'line\n'.repeat(40 + t)}%%EOF\n`),
                  },
                ]
              : [],
        });
        threadId = message.threadId;
      }
    }
    this.largeMessageId = this.add({
      labelIds: ['INBOX', 'CATEGORY_UPDATES'],
      from: 'backups@ces-demo.example',
      to: this.email,
      subject: 'Your site backup',
      text: 'The backup of the site is attached.\r\n',
      attachments: [
        {
          id: '',
          filename: 'site-backup.tar',
          mimeType: 'application/x-tar',
          data: bytesOf('site-backup', opts.largeAttachmentBytes ?? 12 * 1024 * 1024 + 123),
        },
      ],
    }).id;
    for (let d = 0; d < 12; d += 1)
      this.newDraft({
        to: 'grace@ces-demo.example',
        subject: `Draft ${d}`,
        text: `Unfinished note ${d}.\r\n`,
      });
  }

  /** The next change's history id. */
  nextHistory(): number {
    this.history += 1;
    return this.history;
  }

  get historyId(): number {
    return this.history;
  }

  add(m: Omit<Message, 'id' | 'threadId' | 'internalDate' | 'historyId'> & { threadId?: string }): Message {
    this.minute += 7;
    const id = hexId(`message-${this.messages.size}-${m.subject}-${this.minute}`);
    const message: Message = {
      ...m,
      id,
      threadId: m.threadId ?? id,
      internalDate: T0 + this.minute * 60_000,
      historyId: this.nextHistory(),
    };
    message.attachments = message.attachments.map((a, i) => ({
      ...a,
      id: `ANGjdJ${createHash('sha256').update(`${id}:${i}`).digest('base64url')}`,
    }));
    this.messages.set(id, message);
    return message;
  }

  newLabel(fields: Omit<Label, 'id' | 'type'>): Label {
    this.labelSeq += 1;
    const label: Label = { id: `Label_${this.labelSeq}`, type: 'user', ...fields };
    this.labels.push(label);
    return label;
  }

  /** A draft's message is a message of the mailbox labelled DRAFT, as Gmail keeps it. */
  newDraft(m: { to: string; subject: string; text: string; threadId?: string }): Draft {
    const message = this.add({ ...m, from: this.email, labelIds: ['DRAFT'], attachments: [] });
    const id = `r${BigInt(`0x${message.id}`).toString().padStart(19, '0').slice(0, 19)}`;
    const draft = { id, message };
    this.drafts.set(id, draft);
    return draft;
  }

  /** Messages newest first, as Gmail lists them. */
  newestFirst(): Message[] {
    return [...this.messages.values()].sort((a, b) => b.internalDate - a.internalDate);
  }

  label(id: string): Label | undefined {
    return this.labels.find((l) => l.id === id);
  }

  thread(id: string): Message[] {
    return [...this.messages.values()]
      .filter((m) => m.threadId === id && !m.labelIds.includes('DRAFT'))
      .sort((a, b) => a.internalDate - b.internalDate);
  }
}
