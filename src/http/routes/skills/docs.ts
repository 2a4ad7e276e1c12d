import { Type } from 'typebox';
import type { CoreDeps } from '../../../core/context.ts';
import { readSkillDocs } from '../../../core/skills/docs.ts';
import type { App } from '../../app-types.ts';
import { ctxOf } from '../../auth.ts';
import { withErrors } from '../../schemas.ts';
import { SkillDocsSchema, scopeQuery } from './schemas.ts';

const Query = Type.Object(
  {
    id: Type.String({ minLength: 1, maxLength: 200 }),
    section: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    ...scopeQuery,
  },
  { additionalProperties: false },
);

export function register(app: App, deps: CoreDeps) {
  app.get(
    '/api/v1/skills/docs',
    {
      schema: {
        tags: ['Skills'],
        summary:
          "A skill's metadata and outline, with its execution guidance, or with one section's content (`section`)",
        querystring: Query,
        response: withErrors({ 200: SkillDocsSchema }),
      },
    },
    async (request) => readSkillDocs(deps, ctxOf(request), request.query),
  );
}
