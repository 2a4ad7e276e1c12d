/** The definition schema of `record_fields`: members ces writes on each record the provider answers (schema.ts). */
import Type from 'typebox';
import { ScalarType } from './schema-parts.ts';

/**
 * One member written on each record: the value at `from` in the record as the provider sent it, converted to
 * `type` when given (a number to its decimal string, a decimal string to a number; what cannot convert is
 * null). An absent or null source writes null.
 */
export const RecordFieldSchema = Type.Object(
  {
    from: Type.Array(Type.String({ minLength: 1 }), { minItems: 1, maxItems: 16 }),
    description: Type.String({ minLength: 1 }),
    type: Type.Optional(ScalarType),
  },
  { additionalProperties: false },
);

/**
 * A member name, or a dot path of at most 8 members into the record (objects made where they are missing).
 * Members made of letters, digits and `_ $ @ + -`: a key names a place in the record, never something to parse.
 */
export const RECORD_FIELD_KEY = '^[A-Za-z0-9_$@+-]+(\\.[A-Za-z0-9_$@+-]+){0,7}$';

/**
 * Members written on each record the provider answers to list, get, api_search, create and update (not delete or
 * download answers), before field selection, so `select_fields` and the Context Store see the written record.
 * Every `from` reads the provider's record, so two members can swap; members not named stay as they are. On an
 * entity it applies to all its actions; on an action it replaces the entity's (`{}`: none for that action).
 */
export const RecordFieldsSchema = Type.Record(Type.String({ pattern: RECORD_FIELD_KEY }), RecordFieldSchema, {
  maxProperties: 64,
  // A key outside the pattern is refused, not taken as an unchecked member.
  additionalProperties: false,
});

export type RecordFieldDefinition = Type.Static<typeof RecordFieldSchema>;
export type RecordFields = Type.Static<typeof RecordFieldsSchema>;
