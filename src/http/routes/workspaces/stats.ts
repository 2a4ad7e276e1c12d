import { Type } from 'typebox';
import type { CoreDeps } from '../../../core/context.ts';
import { workspaceStats } from '../../../core/workspaces/list.ts';
import type { App } from '../../app-types.ts';
import { ctxOf } from '../../auth.ts';
import { withErrors } from '../../schemas.ts';

export function register(app: App, deps: CoreDeps) {
  app.get(
    '/api/v1/workspaces/stats',
    {
      schema: {
        tags: ['Workspaces'],
        summary: 'Count workspaces by status',
        response: withErrors({
          200: Type.Object({
            active_count: Type.Integer(),
            inactive_count: Type.Integer(),
            total_count: Type.Integer(),
          }),
        }),
      },
    },
    async (request) => workspaceStats(deps, ctxOf(request)),
  );
}
