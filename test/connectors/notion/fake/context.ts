// What every route gets (the dataset, the renderer, the default page size, the clock) and the answer helpers
// the route files share.
import type { Dataset } from './dataset.ts';
import type { Renderer } from './render.ts';
import {
  type Answer,
  isAnswer,
  listBody,
  type NotionVersion,
  pageParams,
  paginate,
  requestId,
} from './wire.ts';

export interface RouteRequest {
  method: string;
  pathname: string;
  query: URLSearchParams;
  /** the JSON body of a POST/PATCH (an object; index.ts refuses anything else) */
  body: Record<string, unknown>;
  version: NotionVersion;
}

export interface Env {
  data: Dataset;
  render: Renderer;
  /** records per page when the client sends no page_size */
  pageSize: number;
  /** the clock writes stamp records with */
  now: () => number;
}

export function ok(body: Record<string, unknown>): Answer {
  return { status: 200, body: { ...body, request_id: requestId() } };
}

/** GET-list plumbing: validated page params, one page, Notion's list envelope. */
export function listAnswer<T extends { id: string }>(
  env: Env,
  source: URLSearchParams | Record<string, unknown>,
  all: readonly T[],
  type: string,
  render: (item: T) => unknown,
): Answer {
  const params = pageParams(source, env.pageSize);
  if (isAnswer(params)) return params;
  const page = paginate(all, params);
  if (isAnswer(page)) return page;
  return { status: 200, body: listBody(type, page.items.map(render), page.next_cursor, page.has_more) };
}

/** Keeps only the properties named by `filter_properties` (property ids), when the request gives any. */
export function filterProperties(
  page: Record<string, unknown>,
  query: URLSearchParams,
): Record<string, unknown> {
  const wanted = query.getAll('filter_properties').flatMap((v) => v.split(','));
  if (wanted.length === 0) return page;
  const props = page.properties as Record<string, { id: string }>;
  const kept = Object.fromEntries(
    Object.entries(props).filter(
      ([, v]) => wanted.includes(v.id) || wanted.includes(decodeURIComponent(v.id)),
    ),
  );
  return { ...page, properties: kept };
}
