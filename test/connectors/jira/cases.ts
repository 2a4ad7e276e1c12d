// Jira cases of the definition-driven suite, over the Jira fake's seeded dataset (test/connectors/jira/fake/
// dataset.ts): projects ENG and OPS, 64 issues (ENG-1 has 12 comments, 7 worklogs and sub-tasks; every 5th
// issue has an attachment), 36 users and 84 custom fields. Lists page with small maxResults; lists without ids
// to miss get a 403 from Jira injected. Cases run in the definition's order against one fake, so writes use
// issues no other case reads. Jira answers five writes with no content (issues.delete, issue_comments.delete,
// issue_transitions.create, issues_assignee.update: 204; issue_links.create: 201), which ces answers as
// `result: null`: their cases say which answer in `no_content`, so the suite expects exactly that.
import type { Cases, Fault } from '../suite/types.ts';
import type { Dataset } from './fake/dataset.ts';

const notFound = 'UPSTREAM_NOT_FOUND' as const;
const invalid = 'INVALID_PARAMS' as const;
const forbidden = (path: string, params: Record<string, unknown> = {}) => ({
  params,
  code: 'UPSTREAM_FORBIDDEN' as const,
  fault: { status: 403, match: `/rest/api/3${path}` } satisfies Fault,
});
const doc = (text: string) => ({
  type: 'doc',
  version: 1,
  content: [{ type: 'paragraph', content: [{ type: 'text', text }] }],
});

