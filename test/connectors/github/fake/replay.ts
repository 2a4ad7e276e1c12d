// Replays real GitHub responses recorded in the npm package @octokit/fixtures. The data is read from the
// installed package at start-up and never copied into this repository.
// Scenarios and the reference page each recorded route follows (docs.github.com/rest):
//   paginate-issues  GET /repos/{o}/{r}/issues, then /repositories/{id}/issues?page=N  → "List repository issues"
//                    (5 pages with the real Link headers, see "Using pagination in the REST API")
//   search-issues    GET /search/issues                       → "Search issues and pull requests"
//   get-repository   GET /repos/{owner}/{repo}                → "Get a repository"
//   get-organization GET /orgs/{org}                          → "Get an organization"
//   get-archive      GET /repos/{o}/{r}/tarball/{ref} (302)   → "Download a repository archive (tar)",
//                    then the codeload.github.com tarball, served here under /_codeload
//   labels (GETs)    GET /repos/{o}/{r}/labels[/{name}]       → "List labels for a repository", "Get a label"
//   errors           POST /repos/{o}/{r}/labels (422)         → "Create a label" + "Troubleshooting" (Validation Failed)
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { RateResource } from './wire.ts';

export const CODELOAD_PREFIX = '/_codeload';

const SCENARIOS: ReadonlyArray<{ name: string; methods?: readonly string[] }> = [
  { name: 'paginate-issues' },
  { name: 'search-issues' },
  { name: 'get-repository' },
  { name: 'get-organization' },
  { name: 'get-archive' },
  // The labels scenario also records a POST/PATCH/DELETE sequence; replaying those statelessly would
  // contradict the GETs, so only the reads are served.
  { name: 'labels', methods: ['GET'] },
  { name: 'errors' },
];

interface NockDefinition {
  scope: string;
  method: string;
  path: string;
  status: number;
  headers?: Record<string, string | number>;
  response?: unknown;
  responseIsBinary?: boolean;
}

export interface Recording {
  scenario: string;
  status: number;
  headers: Record<string, string>;
  body: string | Buffer;
  /** null for codeload.github.com, which is not the REST API: no auth, no rate-limit headers. */
  rateResource: RateResource | null;
}

// Hop-by-hop or per-connection headers, and the normalised 2017 date, are produced by node for us.
const DROPPED_HEADERS = new Set(['content-length', 'connection', 'transfer-encoding', 'date', 'keep-alive']);
const RATE_HEADERS = /^x-ratelimit-/;

/** method + path with the query parameters sorted, so parameter order never decides a match. */
export function replayKey(method: string, pathAndQuery: string): string {
  const url = new URL(pathAndQuery, 'http://fake.invalid');
  url.searchParams.sort();
  const query = url.searchParams.toString();
  return `${method.toUpperCase()} ${url.pathname}${query === '' ? '' : `?${query}`}`;
}

export interface ReplayTable {
  find(method: string, pathAndQuery: string): Recording | undefined;
  /** True for paths inside the recorded fixture namespace (their owners and repository ids): a miss
   * there is a request the fake cannot answer faithfully, so the caller reports it as unhandled. */
  ownsPath(pathname: string): boolean;
  size: number;
}

export function loadReplays(baseUrl: string): ReplayTable {
  const require = createRequire(import.meta.url);
  const root = path.join(
    path.dirname(require.resolve('@octokit/fixtures/package.json')),
    'scenarios',
    'api.github.com',
  );
  const rewrite = (text: string) =>
    text
      .replaceAll('https://api.github.com', baseUrl)
      .replaceAll('https://codeload.github.com', baseUrl + CODELOAD_PREFIX);

  const table = new Map<string, Recording>();
  const owners = new Set<string>();
  const repositoryIds = new Set<string>();
  for (const scenario of SCENARIOS) {
    const file = path.join(root, scenario.name, 'normalized-fixture.json');
    const definitions = JSON.parse(readFileSync(file, 'utf8')) as NockDefinition[];
    for (const def of definitions) {
      const method = def.method.toUpperCase();
      if (scenario.methods !== undefined && !scenario.methods.includes(method)) continue;
      const codeload = def.scope.startsWith('https://codeload.github.com');
      const requestPath = codeload ? CODELOAD_PREFIX + def.path : def.path;
      const key = replayKey(method, requestPath);
      if (table.has(key)) throw new Error(`duplicate recording for ${key} in ${scenario.name}`);

      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(def.headers ?? {})) {
        const lower = name.toLowerCase();
        // Recorded x-ratelimit-* values are normalised constants (reset is even in ms); live ones replace them.
        if (DROPPED_HEADERS.has(lower) || RATE_HEADERS.test(lower)) continue;
        headers[lower] = rewrite(String(value));
      }
      const rateHeader = def.headers?.['x-ratelimit-resource'];
      const rateResource: RateResource | null = codeload ? null : rateHeader === 'search' ? 'search' : 'core';

      let body: string | Buffer;
      if (def.responseIsBinary === true && typeof def.response === 'string') {
        body = Buffer.from(def.response, 'hex');
      } else if (typeof def.response === 'string') body = rewrite(def.response);
      else if (def.response === undefined) body = '';
      else body = rewrite(JSON.stringify(def.response));

      table.set(key, { scenario: scenario.name, status: def.status, headers, body, rateResource });
      collectNamespace(def.path, owners, repositoryIds);
    }
  }

  return {
    size: table.size,
    find: (method, pathAndQuery) => table.get(replayKey(method, pathAndQuery)),
    ownsPath(pathname) {
      const [, first, second] = pathname.split('/');
      if (first === 'repos' || first === 'orgs' || first === 'users')
        return owners.has(second?.toLowerCase() ?? '');
      if (first === 'repositories') return repositoryIds.has(second ?? '');
      return pathname.startsWith(`${CODELOAD_PREFIX}/`);
    },
  };
}

function collectNamespace(recordedPath: string, owners: Set<string>, repositoryIds: Set<string>): void {
  const [, first, second] = new URL(recordedPath, 'http://fake.invalid').pathname.split('/');
  if (second === undefined) return;
  if (first === 'repos' || first === 'orgs') owners.add(second.toLowerCase());
  if (first === 'repositories') repositoryIds.add(second);
}
