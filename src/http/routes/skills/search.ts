import { Type } from 'typebox';
import type { CoreDeps } from '../../../core/context.ts';
import { searchSkills } from '../../../core/skills/list.ts';
import type { App } from '../../app-types.ts';
import { ctxOf } from '../../auth.ts';
import { withErrors } from '../../schemas.ts';
import { pageQuery, SkillListSchema, scopeQuery } from './schemas.ts';

const Query = Type.Object(
  { query: Type.String({ minLength: 1, maxLength: 500 }), ...pageQuery, ...scopeQuery },
  { additionalProperties: false },
);

export function register(app: App, deps: CoreDeps) {
  app.get(
    '/api/v1/skills/search',
    {
      schema: {
        tags: ['Skills'],
        summary:
          'Skills ranked by the words of `query` in their title, tags, summary and content (case-insensitive), paged',
        querystring: Query,
        response: withErrors({ 200: SkillListSchema }),
      },
    },
    async (request) => searchSkills(deps, ctxOf(request), request.query),
  );
}
