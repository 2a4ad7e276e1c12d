/** Wire schemas of the skills routes, in the reference's shapes (SkillListResponse, SkillDocsResponse). */
import { Type } from 'typebox';
import { Uuid } from '../../schemas.ts';

const OrNull = <T extends Parameters<typeof Type.Union>[0][number]>(s: T) => Type.Union([s, Type.Null()]);

export const SkillMetadataSchema = Type.Object({
  id: Type.String(),
  kind: Type.Union([Type.Literal('static'), Type.Literal('connector_source')]),
  title: Type.String(),
  summary: OrNull(Type.String()),
  tags: Type.Array(Type.String()),
  provenance: Type.String(),
  version: Type.String(),
  freshness: Type.Object({
    state: Type.Union([
      Type.Literal('static'),
      Type.Literal('live'),
      Type.Literal('degraded'),
      Type.Literal('unknown'),
    ]),
    checked_at: OrNull(Type.String()),
  }),
  warnings: Type.Array(Type.String()),
});

export const SkillListSchema = Type.Object({
  data: Type.Array(SkillMetadataSchema),
  next_cursor: OrNull(Type.String()),
});

const ContentBlockSchema = Type.Object({
  type: Type.Union([
    Type.Literal('heading'),
    Type.Literal('paragraph'),
    Type.Literal('list'),
    Type.Literal('code'),
    Type.Literal('table'),
  ]),
  text: Type.Optional(Type.String()),
  level: Type.Optional(Type.Integer()),
  items: Type.Optional(Type.Array(Type.String())),
  language: Type.Optional(Type.String()),
  code: Type.Optional(Type.String()),
  headers: Type.Optional(Type.Array(Type.String())),
  rows: Type.Optional(Type.Array(Type.Array(Type.String()))),
});

export const SkillDocsSchema = Type.Object({
  metadata: SkillMetadataSchema,
  outline: Type.Array(
    Type.Object({
      id: Type.String(),
      title: Type.String(),
      summary: OrNull(Type.String()),
      available: Type.Boolean(),
    }),
  ),
  section_id: OrNull(Type.String()),
  content: Type.Array(ContentBlockSchema),
});

/** `organization_id` and `workspace_id`, accepted by every skills route (skills hold no tenant data). */
export const scopeQuery = {
  organization_id: Type.Optional(Uuid),
  workspace_id: Type.Optional(Uuid),
};

export const pageQuery = {
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
  cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 1000 })),
};
