// POST /graphql: Linear's GraphQL API executed by graphql-js against Linear's own published SDL, without its
// descriptions (test/reference/providers/linear.graphql, from `npm run reference:facts`; built once per process),
// so a query naming a field, argument or input member Linear does not have fails here as it would on Linear.
// Only the fields below are resolved from the dataset; any other member resolves to null, or to an empty value
// of its type when the schema makes it non-null (0, false, "", [], {} or an empty connection), so a query
// selecting it still executes.
//
// Root resolvers (Query / Mutation field → SDL return type):
//   viewer → User!                        organization → Organization!
//   issues(filter, orderBy, first, after, last, before, includeArchived) → IssueConnection!
//   issue(id: id or identifier) → Issue!  comments(…) → CommentConnection!     comment(id) → Comment!
//   projects(…) → ProjectConnection!      project(id: id or slugId) → Project!
//   teams(…) → TeamConnection!            team(id) → Team!
//   users(…, includeDisabled) → UserConnection!                                user(id) → User!
//   workflowStates(…) → WorkflowStateConnection!                               workflowState(id) → WorkflowState!
//   issueCreate(input) / issueUpdate(id, input) → IssuePayload! {success, lastSyncId, issue}
//   commentCreate(input) / commentUpdate(id, input, skipEditedAt) → CommentPayload! {success, lastSyncId, comment}
//   projectCreate(input) / projectUpdate(id, input) → ProjectPayload! {success, lastSyncId, project}
// Nested: Issue.team/state/assignee/creator/project/parent/children/comments, Comment.issue/user/parent/children,
// Project.status/lead/creator/teams/members/issues, Team.states/members/issues/projects/defaultIssueState,
// User.teams/assignedIssues/createdIssues, WorkflowState.team/issues, Organization.teams/users/projectStatuses.
//
// Answers (status, body):
//   - a request a browser could send cross-site without a preflight (no content-type, or a form/text one)
//     that names no `x-apollo-operation-name` / `apollo-require-preflight` header → 400 BAD_REQUEST (CSRF guard);
//   - a body that is not JSON or has no `query` → 400 BAD_REQUEST;
//   - a syntax error → 400 GRAPHQL_PARSE_FAILED; a query the schema refuses → 400 GRAPHQL_VALIDATION_FAILED
//     (graphql-js's messages and locations); variables of the wrong type → 400 BAD_USER_INPUT;
//   - complexity above 10,000 (complexity.ts) → 400 INPUT_ERROR;
//   - a missing entity → 400 {errors: [{message: "Entity not found: Issue", path, extensions: {type: "invalid
//     input", code: "INPUT_ERROR", …}}], data: null}; an input Linear would refuse → 400 "Argument Validation
//     Error";
//   - otherwise 200 {data}.
// A filter member, argument or input member the fake does not implement is answered 400 FAKE_NOT_IMPLEMENTED
// and the request is recorded in `unhandled`.
import { readFileSync } from 'node:fs';
import type { IncomingHttpHeaders } from 'node:http';
import { fileURLToPath } from 'node:url';
import {
  buildSchema,
  type DocumentNode,
  executeSync,
  type GraphQLError,
  type GraphQLFieldResolver,
  type GraphQLOutputType,
  type GraphQLSchema,
  getNullableType,
  getOperationAST,
  isEnumType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  parse,
  validate,
} from 'graphql';
import { complexityOf } from './complexity.ts';
import type { Dataset, UserRecord } from './dataset.ts';
import { type ConnectionArgs, MAX_PAGE } from './lists.ts';
import { Renderer } from './render.ts';
import {
  extensionsFor,
  FakeNotImplemented,
  type Limits,
  LinearApiError,
  MAX_QUERY_COMPLEXITY,
  rateLimitHeaders,
  statusOf,
} from './wire.ts';
import { notFound, Writes } from './writes.ts';

export const LINEAR_SDL_PATH = fileURLToPath(
  new URL('../../../reference/providers/linear.graphql', import.meta.url),
);

