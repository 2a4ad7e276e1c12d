// GitHub cases of the definition-driven suite, over the GitHub fake's seeded dataset (test/connectors/github/fake/index.ts):
// org ces-demo with repositories widgets (issues 1–25, #5 a pull request with reviews and review comments,
// branches main and release/1.x, tags v1.0.0, v1.1.0, v2.0.0-beta.1) and gizmos; users octocat and hubot.
import type { Cases } from '../suite/types.ts';

const widgets = { owner: 'ces-demo', repo: 'widgets' };
const nope = { owner: 'ces-demo', repo: 'nope' };
const notFound = 'UPSTREAM_NOT_FOUND' as const;

export const githubCases: Cases = {
  'repositories.get': { happy: widgets, error: { params: nope, code: notFound } },
  'repositories.download': {
    happy: { ...widgets, ref: 'main' },
    error: { params: { ...nope, ref: 'main' }, code: notFound },
  },
  'repositories.list': {
    happy: { owner: 'octocat', per_page: 1 },
    error: { params: { owner: 'no-such-user' }, code: notFound },
  },
  'repositories.api_search': {
    happy: { query: 'user:octocat', limit: 1 },
    // GitHub answers 422 Validation Failed for a search it refuses; the fake only refuses repo: qualifiers.
    error: {
      params: { query: 'user:octocat' },
      code: 'INVALID_PARAMS',
      fault: { status: 422, match: '/search/repositories' },
    },
  },
  'issues.list': {
    happy: { ...widgets, state: 'all', per_page: 10 },
    error: { params: nope, code: notFound },
  },
  'issues.get': {
    happy: { ...widgets, number: 1 },
    error: { params: { ...widgets, number: 999 }, code: notFound },
  },
  'issues.create': {
    happy: { ...widgets, title: 'Suite: gadget hums', body: 'Since 1.1', labels: ['bug'] },
    error: { params: { ...widgets, title: 'x', milestone: 99 }, code: 'INVALID_PARAMS' },
  },
  'issues.update': {
    happy: { ...widgets, issue_number: 3, title: 'Suite: renamed' },
    error: { params: { ...widgets, issue_number: 999, title: 'x' }, code: notFound },
  },
  'issues.api_search': {
    happy: { query: 'repo:ces-demo/widgets is:issue', per_page: 10 },
    error: { params: { query: 'repo:ces-demo/nope' }, code: 'INVALID_PARAMS' },
  },
  'pull_requests.list': {
    happy: { ...widgets, state: 'all', per_page: 2 },
    error: { params: nope, code: notFound },
  },
  'pull_requests.get': {
    happy: { ...widgets, number: 5 },
    error: { params: { ...widgets, number: 1 }, code: notFound },
  },
  'pull_requests.api_search': {
    happy: { query: 'repo:ces-demo/widgets is:pr', per_page: 2 },
    error: { params: { query: 'repo:ces-demo/nope is:pr' }, code: 'INVALID_PARAMS' },
  },
  'pull_requests.create': {
    happy: { ...widgets, title: 'Suite: backport', head: 'release/1.x', base: 'main' },
    error: { params: { ...widgets, title: 'x', head: 'nope', base: 'main' }, code: 'INVALID_PARAMS' },
  },
  'comments.list': {
    happy: { ...widgets, number: 1, per_page: 2 },
    error: { params: { ...widgets, number: 999 }, code: notFound },
  },
  'comments.get': {
    happy: { ...widgets, id: 900_000_001 },
    error: { params: { ...widgets, id: 1 }, code: notFound },
  },
  'comments.create': {
    happy: { ...widgets, issue_number: 2, body: 'Suite: seen it too.' },
    error: { params: { ...widgets, issue_number: 999, body: 'x' }, code: notFound },
  },
  'commits.list': {
    happy: { ...widgets, per_page: 20 },
    error: { params: nope, code: notFound },
  },
  'commits.get': {
    happy: { ...widgets, ref: 'v1.0.0' },
    error: { params: { ...widgets, ref: 'does-not-exist' }, code: 'INVALID_PARAMS' },
  },
  'releases.list': {
    happy: { ...widgets, per_page: 2 },
    error: { params: nope, code: notFound },
  },
  'releases.get': {
    happy: { ...widgets, release_id: 960_000_001 },
    error: { params: { ...widgets, release_id: 424242 }, code: notFound },
  },
  'labels.list': { happy: { ...widgets, per_page: 4 }, error: { params: nope, code: notFound } },
  'labels.get': {
    happy: { ...widgets, name: 'bug' },
    error: { params: { ...widgets, name: 'wontfix' }, code: notFound },
  },
  'users.get': {
    happy: { username: 'hubot' },
    error: { params: { username: 'no-such-user' }, code: notFound },
  },
  'users.list': {
    happy: { org: 'ces-demo', per_page: 1 },
    error: { params: { org: 'no-such-org' }, code: notFound },
  },
  'users.api_search': {
    happy: { query: 'type:user', limit: 1 },
    error: {
      params: { query: 'type:user' },
      code: 'INVALID_PARAMS',
      fault: { status: 422, match: '/search/users' },
    },
  },
  'branches.list': { happy: { ...widgets, per_page: 1 }, error: { params: nope, code: notFound } },
  'branches.get': {
    happy: { ...widgets, branch: 'release/1.x' },
    error: { params: { ...widgets, branch: 'nope' }, code: notFound },
  },
  'directory_content.list': {
    happy: { ...widgets, path: 'src' },
    error: { params: { ...widgets, path: 'nope' }, code: notFound },
  },
  'file_content.get': {
    happy: { ...widgets, path: 'src/widget.ts' },
    error: { params: { ...widgets, path: 'missing.txt' }, code: notFound },
  },
  'milestones.list': {
    happy: { ...widgets, state: 'all', per_page: 2 },
    error: { params: nope, code: notFound },
  },
  'milestones.get': {
    happy: { ...widgets, number: 2 },
    error: { params: { ...widgets, number: 99 }, code: notFound },
  },
  'org_repositories.list': {
    happy: { org: 'ces-demo', per_page: 1 },
    error: { params: { org: 'no-such-org' }, code: notFound },
  },
  'organizations.get': { happy: { org: 'ces-demo' }, error: { params: { org: 'octocat' }, code: notFound } },
  'organizations.list': {
    happy: { username: 'octocat' },
    error: { params: { username: 'no-such-user' }, code: notFound },
    single_page: 'octocat belongs to one organization, ces-demo',
  },
  'pr_comments.list': {
    happy: { ...widgets, number: 5, per_page: 2 },
    error: { params: { ...widgets, number: 1 }, code: notFound },
  },
  'pr_comments.get': {
    happy: { ...widgets, id: 995_000_001 },
    error: { params: { ...widgets, id: 1 }, code: notFound },
  },
  'reviews.list': {
    happy: { ...widgets, number: 5, per_page: 2 },
    error: { params: { ...widgets, number: 1 }, code: notFound },
  },
  'stargazers.list': { happy: { ...widgets, per_page: 1 }, error: { params: nope, code: notFound } },
  'tags.list': { happy: { ...widgets, per_page: 2 }, error: { params: nope, code: notFound } },
  'tags.get': {
    happy: { ...widgets, tag: 'v1.0.0' },
    error: { params: { ...widgets, tag: 'v9' }, code: notFound },
  },
  'teams.list': {
    happy: { org: 'ces-demo', per_page: 2 },
    error: { params: { org: 'no-such-org' }, code: notFound },
  },
  'teams.get': {
    happy: { org: 'ces-demo', team_slug: 'triage' },
    error: { params: { org: 'ces-demo', team_slug: 'nobody' }, code: notFound },
  },
  // GraphQL API v4 (test/connectors/github/fake/graphql.ts): discussions 1–7 of ces-demo/widgets (#2 and #7 answered,
  // #3 and #6 closed; "sprocket" in #2, #5 and #7), projects 1–3 of ces-demo (project 1 with 5 items), and
  // octocat's repositories Hello-World and Spoon-Knife. A GraphQL refusal is HTTP 200 with `errors`.
  'discussions.list': {
    happy: { ...widgets, per_page: 3 },
    error: { params: nope, code: notFound },
  },
  'discussions.get': {
    happy: { ...widgets, number: 2 },
    error: { params: { ...widgets, number: 999 }, code: notFound },
  },
  'discussions.api_search': {
    happy: { query: 'repo:ces-demo/widgets sprocket', per_page: 2 },
    // What GitHub answers a token not yet authorised for an organization that enforces SAML SSO.
    error: {
      params: { query: 'org:ces-demo sprocket' },
      code: 'UPSTREAM_FORBIDDEN',
      fault: {
        status: 200,
        match: '/graphql',
        body: {
          data: null,
          errors: [
            {
              type: 'FORBIDDEN',
              path: ['search'],
              message:
                'Resource protected by organization SAML enforcement. You must grant your Personal Access token access to this organization.',
            },
          ],
        },
      },
    },
  },
  'projects.list': {
    happy: { org: 'ces-demo', per_page: 2 },
    error: { params: { org: 'no-such-org' }, code: notFound },
  },
  'projects.get': {
    happy: { org: 'ces-demo', project_number: 1 },
    error: { params: { org: 'ces-demo', project_number: 99 }, code: notFound },
  },
  'project_items.list': {
    happy: { org: 'ces-demo', project_number: 1, per_page: 2 },
    error: { params: { org: 'ces-demo', project_number: 99 }, code: notFound },
  },
  // A token revoked after the connector was created.
  'viewer.get': {
    happy: {},
    error: { params: {}, code: 'UPSTREAM_AUTH_FAILED', fault: { status: 401, match: '/graphql' } },
  },
  'viewer_repositories.list': {
    happy: { per_page: 1 },
    // A fine-grained token without the metadata permission GitHub requires for repositories.
    error: {
      params: {},
      code: 'UPSTREAM_FORBIDDEN',
      fault: {
        status: 200,
        match: '/graphql',
        body: {
          data: null,
          errors: [
            {
              type: 'INSUFFICIENT_SCOPES',
              message:
                "Your token has not been granted the required scopes to execute this query. The 'repositories' field requires one of the following scopes: ['repo'], but your token has only been granted the: ['read:user'] scopes.",
            },
          ],
        },
      },
    },
  },
};
