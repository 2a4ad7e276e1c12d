// The git side of the seeded dataset: a linear commit history per repository, branches, and releases with
// assets. Everything derives from the repository's full name and a commit's position, so every run serves
// identical shas, dates and files.
import { createHash } from 'node:crypto';

export function sha(seed: string): string {
  return createHash('sha1').update(seed).digest('hex');
}

export interface GitPerson {
  name: string;
  email: string;
  /** epoch ms */
  date: number;
  /** The GitHub account the email belongs to; null renders `author: null`, as for unknown emails. */
  login: string | null;
}

export interface FileChange {
  filename: string;
  status: 'added' | 'modified' | 'removed';
  additions: number;
  deletions: number;
  blobSha: string;
  patch: string;
}

export interface CommitRecord {
  sha: string;
  treeSha: string;
  message: string;
  author: GitPerson;
  committer: GitPerson;
  /** Parent shas; the history is linear, so at most one. */
  parents: string[];
  files: FileChange[];
}

export interface AssetRecord {
  id: number;
  name: string;
  label: string | null;
  contentType: string;
  size: number;
  downloadCount: number;
  uploader: string;
  createdAt: number;
}

export interface ReleaseRecord {
  id: number;
  tag: string;
  /** The commit the tag points at. */
  commitSha: string;
  targetCommitish: string;
  name: string;
  body: string;
  draft: boolean;
  prerelease: boolean;
  author: string;
  createdAt: number;
  publishedAt: number;
  assets: AssetRecord[];
}

/** An account that may author commits: its login, display name and noreply address. */
export interface Committer {
  login: string;
  id: number;
  name: string;
}

const HOUR = 3_600_000;

const OUTSIDER = { name: 'Jane Doe', email: 'jane.doe@example.com' };
const FILES = ['src/widget.ts', 'src/gadget.ts', 'src/sprocket.ts', 'docs/guide.md', 'README.md'];
const VERBS = ['Fix', 'Add', 'Refactor', 'Document', 'Speed up', 'Test'];
const THINGS = ['widget alignment', 'gadget cache', 'sprocket torque', 'flange tolerances', 'bearing wear'];

/**
 * `count` commits, oldest first. Commit n is authored by `people[n % people.length]` except every 10th,
 * whose author email matches no account (so its `author` is null on GitHub). Commit 1 adds README.md and
 * src/widget.ts; later commits modify one file of FILES, every 4th also test/widget.test.ts.
 */
export function generateCommits(
  fullName: string,
  count: number,
  people: readonly Committer[],
  start: number,
): CommitRecord[] {
  const commits: CommitRecord[] = [];
  for (let n = 1; n <= count; n += 1) {
    const seed = `${fullName}@${n}`;
    const person = people[n % people.length];
    const date = start + n * 5 * HOUR;
    const author: GitPerson =
      n % 10 === 0 || person === undefined
        ? { ...OUTSIDER, date, login: null }
        : {
            name: person.name,
            email: `${person.id}+${person.login}@users.noreply.github.com`,
            date,
            login: person.login,
          };
    const files: FileChange[] =
      n === 1
        ? [change(seed, 'README.md', 'added', 12, 0), change(seed, 'src/widget.ts', 'added', 40, 0)]
        : [change(seed, FILES[n % FILES.length] ?? 'README.md', 'modified', 1 + (n % 7), n % 3)];
    if (n > 1 && n % 4 === 0)
      files.push(change(seed, 'test/widget.test.ts', n === 4 ? 'added' : 'modified', 9, 0));
    const previous = commits.at(-1);
    commits.push({
      sha: sha(`commit ${seed}`),
      treeSha: sha(`tree ${seed}`),
      message:
        n === 1
          ? 'Initial commit'
          : `${VERBS[n % VERBS.length]} ${THINGS[n % THINGS.length]} (${n})\n\nPart ${n} of the widget rework.`,
      author,
      committer: { ...author },
      parents: previous === undefined ? [] : [previous.sha],
      files,
    });
  }
  return commits;
}

function change(
  seed: string,
  filename: string,
  status: FileChange['status'],
  additions: number,
  deletions: number,
): FileChange {
  const added = Array.from({ length: additions }, (_, i) => `+line ${i + 1} of ${filename}`);
  const removed = Array.from({ length: deletions }, (_, i) => `-old line ${i + 1}`);
  const header =
    status === 'added' ? `@@ -0,0 +1,${additions} @@` : `@@ -1,${deletions + 1} +1,${additions + 1} @@`;
  return {
    filename,
    status,
    additions,
    deletions,
    blobSha: sha(`blob ${seed} ${filename}`),
    patch: [header, ...removed, ...added].join('\n'),
  };
}

export interface ReleasePlan {
  tag: string;
  /** 1-based position of the tagged commit */
  commit: number;
  name: string;
  body: string;
  prerelease: boolean;
  assets: ReadonlyArray<{ name: string; label: string | null; contentType: string; size: number }>;
}

export const WIDGETS_RELEASES: readonly ReleasePlan[] = [
  {
    tag: 'v1.0.0',
    commit: 10,
    name: 'Widgets 1.0.0',
    body: 'First stable release.\n\n- Widget alignment\n- Gadget cache',
    prerelease: false,
    assets: [
      { name: 'widgets-1.0.0.tgz', label: 'npm package', contentType: 'application/gzip', size: 48_213 },
      { name: 'checksums.txt', label: null, contentType: 'text/plain', size: 184 },
    ],
  },
  {
    tag: 'v1.1.0',
    commit: 25,
    name: 'Widgets 1.1.0',
    body: 'Sprocket torque limits and faster bearings.',
    prerelease: false,
    assets: [
      { name: 'widgets-1.1.0.tgz', label: 'npm package', contentType: 'application/gzip', size: 51_907 },
    ],
  },
  {
    tag: 'v2.0.0-beta.1',
    commit: 38,
    name: 'Widgets 2.0.0 beta 1',
    body: 'Preview of the 2.0 flange API. Expect breaking changes.',
    prerelease: true,
    assets: [],
  },
];
