// The runtime side of a connector test against a provider fake: one runtime pointed at the fake, and a teardown
// (with or without a runtime) that fails the test when the fake received a request it has no route for.
import assert from 'node:assert/strict';
import {
  ConnectorRuntime,
  type ExecuteOutput,
  type RuntimeOptions,
} from '../../src/connectors/runtime/executor.ts';
import type { RecordedRequest } from '../connectors/kit/server.ts';

/** The cursor secret of runtimeFor's runtimes, for tests that look inside a cursor (helpers/cursors.ts). */
export const CURSOR_KEY = new Uint8Array(32).fill(5);

export function runtimeFor(
  slug: string,
  baseUrl: string,
  extra: Partial<RuntimeOptions> = {},
): ConnectorRuntime {
  return new ConnectorRuntime({
    cursorKey: CURSOR_KEY,
    upstreamOverrides: { [slug]: baseUrl },
    timeoutMs: 5000,
    ...extra,
  });
}

export async function closeChecked(
  rt: ConnectorRuntime | undefined,
  fake: { unhandled: RecordedRequest[]; close(): Promise<void> },
): Promise<void> {
  const unhandled = fake.unhandled.map((r) => `${r.method} ${r.path}`);
  await rt?.close();
  await fake.close();
  assert.deepEqual(unhandled, [], 'the fake received requests it has no route for');
}

type Exec = (entity: string, action: string, params: Record<string, unknown>) => Promise<ExecuteOutput>;

/** Runs the call, then follows end_cursor to the last page; returns every page. */
export async function allPages(exec: Exec, entity: string, action: string, params: Record<string, unknown>) {
  const pages: ExecuteOutput[] = [await exec(entity, action, params)];
  while (pages.at(-1)!.connector_metadata.has_next_page) {
    pages.push(await exec(entity, action, { cursor: pages.at(-1)!.connector_metadata.end_cursor }));
  }
  return pages;
}
