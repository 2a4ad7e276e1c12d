// Repository archives of the seeded dataset, as served by https://codeload.github.com (here under /_codeload):
// "Download a repository archive (tar)" (https://docs.github.com/rest/repos/contents#download-a-repository-archive-tar)
// answers with a 302 to codeload, whose response headers follow the recorded `get-archive` scenario
// (application/x-gzip, `attachment; filename=<owner>-<repo>-<short sha>.tar.gz`, no auth, no rate limit).
// For private repositories the Location carries a temporary token instead, valid five minutes as documented.
//
// The default archive is a real gzip'd tar in git-archive layout (pax global header with the commit id, a
// top-level `<owner>-<repo>-<short sha>/` directory). With setSize(bytes) the archive is exactly that many
// bytes, still a valid gzip (stored deflate blocks, padded with a header comment) of a valid tar holding one
// large file, generated chunk by chunk with backpressure so that gigabytes never sit in memory.
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { crc32, gzipSync } from 'node:zlib';
import type { Answer } from '../../kit/errors.ts';
import type { Dataset, RepoRecord, ResolvedRef } from './dataset.ts';
import type { CommitRecord } from './dataset-git.ts';
import { CODELOAD_PREFIX } from './replay.ts';

const TOKEN_TTL_MS = 5 * 60_000;
const BLOCK = 512;
/** Payload of one stored deflate block (at most 65535; a multiple of 512 keeps tar records whole). */
const DEFLATE_BLOCK = 127 * BLOCK;
const DATA_CHUNK = 64 * 1024;

export class Archives {
  private size: number | undefined;
  private readonly tokens = new Map<string, number>();

  constructor(
    private readonly data: Dataset,
    private readonly site: { readonly origin: string },
  ) {}

  /** Undefined restores the small default archive. */
  setSize(bytes: number | undefined): void {
    if (bytes !== undefined) {
      if (!Number.isSafeInteger(bytes) || bytes < minimumLargeSize())
        throw new RangeError(`archive size must be an integer >= ${minimumLargeSize()} bytes`);
    }
    this.size = bytes;
  }

  /** The codeload URL GitHub redirects to, in codeload's legacy.tar.gz form. */
  location(repo: RepoRecord, ref: ResolvedRef): string {
    const spec =
      ref.kind === 'branch'
        ? `refs/heads/${ref.name}`
        : ref.kind === 'tag'
          ? `refs/tags/${ref.name}`
          : ref.name;
    const url = `${this.site.origin}${CODELOAD_PREFIX}/${repo.owner.login}/${repo.name}/legacy.tar.gz/${spec}`;
    if (!repo.private) return url;
    const token = `A${randomBytes(14).toString('hex').toUpperCase()}`;
    this.tokens.set(token, Date.now() + TOKEN_TTL_MS);
    return `${url}?token=${token}`;
  }

  /**
   * The answer to a codeload URL (a streamed body), or undefined when it names no archive of the dataset (the
   * caller answers 404).
   */
  answer(pathname: string, query: URLSearchParams): Answer | undefined {
    if (!pathname.startsWith(`${CODELOAD_PREFIX}/`)) return undefined;
    const m = /^\/([^/]+)\/([^/]+)\/legacy\.tar\.gz\/(.+)$/.exec(pathname.slice(CODELOAD_PREFIX.length));
    if (m === null) return undefined;
    const repo = this.data.repo(m[1] ?? '', m[2] ?? '');
    if (repo === undefined) return undefined;
    if (repo.private) {
      const expires = this.tokens.get(query.get('token') ?? '');
      if (expires === undefined || expires < Date.now()) return undefined;
    }
    let spec: string;
    try {
      spec = decodeURIComponent(m[3] ?? '');
    } catch {
      return undefined;
    }
    const ref = this.data.resolveRef(repo, spec);
    if (ref === undefined) return undefined;

    const prefix = `${repo.owner.login}-${repo.name}-${ref.commit.sha.slice(0, 7)}`;
    const archive =
      this.size === undefined
        ? smallArchive(repo, ref.commit, prefix)
        : largeArchive(ref.commit, prefix, this.size);
    const headers = {
      'access-control-allow-origin': 'https://render.githubusercontent.com',
      'content-disposition': `attachment; filename=${prefix}.tar.gz`,
      'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; sandbox",
      'content-type': 'application/x-gzip',
      'cross-origin-resource-policy': 'cross-origin',
      etag: `"${ref.commit.sha.slice(0, 32)}"`,
      'strict-transport-security': 'max-age=31536000',
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'deny',
      'x-github-request-id': randomBytes(8).toString('hex').toUpperCase(),
      'x-xss-protection': '1; mode=block',
      'content-length': String(archive.length),
    };
    return { status: 200, headers, body: archive.stream };
  }
}

// --- tar (ustar, as written by `git archive`) ---------------------------------------------------------

function octal(value: number, width: number): string {
  return `${value.toString(8).padStart(width - 1, '0')}\0`;
}

function tarHeader(name: string, size: number, type: '0' | '5' | 'g', mtime: number): Buffer {
  const h = Buffer.alloc(BLOCK);
  h.write(name, 0, 100, 'utf8');
  h.write(octal(type === '5' ? 0o775 : 0o664, 8), 100, 'ascii');
  h.write(octal(0, 8), 108, 'ascii');
  h.write(octal(0, 8), 116, 'ascii');
  h.write(octal(size, 12), 124, 'ascii');
  h.write(octal(mtime, 12), 136, 'ascii');
  h.write('        ', 148, 'ascii');
  h.write(type, 156, 'ascii');
  h.write('ustar\u000000', 257, 'ascii');
  h.write('root', 265, 'ascii');
  h.write('root', 297, 'ascii');
  let sum = 0;
  for (const byte of h) sum += byte;
  h.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 'ascii');
  return h;
}

