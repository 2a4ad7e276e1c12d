// An issue's field values and the IssueBean around them (getIssue, editIssue with returnIssue, the JQL search).
// Field values follow what a Cloud site returns: `comment` as a comments page ({comments, self, maxResults,
// total, startAt}) and `worklog` as a worklogs page ({startAt, maxResults, total, worklogs}); the reference's
// examples abbreviate both to bare arrays.
import { type IssueRec, type ProjectRec, RESOLUTION_DONE } from './dataset.ts';
import type { FieldDef } from './fields.ts';
import { ISSUE_EXPAND, type Renderer } from './render.ts';
import { adfText, formatDuration, jiraTime, renderHtml } from './wire.ts';

/** Every field value of an issue, keyed by field id (the `*all` set). */
export function fieldValues(r: Renderer, i: IssueRec): Record<string, unknown> {
  const project = r.data.project(i.projectId) as ProjectRec;
  const comments = r.data.comments.filter((c) => c.issueId === i.id);
  const worklogs = r.data.worklogs.filter((w) => w.issueId === i.id);
  const spent = worklogs.reduce((sum, w) => sum + w.timeSpentSeconds, 0);
  const parent = i.parentId ? r.data.issue(i.parentId) : undefined;
  const subtasks = r.data.issues.filter((s) => s.parentId === i.id);
  const progressTotal = Math.max(spent + (i.remainingEstimate ?? 0), 0);
  const progress = {
    progress: spent,
    total: progressTotal,
    ...(progressTotal > 0 ? { percent: Math.round((spent / progressTotal) * 100) } : {}),
  };
  const values: Record<string, unknown> = {
    statuscategorychangedate: jiraTime(i.statusCategoryChanged),
    ...(parent ? { parent: r.issueRef(parent) } : {}),
    fixVersions: [],
    resolution: i.resolutionId
      ? { self: `${r.base}/resolution/${RESOLUTION_DONE.id}`, ...RESOLUTION_DONE }
      : null,
    lastViewed: null,
    priority: r.priority(i.priorityId),
    labels: i.labels,
    timeestimate: i.remainingEstimate,
    aggregatetimeoriginalestimate: i.originalEstimate,
    versions: [],
    issuelinks: r.issueLinks(i),
    assignee: r.userRef(i.assigneeId),
    status: r.status(i.statusId),
    components: [],
    aggregatetimeestimate: i.remainingEstimate,
    creator: r.userRef(i.creatorId),
    subtasks: subtasks.map((s) => r.issueRef(s)),
    reporter: r.userRef(i.reporterId),
    aggregateprogress: progress,
    progress,
    votes: { self: `${r.base}/issue/${i.key}/votes`, votes: i.votes, hasVoted: false },
    worklog: {
      startAt: 0,
      maxResults: 20,
      total: worklogs.length,
      worklogs: worklogs.slice(0, 20).map((w) => r.worklog(w)),
    },
    issuetype: r.issueType(i.issueTypeId),
    timespent: spent > 0 ? spent : null,
    project: r.projectRef(project),
    aggregatetimespent: spent > 0 ? spent : null,
    timetracking: timetracking(i, spent),
    attachment: r.data.attachments.filter((a) => a.issueId === i.id).map((a) => r.attachment(a)),
    resolutiondate: i.resolutionDate === null ? null : jiraTime(i.resolutionDate),
    workratio: i.originalEstimate ? Math.round((spent / i.originalEstimate) * 100) : -1,
    issuerestriction: { issuerestrictions: {}, shouldDisplay: false },
    watches: { self: `${r.base}/issue/${i.key}/watchers`, watchCount: i.watchCount, isWatching: false },
    created: jiraTime(i.created),
    updated: jiraTime(i.updated),
    timeoriginalestimate: i.originalEstimate,
    description: i.description,
    security: null,
    summary: i.summary,
    comment: {
      comments: comments.map((c) => r.comment(c)),
      self: `${r.base}/issue/${i.id}/comment`,
      maxResults: comments.length,
      total: comments.length,
      startAt: 0,
    },
    environment: i.environment,
    duedate: i.duedate,
  };
  for (const f of r.data.fields) if (f.custom) values[f.id] = i.custom[f.id] ?? null;
  return values;
}

