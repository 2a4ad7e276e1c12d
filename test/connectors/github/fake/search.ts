// GET /search/issues over the seeded dataset — "Search issues and pull requests"
// (https://docs.github.com/rest/search/search#search-issues-and-pull-requests), with the query syntax of
// "Searching issues and pull requests" (https://docs.github.com/search-github/searching-on-github/searching-issues-and-pull-requests).
// The recorded `search-issues` scenario is replayed for its exact query before this route is consulted.
//
// Supported: free words (word-prefix match, every word required) and "quoted phrases" in title, body and
// comments; qualifiers repo:, org:, user:, is:(issue|pr|pull-request|open|closed|merged|unmerged|draft),
// type:(issue|pr), state:, label: (comma = any of), author:, assignee:, no:(label|assignee|milestone),
// in:(title|body|comments), created:/updated:/closed: dates and comments: counts with >, >=, <, <= or a..b;
// a leading '-' negates a qualifier. Unknown qualifiers are searched as words, as GitHub does.
// Up to 1000 results can be paged to; total_count still counts every match.
import type { RestEndpointMethodTypes as Rest } from '@octokit/rest';
import type { IssueRecord, RepoRecord } from './dataset.ts';
import { paginate, parsePaging } from './paging.ts';
import { searchItem } from './render-git.ts';
import { type Route, type RouteKit, type RouteRequest, type RouteResult, route } from './routes.ts';
import { type Auth, errorBody } from './wire.ts';

type SearchResponse = Rest['search']['issuesAndPullRequests']['response']['data'];

const DOCS = 'https://docs.github.com/rest/search/search#search-issues-and-pull-requests';
const MAX_QUERY = 256;
const REACHABLE = 1000;
const DAY = 86_400_000;

const QUALIFIERS = new Set([
  'repo',
  'org',
  'user',
  'is',
  'type',
  'state',
  'label',
  'author',
  'assignee',
  'no',
  'in',
  'created',
  'updated',
  'closed',
  'comments',
]);

interface Qualifier {
  key: string;
  value: string;
  negated: boolean;
}

interface ParsedQuery {
  qualifiers: Qualifier[];
  /** Lower-cased words and phrases that must all occur. */
  text: string[];
}

export function parseQuery(q: string): ParsedQuery {
  const qualifiers: Qualifier[] = [];
  const text: string[] = [];
  for (const m of q.matchAll(/(-?)(?:([A-Za-z_-]+):)?(?:"([^"]*)"|(\S+))/g)) {
    const [, minus = '', key, quoted, bare] = m;
    const value = quoted ?? bare ?? '';
    if (key !== undefined && QUALIFIERS.has(key.toLowerCase())) {
      qualifiers.push({ key: key.toLowerCase(), value, negated: minus === '-' });
    } else {
      const word = (key === undefined ? value : `${key}:${value}`).toLowerCase();
      if (word !== '' && !['and', 'or', 'not'].includes(word)) text.push(word);
    }
  }
  return { qualifiers, text };
}

/** `>=5`, `<2024-01-01`, `1..3`, `2024-01-01..2024-02-01` or an exact value; dates are whole UTC days. */
function inRange(raw: string, actual: number | null, dates: boolean): boolean {
  if (actual === null) return false;
  const parse = (s: string, end: boolean): number | undefined => {
    if (s === '*') return end ? Number.POSITIVE_INFINITY : Number.NEGATIVE_INFINITY;
    if (!dates) return /^\d+$/.test(s) ? Number(s) : undefined;
    const ms = Date.parse(s);
    if (Number.isNaN(ms)) return undefined;
    return end && /^\d{4}-\d{2}-\d{2}$/.test(s) ? ms + DAY - 1 : ms;
  };
  const op = /^(>=|<=|>|<)(.+)$/.exec(raw);
  if (op !== null) {
    const [, cmp, bound = ''] = op;
    // "> day" means after the whole day, "<= day" up to its end; the other two compare with its start.
    const limit = parse(bound, cmp === '>' || cmp === '<=');
    if (limit === undefined) return false;
    if (cmp === '>=') return actual >= limit;
    if (cmp === '>') return actual > limit;
    if (cmp === '<') return actual < limit;
    return actual <= limit;
  }
  const [from, to] = raw.includes('..') ? raw.split('..') : [raw, raw];
  const lo = parse(from ?? '', false);
  const hi = parse(to ?? '', true);
  return lo !== undefined && hi !== undefined && actual >= lo && actual <= hi;
}

