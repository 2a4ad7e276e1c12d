// The Google Drive fake's data: one account's My Drive (folders, binary files, Google Docs, one file over
// 10 MB), shared drives, comments with replies, permissions, revisions and the change feed, seeded
// deterministically. Ids have Drive's look (33 characters of [A-Za-z0-9_-]); times are fixed.
import { createHash } from 'node:crypto';

export const FOLDER = 'application/vnd.google-apps.folder';
export const GOOGLE_DOC = 'application/vnd.google-apps.document';

export interface DriveUser {
  kind: 'drive#user';
  displayName: string;
  emailAddress: string;
  permissionId: string;
  photoLink: string;
  me: boolean;
}

export interface DriveFile {
  id: string;
  name: string;
  mimeType: string;
  parents: string[];
  createdTime: string;
  modifiedTime: string;
  description?: string;
  starred: boolean;
  trashed: boolean;
  version: number;
  properties?: Record<string, string>;
  appProperties?: Record<string, string>;
  /** the content of a binary file (absent for folders and Google Docs) */
  content?: Buffer;
  /** a Google Doc's text, which its exports render */
  text?: string;
  /** bytes its exports come to (Google's export cap is 10 MB) */
  exportSize?: number;
  driveId?: string;
}

export interface DriveComment {
  id: string;
  fileId: string;
  content: string;
  createdTime: string;
  modifiedTime: string;
  author: DriveUser;
  deleted: boolean;
  resolved: boolean;
  replies: DriveReply[];
}

export interface DriveReply {
  id: string;
  content: string;
  createdTime: string;
  modifiedTime: string;
  author: DriveUser;
  deleted: boolean;
}

export interface DrivePermission {
  id: string;
  type: 'user' | 'anyone' | 'domain';
  role: 'owner' | 'writer' | 'commenter' | 'reader';
  emailAddress?: string;
  displayName?: string;
}

export interface DriveRevision {
  id: string;
  fileId: string;
  mimeType: string;
  modifiedTime: string;
  size: number;
  md5: string;
}

export interface SharedDrive {
  id: string;
  name: string;
  createdTime: string;
  hidden: boolean;
}

export interface Change {
  /** position in the feed, 1-based: page tokens are these numbers as text, as Drive's are */
  seq: number;
  fileId: string;
  time: string;
  removed: boolean;
}

const T0 = Date.parse('2024-03-01T09:00:00.000Z');
const at = (minutes: number) => new Date(T0 + minutes * 60_000).toISOString();

/** A Drive-looking id: 33 characters from a seed. */
export function driveId(seed: string): string {
  return `1${createHash('sha256').update(seed).digest('base64url').slice(0, 32)}`;
}

/** `size` deterministic bytes (a counter hashed in blocks): the same file on every run, not compressible. */
export function bytesOf(seed: string, size: number): Buffer {
  const out = Buffer.alloc(size);
  let block = 0;
  for (let offset = 0; offset < size; offset += 32, block += 1)
    createHash('sha256').update(`${seed}:${block}`).digest().copy(out, offset);
  return out;
}

export const md5 = (bytes: Buffer) => createHash('md5').update(bytes).digest('hex');

export interface DatasetOptions {
  /** plain files in My Drive besides the folders, the documents and the large file; default 36 */
  files?: number;
  /** bytes of the large file; default 12 MiB + 123 (over 10 MB, not a multiple of a chunk) */
  largeFileBytes?: number;
}

export class Dataset {
  readonly me: DriveUser = {
    kind: 'drive#user',
    displayName: 'Ada Drive',
    emailAddress: 'ada@ces-demo.example',
    permissionId: '04217764528734511225',
    photoLink: 'https://lh3.googleusercontent.com/a/default-user=s64',
    me: true,
  };
  readonly colleague: DriveUser = {
    kind: 'drive#user',
    displayName: 'Grace Reviewer',
    emailAddress: 'grace@ces-demo.example',
    permissionId: '13851919207405661330',
    photoLink: 'https://lh3.googleusercontent.com/a/default-user=s64',
    me: false,
  };
  readonly rootId = driveId('root');
  readonly files = new Map<string, DriveFile>();
  readonly comments: DriveComment[] = [];
  readonly permissions = new Map<string, DrivePermission[]>();
  readonly revisions: DriveRevision[] = [];
  readonly drives: SharedDrive[] = [];
  readonly changes: Change[] = [];
  /** the file of more than 10 MB, the doc whose export passes the cap, the doc with comments */
  readonly largeFileId: string;
  readonly hugeDocId: string;
  readonly docId: string;
  private clock = 0;