function timetracking(i: IssueRec, spent: number): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (i.originalEstimate !== null) {
    out.originalEstimate = formatDuration(i.originalEstimate);
    out.originalEstimateSeconds = i.originalEstimate;
  }
  if (i.remainingEstimate !== null) {
    out.remainingEstimate = formatDuration(i.remainingEstimate);
    out.remainingEstimateSeconds = i.remainingEstimate;
  }
  if (spent > 0) {
    out.timeSpent = formatDuration(spent);
    out.timeSpentSeconds = spent;
  }
  return out;
}

/**
 * An IssueBean. `fields` is the request's field list (`*all`, `*navigable`, ids, `-id` exclusions) or the
 * route's default; `id` alone (the search default) answers only the issue id.
 */
export function issueBean(
  r: Renderer,
  i: IssueRec,
  fieldList: string[],
  fallback: FieldSet,
  expand: Set<string>,
): Record<string, unknown> {
  const chosen = selectFields(r.data.fields, fieldList, fallback);
  if (chosen === 'id-only') return { id: i.id };
  const all = fieldValues(r, i);
  const fields: Record<string, unknown> = {};
  for (const f of chosen) if (f.id in all) fields[f.id] = all[f.id];
  const out: Record<string, unknown> = {
    expand: ISSUE_EXPAND,
    id: i.id,
    self: `${r.base}/issue/${i.id}`,
    key: i.key,
  };
  if (expand.has('renderedFields')) {
    out.renderedFields = Object.fromEntries(
      chosen.map((f) => {
        const v = all[f.id];
        if (f.id === 'description' || f.id === 'environment') return [f.id, v ? renderHtml(v) : null];
        if (typeof v === 'string' && f.schema?.type === 'datetime') return [f.id, v];
        return [f.id, typeof v === 'object' && v !== null && 'type' in v ? adfText(v) : null];
      }),
    );
  }
  if (expand.has('names')) out.names = Object.fromEntries(chosen.map((f) => [f.id, f.name]));
  if (expand.has('schema'))
    out.schema = Object.fromEntries(chosen.filter((f) => f.schema).map((f) => [f.id, f.schema]));
  if (expand.has('transitions')) out.transitions = r.transitions(i);
  if (expand.has('changelog')) out.changelog = { startAt: 0, maxResults: 0, total: 0, histories: [] };
  out.fields = fields;
  return out;
}

export type FieldSet = '*all' | '*navigable' | 'id';

/**
 * Resolves a `fields` list against the catalog: `*all`, `*navigable`, field ids (or names), `-id` exclusions.
 * An empty list means the route's default (`fallback`); exclusions alone apply to that default (navigable
 * fields where the default is `id`). 'id-only' when the list names nothing but `id`.
 */
export function selectFields(
  catalog: FieldDef[],
  list: string[],
  fallback: FieldSet,
): FieldDef[] | 'id-only' {
  const onIssue = catalog.filter((f) => f.onIssue);
  const include = list.filter((x) => !x.startsWith('-'));
  const exclude = new Set(list.filter((x) => x.startsWith('-')).map((x) => x.slice(1)));
  const pick = (token: string): FieldDef[] => {
    if (token === '*all') return onIssue;
    if (token === '*navigable') return onIssue.filter((f) => f.navigable);
    const f = onIssue.find((x) => x.id === token || x.name.toLowerCase() === token.toLowerCase());
    return f ? [f] : [];
  };
  let base: FieldDef[];
  if (include.length === 0) {
    if (exclude.size === 0 && fallback === 'id') return 'id-only';
    base = pick(fallback === 'id' ? '*navigable' : fallback);
  } else if (include.every((x) => x === 'id')) {
    return 'id-only';
  } else {
    base = include.flatMap(pick);
  }
  const seen = new Set<string>();
  return base.filter((f) => !exclude.has(f.id) && !seen.has(f.id) && seen.add(f.id));
}
