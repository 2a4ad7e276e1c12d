// Applying an IssueUpdateDetails body (`fields` and `update`) to an issue, for createIssue, editIssue and
// doTransition, with the per-field refusals Jira answers as `{errorMessages: [], errors: {field: message}}`.

import type { CursorCodec } from '../../kit/paging.ts';
import {
  type AttachmentRec,
  type Dataset,
  ISSUE_TYPES,
  type IssueRec,
  PRIORITIES,
  type ProjectRec,
  RESOLUTION_DONE,
  STATUSES,
  type UserRec,
} from './dataset.ts';
import type { Renderer } from './render.ts';
import { isAdf, parseDuration } from './wire.ts';

/** What every route works with. */
export interface Ctx {
  data: Dataset;
  render: Renderer;
  /** nextPageToken of the enhanced search, signed and bound to its JQL */
  tokens: CursorCodec;
  /** the clock for writes (seeded records never use it) */
  now(): number;
  /** the credential's owner */
  me(): UserRec;
  /** the signed media URL an attachment's content redirects to */
  mediaUrl(a: AttachmentRec): string;
}

export const NOT_ADF = 'Operation value must be an Atlassian Document (see the Atlassian Document Format)';
const cannotSet = (id: string) =>
  `Field '${id}' cannot be set. It is not on the appropriate screen, or unknown.`;

const SETTABLE = new Set([
  'project',
  'issuetype',
  'summary',
  'description',
  'environment',
  'assignee',
  'reporter',
  'priority',
  'labels',
  'duedate',
  'parent',
  'timetracking',
  'components',
  'fixVersions',
  'versions',
  'resolution',
]);

const ref = (v: unknown): Record<string, unknown> | undefined =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;

function userField(data: Dataset, v: unknown): string | null | undefined | 'invalid' {
  if (v === null) return null;
  const r = ref(v);
  const id = r?.accountId ?? r?.id;
  if (typeof id !== 'string') return 'invalid';
  return data.user(id)?.accountId ?? 'invalid';
}

export interface Draft {
  project?: ProjectRec;
  issue: Partial<IssueRec>;
  errors: Record<string, string>;
  /** comments to add (update.comment[].add.body) */
  comments: unknown[];
}

/**
 * Validates `fields` and `update` into a draft of changes. `creating` allows project/issuetype and requires
 * the fields a create needs.
 */
export function readFields(
  ctx: Ctx,
  body: Record<string, unknown>,
  current: IssueRec | undefined,
  mode: 'create' | 'edit' | 'transition',
): Draft {
  const { data } = ctx;
  const draft: Draft = { issue: {}, errors: {}, comments: [] };
  const fields = ref(body.fields) ?? {};
  const err = (k: string, m: string) => {
    draft.errors[k] ??= m;
  };
  for (const [key, v] of Object.entries(fields)) {
    const custom = data.fields.find((f) => f.custom && f.id === key);
    if (custom) {
      if (v !== null && custom.schema?.type === 'number' && typeof v !== 'number')
        err(key, 'Operation value must be a number');
      else if (
        v !== null &&
        custom.schema?.type === 'string' &&
        custom.schema.custom === 'com.atlassian.jira.plugin.system.customfieldtypes:textarea' &&
        !isAdf(v)
      )
        err(key, NOT_ADF);
      else draft.issue.custom = { ...(draft.issue.custom ?? current?.custom ?? {}), [key]: v };
      continue;
    }
    if (!SETTABLE.has(key) || (mode !== 'create' && key === 'project')) {
      err(key, cannotSet(key));
      continue;
    }
    switch (key) {
      case 'project': {
        const r = ref(v);
        const p = r ? data.project(String(r.id ?? r.key ?? '')) : undefined;
        if (!p) err('project', 'Specify a valid project ID or key');
        else draft.project = p;
        break;
      }
      case 'issuetype': {
        const r = ref(v);
        const t = ISSUE_TYPES.find((x) => x.id === r?.id || x.name === r?.name);
        if (!t) err('issuetype', 'The issue type selected is invalid.');
        else draft.issue.issueTypeId = t.id;
        break;
      }
      case 'summary':
        if (typeof v !== 'string' || v.trim() === '')
          err('summary', 'You must specify a summary of the issue.');
        else if (v.length > 255) err('summary', 'Summary must be less than 255 characters.');
        else draft.issue.summary = v;
        break;
      case 'description':
      case 'environment':
        if (v !== null && !isAdf(v)) err(key, NOT_ADF);
        else draft.issue[key] = v;
        break;
      case 'assignee':
      case 'reporter': {
        const id = userField(data, v);
        if (id === 'invalid' || id === undefined)
          err(key, 'Specified user does not exist or you do not have required permissions');
        else if (key === 'assignee') draft.issue.assigneeId = id;
        else if (id === null) err('reporter', 'Reporter is required.');
        else draft.issue.reporterId = id;
        break;
      }
      case 'priority': {
        const r = ref(v);
        const p = PRIORITIES.find((x) => x.id === r?.id || x.name === r?.name);
        if (!p) err('priority', `Specify the Priority (id or name) in the string format`);
        else draft.issue.priorityId = p.id;
        break;
      }
      case 'labels':
        if (!Array.isArray(v) || v.some((l) => typeof l !== 'string'))
          err('labels', 'Operation value must be a string');
        else {
          const bad = (v as string[]).find((l) => /\s/.test(l));
          if (bad !== undefined) err('labels', `The label '${bad}' contains spaces which is invalid.`);
          else draft.issue.labels = [...new Set(v as string[])];
        }
        break;
      case 'duedate':
        if (v !== null && (typeof v !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(v)))
          err('duedate', `Error parsing date string: ${String(v)}`);
        else draft.issue.duedate = v as string | null;
        break;
      case 'parent': {
        const r = ref(v);
        const p = r ? data.issue(String(r.key ?? r.id ?? '')) : undefined;
        if (!p) err('parent', 'Could not find issue by id or key.');
        else draft.issue.parentId = p.id;
        break;
      }
      case 'timetracking': {
        const r = ref(v) ?? {};
        for (const [k, target] of [
          ['originalEstimate', 'originalEstimate'],
          ['remainingEstimate', 'remainingEstimate'],
        ] as const) {
          if (r[k] === undefined) continue;
          const s = parseDuration(r[k]);
          if (s === undefined)
            err('timetracking', 'Please specify the time in a valid format (e.g. 3w 4d 12h).');
          else draft.issue[target] = s;
        }
        if (
          r.originalEstimate !== undefined &&
          r.remainingEstimate === undefined &&
          draft.issue.originalEstimate !== undefined
        )
          draft.issue.remainingEstimate = draft.issue.originalEstimate;
        break;
      }
      case 'resolution': {
        const r = ref(v);
        if (v !== null && r?.name !== RESOLUTION_DONE.name && r?.id !== RESOLUTION_DONE.id)
          err('resolution', 'Resolution is invalid.');
        else draft.issue.resolutionId = v === null ? null : RESOLUTION_DONE.id;
        break;
      }
      default:
        // components, fixVersions, versions: the seeded projects have none, so only an empty list is valid.
        if (!Array.isArray(v) || v.length > 0) err(key, `Field '${key}' has invalid values.`);
    }
  }
  readUpdate(ctx, ref(body.update) ?? {}, current, draft, mode);
  if (mode === 'create') {
    if (!draft.project) err('project', 'Specify a valid project ID or key');
    if (!draft.issue.issueTypeId) err('issuetype', 'Specify an issue type');
    if (!draft.issue.summary) err('summary', 'You must specify a summary of the issue.');
    const type = ISSUE_TYPES.find((t) => t.id === draft.issue.issueTypeId);
    if (type?.subtask && !draft.issue.parentId)
      err('parent', 'Given parent work item does not belong to appropriate hierarchy.');
  }
  return draft;
}

