// What every provider fake shares, wired once: a recording server, the definition-driven token endpoint, the
// provider's error and rate-limit answers, injected faults and a router. A fake passes its definition, its
// routes and its envelopes; startFake answers every request in one order:
//   1. a fault injected with failNext (matching path prefix)   → the fault (default body: errors.body(status));
//      a hang answers nothing, a reset cuts whatever answer follows after its bytes
//   2. the token endpoint's path and method                    → the token endpoint (token.ts), after tokenDelayMs;
//      its path with another method is unserved (8.)
//   3. a path one of `publicRoutes` serves                     → its answer, with no credentials asked (a
//                                                                 download host); another method is unserved (8.)
//   4. authenticate(request) refuses                           → its answer (the provider's 401); with
//      `routeFirst`, a path no route serves is answered (8.) before this step
//   5. the rate limit, when the test enabled it                → errors.rateLimited(wait); then `budget`, the
//                                                                 provider's own limits: its refusal, or headers
//                                                                 every answer of 6.–8. carries
//   6. before(request, ctx) answers                            → its answer (version headers, body checks,
//                                                                 recorded answers replayed...)
//   7. a route of the router                                   → its answer
//   8. anything else                                           → errors.notFound (errors.methodNotAllowed for a
//                                                                 served path), recorded in `unhandled`
// An answer marked `unhandled` is sent and recorded in `unhandled` too.
// A test fails on `unhandled` being non-empty: a request the fake does not serve is a request the provider's
// description was not checked for.
import type { ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import type { ConnectorDefinition } from '../../../src/connectors/schema.ts';
import {
  type Answer,
  type Fault,
  FaultQueue,
  faultAnswer,
  type InjectedFault,
  type RateLimitOptions,
  rateLimit,
} from './errors.ts';
import { type Route, Router } from './router.ts';
import {
  cutAfter,
  type RecordedRequest,
  type RecordingServer,
  send as sendRaw,
  startRecordingServer,
} from './server.ts';
import type { TokenEndpoint } from './token.ts';

export type { Answer, Fault, HangFault, InjectedFault, RateLimitOptions, ResetFault } from './errors.ts';
export { perSecond } from './errors.ts';
export type { Route, RouteRequest } from './router.ts';
export type { RecordedRequest } from './server.ts';

export interface FakeOptions<Ctx> {
  definition: ConnectorDefinition;
  routes: readonly Route<Ctx>[] | Router<Ctx>;
  /**
   * Routes served to whoever asks, before authentication, the rate limit and `before` (a download host whose
   * URLs carry their own token). A path they serve is theirs whatever the method: another method is unserved.
   */
  publicRoutes?: readonly Route<undefined>[];
  token?: TokenEndpoint;
  /** Who the request acts as, or `{refuse}` with the provider's answer to missing or bad credentials. */
  authenticate(recorded: RecordedRequest): Ctx | { refuse: Answer };
  errors: {
    /** the provider's error body for a status (faults without a body) */
    body(status: number): unknown;
    /** the provider's answer to a path it does not serve; default 404 with `body(404)` */
    notFound?(recorded: RecordedRequest): Answer;
    /** its answer to a path it serves, with another method; default notFound's */
    methodNotAllowed?(recorded: RecordedRequest): Answer;
    /** the provider's 429 (or whatever it answers) after `wait` seconds of budget are missing */
    rateLimited?(wait: number, perSecond: number): Answer;
    /**
     * the answer to an injected fault (a reset's too, when it has a status), where the provider's depends on
     * the request (default: `faultAnswer`)
     */
    fault?(fault: Fault, recorded: RecordedRequest): Answer;
  };
  /** off unless `enabled` (see errors.ts) */
  rateLimit?: RateLimitOptions;
  /**
   * The provider's own limits where one bucket does not say it (several windows, kinds of request, a budget
   * reported on every answer): counted once per authenticated request, after `rateLimit`. `refuse` is its
   * answer to a spent budget; otherwise `headers` go on the answer of `before`, the route or the 404/405
   * (the answer's own headers win).
   */
  budget?(recorded: RecordedRequest, ctx: Ctx): { refuse: Answer } | { headers: Record<string, string> };
  /** a path no route serves is refused before authentication, as providers that 404 whoever asks */
  routeFirst?: boolean;
  /** checks every authenticated request passes before its route (e.g. a required version header) */
  before?(recorded: RecordedRequest, ctx: Ctx): Answer | undefined;
  /** the provider's writer (content type, charset); default JSON as application/json */
  send?(res: ServerResponse, answer: Answer): void;
  /** answer every request this much later, like a provider across the internet (benchmarks); default 0 */
  responseDelayMs?: number;
}

export interface Fake<F extends InjectedFault = InjectedFault> {
  origin: string;
  /** every request received, in order */
  requests: RecordedRequest[];
  /** requests no route served (answered as the provider's 404 and recorded here so tests fail on them) */
  unhandled: RecordedRequest[];
  /** the next matching request(s) get this answer instead */
  failNext(fault: F): void;
  /** requests to the token endpoint's path (whatever their method) */
  tokenRequests(): RecordedRequest[];
  router: Router<unknown>;
  server: RecordingServer;
  close(): Promise<void>;
}

export async function startFake<Ctx>(opts: FakeOptions<Ctx>): Promise<Fake> {
  const requests: RecordedRequest[] = [];
  const unhandled: RecordedRequest[] = [];
  const faults = new FaultQueue<InjectedFault>();
  const limit = rateLimit(opts.rateLimit);
  const router = opts.routes instanceof Router ? opts.routes : new Router(opts.routes);
  const open = new Router(opts.publicRoutes ?? []);
  const token = opts.token;
  const write = opts.send ?? sendJson;

  const unserved = (recorded: RecordedRequest): Answer => {
    const { pathname } = new URL(recorded.path, 'http://fake.invalid');
    const served = router.knowsPath(pathname) || pathname === token?.path;
    const answer = (served ? opts.errors.methodNotAllowed?.(recorded) : undefined) ??
      opts.errors.notFound?.(recorded) ?? { status: 404, body: opts.errors.body(404) };
    return { ...answer, unhandled: true };
  };

  /** The answer to a request, or undefined for a hang; a reset has already wrapped `res`. */
  const handle = (recorded: RecordedRequest, res: ServerResponse): Answer | undefined => {
    const fault = faults.take(recorded.path);
    if (fault !== undefined && 'hang' in fault) return undefined;
    if (fault !== undefined && 'resetAfterBytes' in fault) cutAfter(res, fault.resetAfterBytes);
    if (fault?.status !== undefined) {
      const answerFault = { ...fault, status: fault.status };
      return opts.errors.fault?.(answerFault, recorded) ?? faultAnswer(answerFault, opts.errors.body);
    }
    if (token?.serves(recorded) === true) return token.token(recorded);
    const { pathname } = new URL(recorded.path, 'http://fake.invalid');
    if (pathname === token?.path) return unserved(recorded);
    if (open.knowsPath(pathname)) return open.handle(recorded, undefined) ?? unserved(recorded);
    if (opts.routeFirst === true && router.match(recorded.method, pathname) === undefined)
      return unserved(recorded);
    const who = opts.authenticate(recorded);
    if (typeof who === 'object' && who !== null && 'refuse' in who) return who.refuse;
    const ctx = who as Ctx;
    const wait = limit.take();
    if (wait !== undefined && limit.perSecond !== undefined)
      return (
        opts.errors.rateLimited?.(wait, limit.perSecond) ?? {
          status: 429,
          headers: { 'retry-after': String(wait) },
          body: opts.errors.body(429),
        }
      );
    const spent = opts.budget?.(recorded, ctx);
    if (spent !== undefined && 'refuse' in spent) return spent.refuse;
    const answer = opts.before?.(recorded, ctx) ?? router.handle(recorded, ctx) ?? unserved(recorded);
    return spent === undefined ? answer : { ...answer, headers: { ...spent.headers, ...answer.headers } };
  };

  const server = await startRecordingServer(
    (_req, res, recorded) => {
      const answered = handle(recorded, res);
      if (answered === undefined) return;
      const { unhandled: notServed, ...answer } = answered;
      if (notServed === true) unhandled.push(recorded);
      const delay = token?.serves(recorded) === true ? token.tokenDelayMs : 0;
      if (delay > 0) setTimeout(() => write(res, answer), delay);
      else write(res, answer);
    },
    { requests, unhandled },
    { responseDelayMs: opts.responseDelayMs ?? 0 },
  );

  return {
    origin: server.origin,
    requests,
    unhandled,
    failNext: (fault) => faults.push(fault),
    tokenRequests: () =>
      requests.filter((r) => new URL(r.path, 'http://fake.invalid').pathname === token?.path),
    router: router as Router<unknown>,
    server,
    close: () => server.close(),
  };
}

export function sendJson(res: ServerResponse, answer: Answer): void {
  const body = answer.body;
  const raw =
    typeof body === 'string' || Buffer.isBuffer(body) || body === undefined || body instanceof Readable;
  sendRaw(
    res,
    answer.status,
    { ...(raw ? {} : { 'content-type': 'application/json' }), ...(answer.headers ?? {}) },
    answer.body,
  );
}
