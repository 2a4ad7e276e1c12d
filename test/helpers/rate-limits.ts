// Provider rate limits are off in tests unless a test is about them: ces's proactive limit for every shipped
// connector type is removed (CES_RATE_LIMIT_OVERRIDES null per slug), so a suite does not spend its time waiting
// on buckets sized for real providers (Notion's 3 a second alone cost one e2e file 9 of its 16 s). A test about
// throttling opts in by setting CES_RATE_LIMIT_OVERRIDES itself (`{}` keeps every definition's own limit).
import { readdirSync } from 'node:fs';
import path from 'node:path';

const DEFINITIONS = path.resolve(import.meta.dirname, '../../src/connectors/definitions');

let unlimited: string | undefined;

/** `env` with CES_RATE_LIMIT_OVERRIDES removing every shipped definition's limit, unless `env` sets it. */
export function withoutRateLimits<T extends Record<string, string | undefined>>(env: T): T {
  if (env.CES_RATE_LIMIT_OVERRIDES !== undefined) return env;
  unlimited ??= JSON.stringify(
    Object.fromEntries(
      readdirSync(DEFINITIONS)
        .filter((name) => name.endsWith('.yaml'))
        .map((name) => [name.slice(0, -'.yaml'.length), null]),
    ),
  );
  return { ...env, CES_RATE_LIMIT_OVERRIDES: unlimited };
}
