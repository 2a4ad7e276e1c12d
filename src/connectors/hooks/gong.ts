/**
 * Gong's quirks that no other provider shares (https://help.gong.io/apidocs/introduction-2).
 * Tested with the connector: test/connectors/gong/hooks.test.ts.
 */
import type { ConnectorHooks } from './types.ts';

export const gong: ConnectorHooks = {
  /**
   * `GET /v2/calls` and `POST /v2/calls/extensive` answer a filter that matches no call with 404 "No calls found
   * for the specified period": an empty window, not a missing resource. Any 404 of those lists is read so (the
   * runtime's UPSTREAM_NOT_FOUND); other errors stay errors.
   */
  emptyAnswer: (error) => error.code === 'UPSTREAM_NOT_FOUND',

  /**
   * `/v2/calls/extensive` names a call's media URLs only under `contentSelector.exposedFields.media: true`, so a
   * recording's download always asks for them, whatever the client's own content selector says; the rest of
   * the client's selector is kept.
   */
  downloadBody(body) {
    const selector = objectAt(body, 'contentSelector');
    const exposed = objectAt(selector, 'exposedFields');
    return { ...body, contentSelector: { ...selector, exposedFields: { ...exposed, media: true } } };
  },
};

function objectAt(value: Readonly<Record<string, unknown>>, key: string): Record<string, unknown> {
  const member = value[key];
  return typeof member === 'object' && member !== null && !Array.isArray(member)
    ? (member as Record<string, unknown>)
    : {};
}
