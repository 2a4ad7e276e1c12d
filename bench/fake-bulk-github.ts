// A GitHub REST fake for bulk replication benchmarks: repository `bench/big` with BENCH_RECORDS (default 1 000 000)
// synthetic issues that are never held in memory. Issue i (0-based; number i + 1) is a pure function of (i, total),
// so the benchmark can compute the values it searches for, and every run serves identical data. Run as a script it
// prints `{"url": …}` as its first stdout line, like bench/fake-github.ts.
//
// Each issue has the shape and member order of the GitHub fake's "List repository issues" items
// (test/connectors/github/fake/render.ts `issue`). It is written by hand into a string here (a page of 100 costs well under
// a millisecond, which matters: this process shares the machine's cores with ces), and checked at start-up
// against render.issue for a sample of issues, so the two cannot drift apart silently.
//
// Routes (docs.github.com):
//   GET /user                                  "Get the authenticated user" (the connector's credential check)
//   GET /repos/bench/big/issues                "List repository issues": state, sort=updated, direction, since,
//   GET /repositories/{id}/issues                per_page (max 100), page; `link` next/last/prev/first exactly as
//                                                test/connectors/github/fake/paging.ts (absolute, id-based path, page last)
//   GET /repos/bench/big/{pulls,labels,commits,releases}   an empty list, no link
//   anything else                              GitHub's 404 body
// Limits, answered 422 rather than silently wrong: only sort=updated (the order updated_at makes equal to index
// order), and none of the labels/creator/assignee/milestone/mentioned filters.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import type {
  Account,
  CommentRecord,
  IssueRecord,
  Label,
  RepoRecord,
} from '../test/connectors/github/fake/dataset.ts';
import { Dataset } from '../test/connectors/github/fake/dataset.ts';
import { GITHUB_FAKE_DEFAULT_TOKEN } from '../test/connectors/github/fake/index.ts';
import { paginate } from '../test/connectors/github/fake/paging.ts';
import * as render from '../test/connectors/github/fake/render.ts';
import { baseHeaders, errorBody, parseAuth, RateLimiter } from '../test/connectors/github/fake/wire.ts';

// ---- the synthetic dataset: everything derives from (index, total)

/** Title and body words, most frequent first: drawn with Zipf weights, so early words match many issues. */
export const VOCAB: readonly string[] = (
  'error crash fails build test update support add fix docs api request response timeout server client ' +
  'config login page user data file cache memory performance slow broken missing wrong invalid dashboard ' +
  'token session upload download search filter sort export import report chart table button modal form ' +
  'input validation email notification webhook queue worker job schedule retry limit rate proxy network ' +
  'connection socket database query index migration schema record field column row pagination cursor ' +
  'sync replication backup restore snapshot deploy release version upgrade dependency package module plugin ' +
  'extension theme layout style font color icon image video audio stream buffer encoding unicode locale ' +
  'translation timezone date calendar event log metric trace alert monitor health status startup shutdown ' +
  'signal thread process container kubernetes docker helm chart terraform cloud bucket storage volume disk ' +
  'permission role scope policy audit secret key certificate tls ssl handshake redirect cookie header cors ' +
  'csrf oauth saml ldap sso mfa password reset signup invite team organization workspace project repository ' +
  'branch commit merge conflict rebase diff patch review comment thread mention reaction label milestone ' +
  'assignee issue pull draft archive delete rename move copy paste clipboard keyboard shortcut mouse scroll ' +
  'zoom resize drag drop touch mobile tablet desktop browser firefox safari chrome edge android ios windows ' +
  'macos linux arm intel gpu cpu leak spike deadlock race panic segfault overflow underflow exception null ' +
  'undefined regression flaky intermittent nondeterministic duplicate stale orphaned corrupted truncated ' +
  'malformed unexpected unhandled uncaught deprecated obsolete legacy experimental beta preview nightly ' +
  'canary hotfix rollback feature flag toggle setting preference option default override fallback ' +
  'accessibility contrast screenreader aria focus tab tooltip popover dropdown menu sidebar navbar footer ' +
  'breadcrumb wizard onboarding tutorial example sample snippet readme changelog license contributing ' +
  'typo grammar wording link anchor sitemap seo analytics telemetry privacy consent gdpr billing invoice ' +
  'payment subscription plan quota usage trial coupon refund checkout cart order shipping inventory ' +
  'warehouse vendor supplier gateway router balancer dns cdn edge latency throughput bandwidth jitter ' +
  'heartbeat watchdog scheduler cron backoff circuit breaker bulkhead sidecar mesh ingress egress firewall ' +
  'sandbox tenant quorum raft paxos consensus shard partition rebalance compaction vacuum checkpoint wal ' +
  'fsync mmap inode symlink glob regex parser lexer tokenizer compiler linker bundler minifier transpiler ' +
  'sourcemap debugger profiler flamegraph benchmark fuzzing coverage snapshotting mocking fixture harness'
).split(' ');

