// The write routes: create and update an issue, create an issue comment, create a pull request. Each names the
// operation id of reference/providers/github.json it follows. Bodies are validated as GitHub does: a JSON
// parse failure is 400 "Problems parsing JSON", a missing or invalid member 422 "Validation Failed" with
// GitHub's `errors` items ({resource, field, code}).
import type { RepoRecord } from './dataset.ts';
import * as render from './render.ts';
import {
  notFound,
  onRepo,
  type Route,
  type RouteKit,
  type RouteRequest,
  type RouteResult,
} from './routes.ts';
import { type Auth, errorBody } from './wire.ts';

const DOCS = {
  createIssue: 'https://docs.github.com/rest/issues/issues#create-an-issue',
  updateIssue: 'https://docs.github.com/rest/issues/issues#update-an-issue',
  createComment: 'https://docs.github.com/rest/issues/comments#create-an-issue-comment',
  createPull: 'https://docs.github.com/rest/pulls/pulls#create-a-pull-request',
} as const;

type Body = Record<string, unknown>;

function invalid(
  doc: string,
  resource: string,
  field: string,
  code: 'missing_field' | 'invalid',
): RouteResult {
  return {
    status: 422,
    body: {
      message: 'Validation Failed',
      errors: [{ resource, code, field }],
      documentation_url: doc,
      status: '422',
    },
  };
}

/** The JSON object body, or GitHub's answer to a body that is not one. */
function parse(req: RouteRequest, doc: string): Body | RouteResult {
  try {
    const raw = req.recorded.body;
    const body = JSON.parse(raw === '' ? '{}' : raw) as unknown;
    if (typeof body === 'object' && body !== null && !Array.isArray(body)) return body as Body;
  } catch {
    // answered below
  }
  return { status: 400, body: errorBody(400, 'Problems parsing JSON', doc) };
}

const isResult = (x: Body | RouteResult): x is RouteResult => typeof x.status === 'number' && 'body' in x;

function strings(value: unknown): string[] | undefined {
  return Array.isArray(value) && value.every((v) => typeof v === 'string') ? value : undefined;
}