export function jiraCases(data: Dataset): Cases {
  const key = (i: number) => {
    const issue = data.issues[i];
    if (!issue) throw new Error(`the Jira fake seeded no issue #${i}`);
    return issue.key;
  };
  const eng1 = data.issues[0];
  const attachment = data.attachments[0];
  const someone = data.users.find((u, i) => i > 0 && u.active && u.accountType === 'atlassian');
  if (!eng1 || !attachment || !someone) throw new Error('the Jira fake seeded too little');
  const comments = data.comments.filter((c) => c.issueId === eng1.id);
  const worklog = data.worklogs.find((w) => w.issueId === eng1.id);
  const [firstComment, secondComment, thirdComment] = comments;
  if (!firstComment || !secondComment || !thirdComment || !worklog)
    throw new Error('the Jira fake seeded no comments or worklogs on ENG-1');
  // An issue in To Do or In Progress: the Done transition (31) moves it.
  const movable = data.issues.find((i, n) => n > 3 && i.statusId !== '10001' && i.parentId === null);
  // Issues with neither comments, worklogs, attachments nor links (#58, #59): free to edit and delete.
  const spare = key(58);
  const assignable = key(59);
  if (!movable) throw new Error('the Jira fake seeded no movable issue');
  const missingIssue = 'NOPE-9';

  return {
    'issues.list': {
      happy: { maxResults: 20 },
      // The pattern takes it (a JQL date's shape); Jira refuses the date itself.
      error: { params: { updated_since: '2024-13-45' }, code: invalid },
    },
    'issues.api_search': {
      happy: { jql: 'project = OPS ORDER BY key ASC', maxResults: 8, fields: ['summary', 'status'] },
      // The enhanced search refuses a query without a restriction.
      error: { params: { jql: 'order by key desc' }, code: invalid },
    },
    'issues.get': {
      happy: { issueIdOrKey: eng1.key, fields: ['summary', 'status', 'attachment'] },
      error: { params: { issueIdOrKey: missingIssue }, code: notFound },
    },
    'issues.create': {
      happy: {
        fields: {
          project: { key: 'OPS' },
          issuetype: { name: 'Task' },
          summary: 'Suite: printer on fire',
          description: doc('Smoke from tray 2.'),
        },
        properties: [{ key: 'suite', value: { run: 1 } }],
      },
      // Jira refuses an issue without a summary.
      error: { params: { fields: { project: { key: 'ENG' }, issuetype: { name: 'Task' } } }, code: invalid },
    },
    'issues.update': {
      happy: { issueIdOrKey: spare, returnIssue: true, fields: { summary: 'Suite: renamed' } },
      error: { params: { issueIdOrKey: missingIssue, fields: { summary: 'x' } }, code: notFound },
    },
    'issues.delete': {
      happy: { issueIdOrKey: spare },
      no_content: '204 without a body',
      // ENG-1 has sub-tasks: Jira refuses to delete it without deleteSubtasks.
      error: { params: { issueIdOrKey: eng1.key }, code: invalid },
    },
    'issue_comments.list': {
      happy: { issueIdOrKey: eng1.key, maxResults: 5 },
      error: { params: { issueIdOrKey: missingIssue }, code: notFound },
    },
    'issue_comments.get': {
      happy: { issueIdOrKey: eng1.key, commentId: firstComment.id, expand: 'renderedBody' },
      error: { params: { issueIdOrKey: eng1.key, commentId: 999999 }, code: notFound },
    },
    'issue_comments.create': {
      happy: {
        issueIdOrKey: eng1.key,
        body: doc('Suite: looking into it.'),
        properties: [{ key: 'suite', value: true }],
      },
      // A comment body must be an Atlassian Document Format document.
      error: { params: { issueIdOrKey: eng1.key, body: { text: 'plain' } }, code: invalid },
    },
    'issue_comments.update': {
      happy: { issueIdOrKey: eng1.key, commentId: secondComment.id, body: doc('Suite: edited.') },
      error: {
        params: { issueIdOrKey: eng1.key, commentId: 999999, body: doc('x') },
        code: notFound,
      },
    },
    'issue_comments.delete': {
      happy: { issueIdOrKey: eng1.key, commentId: thirdComment.id },
      no_content: '204 without a body',
      error: { params: { issueIdOrKey: eng1.key, commentId: 999999 }, code: notFound },
    },
    'issue_worklogs.list': {
      happy: { issueIdOrKey: eng1.key, maxResults: 3 },
      error: { params: { issueIdOrKey: missingIssue }, code: notFound },
    },
    'issue_worklogs.get': {
      happy: { issueIdOrKey: eng1.key, worklogId: worklog.id },
      error: { params: { issueIdOrKey: eng1.key, worklogId: 999999 }, code: notFound },
    },
    'issue_worklogs.create': {
      happy: {
        issueIdOrKey: eng1.key,
        timeSpent: '1h 30m',
        started: '2025-01-09T10:00:00.000+0000',
        comment: doc('Suite: pairing.'),
        adjustEstimate: 'leave',
      },
      error: { params: { issueIdOrKey: eng1.key, timeSpent: 'a while' }, code: invalid },
    },
    'issue_transitions.list': {
      happy: { issueIdOrKey: movable.key },
      error: { params: { issueIdOrKey: missingIssue }, code: notFound },
    },
    'issue_transitions.create': {
      happy: { issueIdOrKey: movable.key, transition: { id: '31' } },
      no_content: '204 without a body',
      error: { params: { issueIdOrKey: movable.key, transition: { id: '999' } }, code: invalid },
    },
    'issue_links.create': {
      happy: { type: { name: 'Relates' }, inwardIssue: { key: key(10) }, outwardIssue: { key: key(11) } },
      no_content: '201 without a body',
      error: {
        params: { type: { name: 'Nope' }, inwardIssue: { key: key(10) }, outwardIssue: { key: key(11) } },
        code: notFound,
      },
    },
    'issues_assignee.update': {
      happy: { issueIdOrKey: assignable, accountId: someone.accountId },
      no_content: '204 without a body',
      error: { params: { issueIdOrKey: assignable, accountId: 'nobody' }, code: invalid },
    },
    'issue_attachments.get': {
      happy: { id: attachment.id },
      error: { params: { id: 999999 }, code: notFound },
    },
    'issue_attachments.download': {
      happy: { id: attachment.id },
      error: { params: { id: 999999 }, code: notFound },
    },
    'issue_fields.list': { happy: {}, error: forbidden('/field') },
    'issue_fields.api_search': {
      happy: { type: ['custom'], maxResults: 30, expand: 'key,lastUsed' },
      // Only custom fields can be looked up by id.
      error: { params: { id: ['summary'] }, code: invalid },
    },
    'projects.list': { happy: { maxResults: 1 }, error: forbidden('/project/search') },
    'projects.api_search': {
      happy: { maxResults: 1, orderBy: 'name', expand: 'description,lead' },
      error: forbidden('/project/search', { query: 'eng' }),
    },
    'projects.get': {
      happy: { projectIdOrKey: 'ENG' },
      error: { params: { projectIdOrKey: 'ZZZ' }, code: notFound },
    },
    'users.list': { happy: { maxResults: 20 }, error: forbidden('/users/search') },
    'users.api_search': {
      happy: { query: 'e', maxResults: 2 },
      // Jira needs one of query, accountId or property.
      error: { params: {}, code: invalid },
    },
    'users.get': {
      happy: { accountId: someone.accountId, expand: 'groups' },
      error: { params: { accountId: 'nobody' }, code: notFound },
    },
  };
}