let built: GraphQLSchema | undefined;
/** Linear's SDL, built once per process; it is Linear's, so not re-validated. */
export function linearSchema(): GraphQLSchema {
  built ??= buildSchema(readFileSync(LINEAR_SDL_PATH, 'utf8'), { assumeValidSDL: true });
  return built;
}

export interface GraphqlAnswer {
  status: number;
  headers: Record<string, string>;
  body: unknown;
  /** set when the query used something the fake does not implement (the request goes to `unhandled`) */
  notImplemented?: string;
}

interface Ctx {
  viewer: UserRecord;
  r: Renderer;
}

type Args = ConnectionArgs & Record<string, unknown>;
type Root = (args: Args, ctx: Ctx) => unknown;

const SIMPLE_TYPES = ['application/x-www-form-urlencoded', 'multipart/form-data', 'text/plain'];

function requestError(message: string, code = 'BAD_REQUEST'): LinearApiError {
  return new LinearApiError('graphql', message, undefined, code);
}

function refuse(err: LinearApiError, headers: Record<string, string>): GraphqlAnswer {
  return {
    status: statusOf(err.kind),
    headers,
    body: { errors: [{ message: err.message, extensions: extensionsFor(err) }] },
  };
}

/** The value a member the fake does not resolve takes: null, or an empty value where the schema forbids null. */
function fallback(type: GraphQLOutputType): unknown {
  if (!isNonNullType(type)) return null;
  const inner = getNullableType(type);
  if (isListType(inner)) return [];
  if (isEnumType(inner)) return inner.getValues()[0]?.value ?? null;
  if (isScalarType(inner)) {
    switch (inner.name) {
      case 'Boolean':
        return false;
      case 'Int':
      case 'Float':
        return 0;
      case 'JSON':
      case 'JSONObject':
        return {};
      case 'DateTime':
        return '2024-01-01T00:00:00.000Z';
      case 'TimelessDate':
        return '2024-01-01';
      default:
        return '';
    }
  }
  if (isObjectType(inner) && inner.name.endsWith('Connection'))
    return {
      edges: [],
      nodes: [],
      pageInfo: { hasNextPage: false, hasPreviousPage: false, startCursor: null, endCursor: null },
    };
  return isObjectType(inner) ? {} : null;
}

