import { Type } from 'typebox';
import { executeConnector } from '../../../core/connectors/execute.ts';
import type { CoreDeps } from '../../../core/context.ts';
import type { App } from '../../app-types.ts';
import { ctxOf } from '../../auth.ts';
import { replyExecute } from '../../execute-reply.ts';
import { JsonObject, withErrors } from '../../schemas.ts';

const FieldPaths = Type.Union([
  Type.Array(Type.String({ minLength: 1, maxLength: 300 }), { maxItems: 200 }),
  Type.Null(),
]);
const Body = Type.Object(
  {
    entity: Type.String({ maxLength: 100 }),
    action: Type.String({ minLength: 1, maxLength: 50 }),
    params: Type.Optional(Type.Union([JsonObject(100), Type.Null()])),
    select_fields: Type.Optional(FieldPaths),
    exclude_fields: Type.Optional(FieldPaths),
    skip_truncation: Type.Optional(Type.Boolean()),
    intent: Type.Optional(Type.String({ maxLength: 512 })),
  },
  { additionalProperties: false },
);
const Reply = Type.Object({
  status: Type.Literal('success'),
  result: Type.Unknown({
    description:
      "list, api_search and search: the records (an array); get, create, update: the record; context_store_search: {data: [records], meta: {has_more, cursor, took_ms}}, meta.cursor being the next page's params.cursor (the same as connector_metadata.end_cursor).",
  }),
  connector_metadata: Type.Object(
    { has_next_page: Type.Boolean(), end_cursor: Type.Union([Type.String(), Type.Null()]) },
    { additionalProperties: true },
  ),
  execution_metadata: Type.Object({
    connector_instance_id: Type.String(),
    execution_time_ms: Type.Integer(),
  }),
});

/**
 * The reference types this id as a string: any text is looked up, and one that is not a connector's id is a
 * 404 like an unknown one (core answers it), not a 422. Bounded, since the 404 names it.
 */
const Params = Type.Object(
  { id: Type.String({ minLength: 1, maxLength: 200 }) },
  { additionalProperties: false },
);

export function register(app: App, deps: CoreDeps) {
  app.post(
    '/api/v1/integrations/connectors/:id/execute',
    {
      schema: {
        tags: ['Execute'],
        summary:
          'Run an entity/action against the provider; paging is normalised to has_next_page/end_cursor',
        description:
          'search and context_store_search read the Context Store (never the provider) and run the same query with the same cursor: search answers the records as an array, context_store_search as {data, meta: {has_more, cursor, took_ms}}; connector_metadata carries has_next_page, end_cursor and took_ms (whole milliseconds) for both.',
        params: Params,
        body: Body,
        response: withErrors({ 200: Reply }, [424, 429, 502, 503, 504]),
      },
    },
    async (request, reply) => {
      // The answer stays in memory until its reply is written (or the client is gone), so it stays counted
      // in the buffer budget until then: releasing it when execute returned instead let the next answers in
      // early and raised the peak RSS of 100 concurrent 30 MB answers from about 465 to 560 MB. 'close'
      // follows both; a response already closed settles at once.
      const replied = new Promise<void>((resolve) => {
        if (reply.raw.destroyed) resolve();
        else reply.raw.once('close', () => resolve());
      });
      const out = await executeConnector(deps, ctxOf(request), request.params.id, {
        entity: request.body.entity,
        action: request.body.action,
        params: request.body.params ?? undefined,
        select_fields: request.body.select_fields,
        exclude_fields: request.body.exclude_fields,
        range: request.headers.range,
        holdUntil: replied,
      });
      return replyExecute(request, reply, out);
    },
  );
}
