// `GET /api/v1/downloads?link=…`: follows a signed download link (see core/connectors/download-link.ts) and
// streams the file as execute's `download` does.
import { Type } from 'typebox';
import { openDownloadLink } from '../../../core/connectors/download-link.ts';
import { executeConnector } from '../../../core/connectors/execute.ts';
import type { CoreDeps } from '../../../core/context.ts';
import type { App } from '../../app-types.ts';
import { replyFile } from '../../execute-reply.ts';
import { withErrors } from '../../schemas.ts';

export function register(app: App, deps: CoreDeps) {
  app.get(
    '/api/v1/downloads',
    {
      // The signed, expiring link is the credential (its application is checked, and its organization's request
      // rate counted, as a token's would be).
      config: { auth: false },
      schema: {
        tags: ['Execute'],
        summary: 'Follow a download link (from the MCP download tool): streams the file',
        querystring: Type.Object(
          { link: Type.String({ minLength: 1, maxLength: 3500 }) },
          { additionalProperties: false },
        ),
        response: withErrors({ 200: Type.Unknown() }, [424, 429, 502, 503, 504]),
      },
    },
    async (request, reply) => {
      const link = await openDownloadLink(deps, request.query.link);
      const replied = new Promise<void>((resolve) => {
        if (reply.raw.destroyed) resolve();
        else reply.raw.once('close', () => resolve());
      });
      const out = await executeConnector(deps, link.ctx, link.connectorId, {
        entity: link.entity,
        action: 'download',
        params: link.params,
        range: request.headers.range,
        holdUntil: replied,
      });
      if (out.kind !== 'file') throw new Error('a download link ran an action other than download');
      return replyFile(reply, out.file, { 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' });
    },
  );
}
