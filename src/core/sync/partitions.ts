/**
 * A Context Store entity's partitions: one sync scope per item of a `replication_config` array (GitHub
 * `repositories: ["owner/repo", "owner/*"]`), each turned into list params by the definition's pattern, a
 * wildcard item expanded by listing another entity (an owner's repositories).
 */
import { matchPattern } from '../../connectors/template.ts';
import { type EntityLayout, valueAt } from '../../context-store/layout.ts';
import { type ListEntity, pageOf } from './page-source.ts';

/** The list params of each partition: one empty partition unless the definition partitions the entity. */
export async function resolvePartitions(
  layout: EntityLayout,
  config: Record<string, unknown>,
  list: ListEntity,
): Promise<Array<Record<string, string>>> {
  const spec = layout.spec.partitions;
  if (!spec) return [{}];
  const items = config[spec.config];
  const values = Array.isArray(items) ? items.filter((v): v is string => typeof v === 'string') : [];
  const out: Array<Record<string, string>> = [];
  const seen = new Set<string>();
  const add = (p: Record<string, string>) => {
    const key = JSON.stringify(p);
    if (!seen.has(key)) {
      seen.add(key);
      out.push(p);
    }
  };
  for (const value of values) {
    const params = matchPattern(spec.pattern, value);
    if (!params) continue;
    const wildcard = spec.wildcard;
    if (!wildcard || params[wildcard.param] !== '*') {
      add(params);
      continue;
    }
    const expandParams: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(wildcard.params)) expandParams[k] = fillTemplate(v, params);
    let cursor: string | null = null;
    do {
      const page = pageOf(
        await list(wildcard.entity, cursor ? { ...expandParams, cursor } : expandParams),
        false,
      );
      for (const record of page.records) {
        const v = valueAt(record, wildcard.value.split('.'));
        if (typeof v === 'string' || typeof v === 'number') add({ ...params, [wildcard.param]: String(v) });
      }
      cursor = page.next;
    } while (cursor);
  }
  return out;
}

function fillTemplate(template: string, params: Record<string, string>): string {
  return template.replace(/\{([A-Za-z][A-Za-z0-9_]*)\}/g, (_, name: string) => params[name] ?? '');
}
