// A wire-faithful fake of the GitHub REST API v3 (https://api.github.com) on a real node:http server.
// Dispatch order for every request:
//   1. fault injected with failNext (matching path prefix)  → the fault
//   2. /_codeload/… (stands in for https://codeload.github.com; no auth there, as on GitHub) → recording,
//      else an archive of the seeded dataset (archive.ts)
//   3. a present but unknown credential                     → 401 Bad credentials
//      a repository part withheld from the token (withholdPermissions) → GitHub's 404 body
//   4. an exact recorded request from @octokit/fixtures     → replay.ts (any accepted token; none → 401)
//   5. a handwritten route over the seeded dataset          → routes.ts, routes-git.ts, search.ts,
//      routes-parity.ts; POST/PATCH writes in routes-write.ts; POST /graphql in graphql.ts (GraphQL API v4,
//      executed against GitHub's published schema)
//   6. anything else                                        → GitHub's 404 body, recorded in `unhandled`
// Dataset: org `ces-demo` with private repo `widgets` (issues 1–25, #5/#10/#15/#20/#25 are pull requests,
// 3 comments on #1; 40 commits on main, branch release/1.x at commit 25; releases v1.0.0, v1.1.0 and the
// prerelease v2.0.0-beta.1; 6 labels; milestones v1.0 (closed), v1.1, v2.0; stars by octocat and hubot; on
// pull request #5 three reviews and three review comments); ces-demo's members octocat and hubot and teams
// maintainers, triage, security (secret); users `octocat` (Hello-World, Spoon-Knife, 3 commits each; every
// accepted token authenticates as octocat) and `hubot`.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { FaultQueue, lowerKeys } from '../../kit/errors.ts';
import { type RecordedRequest, startRecordingServer } from '../../kit/server.ts';
import { Archives } from './archive.ts';
import { Dataset, type IssueChange, type NewIssue, type RepoRecord } from './dataset.ts';
import * as render from './render.ts';
import { CODELOAD_PREFIX, loadReplays, type Recording, type ReplayTable } from './replay.ts';
import { createRoutes } from './routes.ts';
import { type Auth, baseHeaders, errorBody, parseAuth, RateLimiter, REST_DOCS, send } from './wire.ts';

export type { RecordedRequest } from '../../kit/server.ts';
export type { IssueChange, NewIssue } from './dataset.ts';

interface FaultTarget {
  /** default 1 */
  times?: number;
  /** optional path prefix the fault applies to */
  match?: string;
}

/** Answers with this response instead of the real one. */
export interface GithubResponseFault extends FaultTarget {
  status: number;
  headers?: Record<string, string>;
  /** object → JSON, string → raw */
  body?: unknown;
}

/** Accepts the request and never answers; the socket stays open until the client gives up or close(). */
export interface GithubHangFault extends FaultTarget {
  hang: true;
}

/**
 * Sends the status line, the headers and the first `resetAfterBytes` bytes of the body, then destroys the
 * socket. The response is the real one (JSON, replay or archive), or the given status/body if set.
 */
export interface GithubResetFault extends FaultTarget {
  resetAfterBytes: number;
  status?: number;
  headers?: Record<string, string>;
  body?: unknown;
}

export type GithubFault = GithubResponseFault | GithubHangFault | GithubResetFault;

export interface GithubFakeOptions {
  /** accepted tokens, default ['ghp_test_token_0001'] */
  tokens?: string[];
  /** answer every request this much later, like a provider across the internet (benchmarks); default 0 */
  responseDelayMs?: number;
}

export interface GithubFake {
  /** base URL, e.g. http://127.0.0.1:54321 (the REST root, like https://api.github.com) */
  url: string;
  /** every request received, in order */
  requests: RecordedRequest[];
  /** requests no route matched (answered 404 GitHub-style AND recorded here so tests can fail on them) */
  unhandled: RecordedRequest[];
  /** fault injection: the next matching request(s) get this response instead */
  failNext(fault: GithubFault): void;
  /**
   * The token loses access to these parts of a repository (the path segment after it: `pulls`, `commits`,
   * `releases`, ...), as a fine-grained token without that repository permission has, until called again
   * with other parts ([]: every part back). GitHub answers such requests 404 Not Found with the route's
   * documentation_url, exactly as for a repository that does not exist ("Troubleshooting the REST API").
   */
  withholdPermissions(owner: string, repo: string, parts: string[]): void;
  /** add `count` generated issues to a repo (creates the repo if missing) */
  seedIssues(owner: string, repo: string, count: number): void;
  // Changes between syncs take effect at the fake clock's "now": one second after the newest issue or comment
  // timestamp unless the change names a time, so each is the latest change. They answer the issue as "Get an
  // issue" renders it.
  /** Edits an issue (or pull request): the given members change and updated_at moves to now. */
  updateIssue(owner: string, repo: string, number: number, change: IssueChange): RenderedIssue;
  /** Opens an issue with the next number, created and updated now. */
  addIssue(owner: string, repo: string, fields: NewIssue): RenderedIssue;
  /**
   * Removes an issue as a deletion (or a transfer elsewhere) does: lists and search stop returning it and
   * "Get an issue" answers 410 Gone. GitHub's REST API has no issue delete; this stands in for the UI.
   */
  deleteIssue(owner: string, repo: string, number: number): void;
  /**
   * Makes every dataset archive exactly `bytes` long (streamed, never held in memory); undefined restores the
   * small default archive. Recorded archives (`get-archive`) are unaffected.
   */
  setArchiveSize(bytes: number | undefined): void;
  /** Closes the server and every open connection (hung requests included); safe to call twice. */
  close(): Promise<void>;
}

