// GitHub's GraphQL API v4 (POST /graphql, https://docs.github.com/graphql) in the fake. Queries are parsed,
// validated and executed by graphql-js against GitHub's own published schema (@octokit/graphql-schema's SDL),
// so a definition asking for a field GitHub does not have fails here exactly as it would on GitHub. Only the
// fields the connector definitions read are resolved from the dataset; any other field resolves to null.
//
// Resolvers, by schema type and field:
//   Query.viewer                    -> User (the token's account)
//   Query.repository(owner, name)   -> Repository, or null + NOT_FOUND
//   Query.organization(login)       -> Organization, or null + NOT_FOUND
//   Query.search(query, type: DISCUSSION, first, after) -> SearchResultItemConnection of Discussion
//   User.repositories(ownerAffiliations, orderBy, first, after) -> RepositoryConnection
//   Repository.discussions(answered, states, orderBy, first, after) -> DiscussionConnection
//   Repository.discussion(number)   -> Discussion, or null + NOT_FOUND
//   Organization.projectsV2(orderBy, first, after), Organization.projectV2(number) -> ProjectV2 (null + NOT_FOUND)
//   ProjectV2.items(first, after)   -> ProjectV2ItemConnection; ProjectV2Item.content (Issue | PullRequest |
//                                      DraftIssue), ProjectV2Item.fieldValues (Title text, Status single select)
// Connections follow GitHub's rules ("Using pagination in the GraphQL API"): `first` or `last` is required
// when nodes or edges are selected (MISSING_PAGINATION_BOUNDARIES), at most 100 (EXCESSIVE_PAGINATION), and
// an `after` that is not a cursor of ours is INVALID_CURSOR_ARGUMENTS. Errors are answered with HTTP 200 and
// GitHub's error objects ({type, path, locations, message}).
import { schema as githubSchema } from '@octokit/graphql-schema';
import {
  buildSchema,
  type FieldNode,
  type GraphQLError,
  type GraphQLResolveInfo,
  type GraphQLSchema,
  graphqlSync,
} from 'graphql';
import type { Account, Dataset, RepoRecord } from './dataset.ts';
import {
  type DiscussionRecord,
  GraphqlDataset,
  type ProjectItemRecord,
  type ProjectRecord,
} from './dataset-graphql.ts';
import type { RouteRequest, RouteResult } from './routes.ts';
import type { Auth } from './wire.ts';

const DOCS = 'https://docs.github.com/graphql';
const WEB = 'https://github.com';

let built: GraphQLSchema | undefined;
/** Built once per process (about 0.1 s for GitHub's 1.2 MB SDL); the SDL is GitHub's, so it is not re-validated. */
function schema(): GraphQLSchema {
  built ??= buildSchema(githubSchema.idl, { assumeValidSDL: true });
  return built;
}

/** A GitHub GraphQL error with its `type` (NOT_FOUND, ...), thrown by resolvers. */
class GithubError extends Error {
  constructor(
    readonly type: string,
    message: string,
  ) {
    super(message);
  }
}

interface ConnectionArgs {
  first?: number | null;
  last?: number | null;
  after?: string | null;
  before?: string | null;
}

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());
const nodeId = (prefix: string, n: number): string =>
  `${prefix}_kwDO${Buffer.from(`${prefix}:${n}`).toString('base64url')}`;
const cursorOf = (index: number): string => Buffer.from(`cursor:v2:${index}`).toString('base64');

function indexOfCursor(cursor: string): number | undefined {
  const m = /^cursor:v2:(\d+)$/.exec(Buffer.from(cursor, 'base64').toString('utf8'));
  return m?.[1] === undefined ? undefined : Number(m[1]);
}

/** Does this field's selection ask for records (nodes/edges), not only totalCount/pageInfo? */
function selectsRecords(info: GraphQLResolveInfo): boolean {
  return info.fieldNodes.some((node: FieldNode) =>
    (node.selectionSet?.selections ?? []).some(
      (s) => s.kind !== 'Field' || s.name.value === 'nodes' || s.name.value === 'edges',
    ),
  );
}