function readUpdate(
  ctx: Ctx,
  update: Record<string, unknown>,
  current: IssueRec | undefined,
  draft: Draft,
  mode: string,
): void {
  for (const [key, opsRaw] of Object.entries(update)) {
    const ops = Array.isArray(opsRaw) ? (opsRaw as Array<Record<string, unknown>>) : [];
    if (key === 'labels') {
      let labels = [...(draft.issue.labels ?? current?.labels ?? [])];
      for (const op of ops) {
        if (Array.isArray(op.set)) labels = (op.set as unknown[]).map(String);
        if (typeof op.add === 'string' && !labels.includes(op.add)) labels.push(op.add);
        if (typeof op.remove === 'string') labels = labels.filter((l) => l !== op.remove);
      }
      draft.issue.labels = labels;
    } else if (key === 'summary' || key === 'description') {
      for (const op of ops) {
        if (!('set' in op)) continue;
        const nested = readFields(
          ctx,
          { fields: { [key]: op.set } },
          current,
          mode === 'create' ? 'create' : 'edit',
        );
        Object.assign(
          draft.errors,
          Object.fromEntries(Object.entries(nested.errors).filter(([k]) => k === key)),
        );
        if (key in nested.issue) Object.assign(draft.issue, { [key]: nested.issue[key] });
      }
    } else if (key === 'comment') {
      for (const op of ops) {
        const add = ref(op.add);
        if (!add) continue;
        if (!isAdf(add.body)) draft.errors.comment ??= NOT_ADF;
        else draft.comments.push(add.body);
      }
    } else {
      draft.errors[key] ??= cannotSet(key);
    }
  }
}

/** Applies a validated draft; returns nothing, the record is changed in place. */
export function applyDraft(ctx: Ctx, issue: IssueRec, draft: Draft): void {
  const now = ctx.now();
  const { custom, ...rest } = draft.issue;
  Object.assign(issue, rest);
  if (custom) issue.custom = { ...issue.custom, ...custom };
  for (const body of draft.comments) {
    ctx.data.addComment({
      issueId: issue.id,
      authorId: ctx.me().accountId,
      updateAuthorId: ctx.me().accountId,
      body: body as IssueRec['description'] & object,
      created: now,
      updated: now,
    });
  }
  issue.updated = now;
}

/** Moves an issue to a status, keeping the resolution and category-change stamp consistent. */
export function moveTo(issue: IssueRec, statusId: string, now: number): void {
  const from = STATUSES.find((s) => s.id === issue.statusId);
  const to = STATUSES.find((s) => s.id === statusId);
  if (!to) return;
  issue.statusId = to.id;
  if (from?.category !== to.category) issue.statusCategoryChanged = now;
  if (to.category === 3) {
    issue.resolutionId ??= RESOLUTION_DONE.id;
    issue.resolutionDate ??= now;
  } else {
    issue.resolutionId = null;
    issue.resolutionDate = null;
  }
  issue.updated = now;
}