const LABELS: ReadonlyArray<{ name: string; color: string; description: string }> = [
  { name: 'bug', color: 'd73a4a', description: "Something isn't working" },
  { name: 'documentation', color: '0075ca', description: 'Improvements or additions to documentation' },
  { name: 'duplicate', color: 'cfd3d7', description: 'This issue or pull request already exists' },
  { name: 'enhancement', color: 'a2eeef', description: 'New feature or request' },
  { name: 'good first issue', color: '7057ff', description: 'Good for newcomers' },
  { name: 'help wanted', color: '008672', description: 'Extra attention is needed' },
  { name: 'invalid', color: 'e4e669', description: "This doesn't seem right" },
  { name: 'question', color: 'd876e3', description: 'Further information is requested' },
  { name: 'wontfix', color: 'ffffff', description: 'This will not be worked on' },
  { name: 'performance', color: 'f9d0c4', description: 'Slow, or uses too much memory' },
  { name: 'security', color: 'b60205', description: 'A vulnerability or hardening' },
  { name: 'regression', color: 'e99695', description: 'Worked in an earlier release' },
  { name: 'ui', color: 'c5def5', description: 'User interface' },
  { name: 'api', color: '1d76db', description: 'The public REST API' },
  { name: 'backend', color: '5319e7', description: 'Server side' },
  { name: 'frontend', color: 'fbca04', description: 'Client side' },
  { name: 'ci', color: '0e8a16', description: 'Continuous integration' },
  { name: 'dependencies', color: '0366d6', description: 'Pull requests that update a dependency file' },
  { name: 'needs triage', color: 'ededed', description: 'Not looked at yet' },
  { name: 'breaking change', color: 'b60205', description: 'Changes existing behaviour' },
];

const FIRST = (
  'alice bob carol dave erin frank grace heidi ivan judy mallory niaj olivia peggy quentin rupert sybil ' +
  'trent uma victor wendy xavier yvonne zoe amir'
).split(' ');
const LAST = (
  'nguyen smith garcia kim mueller rossi dubois tanaka silva novak ivanova cohen okafor patel larsen ' +
  'murphy santos chen kowalski haddad'
).split(' ');
/** 500 authors: FIRST × LAST. */
export const USERS: readonly string[] = LAST.flatMap((last) => FIRST.map((first) => `${first}-${last}`));

const SECOND = 1000;
/** updated_at runs from UPDATED_FROM over SPAN_S seconds (about three years) in index order. */
const UPDATED_FROM = Date.UTC(2022, 2, 1);
const SPAN_S = 3 * 365 * 86_400;
/** created_at is up to this long before updated_at (skewed towards soon before). */
const MAX_AGE_S = 180 * 86_400;

/** Bounds of created_at over any dataset, for picking query ranges. */
export const CREATED_RANGE = { from: UPDATED_FROM - MAX_AGE_S * SECOND, to: UPDATED_FROM + SPAN_S * SECOND };