/** An issue as "Get an issue" answers it. */
export type RenderedIssue = ReturnType<typeof render.issue>;

export const GITHUB_FAKE_DEFAULT_TOKEN = 'ghp_test_token_0001';

export async function startGithubFake(opts: GithubFakeOptions = {}): Promise<GithubFake> {
  const tokens = new Set(opts.tokens ?? [GITHUB_FAKE_DEFAULT_TOKEN]);
  const requests: RecordedRequest[] = [];
  const unhandled: RecordedRequest[] = [];
  const faults = new FaultQueue<GithubFault>();
  const limiter = new RateLimiter();
  const data = new Dataset();
  let replays: ReplayTable | undefined;
  let routes: ReturnType<typeof createRoutes> | undefined;
  let archives: Archives | undefined;

  // Per repository id, the parts of it the token may not see.
  const withheld = new Map<number, { pattern: RegExp; parts: Set<string> }>();
  const refused = (pathname: string): string | undefined => {
    for (const { pattern, parts } of withheld.values()) {
      const part = pattern.exec(pathname)?.[1];
      if (part !== undefined && parts.has(part)) return part;
    }
    return undefined;
  };

  const handle = (req: IncomingMessage, res: ServerResponse, recorded: RecordedRequest): void => {
    if (replays === undefined || routes === undefined || archives === undefined)
      throw new Error('github fake used before it listened');
    const url = new URL(recorded.path, 'http://fake.invalid');
    const auth = parseAuth(req.headers, tokens);
    const method = recorded.method;

    const fault = faults.take(recorded.path);
    if (fault !== undefined && 'hang' in fault) return;
    if (fault !== undefined && 'resetAfterBytes' in fault) truncate(res, fault.resetAfterBytes);
    if (fault?.status !== undefined) {
      const headers = { ...baseHeaders(auth, limiter.take(auth, 'core')), ...lowerKeys(fault.headers ?? {}) };
      const body = fault.body ?? errorBody(fault.status, defaultMessage(fault.status));
      send(res, fault.status, headers, body);
      return;
    }

    const notFound = (): void => {
      unhandled.push(recorded);
      send(res, 404, baseHeaders(auth, limiter.take(auth, 'core')), errorBody(404, 'Not Found'));
    };

    if (url.pathname.startsWith(`${CODELOAD_PREFIX}/`)) {
      const recording = replays.find(method, recorded.path);
      if (recording !== undefined) replay(res, recording, auth);
      else if (method !== 'GET' || !archives.serve(url.pathname, url.searchParams, res)) notFound();
      return;
    }
    if (auth.kind === 'bad') {
      send(res, 401, baseHeaders(auth, limiter.take(auth, 'core')), errorBody(401, 'Bad credentials'));
      return;
    }
    const hidden = refused(url.pathname);
    if (hidden !== undefined) {
      const body = errorBody(404, 'Not Found', PART_DOCS[hidden] ?? REST_DOCS);
      send(res, 404, baseHeaders(auth, limiter.take(auth, 'core')), body);
      return;
    }
    const recording = replays.find(method, recorded.path);
    if (recording !== undefined) {
      // Every recording was made with a token and GitHub's anonymous answer is unknown, so replays need one.
      if (auth.kind === 'anonymous') {
        const headers = baseHeaders(auth, limiter.take(auth, recording.rateResource ?? 'core'));
        send(res, 401, headers, errorBody(401, 'Requires authentication'));
      } else replay(res, recording, auth);
      return;
    }
    const result = !replays.ownsPath(url.pathname)
      ? routes({ method, body: recorded.body, pathname: url.pathname, query: url.searchParams, auth })
      : undefined;
    if (result === undefined) {
      notFound();
      return;
    }
    const headers = baseHeaders(auth, limiter.take(auth, result.rateResource ?? 'core'));
    if (result.link !== undefined) headers.link = result.link;
    for (const [name, value] of Object.entries(result.headers ?? {})) {
      if (value === null) delete headers[name];
      else headers[name] = value;
    }
    send(res, result.status, headers, result.body);
  };

  const replay = (res: ServerResponse, recording: Recording, auth: Auth): void => {
    const rate = recording.rateResource === null ? {} : limiter.take(auth, recording.rateResource);
    send(res, recording.status, { ...recording.headers, ...rate }, recording.body);
  };

  const server = await startRecordingServer(
    handle,
    { requests, unhandled },
    { responseDelayMs: opts.responseDelayMs ?? 0 },
  );
  const url = server.origin;
  try {
    replays = loadReplays(url);
  } catch (error) {
    await server.close();
    throw error;
  }
  archives = new Archives(data, url);
  routes = createRoutes(data, url, archives);
  const archiveSizes = archives;
  const renderCtx: render.RenderContext = {
    api: url,
    account: (login) => data.account(login),
    authenticated: true,
  };
  const repoOf = (owner: string, name: string): RepoRecord => {
    const repo = data.repo(owner, name);
    if (repo === undefined) throw new Error(`github fake: no repository ${owner}/${name}`);
    return repo;
  };

  return {
    url,
    requests,
    unhandled,
    failNext: (fault) => faults.push(fault),
    withholdPermissions(owner, repo, parts) {
      const record = repoOf(owner, repo);
      const name = (s: string) => s.replace(/[.]/g, '\\.');
      // Both spellings of the repository: by name (case-insensitive, as GitHub) and the id-based `link` form.
      const pattern = new RegExp(
        `^/(?:repos/${name(record.owner.login)}/${name(record.name)}|repositories/${record.id})/([^/]+)`,
        'i',
      );
      withheld.set(record.id, { pattern, parts: new Set(parts) });
    },
    seedIssues(owner, repo, count) {
      data.seedIssues(owner, repo, count);
    },
    updateIssue(owner, repo, number, change) {
      const record = repoOf(owner, repo);
      return render.issue(renderCtx, record, data.updateIssue(record, number, change), true);
    },
    addIssue(owner, repo, fields) {
      const record = repoOf(owner, repo);
      return render.issue(renderCtx, record, data.openIssue(record, fields), true);
    },
    deleteIssue(owner, repo, number) {
      data.deleteIssue(repoOf(owner, repo), number);
    },
    setArchiveSize(bytes) {
      archiveSizes.setSize(bytes);
    },
    close: () => server.close(),
  };
}