export function writeRoutes(kit: RouteKit): Route[] {
  const { data } = kit;
  // Writes need a token; without one GitHub answers 401 (and 404 for a private repository, checked first).
  const writable = (req: RouteRequest, auth: Auth, doc: string): RepoRecord | RouteResult => {
    const repo = kit.visibleRepo(req, auth);
    if (repo === undefined) return notFound(doc);
    if (auth.kind !== 'token') return { status: 401, body: errorBody(401, 'Requires authentication', doc) };
    return repo;
  };
  const milestoneOk = (repo: RepoRecord, value: unknown): boolean =>
    value === undefined || value === null || (repo.milestones ?? []).some((x) => x.number === value);

  return [
    ...onRepo('POST', '/issues', 'issues/create', (req, auth) => {
      const repo = writable(req, auth, DOCS.createIssue);
      if (!('id' in repo)) return repo;
      const body = parse(req, DOCS.createIssue);
      if (isResult(body)) return body;
      if (typeof body.title !== 'string' && typeof body.title !== 'number')
        return invalid(DOCS.createIssue, 'Issue', 'title', 'missing_field');
      if (!milestoneOk(repo, body.milestone))
        return invalid(DOCS.createIssue, 'Issue', 'milestone', 'invalid');
      const labels = strings(body.labels) ?? [];
      data.ensureLabels(repo, labels);
      const rec = data.openIssue(repo, {
        title: String(body.title),
        body: typeof body.body === 'string' ? body.body : null,
        labels,
        assignees: strings(body.assignees) ?? [],
      });
      if (typeof body.milestone === 'number') rec.milestone = body.milestone;
      return {
        status: 201,
        body: render.issue(kit.ctx(auth), repo, rec, true),
        headers: { location: `${kit.baseUrl}/repos/${repo.owner.login}/${repo.name}/issues/${rec.number}` },
      };
    }),
    ...onRepo('PATCH', '/issues/{issue_number:\\d+}', 'issues/update', (req, auth) => {
      const repo = writable(req, auth, DOCS.updateIssue);
      const number = Number(req.params.issue_number);
      if (!('id' in repo)) return repo;
      if (data.wasDeleted(repo, number))
        return { status: 410, body: errorBody(410, 'This issue was deleted', DOCS.updateIssue) };
      if (data.issue(repo, number) === undefined) return notFound(DOCS.updateIssue);
      const body = parse(req, DOCS.updateIssue);
      if (isResult(body)) return body;
      if (body.state !== undefined && body.state !== 'open' && body.state !== 'closed')
        return invalid(DOCS.updateIssue, 'Issue', 'state', 'invalid');
      if (!milestoneOk(repo, body.milestone))
        return invalid(DOCS.updateIssue, 'Issue', 'milestone', 'invalid');
      const labels = strings(body.labels);
      if (labels !== undefined) data.ensureLabels(repo, labels);
      const rec = data.updateIssue(repo, number, {
        ...(typeof body.title === 'string' ? { title: body.title } : {}),
        ...(typeof body.body === 'string' || body.body === null ? { body: body.body as string | null } : {}),
        ...(body.state === 'open' || body.state === 'closed' ? { state: body.state } : {}),
        ...(labels === undefined ? {} : { labels }),
        ...(strings(body.assignees) === undefined ? {} : { assignees: strings(body.assignees) }),
      });
      if (typeof body.milestone === 'number') rec.milestone = body.milestone;
      if (body.milestone === null) delete rec.milestone;
      if (rec.pull === null && rec.state === 'closed' && body.state_reason === 'not_planned')
        rec.stateReason = 'not_planned';
      return { status: 200, body: render.issue(kit.ctx(auth), repo, rec, true) };
    }),
    ...onRepo('POST', '/issues/{issue_number:\\d+}/comments', 'issues/create-comment', (req, auth) => {
      const repo = writable(req, auth, DOCS.createComment);
      if (!('id' in repo)) return repo;
      const number = Number(req.params.issue_number);
      if (data.issue(repo, number) === undefined) return notFound(DOCS.createComment);
      const body = parse(req, DOCS.createComment);
      if (isResult(body)) return body;
      if (typeof body.body !== 'string' || body.body === '')
        return invalid(DOCS.createComment, 'IssueComment', 'body', 'missing_field');
      const comment = data.postComment(repo, number, data.viewer.login, body.body);
      const rendered = render.issueComment(kit.ctx(auth), repo, number, comment);
      return { status: 201, body: rendered, headers: { location: rendered.url } };
    }),
    // Head must be a branch of this repository (no forks in the fake), different from base.
    ...onRepo('POST', '/pulls', 'pulls/create', (req, auth) => {
      const repo = writable(req, auth, DOCS.createPull);
      if (!('id' in repo)) return repo;
      const body = parse(req, DOCS.createPull);
      if (isResult(body)) return body;
      if (typeof body.head !== 'string')
        return invalid(DOCS.createPull, 'PullRequest', 'head', 'missing_field');
      if (typeof body.base !== 'string')
        return invalid(DOCS.createPull, 'PullRequest', 'base', 'missing_field');
      const head = body.head.includes(':') ? body.head.slice(body.head.indexOf(':') + 1) : body.head;
      if (!repo.branches.has(head)) return invalid(DOCS.createPull, 'PullRequest', 'head', 'invalid');
      if (!repo.branches.has(body.base)) return invalid(DOCS.createPull, 'PullRequest', 'base', 'invalid');
      if (head === body.base)
        return {
          status: 422,
          body: {
            message: 'Validation Failed',
            errors: [
              {
                resource: 'PullRequest',
                code: 'custom',
                message: `No commits between ${body.base} and ${head}`,
              },
            ],
            documentation_url: DOCS.createPull,
            status: '422',
          },
        };
      if (typeof body.title !== 'string')
        return invalid(DOCS.createPull, 'PullRequest', 'title', 'missing_field');
      const rec = data.openPull(repo, {
        title: body.title,
        body: typeof body.body === 'string' ? body.body : null,
        head,
        base: body.base,
        draft: body.draft === true,
      });
      const pull = rec.pull;
      if (pull === null) throw new Error('github fake: openPull made no pull request');
      return {
        status: 201,
        body: render.pullFull(kit.ctx(auth), repo, rec, pull),
        headers: { location: `${kit.baseUrl}/repos/${repo.owner.login}/${repo.name}/pulls/${rec.number}` },
      };
    }),
  ];
}
