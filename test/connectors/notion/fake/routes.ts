// The routing table of the Notion fake and its read routes. Every route names the operationId of notion.json
// (Notion's OpenAPI description, version 2025-09-03) it follows; search and data-source queries are in
// query.ts, writes in writes.ts.
import type { Route } from '../../kit/index.ts';
import { type Env, filterProperties, listAnswer, ok, type RouteRequest } from './context.ts';
import { queryDataSource, search } from './query.ts';
import {
  type Answer,
  badPathId,
  DATA_SOURCE_VERSION,
  fail,
  invalid,
  type NotionVersion,
  normalizeId,
  notFound,
} from './wire.ts';
import { appendChildren, createComment, createPage, deleteBlock, updateBlock, updatePage } from './writes.ts';

type Handler = (env: Env, req: RouteRequest, ids: string[]) => Answer;

/** Who a request is (index.ts): the fake's state and the request's Notion-Version. */
export interface NotionCtx {
  env: Env;
  version: NotionVersion;
}

/**
 * A route on the kit's router: `params` are the path's id parameters, validated as UUIDs (Notion answers a
 * malformed one as validation_error); `since` the API version the endpoint first exists in.
 */
const route = (
  method: string,
  path: string,
  operation: string,
  params: string[],
  handler: Handler,
  since?: NotionVersion,
): Route<NotionCtx> => ({
  method,
  path: `/v1${path}`,
  operation,
  handle: (req, { env, version }) => {
    // Notion's data_source endpoints don't exist for clients pinned to an older version.
    if (since !== undefined && version < since) return fail('invalid_request_url');
    const ids: string[] = [];
    for (const name of params) {
      const raw = req.params[name] as string;
      const id = normalizeId(raw);
      if (id === undefined) return badPathId(name, raw);
      ids.push(id);
    }
    const json = req.json;
    const body = typeof json === 'object' ? json : {};
    return handler(env, { method: req.method, pathname: req.pathname, query: req.query, body, version }, ids);
  },
});

export const ROUTES: Route<NotionCtx>[] = [
  route('GET', '/users/me', 'get-self', [], (env) => ok(env.render.user(env.data.bot))),
  route('GET', '/users', 'get-users', [], listUsers),
  route('GET', '/users/{user_id}', 'get-user', ['user_id'], (env, _req, [id]) => {
    const user = env.data.user(id as string);
    return user ? ok(env.render.user(user)) : notFound('user', id as string);
  }),
  route('POST', '/search', 'post-search', [], search),
  route('GET', '/pages/{page_id}', 'retrieve-a-page', ['page_id'], getPage),
  route('PATCH', '/pages/{page_id}', 'patch-page', ['page_id'], updatePage),
  route('POST', '/pages', 'post-page', [], createPage),
  route(
    'GET',
    '/data_sources/{data_source_id}',
    'retrieve-a-data-source',
    ['data_source_id'],
    getDataSource,
    DATA_SOURCE_VERSION,
  ),
  route(
    'POST',
    '/data_sources/{data_source_id}/query',
    'query-data-source',
    ['data_source_id'],
    queryDataSource,
    DATA_SOURCE_VERSION,
  ),
  route('GET', '/databases/{database_id}', 'retrieve-a-database', ['database_id'], (env, req, [id]) => {
    const db = env.data.database(id as string);
    return db ? ok(env.render.database(db, req.version)) : notFound('database', id as string);
  }),
  route('GET', '/blocks/{block_id}', 'retrieve-a-block', ['block_id'], (env, req, [id]) => {
    const block = env.render.child(id as string, req.version);
    return block ? ok(block) : notFound('block', id as string);
  }),
  route('PATCH', '/blocks/{block_id}', 'update-a-block', ['block_id'], updateBlock),
  route('DELETE', '/blocks/{block_id}', 'delete-a-block', ['block_id'], deleteBlock),
  route('GET', '/blocks/{block_id}/children', 'get-block-children', ['block_id'], listChildren),
  route('PATCH', '/blocks/{block_id}/children', 'patch-block-children', ['block_id'], appendChildren),
  route('GET', '/comments', 'retrieve-a-comment', [], listComments),
  route('POST', '/comments', 'create-a-comment', [], createComment),
];

function listUsers(env: Env, req: RouteRequest): Answer {
  return listAnswer(env, req.query, env.data.users, 'user', (u) => env.render.user(u));
}

function getPage(env: Env, req: RouteRequest, [id]: string[]): Answer {
  const page = env.data.page(id as string);
  if (page === undefined) return notFound('page', id as string);
  return ok(filterProperties(env.render.page(page, req.version), req.query));
}

function getDataSource(env: Env, _req: RouteRequest, [id]: string[]): Answer {
  const ds = env.data.dataSource(id as string);
  return ds ? ok(env.render.dataSource(ds)) : notFound('data source', id as string);
}

function listChildren(env: Env, req: RouteRequest, [id]: string[]): Answer {
  const parent = env.data.page(id as string) ?? env.data.block(id as string);
  if (parent === undefined) return notFound('block', id as string);
  const children = env.render.liveChildren(id as string).map((child) => ({ id: child }));
  return listAnswer(env, req.query, children, 'block', (c) => env.render.child(c.id, req.version));
}

function listComments(env: Env, req: RouteRequest): Answer {
  const raw = req.query.get('block_id');
  if (raw === null || raw === '')
    return invalid('query failed validation: query.block_id should be defined, instead was `undefined`.');
  const id = normalizeId(raw);
  if (id === undefined)
    return invalid(
      `query failed validation: query.block_id should be a valid uuid, instead was \`"${raw}"\`.`,
    );
  if (env.data.page(id) === undefined && env.data.block(id) === undefined) return notFound('block', id);
  const comments = env.data.comments
    .filter((c) => (c.parent.type === 'page_id' ? c.parent.page_id : c.parent.block_id) === id)
    .sort((a, b) => a.created_time - b.created_time);
  return listAnswer(env, req.query, comments, 'comment', (c) => env.render.comment(c));
}