export function createGraphql(data: Dataset, opts: { pageSize: number; limits: Limits }) {
  const writes = new Writes(data);
  let lastSyncId = 2_000_000;

  const noSort = (args: Args, field: string) => {
    if (Array.isArray(args.sort) && args.sort.length > 0)
      throw new FakeNotImplemented(`linear fake: ${field}(sort:) is not implemented`);
  };
  const find = <T>(type: string, record: T | undefined): T => {
    if (record === undefined) throw notFound(type);
    return record;
  };

  const root: Record<string, Root> = {
    viewer: (_a, ctx) => ctx.r.user(ctx.viewer),
    organization: (_a, ctx) => ctx.r.organization(),
    issues: (args, ctx) => {
      noSort(args, 'issues');
      return ctx.r.issues(data.issues, args);
    },
    issue: ({ id }, ctx) => ctx.r.issue(find('Issue', data.issue(String(id)))),
    comments: (args, ctx) => ctx.r.comments(data.comments, args),
    comment: ({ id, hash }, ctx) => {
      if (hash != null) throw new FakeNotImplemented('linear fake: comment(hash:) is not implemented');
      if (id == null)
        throw new LinearApiError('input', 'Argument Validation Error', 'id or hash is required');
      return ctx.r.comment(find('Comment', data.comment(String(id))));
    },
    projects: (args, ctx) => {
      noSort(args, 'projects');
      return ctx.r.projects(data.projects, args);
    },
    project: ({ id }, ctx) => ctx.r.project(find('Project', data.project(String(id)))),
    teams: (args, ctx) => ctx.r.teams(data.teams, args),
    team: ({ id }, ctx) => ctx.r.team(find('Team', data.team(String(id)))),
    users: (args, ctx) => {
      noSort(args, 'users');
      return ctx.r.users(data.users, args);
    },
    user: ({ id }, ctx) => ctx.r.user(find('User', data.user(String(id)))),
    workflowStates: (args, ctx) => ctx.r.states(data.states, args),
    workflowState: ({ id }, ctx) => ctx.r.state(find('WorkflowState', data.state(String(id)))),
    issueCreate: ({ input }, ctx) => {
      const issue = writes.issueCreate(input as Record<string, unknown>, ctx.viewer.id);
      return { success: true, lastSyncId: ++lastSyncId, issue: ctx.r.issue(issue) };
    },
    issueUpdate: ({ id, input }, ctx) => {
      const issue = writes.issueUpdate(String(id), input as Record<string, unknown>);
      return { success: true, lastSyncId: ++lastSyncId, issue: ctx.r.issue(issue) };
    },
    commentCreate: ({ input }, ctx) => {
      const comment = writes.commentCreate(input as Record<string, unknown>, ctx.viewer.id);
      return { success: true, lastSyncId: ++lastSyncId, comment: ctx.r.comment(comment) };
    },
    commentUpdate: ({ id, input, skipEditedAt }, ctx) => {
      const comment = writes.commentUpdate(
        String(id),
        input as Record<string, unknown>,
        skipEditedAt === true,
      );
      return { success: true, lastSyncId: ++lastSyncId, comment: ctx.r.comment(comment) };
    },
    projectCreate: ({ input, slackChannelName }, ctx) => {
      if (slackChannelName != null)
        throw new FakeNotImplemented('linear fake: projectCreate(slackChannelName:) is not implemented');
      const project = writes.projectCreate(input as Record<string, unknown>, ctx.viewer.id);
      return { success: true, lastSyncId: ++lastSyncId, project: ctx.r.project(project) };
    },
    projectUpdate: ({ id, input }, ctx) => {
      const project = writes.projectUpdate(String(id), input as Record<string, unknown>);
      return { success: true, lastSyncId: ++lastSyncId, project: ctx.r.project(project) };
    },
  };

  const fieldResolver: GraphQLFieldResolver<unknown, Ctx> = (source, args, ctx, info) => {
    const isRoot =
      info.parentType === info.schema.getQueryType() || info.parentType === info.schema.getMutationType();
    if (isRoot) {
      const resolve = root[info.fieldName];
      if (resolve === undefined)
        throw new FakeNotImplemented(
          `linear fake: ${info.parentType.name}.${info.fieldName} is not implemented`,
        );
      return resolve(args as Args, ctx);
    }
    if (typeof source === 'object' && source !== null && info.fieldName in source) {
      const value = (source as Record<string, unknown>)[info.fieldName];
      return typeof value === 'function' ? value(args, ctx, info) : value;
    }
    return fallback(info.returnType);
  };

  return (req: { headers: IncomingHttpHeaders; body: string; viewer: UserRecord }): GraphqlAnswer => {
    const base = () => rateLimitHeaders(opts.limits);
    const type = String(req.headers['content-type'] ?? '')
      .split(';')[0]
      ?.trim()
      .toLowerCase();
    const preflighted =
      String(req.headers['x-apollo-operation-name'] ?? '') !== '' ||
      String(req.headers['apollo-require-preflight'] ?? '') !== '';
    if ((type === '' || SIMPLE_TYPES.includes(type ?? '')) && !preflighted)
      return refuse(
        requestError(
          'This operation has been blocked as a potential Cross-Site Request Forgery (CSRF). Send a ' +
            "'content-type' header that is not a simple one, or a non-empty 'x-apollo-operation-name' or " +
            "'apollo-require-preflight' header.",
        ),
        base(),
      );
    let payload: { query?: unknown; variables?: unknown; operationName?: unknown };
    try {
      payload = JSON.parse(req.body) as typeof payload;
    } catch {
      return refuse(requestError('POST body is not valid JSON.'), base());
    }
    if (typeof payload !== 'object' || payload === null || Array.isArray(payload))
      return refuse(requestError('POST body must be a JSON object.'), base());
    if (typeof payload.query !== 'string' || payload.query.trim() === '')
      return refuse(requestError('GraphQL operations must contain a non-empty `query`.'), base());
    const schema = linearSchema();
    let document: DocumentNode;
    try {
      document = parse(payload.query);
    } catch (error) {
      const e = error as GraphQLError;
      return {
        status: 400,
        headers: base(),
        body: { errors: [graphqlError(e, requestError(e.message, 'GRAPHQL_PARSE_FAILED'))] },
      };
    }
    const invalid = validate(schema, document);
    if (invalid.length > 0)
      return {
        status: 400,
        headers: base(),
        body: {
          errors: invalid.map((e) => graphqlError(e, requestError(e.message, 'GRAPHQL_VALIDATION_FAILED'))),
        },
      };
    const variables = (
      typeof payload.variables === 'object' && payload.variables !== null ? payload.variables : {}
    ) as Record<string, unknown>;
    const operationName = typeof payload.operationName === 'string' ? payload.operationName : null;
    const operation = getOperationAST(document, operationName);
    const complexity =
      operation == null ? 0 : complexityOf(schema, document, operation, variables, opts.pageSize);
    if (complexity > MAX_QUERY_COMPLEXITY)
      return refuse(
        new LinearApiError(
          'input',
          `Query too complex - complexity is ${complexity}, maximum allowed is ${MAX_QUERY_COMPLEXITY}`,
          'The query is too complex. Ask for fewer records per page or fewer nested members.',
        ),
        rateLimitHeaders(opts.limits, complexity),
      );
    opts.limits.complexity.take(complexity);
    const headers = rateLimitHeaders(opts.limits, complexity);
    const ctx: Ctx = {
      viewer: req.viewer,
      r: new Renderer(
        data,
        () => ({ now: data.clock, defaultFirst: opts.pageSize, maxFirst: MAX_PAGE }),
        req.viewer.id,
      ),
    };
    const result = executeSync({
      schema,
      document,
      contextValue: ctx,
      variableValues: variables,
      operationName,
      fieldResolver,
    });
    if (result.errors === undefined || result.errors.length === 0)
      return { status: 200, headers, body: { data: result.data } };
    let notImplemented: string | undefined;
    let status = 0;
    const errors = result.errors.map((e) => {
      const original = e.originalError;
      let err: LinearApiError;
      if (original instanceof LinearApiError) err = original;
      else if (original instanceof FakeNotImplemented) {
        notImplemented ??= original.message;
        err = requestError(original.message, 'FAKE_NOT_IMPLEMENTED');
      } else if (original === undefined || original === null)
        // graphql-js's own refusals at execution: variables that do not fit their declared types.
        err = requestError(e.message, 'BAD_USER_INPUT');
      else {
        notImplemented ??= `linear fake bug: ${original.message}`;
        err = new LinearApiError('internal', e.message, 'An unexpected error occurred.');
      }
      status ||= statusOf(err.kind);
      return graphqlError(e, err);
    });
    const body: Record<string, unknown> = { errors };
    if (result.data !== undefined) body.data = result.data;
    return {
      status: status || 400,
      headers,
      body,
      ...(notImplemented === undefined ? {} : { notImplemented }),
    };
  };
}

/** A GraphQL error object as Linear answers it: graphql-js's message, path and locations, Linear's extensions. */
function graphqlError(e: GraphQLError, err: LinearApiError): Record<string, unknown> {
  return {
    message: err.message,
    ...(e.locations === undefined ? {} : { locations: e.locations }),
    ...(e.path === undefined ? {} : { path: e.path }),
    extensions: extensionsFor(err),
  };
}
