/** Building blocks shared by the parts of the connector definition schema (schema.ts and its schema-*.ts). */
import Type from 'typebox';

/** Names used as entity, param and credential-field names: they appear in API bodies, so keep them boring. */
export const Name = Type.String({ pattern: '^[A-Za-z][A-Za-z0-9_]*$', maxLength: 64 });
/** A path into a JSON document, one key (or array index) per element; `[]` is the document itself. */
export const DPath = Type.Array(Type.String({ minLength: 1 }), { maxItems: 16 });
export const StringMap = Type.Record(
  Type.String({ pattern: "^[A-Za-z0-9!#$%&'*+.^_`|~-]+$" }),
  Type.String(),
);

export const ScalarType = Type.Union([
  Type.Literal('string'),
  Type.Literal('integer'),
  Type.Literal('number'),
  Type.Literal('boolean'),
]);
export const Scalar = Type.Union([Type.String(), Type.Number(), Type.Boolean()]);
export const Format = Type.Union([Type.Literal('date-time'), Type.Literal('date')]);
