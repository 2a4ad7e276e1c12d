import assert from 'node:assert/strict';
import type { Harness } from './harness.ts';

/** One entity's Context Store state, as GET /connectors/{id}/inspect shows it (asserting the request worked). */
export async function entityState(
  h: Harness,
  token: string,
  connectorId: string,
  entity: string,
): Promise<Record<string, unknown> | undefined> {
  const res = await h.inject({
    method: 'GET',
    url: `/api/v1/integrations/connectors/${connectorId}/inspect`,
    token,
  });
  assert.equal(res.status, 200, res.body);
  return (res.json.context_store.entities as Array<Record<string, unknown>>).find((e) => e.entity === entity);
}
