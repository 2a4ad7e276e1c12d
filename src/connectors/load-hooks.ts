/**
 * Load checks of a definition's hooks (src/connectors/hooks/): the module it names is registered, and it
 * implements every hook point an action uses, at a place that point applies to.
 */
import { type ConnectorHooks, HOOK_NAMES, HOOK_POINTS, type HookPoint, hookModule } from './hooks/index.ts';
import { ACTION_NAMES, COLLECTION_ACTIONS, type ConnectorDefinition } from './schema.ts';

/** Where each point applies, or why it does not (the action's name, and its request's method). */
const APPLIES: Record<HookPoint, (action: string, method: string, fileUrl: boolean) => string | null> = {
  empty_answer: (action) =>
    COLLECTION_ACTIONS.includes(action as never)
      ? null
      : `only ${COLLECTION_ACTIONS.join(' and ')} actions answer a list`,
  download_body: (action, method, fileUrl) =>
    action !== 'download' || !fileUrl
      ? 'only a download with file_url (it shapes the metadata request)'
      : method === 'GET' || method === 'DELETE'
        ? `a ${method} request has no body`
        : null,
  download_url: (action, _method, fileUrl) =>
    action !== 'download' || !fileUrl
      ? 'only a download with file_url (it reads the link found there)'
      : null,
};

/** `registry` is the hooks/index.ts one; a test passes its own to check a module that lacks a member. */
export function checkHooks(
  def: ConnectorDefinition,
  out: string[],
  registry: { names: readonly string[]; module(name: string): ConnectorHooks | undefined } = {
    names: HOOK_NAMES,
    module: hookModule,
  },
): void {
  const module = def.hooks === undefined ? undefined : registry.module(def.hooks);
  if (def.hooks !== undefined && module === undefined)
    out.push(`/hooks: no hook module '${def.hooks}' (registered: ${registry.names.join(', ') || 'none'})`);
  def.entities.forEach((entity, i) => {
    for (const name of ACTION_NAMES) {
      const action = entity.actions[name];
      action?.uses_hooks?.forEach((point, j) => {
        const at = `/entities/${i}/actions/${name}/uses_hooks/${j}`;
        const wrong = APPLIES[point](name, action.request.method, action.download?.file_url !== undefined);
        if (wrong !== null) out.push(`${at}: ${point}: ${wrong}`);
        if (def.hooks === undefined) out.push(`${at}: ${point} needs a hook module (top-level hooks)`);
        else if (module !== undefined && typeof module[HOOK_POINTS[point]] !== 'function')
          out.push(`${at}: hook module '${def.hooks}' does not implement ${point} (${HOOK_POINTS[point]})`);
      });
    }
  });
}

/** Format options that became hook points, by the end of the pointer a schema error names. */
const RETIRED: Array<[RegExp, string]> = [
  [/\/(actions\/[a-z_]+|context_store)\/not_found_is_empty: unknown property$/, 'uses_hooks: [empty_answer]'],
  [/\/actions\/download\/download\/body: unknown property$/, 'uses_hooks: [download_body]'],
];

/**
 * A schema error line, with where the option went when it names one that became a hook point, so a definition
 * written for an earlier ces says what to write instead of only "unknown property".
 */
export function withRetiredHint(line: string): string {
  const hit = RETIRED.find(([at]) => at.test(line));
  return hit === undefined
    ? line
    : `${line}: one provider's quirk is now a hook point of its hook module, ${hit[1]} (docs/connector-definitions.md, "Options and hooks")`;
}