/**
 * Lets at most `limit` body bytes through, then destroys the socket once they are written. Wraps this one
 * response's write/end, so it works the same for JSON, replays and streamed archives.
 */
function truncate(res: ServerResponse, limit: number): void {
  let sent = 0;
  let cut = false;
  const write = res.write.bind(res) as (chunk: Buffer, cb?: (err?: Error | null) => void) => boolean;
  const destroy = () => res.socket?.destroy();
  const take = (chunk: unknown, encoding: unknown): boolean => {
    if (cut || chunk === undefined || chunk === null || typeof chunk === 'function') return !cut;
    const buf = Buffer.isBuffer(chunk)
      ? chunk
      : typeof chunk === 'string'
        ? Buffer.from(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8')
        : Buffer.from(chunk as Uint8Array);
    const room = limit - sent;
    if (buf.length < room) {
      sent += buf.length;
      return write(buf);
    }
    sent = limit;
    cut = true;
    // Destroyed once written (not merely queued), so the client sees exactly `limit` body bytes.
    write(buf.subarray(0, room), destroy);
    return false;
  };
  res.write = ((chunk: unknown, encoding?: unknown) => take(chunk, encoding)) as typeof res.write;
  res.end = ((chunk?: unknown, encoding?: unknown) => {
    take(chunk, encoding);
    // A body shorter than the limit went out whole; the connection is still cut instead of ended cleanly.
    if (!cut) {
      cut = true;
      if (!res.headersSent) res.flushHeaders();
      setImmediate(destroy);
    }
    return res;
  }) as typeof res.end;
}

/** The reference page (documentation_url of a 404) of the list a withheld part stands for. */
const PART_DOCS: Record<string, string> = {
  pulls: 'https://docs.github.com/rest/pulls/pulls#list-pull-requests',
  commits: 'https://docs.github.com/rest/commits/commits#list-commits',
  releases: 'https://docs.github.com/rest/releases/releases#list-releases',
  issues: 'https://docs.github.com/rest/issues/issues#list-repository-issues',
  labels: 'https://docs.github.com/rest/issues/labels#list-labels-for-a-repository',
  milestones: 'https://docs.github.com/rest/issues/milestones#list-milestones',
  branches: 'https://docs.github.com/rest/branches/branches#list-branches',
};

function defaultMessage(status: number): string {
  if (status >= 500) return 'Server Error';
  if (status === 429 || status === 403) return 'API rate limit exceeded';
  return 'Error';
}
