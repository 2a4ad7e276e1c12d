// Reading ces's GET /metrics (Prometheus text format, as prom-client writes it): the metrics tests and the
// Context Store bench compare samples before and after.
import assert from 'node:assert/strict';

/** One scrape: every sample by `name{label="value",…}` (labels in the order given), plus the raw text. */
export interface Scrape {
  text: string;
  samples: Array<{ name: string; labels: Record<string, string>; value: number }>;
}

export function parseMetrics(text: string): Scrape {
  const samples: Scrape['samples'] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    assert.ok(m, `not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const l of (m[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g))
      labels[l[1] as string] = (l[2] as string).replace(/\\(.)/g, (_, c) => (c === 'n' ? '\n' : c));
    samples.push({ name: m[1] as string, labels, value: Number(m[3]) });
  }
  return { text, samples };
}

const matches = (labels: Record<string, string>) => (x: Scrape['samples'][number]) =>
  Object.entries(labels).every(([k, v]) => x.labels[k] === v);

/** The sum of the samples of `name` whose labels include `labels` (0 when there are none). */
export function metricValue(s: Scrape, name: string, labels: Record<string, string> = {}): number {
  return s.samples.filter((x) => x.name === name && matches(labels)(x)).reduce((n, x) => n + x.value, 0);
}

/** Whether a sample of `name` with (at least) `labels` is there. */
export function hasMetric(s: Scrape, name: string, labels: Record<string, string> = {}): boolean {
  return s.samples.some((x) => x.name === name && matches(labels)(x));
}