/** mulberry32: a small, fast, well-mixed 32-bit generator; seeded per issue. */
export class Rng {
  private a: number;
  constructor(seed: number) {
    this.a = seed >>> 0;
  }
  next(): number {
    this.a = (this.a + 0x6d2b79f5) | 0;
    let t = Math.imul(this.a ^ (this.a >>> 15), 1 | this.a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
}

/** Cumulative Zipf(s) weights over n ranks, for `zipf`. */
function zipfTable(n: number, s: number): Float64Array {
  const cum = new Float64Array(n);
  let sum = 0;
  for (let k = 0; k < n; k++) {
    sum += 1 / (k + 1) ** s;
    cum[k] = sum;
  }
  for (let k = 0; k < n; k++) cum[k] = (cum[k] ?? 0) / sum;
  return cum;
}

function zipf(rng: Rng, cum: Float64Array): number {
  const u = rng.next();
  let lo = 0;
  let hi = cum.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((cum[mid] ?? 1) < u) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

const WORD_CUM = zipfTable(VOCAB.length, 1);
const USER_CUM = zipfTable(USERS.length, 0.8);

/** open/closed repeats with this period so that "the r-th open issue" is computable without a scan. */
const PERIOD = 64;
const CLOSED_MASK: readonly boolean[] = (() => {
  const rng = new Rng(0xc105ed);
  return Array.from({ length: PERIOD }, () => rng.next() < 0.6);
})();
type State = 'open' | 'closed';
const POSITIONS: Record<State, number[]> = { open: [], closed: [] };
const PREFIX: Record<State, number[]> = { open: [0], closed: [0] };
CLOSED_MASK.forEach((closed, k) => {
  POSITIONS[closed ? 'closed' : 'open'].push(k);
  for (const s of ['open', 'closed'] as const)
    PREFIX[s].push((PREFIX[s][k] ?? 0) + (closed === (s === 'closed') ? 1 : 0));
});

export interface BulkIssue {
  number: number;
  id: number;
  title: string;
  body: string | null;
  /** index into USERS */
  author: number;
  assignees: number[];
  /** indexes into LABELS, ascending (the order GitHub's renderer lists a repository's labels in) */
  labels: number[];
  state: State;
  stateReason: 'completed' | 'not_planned' | 'reopened' | null;
  comments: number;
  createdAt: number;
  updatedAt: number;
  closedAt: number | null;
}

export function updatedAtOf(index: number, total: number): number {
  return UPDATED_FROM + Math.floor((index * SPAN_S) / total) * SECOND;
}

/** The first index whose updated_at is at or after `ms` (total when none is). */
export function firstUpdatedAtOrAfter(ms: number, total: number): number {
  let lo = 0;
  let hi = total;
  while (lo < hi) {
    const mid = Math.floor((lo + hi) / 2);
    if (updatedAtOf(mid, total) < ms) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function words(rng: Rng, n: number): string[] {
  const out: string[] = [];
  for (let k = 0; k < n; k++) out.push(VOCAB[zipf(rng, WORD_CUM)] ?? 'error');
  return out;
}

const OSES = ['Ubuntu 22.04', 'Windows 11', 'macOS 14', 'Debian 12', 'Alpine 3.19', 'Fedora 39'];
const SENTENCES: ReadonlyArray<(r: Rng) => string> = [
  (r) => {
    const [a, b, c] = words(r, 3);
    return `Steps to reproduce: open the ${a} and ${b} the ${c}.`;
  },
  (r) => {
    const [a, b, c] = words(r, 3);
    return `Expected the ${a} to ${b}, but the ${c} fails instead.`;
  },
  (r) => `This started after upgrading ${words(r, 1)[0]} to ${1 + r.int(9)}.${r.int(20)}.${r.int(10)}.`,
  (r) => `Seen on ${OSES[r.int(OSES.length)]} with the ${words(r, 1)[0]} setting enabled.`,
  (r) => {
    const [a, b] = words(r, 2);
    return `It happens about ${1 + r.int(99)}% of the time under ${a} ${b} load.`;
  },
  (r) => {
    const [a, b, c, d] = words(r, 4);
    return `The log shows ${a} ${b} right before the ${c} ${d} times out.`;
  },
  (r) => `Workaround: restart the ${words(r, 1)[0]} and clear the cache.`,
];

/** Issue `index` (0-based) of a `total`-issue repository. */
export function bulkIssue(index: number, total: number): BulkIssue {
  const rng = new Rng(Math.imul(index + 1, 0x9e3779b1) ^ 0x5bd1e995);
  const updatedAt = updatedAtOf(index, total);
  const age = Math.floor(rng.next() ** 3 * MAX_AGE_S) * SECOND;
  const createdAt = updatedAt - age;
  const closed = CLOSED_MASK[index % PERIOD] === true;

  const titleWords = words(rng, 4 + rng.int(6));
  const first = titleWords[0] ?? 'error';
  titleWords[0] = first.charAt(0).toUpperCase() + first.slice(1);
  const title = titleWords.join(' ');

  let body: string | null = null;
  if (rng.next() >= 0.08) {
    const parts: string[] = [];
    const n = 2 + rng.int(4);
    for (let k = 0; k < n; k++) parts.push((SENTENCES[rng.int(SENTENCES.length)] ?? SENTENCES[0]!)(rng));
    body = parts.join(' ');
  }

  const labelRoll = rng.next();
  const labelCount = labelRoll < 0.3 ? 0 : labelRoll < 0.7 ? 1 : labelRoll < 0.9 ? 2 : 3;
  const labels = new Set<number>();
  while (labels.size < labelCount) labels.add(rng.int(LABELS.length));

  const assigneeRoll = rng.next();
  const assigneeCount = assigneeRoll < 0.7 ? 0 : assigneeRoll < 0.95 ? 1 : 2;
  const assignees: number[] = [];
  while (assignees.length < assigneeCount) {
    const a = rng.int(USERS.length);
    if (!assignees.includes(a)) assignees.push(a);
  }

  const reason = rng.next();
  return {
    number: index + 1,
    id: 800_000_001 + index,
    title,
    body,
    author: zipf(rng, USER_CUM),
    assignees,
    labels: [...labels].sort((a, b) => a - b),
    state: closed ? 'closed' : 'open',
    stateReason: closed ? (reason < 0.85 ? 'completed' : 'not_planned') : reason < 0.03 ? 'reopened' : null,
    comments: Math.floor(rng.next() ** 2 * 15),
    createdAt,
    updatedAt,
    closedAt: closed ? updatedAt : null,
  };
}

/** How many of the issues before `index` are in `state` ('all' counts every one). */
function countBefore(state: State | 'all', index: number): number {
  if (state === 'all') return index;
  return Math.floor(index / PERIOD) * POSITIONS[state].length + (PREFIX[state][index % PERIOD] ?? 0);
}

/** The index of the `rank`-th (0-based) issue in `state`. */
function nthIndex(state: State | 'all', rank: number): number {
  if (state === 'all') return rank;
  const per = POSITIONS[state].length;
  return Math.floor(rank / per) * PERIOD + (POSITIONS[state][rank % per] ?? 0);
}

// ---- rendering: GitHub's JSON, written as strings

const OWNER = 'bench';
const REPO_NAME = 'big';
/** The id GitHub's fake gives bench/big (seeded after its three built-in repositories); used in `link`. */
export const REPO_ID = 700_000_004;
const ORG_ID = 91_000_003;
const USER_ID_BASE = 5_000_001;
const LABEL_ID_BASE = 950_100_001;
/** Every tenth author is a member of the `bench` organization (author_association MEMBER). */
const isMember = (user: number) => user % 10 === 0;

function account(login: string, type: Account['type'], id: number): Account {
  return {
    id,
    login,
    type,
    name: login,
    company: null,
    blog: '',
    location: null,
    email: null,
    bio: null,
    createdAt: Date.UTC(2021, 0, 1),
    updatedAt: Date.UTC(2022, 0, 1),
    members: [],
  };
}

export class Renderer {
  readonly ctx: render.RenderContext;
  readonly repo: RepoRecord;
  private readonly users: string[];
  private readonly labels: string[];
  private readonly repoUrl: string;

  constructor(readonly api: string) {
    const accounts = new Map<string, Account>();
    const owner = account(OWNER, 'Organization', ORG_ID);
    accounts.set(OWNER, owner);
    USERS.forEach((login, k) => {
      accounts.set(login, account(login, 'User', USER_ID_BASE + k));
      if (isMember(k)) owner.members.push(login);
    });
    this.ctx = { api, account: (login) => accounts.get(login), authenticated: true };
    const repoLabels: Label[] = LABELS.map((l, k) => ({ ...l, id: LABEL_ID_BASE + k, default: k < 9 }));
    this.repo = {
      id: REPO_ID,
      owner,
      name: REPO_NAME,
      private: false,
      description: null,
      language: 'TypeScript',
      topics: [],
      defaultBranch: 'main',
      createdAt: Date.UTC(2021, 0, 1),
      updatedAt: Date.UTC(2025, 0, 1),
      pushedAt: Date.UTC(2025, 0, 1),
      labels: repoLabels,
      issues: [],
      comments: new Map(),
      commits: [],
      branches: new Map(),
      releases: [],
    };
    this.users = USERS.map((login) => JSON.stringify(render.simpleUser(this.ctx, accounts.get(login)!)));
    this.labels = repoLabels.map((l) => JSON.stringify(render.labelJson(this.ctx, this.repo, l)));
    this.repoUrl = `${api}/repos/${OWNER}/${REPO_NAME}`;
  }

  /** One "List repository issues" item as JSON text. */
  issueJson(x: BulkIssue): string {
    const u = `${this.repoUrl}/issues/${x.number}`;
    const assignees = x.assignees.map((a) => this.users[a]).join(',');
    const association = isMember(x.author) ? 'MEMBER' : 'CONTRIBUTOR';
    return (
      `{"url":"${u}","repository_url":"${this.repoUrl}","labels_url":"${u}/labels{/name}",` +
      `"comments_url":"${u}/comments","events_url":"${u}/events",` +
      `"html_url":"https://github.com/${OWNER}/${REPO_NAME}/issues/${x.number}","id":${x.id},` +
      `"node_id":"${render.nodeId('Issue', x.id)}","number":${x.number},"title":${JSON.stringify(x.title)},` +
      `"user":${this.users[x.author]},"labels":[${x.labels.map((l) => this.labels[l]).join(',')}],` +
      `"state":"${x.state}","locked":false,` +
      `"assignee":${x.assignees.length > 0 ? this.users[x.assignees[0] ?? 0] : 'null'},"assignees":[${assignees}],` +
      `"milestone":null,"comments":${x.comments},"created_at":"${iso(x.createdAt)}",` +
      `"updated_at":"${iso(x.updatedAt)}","closed_at":${x.closedAt === null ? 'null' : `"${iso(x.closedAt)}"`},` +
      `"author_association":"${association}","type":null,"active_lock_reason":null,` +
      `"body":${JSON.stringify(x.body)},"reactions":{"url":"${u}/reactions","total_count":0,"+1":0,"-1":0,` +
      `"laugh":0,"hooray":0,"confused":0,"heart":0,"rocket":0,"eyes":0},"timeline_url":"${u}/timeline",` +
      `"performed_via_github_app":null,"state_reason":${x.stateReason === null ? 'null' : `"${x.stateReason}"`}}`
    );
  }

  /** The same issue through the GitHub fake's own renderer. */
  reference(x: BulkIssue): string {
    const rec: IssueRecord = {
      id: x.id,
      number: x.number,
      title: x.title,
      body: x.body,
      author: USERS[x.author] ?? '',
      assignees: x.assignees.map((a) => USERS[a] ?? ''),
      labels: x.labels.map((l) => LABELS[l]?.name ?? ''),
      state: x.state,
      stateReason: x.stateReason,
      closedBy: null,
      createdAt: x.createdAt,
      updatedAt: x.updatedAt,
      closedAt: x.closedAt,
      pull: null,
    };
    const comments = new Map<number, CommentRecord[]>([[x.number, new Array<CommentRecord>(x.comments)]]);
    return JSON.stringify(render.issue(this.ctx, { ...this.repo, comments }, rec));
  }
}

function iso(ms: number): string {
  // Whole seconds only, so this equals render.iso (which drops the milliseconds).
  return `${new Date(ms).toISOString().slice(0, 19)}Z`;
}

// ---- the server

type Reply = { status: number; body: string | Buffer; link?: string };

const DOCS = {
  user: 'https://docs.github.com/rest/users/users#get-the-authenticated-user',
  issues: 'https://docs.github.com/rest/issues/issues#list-repository-issues',
} as const;

const UNSUPPORTED_FILTERS = ['labels', 'creator', 'assignee', 'milestone', 'mentioned'];

function validationFailed(field: string, doc: string): Reply {
  const body = {
    message: 'Validation Failed',
    errors: [{ resource: 'Issue', field, code: 'invalid' }],
    documentation_url: doc,
    status: '422',
  };
  return { status: 422, body: JSON.stringify(body) };
}

function listIssues(r: Renderer, total: number, query: URLSearchParams): Reply {
  const state = query.get('state') ?? 'open';
  if (state !== 'open' && state !== 'closed' && state !== 'all')
    return validationFailed('state', DOCS.issues);
  if ((query.get('sort') ?? 'created') !== 'updated') return validationFailed('sort', DOCS.issues);
  const direction = query.get('direction') ?? 'desc';
  if (direction !== 'asc' && direction !== 'desc') return validationFailed('direction', DOCS.issues);
  for (const name of UNSUPPORTED_FILTERS) if (query.has(name)) return validationFailed(name, DOCS.issues);
  const sinceMs = Date.parse(query.get('since') ?? '');
  const from = Number.isNaN(sinceMs) ? 0 : firstUpdatedAtOrAfter(sinceMs, total);
  const skipped = countBefore(state, from);
  const matching = countBefore(state, total) - skipped;
  const rankToIndex = (rank: number) =>
    nthIndex(state, direction === 'asc' ? skipped + rank : skipped + matching - 1 - rank);
  // paginate() only reads `length` and `slice`, so a virtual list of ranks gives GitHub's paging and link header.
  const ranks = {
    length: matching,
    slice: (start: number, end: number) => {
      const out: number[] = [];
      for (let k = start; k < Math.min(end, matching); k++) out.push(k);
      return out;
    },
  } as unknown as readonly number[];
  const page = paginate(ranks, query, r.api, `/repositories/${REPO_ID}/issues`);
  const items = page.items.map((rank) => r.issueJson(bulkIssue(rankToIndex(rank), total)));
  return {
    status: 200,
    body: Buffer.from(`[${items.join(',')}]`),
    ...(page.link ? { link: page.link } : {}),
  };
}

const REPO_PATH = new RegExp(`^/(?:repos/${OWNER}/${REPO_NAME}|repositories/${REPO_ID})(/[a-z]+)?$`);
const EMPTY_LISTS = new Set(['/pulls', '/labels', '/commits', '/releases']);

/** Compares the hand-written JSON with render.issue for a sample; exits on the first difference. */
function selfCheck(r: Renderer, total: number) {
  const rng = new Rng(7);
  const sample = [0, 1, 2, total - 1, ...Array.from({ length: 300 }, () => rng.int(total))];
  for (const index of sample) {
    const x = bulkIssue(index, total);
    const mine = r.issueJson(x);
    const theirs = r.reference(x);
    if (mine !== theirs) {
      let at = 0;
      while (mine[at] === theirs[at]) at++;
      throw new Error(
        `issue ${index}: hand-written JSON differs from render.issue at ${at}:\n` +
          `  mine:   …${mine.slice(Math.max(0, at - 60), at + 60)}\n  theirs: …${theirs.slice(Math.max(0, at - 60), at + 60)}`,
      );
    }
  }
}

async function main() {
  const total = Number(process.env.BENCH_RECORDS ?? 1_000_000);
  if (!Number.isSafeInteger(total) || total < 1) throw new Error('BENCH_RECORDS must be a positive integer');
  const tokens = new Set([GITHUB_FAKE_DEFAULT_TOKEN]);
  const limiter = new RateLimiter();
  const viewerData = new Dataset();
  let renderer: Renderer | undefined;

  const route = (req: IncomingMessage): Reply | undefined => {
    const url = new URL(req.url ?? '/', 'http://fake.invalid');
    const r = renderer!;
    if (req.method !== 'GET') return undefined;
    if (url.pathname === '/user') {
      const ctx = { api: r.api, account: (login: string) => viewerData.account(login), authenticated: true };
      const viewer = viewerData.viewer;
      return {
        status: 200,
        body: JSON.stringify(render.authenticatedUser(ctx, viewer, viewerData.reposOf(viewer))),
      };
    }
    const m = REPO_PATH.exec(url.pathname);
    if (m === null) return undefined;
    if (m[1] === '/issues') return listIssues(r, total, url.searchParams);
    if (m[1] !== undefined && EMPTY_LISTS.has(m[1])) return { status: 200, body: '[]' };
    return undefined;
  };

  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const auth = parseAuth(req.headers, tokens);
    let reply: Reply;
    if (auth.kind === 'bad') reply = { status: 401, body: JSON.stringify(errorBody(401, 'Bad credentials')) };
    else if (auth.kind === 'anonymous' && req.url?.split('?')[0] === '/user') {
      reply = { status: 401, body: JSON.stringify(errorBody(401, 'Requires authentication', DOCS.user)) };
    } else reply = route(req) ?? { status: 404, body: JSON.stringify(errorBody(404, 'Not Found')) };
    const headers = baseHeaders(auth, limiter.take(auth, 'core'));
    if (reply.link !== undefined) headers.link = reply.link;
    headers['content-length'] = String(Buffer.byteLength(reply.body));
    res.writeHead(reply.status, headers);
    res.end(reply.body);
  };

  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      try {
        handle(req, res);
      } catch (error) {
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
        res.end(String(error));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  renderer = new Renderer(url);
  selfCheck(renderer, total);
  process.stdout.write(`${JSON.stringify({ url, records: total })}\n`);
  process.on('SIGTERM', () => {
    server.close(() => process.exit(0));
    server.closeAllConnections();
  });
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
