import { Type } from 'typebox';
import { catalogListItem } from '../../../connectors/catalog.ts';
import type { CoreDeps } from '../../../core/context.ts';
import type { App } from '../../app-types.ts';
import { OPEN_REQUEST, withErrors } from '../../schemas.ts';

const Query = Type.Object({ name: Type.Optional(Type.String({ maxLength: 200 })) }, OPEN_REQUEST);
const Item = Type.Object({
  sourceDefinitionId: Type.String({ format: 'uuid' }),
  name: Type.String(),
  iconUrl: Type.String(),
  supportLevel: Type.String(),
});

export function register(app: App, deps: CoreDeps) {
  app.get(
    '/api/v1/integrations/definitions/sources',
    {
      schema: {
        tags: ['Catalog'],
        summary: 'List connector types; `name` is a case-insensitive partial match',
        querystring: Query,
        response: withErrors({ 200: Type.Object({ definitions: Type.Array(Item) }) }),
      },
    },
    async (request) => {
      const defs = request.query.name ? deps.registry.searchByName(request.query.name) : deps.registry.all();
      return { definitions: defs.map(catalogListItem) };
    },
  );
}
