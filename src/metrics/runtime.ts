/** The connector runtime's metrics: upstream requests, retries, rate-limit waits, OAuth2 token requests. */
import { Counter, Histogram, type Registry } from 'prom-client';
import type { RuntimeObserver } from '../connectors/runtime/observer.ts';
import { LabelCache } from './label-cache.ts';

/** From a cached answer on a near provider (10 ms) to a slow report (a minute: the default per-attempt timeout is 30 s). */
const UPSTREAM_BUCKETS = [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

export function runtimeMetrics(registry: Registry): RuntimeObserver {
  const registers = [registry];
  const call = ['connector_type', 'entity', 'action', 'status_class'] as const;
  const requests = new Counter({
    name: 'ces_upstream_requests_total',
    help: 'HTTP requests sent to providers (each attempt; token requests included), by status class of the answer or kind of failure.',
    labelNames: call,
    registers,
  });
  const duration = new Histogram({
    name: 'ces_upstream_request_duration_seconds',
    help: 'Seconds from sending a request to a provider to having read its whole answer.',
    labelNames: call,
    buckets: UPSTREAM_BUCKETS,
    registers,
  });
  const retries = new Counter({
    name: 'ces_upstream_retries_total',
    help: 'Upstream requests sent again under the definition’s retry policy.',
    labelNames: ['connector_type', 'entity', 'action'] as const,
    registers,
  });
  const waits = new Counter({
    name: 'ces_upstream_rate_limit_waits_total',
    help: 'Upstream requests held back by the proactive rate limit before being sent.',
    labelNames: ['connector_type'] as const,
    registers,
  });
  const waited = new Counter({
    name: 'ces_upstream_rate_limit_wait_seconds_total',
    help: 'Seconds upstream requests were held back by the proactive rate limit.',
    labelNames: ['connector_type'] as const,
    registers,
  });
  const refreshes = new Counter({
    name: 'ces_oauth_refreshes_total',
    help: 'OAuth2 token requests: success, rejected (the connector needs new credentials) or error.',
    labelNames: ['connector_type', 'outcome'] as const,
    registers,
  });

  const calls = new LabelCache((type, entity, action, status) => ({
    count: requests.labels(type, entity, action, status),
    seconds: duration.labels(type, entity, action, status),
  }));
  const retried = new LabelCache((type, entity, action) => retries.labels(type, entity, action));
  const held = new LabelCache((type) => ({ count: waits.labels(type), seconds: waited.labels(type) }));
  const refreshed = new LabelCache((type, outcome) => refreshes.labels(type, outcome));

  return {
    upstreamRequest(type, entity, action, status, seconds) {
      const child = calls.get(type, entity, action, status);
      child.count.inc();
      child.seconds.observe(seconds);
    },
    retry(type, entity, action) {
      retried.get(type, entity, action).inc();
    },
    rateLimitWait(type, seconds) {
      const child = held.get(type);
      child.count.inc();
      child.seconds.inc(seconds);
    },
    oauthRefresh(type, outcome) {
      refreshed.get(type, outcome).inc();
    },
  };
}
