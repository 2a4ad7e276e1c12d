// A fake's routes as data: method, path template and the provider's reference operation each one follows, so
// the contract check can hold every route against the provider's description, and a reader finds the page a
// handler imitates without reading it.

import type { Answer } from './errors.ts';
import type { RecordedRequest } from './server.ts';

export interface RouteRequest {
  method: string;
  pathname: string;
  query: URLSearchParams;
  /** the template's `{name}` segments, URI-decoded */
  params: Record<string, string>;
  recorded: RecordedRequest;
  /** the body as a JSON object: undefined when blank, `invalid` when it is not a JSON object */
  readonly json: Record<string, unknown> | 'invalid' | undefined;
}

export interface Route<Ctx = undefined> {
  method: string;
  /**
   * e.g. `/v2/users/{id}`: a `{name}` matches one path segment; `{name:\d+}` one segment matching that
   * pattern (which matches no `/` and holds no braces or capturing groups); `{name+}` one or more segments
   * (a git ref `heads/release/1.x`, a file path).
   */
  path: string;
  /** the provider's operation (operationId, GraphQL field or reference page) this route follows */
  operation: string;
  /** the answer, or undefined for "not served" (answered as the provider's 404 and recorded as unhandled) */
  handle(req: RouteRequest, ctx: Ctx): Answer | undefined;
}

interface Compiled<Ctx> {
  route: Route<Ctx>;
  pattern: RegExp;
  names: string[];
  /** how many of the names take several segments */
  greedy: number;
}

export class Router<Ctx = undefined> {
  private readonly compiled: Compiled<Ctx>[];

  /** `trailingSlash`: a path also matches with one `/` appended (Notion's API takes both). */
  constructor(
    readonly routes: readonly Route<Ctx>[],
    opts: { trailingSlash?: boolean } = {},
  ) {
    // A literal segment wins over a parameter (`/calls/extensive` before `/calls/{id}`), and a one-segment
    // parameter over a several-segment one, whatever the order.
    this.compiled = routes
      .map((route) => compile(route, opts.trailingSlash === true))
      .sort((a, b) => a.names.length - b.names.length || a.greedy - b.greedy);
  }

  /**
   * The route for a method and path, with its params; undefined when none matches. A parameter that is not
   * valid percent-encoding matches nothing (the provider's 404, recorded as unhandled), rather than a 500.
   */
  match(method: string, pathname: string): { route: Route<Ctx>; params: Record<string, string> } | undefined {
    const path = unreserved(pathname);
    for (const c of this.compiled) {
      if (c.route.method !== method) continue;
      const m = c.pattern.exec(path);
      if (m === null) continue;
      const params: Record<string, string> = {};
      try {
        c.names.forEach((name, i) => {
          params[name] = decodeURIComponent(m[i + 1] ?? '');
        });
      } catch {
        continue;
      }
      return { route: c.route, params };
    }
    return undefined;
  }

  /** True when some route serves this path with another method (a provider's 405). */
  knowsPath(pathname: string): boolean {
    const path = unreserved(pathname);
    return this.compiled.some((c) => c.pattern.test(path));
  }

  handle(recorded: RecordedRequest, ctx: Ctx): Answer | undefined {
    const url = new URL(recorded.path, 'http://fake.invalid');
    const found = this.match(recorded.method, url.pathname);
    if (found === undefined) return undefined;
    let json: RouteRequest['json'] | null = null;
    const req: RouteRequest = {
      method: recorded.method,
      pathname: url.pathname,
      query: url.searchParams,
      params: found.params,
      recorded,
      get json() {
        json ??= parseJsonObject(recorded.body);
        return json;
      },
    };
    return found.route.handle(req, ctx);
  }
}

/**
 * The path with percent-encoded unreserved characters decoded (`%2E` is `.`), as RFC 3986 section 6.2.2.2
 * makes them the same path: a literal segment matches either spelling.
 */
function unreserved(pathname: string): string {
  return pathname.replace(/%(2[dDeE]|3\d|[46][1-9a-fA-F]|[57][0-9aA]|5[fF]|7[eE])/g, (_, hex: string) =>
    String.fromCharCode(Number.parseInt(hex, 16)),
  );
}

function compile<Ctx>(route: Route<Ctx>, trailingSlash: boolean): Compiled<Ctx> {
  const names: string[] = [];
  let greedy = 0;
  const source = route.path
    .split(/(\{[A-Za-z_][A-Za-z0-9_]*(?:\+|:[^}]+)?\})/)
    .map((part) => {
      const param = /^\{([A-Za-z_][A-Za-z0-9_]*)(\+|:[^}]+)?\}$/.exec(part);
      if (param === null) return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      const [, name = '', kind] = param;
      names.push(name);
      if (kind === '+') {
        greedy += 1;
        return '(.+)';
      }
      return kind === undefined ? '([^/]+)' : `((?:${kind.slice(1)}))`;
    })
    .join('');
  return { route, pattern: new RegExp(`^${source}${trailingSlash ? '/?' : ''}$`), names, greedy };
}

/** The JSON object of a request body: undefined for an empty (or blank) one, `invalid` for anything else. */
export function parseJsonObject(raw: string): Record<string, unknown> | 'invalid' | undefined {
  if (raw.trim() === '') return undefined;
  try {
    const value: unknown = JSON.parse(raw);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : 'invalid';
  } catch {
    return 'invalid';
  }
}
