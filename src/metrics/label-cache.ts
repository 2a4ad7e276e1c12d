/**
 * A metric's children by label values. prom-client builds a label object and binds a new function on every
 * `labels(...)` call; here each label set's child is made once and found again through nested maps (no key
 * string built, nothing allocated) on the paths that observe per request. Label values come from closed sets
 * (definitions' slugs, entity and action names, route patterns, status codes), so the maps stay small.
 */
export class LabelCache<T> {
  private readonly root = new Map<string, Map<string, Map<string, Map<string, T>>>>();

  constructor(private readonly make: (a: string, b: string, c: string, d: string) => T) {}

  get(a: string, b = '', c = '', d = ''): T {
    let byA = this.root.get(a);
    if (!byA) {
      byA = new Map();
      this.root.set(a, byA);
    }
    let byB = byA.get(b);
    if (!byB) {
      byB = new Map();
      byA.set(b, byB);
    }
    let byC = byB.get(c);
    if (!byC) {
      byC = new Map();
      byB.set(c, byC);
    }
    let child = byC.get(d);
    if (child === undefined) {
      child = this.make(a, b, c, d);
      byC.set(d, child);
    }
    return child;
  }
}
