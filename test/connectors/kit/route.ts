// A route as one row of a fake's table: `route('GET', '/v2/users/{id}', 'getUser', (req, ctx) => ...)`, the
// same Route the router takes, written on one line where the handler is short.
import type { Answer } from './errors.ts';
import type { Route, RouteRequest } from './router.ts';

export function route<Ctx>(
  method: string,
  path: string,
  operation: string,
  handle: (req: RouteRequest, ctx: Ctx) => Answer | undefined,
): Route<Ctx> {
  return { method, path, operation, handle };
}
