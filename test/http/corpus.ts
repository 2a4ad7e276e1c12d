// The machinery of the bad-input corpus (bad-input-corpus.test.ts, bad-input-params.test.ts): a harness whose
// every connector type points at a catch-all upstream, the real route table, a body per route that passes
// validation, and the check every answer must pass.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before } from 'node:test';
import { STATUS_BY_CODE, WIRE_CODES, type WireCode } from '../../src/http/errors.ts';
import { type AnyUpstreamHarness, startWithAnyUpstream } from '../helpers/any-upstream.ts';
import type { InjectResult } from '../helpers/harness.ts';
import { assertError } from './assertions.ts';
import { type AppRoute, appRoutes } from './route-table.ts';

export interface Corpus {
  a: AnyUpstreamHarness;
  routes: AppRoute[];
  /** A body that passes validation for the route, so one changed member reaches the handler. */
  baseBody(route: AppRoute): Record<string, unknown>;
  /** The route's URL with real ids (DELETE gets unknown ones: the corpus must not delete what it sweeps). */
  urlOf(route: AppRoute, param?: string): string;
  send(
    route: AppRoute,
    opts: { url?: string; payload?: string | Buffer; headers?: Record<string, string> },
  ): Promise<InjectResult>;
  /**
   * No 5xx; an error is the one body, with a known code whose status is the one answered. The one 5xx allowed
   * is UPSTREAM_BAD_RESPONSE on execute: the catch-all upstream answers `{}` where a list action expects
   * records, which says nothing about the input.
   */
  expectHandled(label: string, res: InjectResult): void;
  stillServing(): Promise<void>;
}

/** Registers the suite's before/after hooks; the returned object is filled in by `before`. */
export function useCorpus(): Corpus {
  let a: AnyUpstreamHarness;
  let githubId: string;
  let workspaceId: string;
  let widgetToken: string;
  const corpus = {} as Corpus;

  before(async () => {
    // Limits off: throttled answers are fine, but would stop the corpus reaching the handlers.
    a = await startWithAnyUpstream({
      CES_MAX_REQUESTS_PER_SECOND: '0',
      CES_MAX_END_USER_REQUESTS_PER_SECOND: '0',
      CES_MAX_WORKSPACE_END_USER_REQUESTS_PER_SECOND: '0',
      CES_TOKEN_FAILURES_PER_ADDRESS: '0',
      CES_TOKEN_FAILURES_PER_CLIENT: '0',
      CES_BODY_LIMIT_BYTES: String(4 * 1024 * 1024),
    });
    corpus.a = a;
    corpus.routes = await appRoutes(a.h.deps);
    githubId = a.connectors.get('github')!;
    // A workspace of its own for the workspace routes, so a rename cannot take `default` from the others.
    const scoped = await a.h.inject({
      method: 'POST',
      url: '/api/v1/account/applications/scoped-token',
      token: a.token,
      body: { workspace_name: 'corpus' },
    });
    assert.equal(scoped.status, 200, scoped.body);
    const list = await a.h.inject({
      method: 'GET',
      url: '/api/v1/workspaces?name_contains=corpus',
      token: a.token,
    });
    workspaceId = list.json.data[0].id;
    const widget = await a.h.inject({
      method: 'POST',
      url: '/api/v1/account/applications/widget-token',
      token: a.token,
      body: { workspace_name: 'corpus', allowed_origin: 'https://app.example.com' },
    });
    assert.equal(widget.status, 200, widget.body);
    widgetToken = widget.json.token;
  });
  after(() => a?.close());

  corpus.baseBody = (route) => {
    const key = `${route.method} ${route.url}`;
    switch (key) {
      case 'POST /api/v1/account/applications/token':
        return { client_id: a.h.boot.client_id, client_secret: 'not-the-secret' };
      case 'POST /api/v1/account/applications/scoped-token':
        return { workspace_name: 'corpus' };
      case 'POST /api/v1/account/applications/widget-token':
        return { workspace_name: 'corpus', allowed_origin: 'https://app.example.com' };
      case 'POST /mcp':
        return { jsonrpc: '2.0', id: 1, method: 'tools/list' };
      case 'POST /connect/api/check':
      case 'POST /connect/api/connectors':
        return { template_id: randomUUID(), credentials: { personal_access_token: 'ghp_corpus' } };
      case 'POST /connect/api/oauth':
        return { template_id: randomUUID(), nonce: 'corpus-nonce-0123456789' };
      case 'POST /api/v1/integrations/connectors':
        return {
          workspace_name: 'default',
          connector_type: 'github',
          credentials: { personal_access_token: 'ghp_corpus' },
          replication_config: { repositories: ['a/b'] },
        };
      case 'PUT /api/v1/integrations/connectors/:id':
        return { name: 'corpus' };
      case 'POST /api/v1/integrations/connectors/:id/execute':
        return { entity: 'issues', action: 'get', params: { owner: 'o', repo: 'r', number: 1 } };
      default:
        return {};
    }
  };

  corpus.urlOf = (route, param) =>
    route.url
      .replace(':id', param ?? (route.method === 'DELETE' ? randomUUID() : githubId))
      .replace(':workspace_id', param ?? (route.method === 'DELETE' ? randomUUID() : workspaceId))
      .replace('*', param ?? 'swagger-ui.css');

  corpus.send = async (route, opts) => {
    const headers: Record<string, string> = {};
    if (route.auth) headers.authorization = `Bearer ${route.widget ? widgetToken : a.token}`;
    if (opts.payload !== undefined) headers['content-type'] = 'application/json';
    Object.assign(headers, opts.headers);
    const res = await a.h.app.inject({
      method: route.method as 'GET',
      url: opts.url ?? corpus.urlOf(route),
      headers,
      ...(opts.payload !== undefined ? { payload: opts.payload } : {}),
    });
    let json: unknown;
    try {
      json = JSON.parse(res.body);
    } catch {
      json = undefined;
    }
    return { status: res.statusCode, headers: res.headers, body: res.body, raw: res.rawPayload, json };
  };

  corpus.expectHandled = (label, res) => {
    const where = `${label}: ${res.status} ${res.body.slice(0, 300)}`;
    const upstreamShape = res.status === 502 && res.json?.code === 'UPSTREAM_BAD_RESPONSE';
    assert.ok(res.status < 500 || upstreamShape, where);
    if (res.status < 400) return;
    const code = res.json?.code as WireCode;
    assert.ok(WIRE_CODES.includes(code), `unknown code; ${where}`);
    assert.equal(STATUS_BY_CODE[code], res.status, `${code} is not a ${res.status}; ${where}`);
    try {
      assertError(res, res.status, code);
    } catch (err) {
      throw new assert.AssertionError({ message: `${where}\n${(err as Error).message}` });
    }
  };

  corpus.stillServing = async () => {
    const health = await a.h.inject({ method: 'GET', url: '/healthz' });
    assert.equal(health.status, 200, health.body);
    assert.equal(({} as Record<string, unknown>).polluted, undefined, 'Object.prototype was polluted');
  };

  return corpus;
}
