// Issue comments and worklogs: offset-paged lists ({startAt, maxResults, total, comments|worklogs}) and their
// writes. Each route names the reference operation (operationId) it follows. Paths are below /rest/api/3.
import type { Route } from '../../kit/index.ts';
import { route } from '../../kit/route.ts';
import type { IssueRec } from './dataset.ts';
import { ISSUE_NOT_FOUND } from './routes-issues.ts';
import {
  expandOf,
  fail,
  fieldErrors,
  intParam,
  isAdf,
  noContent,
  objectBody,
  offsetWindow,
  ok,
  parseDuration,
  parseJiraTime,
  type Result,
} from './wire.ts';
import { type Ctx, NOT_ADF } from './writes.ts';

export function activityRoutes(ctx: Ctx): Route<unknown>[] {
  const { data, render } = ctx;
  const findIssue = (raw: string | undefined) => data.issue(raw ?? '');
  const commentOf = (issue: IssueRec, id: string | undefined) =>
    data.comments.find((c) => c.id === id && c.issueId === issue.id);
  const worklogOf = (issue: IssueRec, id: string | undefined) =>
    data.worklogs.find((w) => w.id === id && w.issueId === issue.id);
  const noComment = (id: string | undefined) => fail(404, `Can not find a comment for the id: ${id}.`);

  /** Validates a comment body (createComment/updateComment): an ADF `body` is required. */
  const commentBody = (b: Record<string, unknown>): Result | undefined => {
    if (b.body === undefined || b.body === null || b.body === '')
      return fieldErrors({ comment: 'Comment body can not be empty!' });
    if (!isAdf(b.body)) return fieldErrors({ comment: NOT_ADF });
    return undefined;
  };

  return [
    // getComments: GET /issue/{issueIdOrKey}/comment?startAt&maxResults(100)&orderBy&expand → PageOfComments
    route('GET', '/issue/{issueIdOrKey}/comment', 'getComments', (req) => {
      const issue = findIssue(req.params.issueIdOrKey);
      if (!issue) return fail(404, ISSUE_NOT_FOUND);
      const orderBy = req.query.get('orderBy');
      if (orderBy !== null && !['created', '-created', '+created'].includes(orderBy))
        return fail(400, `Invalid orderBy value '${orderBy}'. Comments can only be ordered by 'created'.`);
      const w = offsetWindow(req.query, { maxResults: 100, max: 5000 });
      if ('status' in w) return w;
      const all = data.comments
        .filter((c) => c.issueId === issue.id)
        .sort((a, b) => a.created - b.created || Number(a.id) - Number(b.id));
      if (orderBy === '-created') all.reverse();
      const expand = expandOf(req.query.get('expand'));
      return ok({
        startAt: w.startAt,
        maxResults: w.maxResults,
        total: all.length,
        comments: all.slice(w.startAt, w.startAt + w.maxResults).map((c) => render.comment(c, expand)),
      });
    }),
    // addComment: POST /issue/{issueIdOrKey}/comment {body: ADF, visibility?} → 201 Comment
    route('POST', '/issue/{issueIdOrKey}/comment', 'addComment', (req) => {
      const issue = findIssue(req.params.issueIdOrKey);
      if (!issue) return fail(404, ISSUE_NOT_FOUND);
      const parsed = objectBody(req);
      if ('error' in parsed) return parsed.error;
      const refused = commentBody(parsed.body);
      if (refused) return refused;
      const now = ctx.now();
      const me = ctx.me().accountId;
      const visibility = parsed.body.visibility as
        | { type: string; value: string; identifier: string }
        | undefined;
      const comment = data.addComment({
        issueId: issue.id,
        authorId: me,
        updateAuthorId: me,
        body: parsed.body.body as IssueRec['description'] & object,
        created: now,
        updated: now,
        ...(visibility
          ? { visibility: { ...visibility, identifier: visibility.identifier ?? visibility.value } }
          : {}),
      });
      issue.updated = now;
      return ok(render.comment(comment, expandOf(req.query.get('expand'))), 201);
    }),
    // getComment: GET /issue/{issueIdOrKey}/comment/{id}?expand
    route('GET', '/issue/{issueIdOrKey}/comment/{id}', 'getComment', (req) => {
      const issue = findIssue(req.params.issueIdOrKey);
      if (!issue) return fail(404, ISSUE_NOT_FOUND);
      const comment = commentOf(issue, req.params.id);
      return comment
        ? ok(render.comment(comment, expandOf(req.query.get('expand'))))
        : noComment(req.params.id);
    }),
    // updateComment: PUT /issue/{issueIdOrKey}/comment/{id}?notifyUsers&expand {body, visibility?} → 200 Comment
    route('PUT', '/issue/{issueIdOrKey}/comment/{id}', 'updateComment', (req) => {
      const issue = findIssue(req.params.issueIdOrKey);
      if (!issue) return fail(404, ISSUE_NOT_FOUND);
      const comment = commentOf(issue, req.params.id);
      if (!comment) return noComment(req.params.id);
      const parsed = objectBody(req);
      if ('error' in parsed) return parsed.error;
      const refused = commentBody(parsed.body);
      if (refused) return refused;
      const now = ctx.now();
      comment.body = parsed.body.body as typeof comment.body;
      comment.updateAuthorId = ctx.me().accountId;
      comment.updated = now;
      issue.updated = now;
      return ok(render.comment(comment, expandOf(req.query.get('expand'))));
    }),
    // deleteComment: DELETE /issue/{issueIdOrKey}/comment/{id} → 204
    route('DELETE', '/issue/{issueIdOrKey}/comment/{id}', 'deleteComment', (req) => {
      const issue = findIssue(req.params.issueIdOrKey);
      if (!issue) return fail(404, ISSUE_NOT_FOUND);
      const comment = commentOf(issue, req.params.id);
      if (!comment) return noComment(req.params.id);
      data.comments.splice(data.comments.indexOf(comment), 1);
      issue.updated = ctx.now();
      return noContent();
    }),

    // getIssueWorklog: GET /issue/{issueIdOrKey}/worklog?startAt&maxResults(5000)&startedAfter&startedBefore
    route('GET', '/issue/{issueIdOrKey}/worklog', 'getIssueWorklog', (req) => {
      const issue = findIssue(req.params.issueIdOrKey);
      if (!issue) return fail(404, ISSUE_NOT_FOUND);
      const w = offsetWindow(req.query, { maxResults: 5000, max: 5000 });
      if ('status' in w) return fail(404, ISSUE_NOT_FOUND);
      const after = intParam(req.query, 'startedAfter');
      const before = intParam(req.query, 'startedBefore');
      if (after === 'invalid' || before === 'invalid')
        return fail(400, 'startedAfter and startedBefore must be UNIX timestamps in milliseconds.');
      const all = data.worklogs
        .filter(
          (x) =>
            x.issueId === issue.id &&
            (after === undefined || x.started >= after) &&
            (before === undefined || x.started <= before),
        )
        .sort((a, b) => a.created - b.created || Number(a.id) - Number(b.id));
      const expand = expandOf(req.query.get('expand'));
      return ok({
        startAt: w.startAt,
        maxResults: w.maxResults,
        total: all.length,
        worklogs: all.slice(w.startAt, w.startAt + w.maxResults).map((x) => render.worklog(x, expand)),
      });
    }),
    // addWorklog: POST /issue/{issueIdOrKey}/worklog?adjustEstimate&newEstimate&reduceBy {timeSpent|timeSpentSeconds, started, comment?}
    route('POST', '/issue/{issueIdOrKey}/worklog', 'addWorklog', (req) => {
      const issue = findIssue(req.params.issueIdOrKey);
      if (!issue) return fail(404, ISSUE_NOT_FOUND);
      const parsed = objectBody(req);
      if ('error' in parsed) return parsed.error;
      const b = parsed.body;
      let seconds: number | undefined;
      if (b.timeSpentSeconds !== undefined)
        seconds =
          typeof b.timeSpentSeconds === 'number' && b.timeSpentSeconds > 0
            ? Math.floor(b.timeSpentSeconds)
            : undefined;
      else if (b.timeSpent !== undefined) seconds = parseDuration(b.timeSpent);
      else return fieldErrors({ timeLogged: 'You must indicate the time spent working.' });
      if (seconds === undefined || seconds <= 0)
        return fieldErrors({ timeLogged: 'Invalid time duration entered.' });
      const now = ctx.now();
      const started = b.started === undefined ? now : parseJiraTime(b.started);
      if (started === undefined)
        return fieldErrors({
          started: 'Invalid start date/time. Use the format yyyy-MM-ddTHH:mm:ss.SSSZ.',
        });
      if (b.comment !== undefined && b.comment !== null && !isAdf(b.comment))
        return fieldErrors({ comment: NOT_ADF });
      const adjust = req.query.get('adjustEstimate') ?? 'auto';
      if (!['auto', 'new', 'leave', 'manual'].includes(adjust))
        return fail(400, `Invalid value for adjustEstimate: '${adjust}'.`);
      if (adjust === 'new') {
        const n = parseDuration(req.query.get('newEstimate') ?? undefined);
        if (n === undefined) return fieldErrors({ newEstimate: 'You must supply a valid new estimate.' });
        issue.remainingEstimate = n;
      } else if (adjust === 'manual') {
        const r = parseDuration(req.query.get('reduceBy') ?? undefined);
        if (r === undefined)
          return fieldErrors({
            reduceBy: 'You must supply a valid amount of time to adjust the estimate by.',
          });
        issue.remainingEstimate = Math.max(0, (issue.remainingEstimate ?? 0) - r);
      } else if (adjust === 'auto' && issue.remainingEstimate !== null) {
        issue.remainingEstimate = Math.max(0, issue.remainingEstimate - seconds);
      }
      const me = ctx.me().accountId;
      const worklog = data.addWorklog({
        issueId: issue.id,
        authorId: me,
        updateAuthorId: me,
        comment: (b.comment as IssueRec['description']) ?? null,
        created: now,
        updated: now,
        started,
        timeSpentSeconds: seconds,
      });
      issue.updated = now;
      return ok(render.worklog(worklog, expandOf(req.query.get('expand'))), 201);
    }),
    // getWorklog: GET /issue/{issueIdOrKey}/worklog/{id}?expand
    route('GET', '/issue/{issueIdOrKey}/worklog/{id}', 'getWorklog', (req) => {
      const issue = findIssue(req.params.issueIdOrKey);
      if (!issue) return fail(404, ISSUE_NOT_FOUND);
      const worklog = worklogOf(issue, req.params.id);
      return worklog
        ? ok(render.worklog(worklog, expandOf(req.query.get('expand'))))
        : fail(404, `Cannot find worklog with id: ${req.params.id}.`);
    }),
  ];
}
