// Linear cases of the definition-driven suite, over the Linear fake's seeded workspace
// (test/connectors/linear/fake/dataset.ts): 3 teams (ENG, DES, OPS) with 6 workflow states each, 30 active users
// plus the app user, 14 projects, 90 issues and 0-3 comments on each. Ids are deterministic UUIDs, read from the
// dataset. Lists page with a small `first`. Linear answers a missing id with 400 "Entity not found" (→
// UPSTREAM_NOT_FOUND through errors.rules), a refused input or filter value with 400 INPUT_ERROR (→
// INVALID_PARAMS), and a spent budget with 400 RATELIMITED (→ UPSTREAM_RATE_LIMITED, injected).
import type { Cases, Fault } from '../suite/types.ts';
import type { Dataset } from './fake/dataset.ts';

const notFound = 'UPSTREAM_NOT_FOUND' as const;
const invalid = 'INVALID_PARAMS' as const;
/** A UUID no seeded record has. */
const MISSING = '00000000-0000-4000-8000-000000000000';
/** Linear's filter refuses a date it can't read ("Argument Validation Error", INPUT_ERROR). */
const badSince = { updatedSince: 'last tuesday' };

/** Linear's RATELIMITED answer, its requests budget full again in an hour (longer than ces waits itself). */
function rateLimited(): { params: Record<string, never>; code: 'UPSTREAM_RATE_LIMITED'; fault: Fault } {
  return {
    params: {},
    code: 'UPSTREAM_RATE_LIMITED',
    fault: {
      status: 400,
      match: '/graphql',
      headers: {
        'X-RateLimit-Requests-Limit': '1500',
        'X-RateLimit-Requests-Remaining': '0',
        'X-RateLimit-Requests-Reset': String(Date.now() + 3_600_000),
      },
      body: {
        errors: [
          {
            message: 'Rate limit exceeded',
            extensions: { type: 'ratelimited', code: 'RATELIMITED', statusCode: 429, userError: true },
          },
        ],
      },
    },
  };
}

export function linearCases(data: Dataset): Cases {
  const team = data.teams[1];
  const issue = data.issues[6];
  const comment = data.comments[3];
  const project = data.projects[2];
  const user = data.users[4];
  if (!team || !issue || !comment || !project || !user)
    throw new Error('the Linear fake seeded too few records');
  const identifier = data.identifier(issue);
  return {
    'issues.list': { happy: { first: 25 }, error: { params: badSince, code: invalid } },
    'issues.get': {
      happy: { id: identifier, 'x-apollo-operation-name': 'SuiteIssue' },
      error: { params: { id: 'ENG-9999' }, code: notFound },
    },
    'issues.create': {
      happy: { input: { teamId: team.id, title: 'Suite: flaky login test', priority: 2 } },
      // Linear refuses an empty title.
      error: { params: { input: { teamId: team.id, title: ' ' } }, code: invalid },
    },
    'issues.update': {
      happy: { id: issue.id, input: { priority: 1 } },
      error: { params: { id: MISSING, input: { priority: 1 } }, code: notFound },
    },
    'comments.list': { happy: { first: 50 }, error: { params: badSince, code: invalid } },
    'comments.get': {
      happy: { id: comment.id },
      error: { params: { id: MISSING }, code: notFound },
    },
    'comments.create': {
      happy: { input: { issueId: issue.id, body: 'Suite: seen on staging too.' } },
      error: { params: { input: { issueId: MISSING, body: 'Nobody reads this.' } }, code: notFound },
    },
    'comments.update': {
      happy: { id: comment.id, input: { body: 'Suite: edited.' } },
      error: { params: { id: MISSING, input: { body: 'x' } }, code: notFound },
    },
    'projects.list': { happy: { first: 5 }, error: { params: badSince, code: invalid } },
    'projects.get': {
      happy: { id: project.slugId },
      error: { params: { id: MISSING }, code: notFound },
    },
    'projects.create': {
      happy: { input: { name: 'Suite project', teamIds: [team.id] } },
      // A project belongs to at least one team.
      error: { params: { input: { name: 'Orphan', teamIds: [] } }, code: invalid },
    },
    'projects.update': {
      happy: { id: project.id, input: { targetDate: '2025-12-31' } },
      error: { params: { id: MISSING, input: { name: 'x' } }, code: notFound },
    },
    'teams.list': { happy: { first: 2 }, error: rateLimited() },
    'teams.get': { happy: { id: team.id }, error: { params: { id: MISSING }, code: notFound } },
    'users.list': { happy: { first: 10 }, error: { params: badSince, code: invalid } },
    'users.get': { happy: { id: user.id }, error: { params: { id: MISSING }, code: notFound } },
    'workflow_states.list': { happy: { first: 10, orderBy: 'updatedAt' }, error: rateLimited() },
  };
}