/** One page of a connection, as GitHub's cursor connections answer it. */
function connection<T>(
  all: readonly T[],
  args: ConnectionArgs,
  info: GraphQLResolveInfo,
  render: (record: T) => unknown,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  const name = info.fieldName;
  if (args.last != null || args.before != null)
    throw new GithubError('INVALID_ARGUMENTS', 'github fake: only first/after paging is implemented');
  if (args.first == null) {
    if (selectsRecords(info))
      throw new GithubError(
        'MISSING_PAGINATION_BOUNDARIES',
        `You must provide a \`first\` or \`last\` value to properly paginate the \`${name}\` connection.`,
      );
    return { totalCount: all.length, ...extra };
  }
  if (args.first > 100 || args.first < 0)
    throw new GithubError(
      'EXCESSIVE_PAGINATION',
      `Requesting ${args.first} records on the \`${name}\` connection exceeds the \`first\` limit of 100 records.`,
    );
  let start = 0;
  if (args.after != null) {
    const at = indexOfCursor(args.after);
    if (at === undefined)
      throw new GithubError(
        'INVALID_CURSOR_ARGUMENTS',
        `\`${args.after}\` does not appear to be a valid cursor.`,
      );
    start = at + 1;
  }
  const page = all.slice(start, start + args.first);
  const edges = page.map((record, i) => ({ cursor: cursorOf(start + i), node: render(record) }));
  return {
    totalCount: all.length,
    ...extra,
    edges,
    nodes: edges.map((e) => e.node),
    pageInfo: {
      hasNextPage: start + page.length < all.length,
      hasPreviousPage: start > 0,
      startCursor: edges[0]?.cursor ?? null,
      endCursor: edges.at(-1)?.cursor ?? null,
    },
  };
}

type Order = { field?: string; direction?: 'ASC' | 'DESC' } | null | undefined;

function ordered<T>(
  records: readonly T[],
  order: Order,
  keys: Record<string, (r: T) => number | string>,
): T[] {
  const key = keys[order?.field ?? ''];
  if (key === undefined) return [...records];
  const sign = order?.direction === 'ASC' ? 1 : -1;
  return [...records].sort((a, b) => {
    const x = key(a);
    const y = key(b);
    return x < y ? -sign : x > y ? sign : 0;
  });
}

