import { Type } from 'typebox';
import type { CoreDeps } from '../../../core/context.ts';
import { noteSkillsServed } from '../../../core/skills/build.ts';
import { listSkills } from '../../../core/skills/list.ts';
import type { App } from '../../app-types.ts';
import { ctxOf } from '../../auth.ts';
import { withErrors } from '../../schemas.ts';
import { pageQuery, SkillListSchema, scopeQuery } from './schemas.ts';

const Query = Type.Object({ ...pageQuery, ...scopeQuery }, { additionalProperties: false });

export function register(app: App, deps: CoreDeps) {
  // The connector skills' freshness.checked_at: when this server started serving its definitions.
  noteSkillsServed(deps);
  app.get(
    '/api/v1/skills',
    {
      schema: {
        tags: ['Skills'],
        summary:
          'Agent-readable docs: the static skills, then one per connector type (connector-source:<definition id>), paged',
        querystring: Query,
        response: withErrors({ 200: SkillListSchema }),
      },
    },
    async (request) => listSkills(deps, ctxOf(request), request.query),
  );
}
