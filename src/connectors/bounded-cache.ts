/**
 * Values worked out once from text that comes from definitions or rarely-changing settings (templates, patterns,
 * base URLs): few keys in practice, so the whole cache is simply emptied when it reaches `max` entries. The bound
 * only stops an unforeseen caller from growing it without end. `get`, then `keep` on a miss: no callback, so a
 * hit on the hot path allocates nothing.
 */
export class BoundedCache<V> {
  private readonly entries = new Map<string, V>();

  constructor(private readonly max: number) {}

  get(key: string): V | undefined {
    return this.entries.get(key);
  }

  /** Keeps `value` for `key` and returns it. */
  keep(key: string, value: V): V {
    if (this.entries.size >= this.max) this.entries.clear();
    this.entries.set(key, value);
    return value;
  }
}