function containsWord(haystack: string, term: string): boolean {
  if (term.includes(' ')) return haystack.includes(term);
  let at = haystack.indexOf(term);
  while (at !== -1) {
    if (at === 0 || !/[a-z0-9]/.test(haystack[at - 1] ?? '')) return true;
    at = haystack.indexOf(term, at + 1);
  }
  return false;
}

interface Hit {
  repo: RepoRecord;
  issue: IssueRecord;
  score: number;
}

function matches(repo: RepoRecord, issue: IssueRecord, quals: Qualifier[]): boolean {
  const labels = issue.labels.map((l) => l.toLowerCase());
  const isPull = issue.pull !== null;
  for (const { key, value, negated } of quals) {
    const v = value.toLowerCase();
    let ok = true;
    if (key === 'is' || key === 'type') {
      if (v === 'issue') ok = !isPull;
      else if (v === 'pr' || v === 'pull-request') ok = isPull;
      else if (v === 'open' || v === 'closed') ok = issue.state === v;
      else if (v === 'merged') ok = issue.pull?.mergedAt != null;
      else if (v === 'unmerged') ok = isPull && issue.pull?.mergedAt == null;
      else if (v === 'draft') ok = issue.pull?.draft === true;
    } else if (key === 'state') ok = issue.state === v;
    else if (key === 'label') ok = v.split(',').some((l) => labels.includes(l));
    else if (key === 'author') ok = issue.author.toLowerCase() === v;
    else if (key === 'assignee') ok = issue.assignees.some((a) => a.toLowerCase() === v);
    else if (key === 'no') {
      if (v === 'label') ok = labels.length === 0;
      else if (v === 'assignee') ok = issue.assignees.length === 0;
      else if (v === 'milestone') ok = true;
    } else if (key === 'created') ok = inRange(value, issue.createdAt, true);
    else if (key === 'updated') ok = inRange(value, issue.updatedAt, true);
    else if (key === 'closed') ok = inRange(value, issue.closedAt, true);
    else if (key === 'comments') ok = inRange(value, repo.comments.get(issue.number)?.length ?? 0, false);
    else continue;
    if (ok === negated) return false;
  }
  return true;
}

/** Title matches weigh most, then body, then comments; no words means every match scores 1. */
function score(repo: RepoRecord, issue: IssueRecord, text: string[], fields: Set<string>): number {
  if (text.length === 0) return 1;
  const title = fields.has('title') ? issue.title.toLowerCase() : '';
  const body = fields.has('body') ? (issue.body ?? '').toLowerCase() : '';
  const comments = fields.has('comments')
    ? (repo.comments.get(issue.number) ?? []).map((c) => c.body.toLowerCase()).join('\n')
    : '';
  let total = 0;
  for (const term of text) {
    const s =
      (containsWord(title, term) ? 2 : 0) +
      (containsWord(body, term) ? 1 : 0) +
      (containsWord(comments, term) ? 0.5 : 0);
    if (s === 0) return 0;
    total += s;
  }
  return total;
}

function invalid(message: string): RouteResult {
  return {
    status: 422,
    body: {
      message: 'Validation Failed',
      errors: [{ message, resource: 'Search', field: 'q', code: 'invalid' }],
      documentation_url: DOCS,
      status: '422',
    },
    rateResource: 'search',
  };
}