function padding(size: number): Buffer {
  return Buffer.alloc((BLOCK - (size % BLOCK)) % BLOCK);
}

/** git archive's pax global header: `comment=<commit id>`. */
function paxCommit(commitSha: string, mtime: number): Buffer {
  const record = `52 comment=${commitSha}\n`;
  return Buffer.concat([
    tarHeader('pax_global_header', record.length, 'g', mtime),
    Buffer.from(record),
    padding(record.length),
  ]);
}

function smallArchive(repo: RepoRecord, commit: CommitRecord, prefix: string) {
  const mtime = Math.floor(commit.committer.date / 1000);
  const files: Array<[string, string]> = [
    ['README.md', `# ${repo.name}\n\n${repo.description ?? ''}\n`],
    ['src/index.ts', `export const commit = '${commit.sha}';\n`],
  ];
  const parts = [
    paxCommit(commit.sha, mtime),
    tarHeader(`${prefix}/`, 0, '5', mtime),
    tarHeader(`${prefix}/src/`, 0, '5', mtime),
  ];
  for (const [name, content] of files) {
    const bytes = Buffer.from(content);
    parts.push(tarHeader(`${prefix}/${name}`, bytes.length, '0', mtime), bytes, padding(bytes.length));
  }
  parts.push(Buffer.alloc(2 * BLOCK));
  const gz = gzipSync(Buffer.concat(parts));
  return { length: gz.length, stream: Readable.from([gz]) };
}

// --- large archives: exact size, streamed --------------------------------------------------------------

/** pax header + data + directory + file header + end-of-archive, around a file of `data` bytes. */
function tarSize(data: number): number {
  return 2 * BLOCK + BLOCK + BLOCK + data + 2 * BLOCK;
}

/** gzip header (10) + comment terminator (1) + stored blocks (5 bytes each) + trailer (8). */
function gzipSize(tar: number): number {
  return 10 + 1 + tar + 5 * Math.ceil(tar / DEFLATE_BLOCK) + 8;
}

function minimumLargeSize(): number {
  return gzipSize(tarSize(0));
}

/** The largest file (a multiple of 512) whose archive fits in `size`; the rest becomes the gzip comment. */
function layout(size: number): { data: number; comment: number } {
  let data = Math.max(0, Math.floor((size - minimumLargeSize()) / BLOCK) * BLOCK);
  while (data > 0 && gzipSize(tarSize(data)) > size) data -= BLOCK;
  while (gzipSize(tarSize(data + BLOCK)) <= size) data += BLOCK;
  return { data, comment: size - gzipSize(tarSize(data)) };
}

function largeArchive(commit: CommitRecord, prefix: string, size: number) {
  const { data, comment } = layout(size);
  const mtime = Math.floor(commit.committer.date / 1000);
  async function* tar(): AsyncGenerator<Buffer> {
    yield paxCommit(commit.sha, mtime);
    yield tarHeader(`${prefix}/`, 0, '5', mtime);
    yield tarHeader(`${prefix}/data.bin`, data, '0', mtime);
    // Deterministic content: a fixed pseudo-random block, each chunk stamped with its offset.
    const pattern = Buffer.alloc(DATA_CHUNK);
    for (let i = 0; i < DATA_CHUNK; i += 1) pattern[i] = (i * 131 + (i >> 8) * 7 + 17) & 0xff;
    for (let offset = 0; offset < data; offset += DATA_CHUNK) {
      const chunk = Buffer.from(pattern.subarray(0, Math.min(DATA_CHUNK, data - offset)));
      chunk.writeUInt32BE(offset % 2 ** 32, 0);
      yield chunk;
    }
    yield Buffer.alloc(2 * BLOCK);
  }
  async function* gzip(): AsyncGenerator<Buffer> {
    const header = Buffer.from([0x1f, 0x8b, 8, 0x10, 0, 0, 0, 0, 0, 3]);
    header.writeUInt32LE(mtime, 4);
    yield Buffer.concat([header, Buffer.alloc(comment, 0x20), Buffer.from([0])]);
    let crc = 0;
    let total = 0;
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    const emit = (final: boolean): Buffer => {
      const payload = Buffer.concat(pending, pendingBytes);
      pending = [];
      pendingBytes = 0;
      const head = Buffer.alloc(5);
      head[0] = final ? 1 : 0;
      head.writeUInt16LE(payload.length, 1);
      head.writeUInt16LE(~payload.length & 0xffff, 3);
      return Buffer.concat([head, payload]);
    };
    for await (let piece of tar()) {
      crc = crc32(piece, crc);
      total += piece.length;
      while (piece.length > 0) {
        const take = Math.min(piece.length, DEFLATE_BLOCK - pendingBytes);
        pending.push(piece.subarray(0, take));
        pendingBytes += take;
        piece = piece.subarray(take);
        if (pendingBytes === DEFLATE_BLOCK) yield emit(total === tarSize(data) && piece.length === 0);
      }
    }
    if (pendingBytes > 0) yield emit(true);
    const trailer = Buffer.alloc(8);
    trailer.writeUInt32LE(crc >>> 0, 0);
    trailer.writeUInt32LE(total % 2 ** 32, 4);
    yield trailer;
  }
  return { length: size, stream: Readable.from(gzip(), { objectMode: false }) };
}
