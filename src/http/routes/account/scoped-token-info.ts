import { Type } from 'typebox';
import type { CoreDeps } from '../../../core/context.ts';
import { scopedTokenInfo } from '../../../core/tokens/scoped-token.ts';
import type { App } from '../../app-types.ts';
import { ctxOf } from '../../auth.ts';
import { Uuid, withErrors } from '../../schemas.ts';

export function register(app: App, deps: CoreDeps) {
  app.get(
    '/api/v1/account/applications/scoped-token/info',
    {
      schema: {
        tags: ['Authentication'],
        summary: 'Workspace metadata of a scoped token',
        response: withErrors({
          200: Type.Object({ organization_id: Uuid, workspace_id: Uuid, workspace_name: Type.String() }),
        }),
      },
    },
    async (request) => scopedTokenInfo(deps, ctxOf(request)),
  );
}