export function searchRoutes(kit: RouteKit): Route[] {
  const search = (req: RouteRequest, auth: Auth): RouteResult => {
    const q = req.query.get('q') ?? '';
    if (q.trim() === '') {
      return {
        status: 422,
        body: {
          message: 'Validation Failed',
          errors: [{ resource: 'Search', field: 'q', code: 'missing' }],
          documentation_url: DOCS,
          status: '422',
        },
        rateResource: 'search',
      };
    }
    if (q.length > MAX_QUERY) return invalid(`The search is longer than ${MAX_QUERY} characters.`);
    const { qualifiers, text } = parseQuery(q);
    const authed = auth.kind === 'token';
    const visible = (r: RepoRecord) => !r.private || authed;

    // repo:/org:/user: qualifiers widen the scope together; an unknown or hidden one fails the whole query.
    const scope = new Set<RepoRecord>();
    for (const { key, value, negated } of qualifiers) {
      if (negated || !['repo', 'org', 'user'].includes(key)) continue;
      let found: RepoRecord[] = [];
      if (key === 'repo') {
        const [owner = '', name = ''] = value.split('/');
        const repo = kit.data.repo(owner, name);
        found = repo !== undefined && visible(repo) ? [repo] : [];
      } else {
        const account = kit.data.account(value);
        const typeOk = key === 'user' || account?.type === 'Organization';
        found = account !== undefined && typeOk ? kit.data.reposOf(account).filter(visible) : [];
        if (account !== undefined && typeOk && found.length === 0) continue;
      }
      if (found.length === 0) {
        return invalid(
          'The listed users and repositories cannot be searched either because the resources do not exist or you do not have permission to view them.',
        );
      }
      for (const repo of found) scope.add(repo);
    }
    const repos = scope.size > 0 ? [...scope] : kit.data.allRepos().filter(visible);
    const excluded = new Set(
      qualifiers.filter((x) => x.negated && x.key === 'repo').map((x) => x.value.toLowerCase()),
    );
    const inFields = qualifiers
      .filter((x) => x.key === 'in' && !x.negated)
      .flatMap((x) => x.value.split(','));
    const fields = new Set(
      inFields.length > 0 ? inFields.map((f) => f.toLowerCase()) : ['title', 'body', 'comments'],
    );

    const hits: Hit[] = [];
    for (const repo of repos) {
      if (excluded.has(`${repo.owner.login}/${repo.name}`.toLowerCase())) continue;
      for (const issue of repo.issues) {
        if (!matches(repo, issue, qualifiers)) continue;
        const s = score(repo, issue, text, fields);
        if (s > 0) hits.push({ repo, issue, score: s });
      }
    }
    sortHits(hits, req.query);

    const { perPage, page } = parsePaging(req.query);
    if ((page - 1) * perPage >= REACHABLE && hits.length > 0) {
      return {
        status: 422,
        body: errorBody(422, `Only the first ${REACHABLE} search results are available`, DOCS),
        rateResource: 'search',
      };
    }
    const paged = paginate(hits, req.query, kit.baseUrl, '/search/issues', { reachable: REACHABLE });
    const c = kit.ctx(auth);
    // search_type is required by GitHub's current description (it names lexical, semantic or hybrid search);
    // the fake's search is lexical. Octokit's older types do not know the member yet.
    const body: SearchResponse & { search_type: 'lexical' } = {
      total_count: hits.length,
      incomplete_results: false,
      search_type: 'lexical',
      items: paged.items.map((h) => searchItem(c, h.repo, h.issue, h.score)),
    };
    return {
      status: 200,
      body,
      ...(paged.link === undefined ? {} : { link: paged.link }),
      // As recorded in the `search-issues` scenario.
      headers: { 'cache-control': 'no-cache' },
      rateResource: 'search',
    };
  };
  return [route('GET', '/search/issues', 'search/issues-and-pull-requests', search)];
}

/** Default "best match": score, then newest first. sort=created|updated|comments honour order (default desc). */
function sortHits(hits: Hit[], query: URLSearchParams): void {
  const sort = query.get('sort');
  const dir = query.get('order') === 'asc' ? 1 : -1;
  const key = (h: Hit): number | undefined => {
    if (sort === 'created') return h.issue.createdAt;
    if (sort === 'updated') return h.issue.updatedAt;
    if (sort === 'comments') return h.repo.comments.get(h.issue.number)?.length ?? 0;
    return undefined;
  };
  hits.sort((a, b) => {
    const ka = key(a);
    const kb = key(b);
    if (ka !== undefined && kb !== undefined && ka !== kb) return dir * (ka - kb);
    return b.score - a.score || b.issue.id - a.issue.id;
  });
}
