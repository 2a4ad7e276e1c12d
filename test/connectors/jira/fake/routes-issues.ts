// Issue routes: the enhanced JQL search, issue CRUD, assignment, transitions and issue links. Each route names
// the reference operation (operationId) it follows. Paths are below /rest/api/3.
import type { Route } from '../../kit/index.ts';
import { route } from '../../kit/route.ts';
import { ISSUE_TYPES, type IssueRec, LINK_TYPES, PRIORITIES, TRANSITIONS } from './dataset.ts';
import { compileJql, JqlError, sortIssues } from './jql.ts';
import { issueBean, selectFields } from './render-issue.ts';
import {
  boolParam,
  expandOf,
  fail,
  fieldErrors,
  INVALID_PAYLOAD,
  listParam,
  noContent,
  objectBody,
  ok,
  type Result,
} from './wire.ts';
import { applyDraft, type Ctx, moveTo, NOT_ADF, readFields } from './writes.ts';

export const ISSUE_NOT_FOUND = 'Issue does not exist or you do not have permission to see it.';
const UNBOUNDED =
  'Unbounded JQL queries are not allowed here. Please add a search restriction to your query.';

export function issueRoutes(ctx: Ctx): Route<unknown>[] {
  const { data, render } = ctx;
  const find = (idOrKey: string | undefined): IssueRec | undefined => data.issue(idOrKey ?? '');
  /** One page of the enhanced search, for GET (query) and POST (body) alike. */
  const search = (input: {
    jql: unknown;
    nextPageToken: unknown;
    maxResults: unknown;
    fields: string[];
    expand: Set<string>;
  }): Result => {
    const jql = typeof input.jql === 'string' ? input.jql : '';
    let compiled: ReturnType<typeof compileJql>;
    try {
      compiled = compileJql(jql, data, ctx.now());
    } catch (e) {
      if (e instanceof JqlError) return fail(400, e.message);
      throw e;
    }
    if (compiled.where === undefined) return fail(400, UNBOUNDED);
    const where = compiled.where;
    const matched = sortIssues(
      data.issues.filter((i) => where(i)),
      compiled.order,
    );
    const chosen = selectFields(data.fields, input.fields, 'id');
    const idOnly =
      chosen === 'id-only' ||
      (input.fields.length > 0 && input.fields.every((f) => f === 'id' || f === 'key'));
    const max = idOnly ? 5000 : 100;
    let maxResults = 50;
    if (input.maxResults !== undefined && input.maxResults !== null && input.maxResults !== '') {
      const n = Number(input.maxResults);
      if (!Number.isInteger(n)) return fail(400, 'maxResults must be an integer.');
      maxResults = Math.min(Math.max(n, 1), max);
    }
    let offset = 0;
    if (typeof input.nextPageToken === 'string' && input.nextPageToken !== '') {
      const at = ctx.tokens.verify(input.nextPageToken, 'search/jql', jql);
      if (at === undefined) return fail(400, 'The provided next page token is invalid or expired.');
      offset = at;
    }
    const page = matched.slice(offset, offset + maxResults);
    const next = offset + page.length;
    const body: Record<string, unknown> = {
      issues: page.map((i) => issueBean(render, i, input.fields, 'id', input.expand)),
      ...(next < matched.length ? { nextPageToken: ctx.tokens.sign('search/jql', next, jql) } : {}),
      isLast: next >= matched.length,
    };
    if (chosen !== 'id-only' && input.expand.has('names'))
      body.names = Object.fromEntries(chosen.map((f) => [f.id, f.name]));
    if (chosen !== 'id-only' && input.expand.has('schema'))
      body.schema = Object.fromEntries(chosen.filter((f) => f.schema).map((f) => [f.id, f.schema]));
    return ok(body);
  };

  const notFound = () => fail(404, ISSUE_NOT_FOUND);

  return [
    // searchAndReconsileIssuesUsingJql: GET /search/jql?jql&nextPageToken&maxResults&fields&expand…
    route('GET', '/search/jql', 'searchAndReconsileIssuesUsingJql', (req) =>
      search({
        jql: req.query.get('jql'),
        nextPageToken: req.query.get('nextPageToken'),
        maxResults: req.query.get('maxResults') ?? undefined,
        fields: listParam(req.query, 'fields'),
        expand: expandOf(req.query.get('expand')),
      }),
    ),
    // searchAndReconsileIssuesUsingJqlPost: POST /search/jql with a SearchAndReconcileRequestBean body
    route('POST', '/search/jql', 'searchAndReconsileIssuesUsingJqlPost', (req) => {
      const parsed = objectBody(req);
      if ('error' in parsed) return parsed.error;
      const b = parsed.body;
      const fields = Array.isArray(b.fields) ? (b.fields as unknown[]).map(String) : [];
      return search({
        jql: b.jql,
        nextPageToken: b.nextPageToken,
        maxResults: b.maxResults,
        fields: fields
          .flatMap((f) => f.split(','))
          .map((f) => f.trim())
          .filter(Boolean),
        expand: expandOf(b.expand),
      });
    }),
    // createIssue: POST /issue (IssueUpdateDetails) → 201 CreatedIssue {id, key, self}
    route('POST', '/issue', 'createIssue', (req) => {
      const parsed = objectBody(req);
      if ('error' in parsed) return parsed.error;
      const draft = readFields(ctx, parsed.body, undefined, 'create');
      if (Object.keys(draft.errors).length > 0 || !draft.project) return fieldErrors(draft.errors);
      const now = ctx.now();
      const me = ctx.me().accountId;
      const d = draft.issue;
      const issue = data.addIssue(draft.project, {
        issueTypeId: d.issueTypeId ?? (ISSUE_TYPES[0].id as string),
        statusId: '10000',
        priorityId: d.priorityId ?? (PRIORITIES[2].id as string),
        summary: d.summary ?? '',
        description: d.description ?? null,
        labels: d.labels ?? [],
        assigneeId: d.assigneeId ?? null,
        reporterId: d.reporterId ?? me,
        creatorId: me,
        created: now,
        updated: now,
        parentId: d.parentId ?? null,
        duedate: d.duedate ?? null,
        originalEstimate: d.originalEstimate ?? null,
        custom: d.custom ?? {},
        environment: d.environment ?? null,
      });
      if (d.remainingEstimate !== undefined) issue.remainingEstimate = d.remainingEstimate;
      applyDraft(ctx, issue, { ...draft, issue: {} });
      const transition = (parsed.body.transition as { id?: unknown } | undefined)?.id;
      const t = TRANSITIONS.find((x) => x.id === String(transition));
      if (t) moveTo(issue, t.to, now);
      return ok({ id: issue.id, key: issue.key, self: `${render.base}/issue/${issue.id}` }, 201);
    }),
    // getIssue: GET /issue/{issueIdOrKey}?fields&expand (default fields: *all)
    route('GET', '/issue/{issueIdOrKey}', 'getIssue', (req) => {
      const issue = find(req.params.issueIdOrKey);
      if (!issue) return notFound();
      return ok(
        issueBean(render, issue, listParam(req.query, 'fields'), '*all', expandOf(req.query.get('expand'))),
      );
    }),
    // editIssue: PUT /issue/{issueIdOrKey} (IssueUpdateDetails) → 204, or 200 + the issue with returnIssue=true
    route('PUT', '/issue/{issueIdOrKey}', 'editIssue', (req) => {
      const issue = find(req.params.issueIdOrKey);
      if (!issue) return notFound();
      const parsed = objectBody(req);
      if ('error' in parsed) return parsed.error;
      if (
        parsed.body.fields === undefined &&
        parsed.body.update === undefined &&
        parsed.body.properties === undefined
      )
        return fail(400, "Can not edit issue without 'fields' or 'update'");
      const draft = readFields(ctx, parsed.body, issue, 'edit');
      if (Object.keys(draft.errors).length > 0) return fieldErrors(draft.errors);
      applyDraft(ctx, issue, draft);
      if (boolParam(req.query, 'returnIssue', false))
        return ok(issueBean(render, issue, [], '*all', expandOf(req.query.get('expand'))));
      return noContent();
    }),
    // deleteIssue: DELETE /issue/{issueIdOrKey}?deleteSubtasks → 204
    route('DELETE', '/issue/{issueIdOrKey}', 'deleteIssue', (req) => {
      const issue = find(req.params.issueIdOrKey);
      if (!issue) return notFound();
      const subtasks = data.issues.filter((s) => s.parentId === issue.id);
      if (subtasks.length > 0 && req.query.get('deleteSubtasks') !== 'true')
        return fail(
          400,
          `The issue '${issue.key}' has subtasks. Set 'deleteSubtasks' to true to delete them with it.`,
        );
      for (const s of subtasks) data.deleteIssue(s);
      data.deleteIssue(issue);
      return noContent();
    }),
    // assignIssue: PUT /issue/{issueIdOrKey}/assignee {accountId} ("-1" = project default, null = unassigned)
    route('PUT', '/issue/{issueIdOrKey}/assignee', 'assignIssue', (req) => {
      const issue = find(req.params.issueIdOrKey);
      if (!issue) return notFound();
      const parsed = objectBody(req);
      if ('error' in parsed) return parsed.error;
      const b = parsed.body;
      if (!('accountId' in b) && !('name' in b) && !('key' in b))
        return fail(400, "'accountId' must be provided.");
      const id = b.accountId ?? b.name ?? b.key;
      if (id === null) issue.assigneeId = null;
      else if (id === '-1') issue.assigneeId = data.project(issue.projectId)?.leadAccountId ?? null;
      else {
        const user = typeof id === 'string' ? data.user(id) : undefined;
        if (!user || !user.active || user.accountType !== 'atlassian')
          return fieldErrors({ assignee: `User '${String(id)}' cannot be assigned issues.` });
        issue.assigneeId = user.accountId;
      }
      issue.updated = ctx.now();
      return noContent();
    }),
    // getTransitions: GET /issue/{issueIdOrKey}/transitions?transitionId&expand=transitions.fields
    route('GET', '/issue/{issueIdOrKey}/transitions', 'getTransitions', (req) => {
      const issue = find(req.params.issueIdOrKey);
      if (!issue) return notFound();
      const withFields = expandOf(req.query.get('expand')).has('transitions.fields');
      const list = render
        .transitions(issue, req.query.get('transitionId') ?? undefined)
        .map((t) => (withFields ? { ...t, fields: {} } : t));
      return ok({ expand: 'transitions', transitions: list });
    }),
    // doTransition: POST /issue/{issueIdOrKey}/transitions {transition: {id}, fields?, update?} → 204
    route('POST', '/issue/{issueIdOrKey}/transitions', 'doTransition', (req) => {
      const issue = find(req.params.issueIdOrKey);
      if (!issue) return notFound();
      const parsed = objectBody(req);
      if ('error' in parsed) return parsed.error;
      const id = (parsed.body.transition as { id?: unknown } | undefined)?.id;
      if (id === undefined || id === null) return fail(400, "Missing 'transition' identifier");
      const t = TRANSITIONS.find((x) => x.id === String(id) && x.to !== issue.statusId);
      if (!t) return fail(400, `Transition id '${String(id)}' is not valid for this issue.`);
      const draft = readFields(ctx, parsed.body, issue, 'transition');
      if (Object.keys(draft.errors).length > 0) return fieldErrors(draft.errors);
      applyDraft(ctx, issue, draft);
      moveTo(issue, t.to, ctx.now());
      return noContent();
    }),
    // linkIssues: POST /issueLink {type: {name|id}, inwardIssue: {key|id}, outwardIssue: {key|id}, comment?} → 201
    route('POST', '/issueLink', 'linkIssues', (req) => {
      const parsed = objectBody(req);
      if ('error' in parsed) return parsed.error;
      const b = parsed.body as {
        type?: { name?: unknown; id?: unknown };
        inwardIssue?: { key?: unknown; id?: unknown };
        outwardIssue?: { key?: unknown; id?: unknown };
        comment?: { body?: unknown };
      };
      if (!b.type || !b.inwardIssue || !b.outwardIssue) return fail(400, INVALID_PAYLOAD);
      const type = LINK_TYPES.find((t) => t.id === b.type?.id || t.name === b.type?.name);
      if (!type)
        return fail(404, `No issue link type with name '${String(b.type.name ?? b.type.id)}' found.`);
      const inward = data.issue(String(b.inwardIssue.key ?? b.inwardIssue.id ?? ''));
      const outward = data.issue(String(b.outwardIssue.key ?? b.outwardIssue.id ?? ''));
      if (!inward || !outward) return fail(404, ISSUE_NOT_FOUND);
      if (b.comment !== undefined && !(b.comment.body && typeof b.comment.body === 'object'))
        return fieldErrors({ comment: NOT_ADF });
      data.addLink(type.id, inward.id, outward.id);
      const now = ctx.now();
      if (b.comment?.body) {
        const body = readFields(
          ctx,
          { update: { comment: [{ add: { body: b.comment.body } }] } },
          outward,
          'edit',
        );
        if (Object.keys(body.errors).length > 0) return fieldErrors(body.errors);
        applyDraft(ctx, outward, body);
      }
      inward.updated = now;
      outward.updated = now;
      return { status: 201, body: undefined };
    }),
  ];
}