  constructor(opts: DatasetOptions = {}) {
    const folders = ['Projects', 'Invoices', 'Photos'].map((name, i) =>
      this.add({ name, mimeType: FOLDER, parents: [this.rootId] }, i),
    );
    const count = opts.files ?? 36;
    for (let i = 0; i < count; i += 1) {
      const folder = folders[i % folders.length] as DriveFile;
      const text = `File ${i} of the fake Drive.\n`.repeat(3 + (i % 5));
      this.add(
        {
          name: i % 3 === 2 ? `photo-${i}.png` : `notes-${String(i).padStart(2, '0')}.txt`,
          mimeType: i % 3 === 2 ? 'image/png' : 'text/plain',
          parents: [folder.id],
          content: i % 3 === 2 ? bytesOf(`photo-${i}`, 2048 + i) : Buffer.from(text),
        },
        10 + i,
      );
    }
    const docs = ['Roadmap', 'Meeting notes', 'Handbook', 'Budget memo', 'Style guide'].map((name, i) =>
      this.add(
        {
          name,
          mimeType: GOOGLE_DOC,
          parents: [this.rootId],
          text: `${name}\n\n${'A paragraph of the document. '.repeat(20 + i)}\n`,
        },
        100 + i,
      ),
    );
    this.docId = (docs[0] as DriveFile).id;
    this.hugeDocId = this.add(
      {
        name: 'Scanned archive',
        mimeType: GOOGLE_DOC,
        parents: [this.rootId],
        text: 'Too large.',
        exportSize: 14_000_000,
      },
      110,
    ).id;
    this.largeFileId = this.add(
      {
        name: 'site-backup.tar',
        mimeType: 'application/x-tar',
        parents: [this.rootId],
        content: bytesOf('site-backup', opts.largeFileBytes ?? 12 * 1024 * 1024 + 123),
      },
      120,
    ).id;
    for (let i = 0; i < 25; i += 1) {
      const author = i % 2 === 0 ? this.colleague : this.me;
      const comment: DriveComment = {
        id: `AAAA${driveId(`comment-${i}`).slice(1, 12)}`,
        fileId: this.docId,
        content: `Comment ${i}: please check section ${i + 1}.`,
        createdTime: at(200 + i),
        modifiedTime: at(200 + i),
        author,
        deleted: false,
        resolved: i % 4 === 0,
        replies: [],
      };
      const replies = i === 0 ? 7 : i % 3;
      for (let r = 0; r < replies; r += 1)
        comment.replies.push({
          id: `AAAA${driveId(`reply-${i}-${r}`).slice(1, 12)}`,
          content: `Reply ${r} to comment ${i}.`,
          createdTime: at(300 + i * 10 + r),
          modifiedTime: at(300 + i * 10 + r),
          author: r % 2 === 0 ? this.me : this.colleague,
          deleted: false,
        });
      this.comments.push(comment);
    }
    for (const file of this.files.values()) {
      const shared: DrivePermission[] = [
        {
          id: this.me.permissionId,
          type: 'user',
          role: 'owner',
          emailAddress: this.me.emailAddress,
          displayName: this.me.displayName,
        },
      ];
      if (file.id === this.docId) {
        shared.push({
          id: this.colleague.permissionId,
          type: 'user',
          role: 'writer',
          emailAddress: this.colleague.emailAddress,
          displayName: this.colleague.displayName,
        });
        for (let i = 0; i < 3; i += 1)
          shared.push({
            id: `0${driveId(`reader-${i}`).slice(1, 20).replace(/\D/g, '7')}`,
            type: 'user',
            role: 'reader',
            emailAddress: `reader${i}@ces-demo.example`,
            displayName: `Reader ${i}`,
          });
        shared.push({ id: 'anyoneWithLink', type: 'anyone', role: 'reader' });
      }
      this.permissions.set(file.id, shared);
      if (file.content !== undefined)
        for (let r = 0; r < (file.id === this.largeFileId ? 2 : 4); r += 1)
          this.revisions.push({
            id: `0B${driveId(`rev-${file.id}-${r}`).slice(1, 30)}`,
            fileId: file.id,
            mimeType: file.mimeType,
            modifiedTime: at(400 + r),
            size: Math.max(1, file.content.length - (3 - r) * 10),
            md5: md5(Buffer.from(`${file.id}:${r}`)),
          });
    }
    for (let i = 0; i < 12; i += 1)
      this.drives.push({
        id: `0A${driveId(`drive-${i}`).slice(1, 18)}Uk9PVA`,
        name: `Team ${i}`,
        createdTime: at(i),
        hidden: false,
      });
    this.clock = 1000;
  }

  private add(
    file: Omit<DriveFile, 'id' | 'createdTime' | 'modifiedTime' | 'starred' | 'trashed' | 'version'>,
    minute: number,
  ): DriveFile {
    const full: DriveFile = {
      id: driveId(`file-${file.name}-${minute}`),
      createdTime: at(minute),
      modifiedTime: at(minute),
      starred: false,
      trashed: false,
      version: 1,
      ...file,
    };
    this.files.set(full.id, full);
    this.record(full.id, at(minute), false);
    return full;
  }

  /** The next write's time: a minute after the previous one. */
  tick(): string {
    this.clock += 1;
    return at(this.clock);
  }

  /** Appends a change of `fileId` to the feed. */
  record(fileId: string, time: string, removed: boolean): void {
    this.changes.push({ seq: this.changes.length + 1, fileId, time, removed });
  }

  /** The token for the changes after the last one: Drive's start page token. */
  startPageToken(): string {
    return String(this.changes.length + 1);
  }

  newFile(fields: Partial<DriveFile>): DriveFile {
    const time = this.tick();
    const file: DriveFile = {
      id: driveId(`created-${this.files.size}-${time}`),
      name: 'Untitled',
      mimeType: 'application/octet-stream',
      parents: [this.rootId],
      createdTime: time,
      modifiedTime: time,
      starred: false,
      trashed: false,
      version: 1,
      ...fields,
    };
    this.files.set(file.id, file);
    this.permissions.set(file.id, [
      {
        id: this.me.permissionId,
        type: 'user',
        role: 'owner',
        emailAddress: this.me.emailAddress,
        displayName: this.me.displayName,
      },
    ]);
    this.record(file.id, time, false);
    return file;
  }
}
