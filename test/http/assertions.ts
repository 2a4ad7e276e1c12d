import assert from 'node:assert/strict';
import Fastify from 'fastify';
import type { App, AppDeps } from '../../src/http/app-types.ts';
import { registerRoutes } from '../../src/http/routes/index.ts';
import type { InjectResult } from '../helpers/harness.ts';

/**
 * The conventions' error body: `{message, code, request_id, errors: [{field, message, error_code, details}]}`,
 * whose request_id is the one the `x-request-id` header carries.
 */
export function assertError(res: InjectResult, status: number, code: string): void {
  assert.equal(res.status, status, `expected ${status} ${code}, got ${res.status}: ${res.body}`);
  assert.match(String(res.headers['content-type']), /^application\/json/);
  const body = res.json;
  assert.ok(body && typeof body === 'object', `error body is not JSON: ${res.body}`);
  assert.equal(body.code, code, res.body);
  assert.equal(typeof body.message, 'string');
  assert.ok(body.message.length > 0, 'message is empty');
  assert.equal(typeof body.request_id, 'string');
  assert.ok(body.request_id.length > 0, 'request_id is empty');
  assert.equal(
    body.request_id,
    res.headers['x-request-id'],
    'request_id differs from the x-request-id header',
  );
  assert.ok(Array.isArray(body.errors), 'errors is not an array');
  for (const e of body.errors) {
    assert.deepEqual(Object.keys(e).sort(), ['details', 'error_code', 'field', 'message'], JSON.stringify(e));
    assert.ok(e.field === null || typeof e.field === 'string');
    assert.equal(typeof e.message, 'string');
    assert.equal(typeof e.error_code, 'string');
  }
}

/** The `field`s named in an error body. */
export function errorFields(res: InjectResult): string[] {
  return (res.json?.errors ?? []).map((e: { field: string | null }) => e.field);
}

export interface RouteInfo {
  method: string;
  url: string;
  auth: boolean;
  /** A connect-page route: it takes a widget token, and no other. */
  widget?: boolean;
}

/**
 * Every route the app registers, read from the route table itself (not from a hand-kept list), so a route added
 * later is covered by the suites that iterate over it.
 */
export function registeredRoutes(deps: AppDeps): RouteInfo[] {
  const probe = Fastify();
  const routes: RouteInfo[] = [];
  probe.addHook('onRoute', (r) => {
    const methods = Array.isArray(r.method) ? r.method : [r.method];
    for (const method of methods) {
      if (method === 'HEAD') continue;
      const auth = (r.config as { auth?: boolean | 'widget' } | undefined)?.auth;
      routes.push({ method, url: r.url, auth: auth !== false, widget: auth === 'widget' });
    }
  });
  registerRoutes(probe as unknown as App, deps);
  return routes;
}
