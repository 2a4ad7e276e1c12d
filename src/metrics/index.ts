/**
 * Prometheus metrics of one ces process (`GET /metrics`, on with CES_METRICS): a registry per instance, not
 * prom-client's global one, so several apps in one process (tests) keep their counts apart.
 *
 * No label carries a tenant's id or data or a secret: only connector type slugs, entity and action names of the
 * definitions, route patterns, methods and status codes, operator kinds and outcomes. Every value comes from a
 * closed set, which also bounds how many series there can be (test/http/metrics.test.ts plants ids and tokens
 * and checks none reaches a scrape).
 */
import { Counter, collectDefaultMetrics, Histogram, Registry } from 'prom-client';
import type { RuntimeObserver } from '../connectors/runtime/observer.ts';
import type { ContextStoreObserver } from '../core/context-store-observer.ts';
import { ContextStoreMetrics, type StoreGauges } from './context-store.ts';
import { LabelCache } from './label-cache.ts';
import { runtimeMetrics } from './runtime.ts';

/** From a cached read (5 ms) to a slow execute (30 s: one upstream attempt's default timeout). */
const HTTP_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

export { UNMATCHED_ROUTE } from './labels.ts';

interface HttpChild {
  count: { inc(): void };
  seconds: { observe(value: number): void };
}

export class Metrics {
  readonly registry = new Registry();
  readonly runtime: RuntimeObserver;
  readonly contextStore: ContextStoreObserver;
  private readonly http: LabelCache<HttpChild>;

  /** `store`: where the Context Store gauges are read at scrape time; without it they are left out. */
  constructor(store?: StoreGauges) {
    collectDefaultMetrics({ register: this.registry, prefix: 'ces_' });
    const registers = [this.registry];
    const labelNames = ['method', 'route', 'status_code'] as const;
    const requests = new Counter({
      name: 'ces_http_requests_total',
      help: 'HTTP requests answered, by method, route pattern and status code.',
      labelNames,
      registers,
    });
    const duration = new Histogram({
      name: 'ces_http_request_duration_seconds',
      help: 'Seconds from receiving an HTTP request to having sent its answer.',
      labelNames,
      buckets: HTTP_BUCKETS,
      registers,
    });
    this.http = new LabelCache((method, route, status) => ({
      count: requests.labels(method, route, status),
      seconds: duration.labels(method, route, status),
    }));
    this.runtime = runtimeMetrics(this.registry);
    this.contextStore = new ContextStoreMetrics(this.registry, store).observer;
  }

  /** One answered request; `route` is its pattern (`/…/connectors/:id/execute`), never the URL asked for. */
  httpRequest(method: string, route: string, status: number, seconds: number): void {
    const child = this.http.get(method, route, String(status));
    child.count.inc();
    child.seconds.observe(seconds);
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  /** The text format of every metric, the Context Store gauges read for it. */
  scrape(): Promise<string> {
    return this.registry.metrics();
  }
}
