import { Type } from 'typebox';
import { catalogDetail } from '../../../connectors/catalog.ts';
import type { CoreDeps } from '../../../core/context.ts';
import { DomainError } from '../../../errors.ts';
import type { App } from '../../app-types.ts';
import { IdParams, withErrors } from '../../schemas.ts';

export function register(app: App, deps: CoreDeps) {
  app.get(
    '/api/v1/integrations/definitions/sources/:id',
    {
      schema: {
        tags: ['Catalog'],
        summary:
          'Everything needed to use a connector type: credential options, replication_config, entities',
        params: IdParams,
        response: withErrors({ 200: Type.Object({}, { additionalProperties: true }) }),
      },
    },
    async (request) => {
      const def = deps.registry.byId(request.params.id);
      if (!def)
        throw new DomainError('DEFINITION_NOT_FOUND', `Connector definition ${request.params.id} not found.`);
      return catalogDetail(def);
    },
  );
}