export function graphqlRoute(data: Dataset): (req: RouteRequest, auth: Auth) => RouteResult {
  const gql = new GraphqlDataset(data);

  const actor = (login: string) => {
    const a = data.account(login);
    return a === undefined ? null : account(a);
  };

  const account = (a: Account): Record<string, unknown> => ({
    __typename: a.type,
    id: nodeId(a.type === 'User' ? 'U' : 'O', a.id),
    databaseId: a.id,
    login: a.login,
    name: a.name,
    // GitHub answers "" for a user without a public email (User.email is String!).
    email: a.email ?? '',
    bio: a.bio,
    company: a.company,
    location: a.location,
    websiteUrl: a.blog === '' ? null : a.blog,
    avatarUrl: `https://avatars.githubusercontent.com/u/${a.id}?v=4`,
    url: `${WEB}/${a.login}`,
    resourcePath: `/${a.login}`,
    createdAt: iso(a.createdAt),
    updatedAt: iso(a.updatedAt),
    repositories: (
      args: ConnectionArgs & { ownerAffiliations?: string[] | null; orderBy?: Order },
      _c: unknown,
      info: GraphQLResolveInfo,
    ) => {
      const affiliations = args.ownerAffiliations ?? ['OWNER', 'COLLABORATOR'];
      let repos = affiliations.includes('OWNER') ? data.reposOf(a) : [];
      if (affiliations.includes('ORGANIZATION_MEMBER'))
        repos = [...repos, ...data.allRepos().filter((r) => r.owner.members.includes(a.login))];
      const sorted = ordered(repos, args.orderBy ?? { field: 'NAME', direction: 'ASC' }, {
        NAME: (r) => r.name.toLowerCase(),
        CREATED_AT: (r) => r.createdAt,
        UPDATED_AT: (r) => r.updatedAt,
        PUSHED_AT: (r) => r.pushedAt,
      });
      return connection(sorted, args, info, repository);
    },
    projectsV2: (args: ConnectionArgs & { orderBy?: Order }, _c: unknown, info: GraphQLResolveInfo) => {
      const sorted = ordered(
        gql.projectsOf(a.login),
        args.orderBy ?? { field: 'NUMBER', direction: 'DESC' },
        {
          NUMBER: (p) => p.number,
          TITLE: (p) => p.title.toLowerCase(),
          CREATED_AT: (p) => p.createdAt,
          UPDATED_AT: (p) => p.updatedAt,
        },
      );
      return connection(sorted, args, info, (p) => project(a, p));
    },
    projectV2: ({ number }: { number: number }) => {
      const p = gql.projectsOf(a.login).find((x) => x.number === number);
      if (p === undefined)
        throw new GithubError('NOT_FOUND', `Could not resolve to a ProjectV2 with the number ${number}.`);
      return project(a, p);
    },
  });

  const repository = (r: RepoRecord): Record<string, unknown> => ({
    __typename: 'Repository',
    id: nodeId('R', r.id),
    databaseId: r.id,
    name: r.name,
    nameWithOwner: `${r.owner.login}/${r.name}`,
    description: r.description,
    url: `${WEB}/${r.owner.login}/${r.name}`,
    isPrivate: r.private,
    visibility: r.private ? 'PRIVATE' : 'PUBLIC',
    isFork: false,
    isArchived: false,
    createdAt: iso(r.createdAt),
    updatedAt: iso(r.updatedAt),
    pushedAt: iso(r.pushedAt),
    stargazerCount: r.stargazers?.length ?? 0,
    forkCount: 0,
    primaryLanguage: r.language === null ? null : { name: r.language },
    defaultBranchRef: { name: r.defaultBranch },
    owner: account(r.owner),
    discussions: (
      args: ConnectionArgs & { answered?: boolean | null; states?: string[] | null; orderBy?: Order },
      _c: unknown,
      info: GraphQLResolveInfo,
    ) => {
      let list = gql.discussionsOf(r);
      if (args.answered != null) list = list.filter((d) => (d.answerChosenAt !== null) === args.answered);
      const states = args.states ?? [];
      if (states.length > 0)
        list = list.filter((d) => states.includes(d.closedAt === null ? 'OPEN' : 'CLOSED'));
      const sorted = ordered(list, args.orderBy ?? { field: 'UPDATED_AT', direction: 'DESC' }, {
        CREATED_AT: (d) => d.createdAt,
        UPDATED_AT: (d) => d.updatedAt,
      });
      return connection(sorted, args, info, (d) => discussion(r, d));
    },
    discussion: ({ number }: { number: number }) => {
      const d = gql.discussionsOf(r).find((x) => x.number === number);
      if (d === undefined)
        throw new GithubError('NOT_FOUND', `Could not resolve to a Discussion with the number of ${number}.`);
      return discussion(r, d);
    },
  });

  const discussion = (r: RepoRecord, d: DiscussionRecord): Record<string, unknown> => ({
    __typename: 'Discussion',
    id: nodeId('D', d.databaseId),
    databaseId: d.databaseId,
    number: d.number,
    title: d.title,
    body: d.body,
    url: `${WEB}/${r.owner.login}/${r.name}/discussions/${d.number}`,
    createdAt: iso(d.createdAt),
    updatedAt: iso(d.updatedAt),
    closed: d.closedAt !== null,
    closedAt: iso(d.closedAt),
    stateReason: d.stateReason,
    isAnswered: d.category.isAnswerable ? d.answerChosenAt !== null : null,
    answerChosenAt: iso(d.answerChosenAt),
    locked: false,
    upvoteCount: d.upvotes,
    author: actor(d.author),
    category: { __typename: 'DiscussionCategory', ...d.category },
    comments: { totalCount: d.comments },
    repository: { nameWithOwner: `${r.owner.login}/${r.name}` },
  });

  const project = (owner: Account, p: ProjectRecord): Record<string, unknown> => ({
    __typename: 'ProjectV2',
    id: nodeId('PVT', p.databaseId),
    databaseId: p.databaseId,
    number: p.number,
    title: p.title,
    shortDescription: p.shortDescription,
    readme: p.readme,
    public: p.public,
    closed: p.closedAt !== null,
    closedAt: iso(p.closedAt),
    createdAt: iso(p.createdAt),
    updatedAt: iso(p.updatedAt),
    url: `${WEB}/orgs/${owner.login}/projects/${p.number}`,
    resourcePath: `/orgs/${owner.login}/projects/${p.number}`,
    creator: actor(p.creator),
    owner: account(owner),
    items: (args: ConnectionArgs, _c: unknown, info: GraphQLResolveInfo) =>
      connection(p.items, args, info, (item) => projectItem(item)),
  });

  const projectItem = (item: ProjectItemRecord): Record<string, unknown> => {
    let content: Record<string, unknown> | null;
    let type: string;
    let title: string;
    if (item.content.kind === 'draft') {
      type = 'DRAFT_ISSUE';
      title = item.content.title;
      content = {
        __typename: 'DraftIssue',
        id: nodeId('DI', item.databaseId),
        title,
        body: item.content.body,
      };
    } else {
      const { repo, number } = item.content;
      const issue = data.issue(repo, number);
      if (issue === undefined) throw new Error(`github fake: project item names missing issue #${number}`);
      const pull = issue.pull;
      type = pull === null ? 'ISSUE' : 'PULL_REQUEST';
      title = issue.title;
      content = {
        __typename: pull === null ? 'Issue' : 'PullRequest',
        id: nodeId(pull === null ? 'I' : 'PR', pull === null ? issue.id : pull.id),
        number,
        title,
        closed: issue.state === 'closed',
        stateReason: pull === null && issue.stateReason !== null ? issue.stateReason.toUpperCase() : null,
        merged: pull?.mergedAt != null,
        isDraft: pull?.draft === true,
        url: `${WEB}/${repo.owner.login}/${repo.name}/${pull === null ? 'issues' : 'pull'}/${number}`,
        repository: { nameWithOwner: `${repo.owner.login}/${repo.name}` },
      };
    }
    const values = [
      {
        __typename: 'ProjectV2ItemFieldTextValue',
        text: title,
        field: { __typename: 'ProjectV2Field', name: 'Title' },
      },
      {
        __typename: 'ProjectV2ItemFieldSingleSelectValue',
        name: item.status,
        field: { __typename: 'ProjectV2SingleSelectField', name: 'Status' },
      },
    ];
    return {
      __typename: 'ProjectV2Item',
      id: nodeId('PVTI', item.databaseId),
      databaseId: item.databaseId,
      type,
      isArchived: item.archived,
      createdAt: iso(item.createdAt),
      updatedAt: iso(item.updatedAt),
      content,
      fieldValues: (args: ConnectionArgs, _c: unknown, info: GraphQLResolveInfo) =>
        connection(values, args, info, (v) => v),
    };
  };

  /** GitHub's discussion search qualifiers the fake understands; every other word must be in title or body. */
  const searchDiscussions = (query: string) => {
    let hits = gql.allDiscussions();
    for (const token of query.split(/\s+/).filter(Boolean)) {
      const [qualifier, value = ''] = token.includes(':') ? token.split(/:(.*)/s) : [undefined, token];
      const v = value.toLowerCase();
      if (qualifier === 'repo')
        hits = hits.filter(({ repo }) => `${repo.owner.login}/${repo.name}`.toLowerCase() === v);
      else if (qualifier === 'org' || qualifier === 'user')
        hits = hits.filter(({ repo }) => repo.owner.login.toLowerCase() === v);
      else if (qualifier === 'author')
        hits = hits.filter(({ discussion: d }) => d.author.toLowerCase() === v);
      else if (qualifier === 'is' && (v === 'open' || v === 'closed'))
        hits = hits.filter(({ discussion: d }) => (d.closedAt === null) === (v === 'open'));
      else if (qualifier === 'is' && (v === 'answered' || v === 'unanswered'))
        hits = hits.filter(({ discussion: d }) => (d.answerChosenAt !== null) === (v === 'answered'));
      else if (qualifier === undefined)
        hits = hits.filter(({ discussion: d }) => `${d.title} ${d.body}`.toLowerCase().includes(v));
      else
        throw new GithubError('INVALID_ARGUMENTS', `github fake: unsupported search qualifier ${qualifier}:`);
    }
    return hits.sort((a, b) => b.discussion.updatedAt - a.discussion.updatedAt);
  };

  const rootFor = (viewer: Account) => ({
    viewer: () => account(viewer),
    repository: ({ owner, name }: { owner: string; name: string }) => {
      const r = data.repo(owner, name);
      if (r === undefined)
        throw new GithubError(
          'NOT_FOUND',
          `Could not resolve to a Repository with the name '${owner}/${name}'.`,
        );
      return repository(r);
    },
    organization: ({ login }: { login: string }) => {
      const a = data.account(login);
      if (a === undefined || a.type !== 'Organization')
        throw new GithubError(
          'NOT_FOUND',
          `Could not resolve to an Organization with the login of '${login}'.`,
        );
      return account(a);
    },
    search: (
      args: ConnectionArgs & { query: string; type: string },
      _c: unknown,
      info: GraphQLResolveInfo,
    ) => {
      if (args.type !== 'DISCUSSION')
        throw new GithubError(
          'INVALID_ARGUMENTS',
          `github fake: search type ${args.type} is not implemented`,
        );
      const hits = searchDiscussions(args.query);
      return connection(hits, args, info, (h) => discussion(h.repo, h.discussion), {
        discussionCount: hits.length,
        issueCount: 0,
        repositoryCount: 0,
        userCount: 0,
        wikiCount: 0,
        codeCount: 0,
      });
    },
  });

  return (req, auth) => {
    // "Forming calls with GraphQL": every GraphQL call needs a token (the REST routes allow some anonymously).
    if (auth.kind !== 'token')
      return {
        status: 401,
        rateResource: 'graphql',
        body: {
          message: 'This endpoint requires you to be authenticated.',
          documentation_url: `${DOCS}/guides/forming-calls-with-graphql#authenticating-with-graphql`,
        },
      };
    let payload: { query?: unknown; variables?: unknown; operationName?: unknown };
    try {
      payload = JSON.parse(req.recorded.body) as typeof payload;
    } catch {
      return {
        status: 400,
        rateResource: 'graphql',
        body: { message: 'Problems parsing JSON', documentation_url: DOCS },
      };
    }
    if (typeof payload?.query !== 'string')
      return {
        status: 200,
        rateResource: 'graphql',
        body: { errors: [{ message: 'A query attribute must be specified and must be a string.' }] },
      };
    // Every resolver is synchronous, so the whole operation runs in one turn.
    const result = graphqlSync({
      schema: schema(),
      source: payload.query,
      rootValue: rootFor(data.viewer),
      variableValues: (payload.variables ?? null) as Record<string, unknown> | null,
      operationName: typeof payload.operationName === 'string' ? payload.operationName : null,
    });
    const body: Record<string, unknown> = {};
    if (result.data !== undefined) body.data = result.data;
    if (result.errors !== undefined) body.errors = result.errors.map(githubError);
    return { status: 200, rateResource: 'graphql', body };
  };
}

/** GitHub's error object: the resolver's `type` beside graphql-js's path, locations and message. */
function githubError(err: GraphQLError): Record<string, unknown> {
  const original = err.originalError;
  return {
    ...(original instanceof GithubError ? { type: original.type } : {}),
    ...(err.path === undefined ? {} : { path: err.path }),
    ...(err.extensions && Object.keys(err.extensions).length > 0 ? { extensions: err.extensions } : {}),
    ...(err.locations === undefined ? {} : { locations: err.locations }),
    message: err.message,
  };
}
