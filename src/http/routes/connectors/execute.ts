import { Type } from 'typebox';
import type { App } from '../../../app.ts';
import { executeConnector, isDownload } from '../../../core/connectors/execute.ts';
import type { CoreDeps } from '../../../core/context.ts';
import { ctxOf } from '../../auth.ts';
import { IdParams, JsonObject, withErrors } from '../../schemas.ts';

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
  result: Type.Unknown(),
  connector_metadata: Type.Object(
    { has_next_page: Type.Boolean(), end_cursor: Type.Union([Type.String(), Type.Null()]) },
    { additionalProperties: true },
  ),
  execution_metadata: Type.Object({
    connector_instance_id: Type.String(),
    execution_time_ms: Type.Integer(),
  }),
});

export function register(app: App, deps: CoreDeps) {
  app.post(
    '/api/v1/integrations/connectors/:id/execute',
    {
      schema: {
        tags: ['Execute'],
        summary:
          'Run an entity/action against the provider; paging is normalised to has_next_page/end_cursor',
        params: IdParams,
        body: Body,
        response: withErrors({ 200: Reply }, [424, 429, 502, 504]),
      },
    },
    async (request, reply) => {
      const out = await executeConnector(deps, ctxOf(request), request.params.id, {
        entity: request.body.entity,
        action: request.body.action,
        params: request.body.params ?? undefined,
        select_fields: request.body.select_fields,
        exclude_fields: request.body.exclude_fields,
        range: request.headers.range,
      });
      if (isDownload(out)) {
        // Streamed as it arrives: memory stays flat whatever the file's size.
        return reply.code(out.file.status).headers(out.file.headers).send(out.file.body);
      }
      const { rawResult, ...envelope } = out;
      if (rawResult) {
        // Same document as serialising the envelope, minus re-encoding a result that is already JSON bytes.
        const head = `{"status":"success","result":`;
        const tail = `,"connector_metadata":${JSON.stringify(envelope.connector_metadata)},"execution_metadata":${JSON.stringify(envelope.execution_metadata)}}`;
        return reply
          .type('application/json; charset=utf-8')
          .send(Buffer.concat([Buffer.from(head), rawResult, Buffer.from(tail)]));
      }
      return envelope;
    },
  );
}
