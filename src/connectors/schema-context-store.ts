/** The definition schema of an entity's Context Store replication and indexed fields (see schema.ts). */
import Type from 'typebox';
import { Name, Scalar } from './schema-parts.ts';

/**
 * A field of an entity that the Context Store indexes for `search`: `name` is the record's dot path
 * (`user.login`), which is also the name clients filter and sort on.
 *   string     exact/`in`/`like`/sort, and `fuzzy`/`keyword` (full-text)
 *   text       long prose (bodies, descriptions): `fuzzy`/`keyword`/`like` only, no sort
 *   integer, number, boolean, timestamp (ISO 8601 in the record; compared as instants)
 *   array      `contains` on scalar items (`items: string|integer|number|boolean`), or `any` over object
 *              items whose fields are declared in `properties` (one level).
 */
const FieldPath = Type.String({
  pattern: '^[A-Za-z_][A-Za-z0-9_]*(\\.[A-Za-z_][A-Za-z0-9_]*){0,7}$',
  maxLength: 128,
});
const IndexedScalarType = Type.Union([
  Type.Literal('string'),
  Type.Literal('text'),
  Type.Literal('integer'),
  Type.Literal('number'),
  Type.Literal('boolean'),
  Type.Literal('timestamp'),
]);
export const IndexedFieldSchema = Type.Object(
  {
    name: FieldPath,
    type: Type.Union([IndexedScalarType, Type.Literal('array')]),
    description: Type.Optional(Type.String()),
    /**
     * Whether the field gets a B-tree index (filters and sort read it instead of the connector's rows). Default:
     * yes for every type but `text` and `array`, which never have one (load check). `false` makes each record's
     * write cheaper and the database smaller, for fields rarely filtered or sorted on alone.
     */
    index: Type.Optional(Type.Boolean()),
    /**
     * `timestamp` only: how the record writes it. `iso8601` (default); `unix_seconds` (a number, or a string of
     * one with a fraction, as Slack's `ts` "1700000000.000100"); `unix_ms` (a number).
     */
    format: Type.Optional(
      Type.Union([Type.Literal('iso8601'), Type.Literal('unix_seconds'), Type.Literal('unix_ms')]),
    ),
    /** `array` of scalars: their type. */
    items: Type.Optional(
      Type.Union([
        Type.Literal('string'),
        Type.Literal('integer'),
        Type.Literal('number'),
        Type.Literal('boolean'),
      ]),
    ),
    /** `array` of objects: their searchable members (dot paths inside one element). */
    properties: Type.Optional(
      Type.Array(
        Type.Object(
          { name: FieldPath, type: IndexedScalarType, description: Type.Optional(Type.String()) },
          { additionalProperties: false },
        ),
        { minItems: 1, maxItems: 32 },
      ),
    ),
  },
  { additionalProperties: false },
);

/**
 * Replication of an entity into the Context Store. The worker pages through the entity's `list` action with
 * `params` (plus the partition's and the incremental bound's), upserting records by `primary_key`.
 */
export const ContextStoreSchema = Type.Object(
  {
    /** Selected by default in clients' entity pickers (informational, like the reference's `suggested`). */
    suggested: Type.Optional(Type.Boolean()),
    fields: Type.Array(IndexedFieldSchema, { minItems: 1, maxItems: 64 }),
    /**
     * The collection action the sync reads: `list` (default), or `api_search` where only the provider's search
     * filters by update time (HubSpot's CRM search on `hs_lastmodifieddate`).
     */
    action: Type.Optional(Type.Union([Type.Literal('list'), Type.Literal('api_search')])),
    /** Fixed params of every sync request (largest page size, a stable order, every state, the properties...). */
    params: Type.Optional(Type.Record(Name, Type.Union([Scalar, Type.Array(Scalar, { maxItems: 100 })]))),
    /**
     * One sync per partition: each item of the `replication_config` array `config` is matched against
     * `pattern` (`{owner}/{repo}`), and the placeholders become list params. A partition whose `wildcard`
     * param equals `*` is first expanded by listing `wildcard.entity` with `wildcard.params` (templates over the
     * partition's params) and taking `wildcard.value` (a record dot path) of each record as that param.
     */
    partitions: Type.Optional(
      Type.Object(
        {
          config: Name,
          pattern: Type.String({ minLength: 3, maxLength: 128 }),
          wildcard: Type.Optional(
            Type.Object(
              {
                param: Name,
                entity: Name,
                params: Type.Record(Name, Type.String()),
                value: FieldPath,
              },
              { additionalProperties: false },
            ),
          ),
        },
        { additionalProperties: false },
      ),
    ),
    /**
     * Incremental refresh: `param` (a list param) receives the largest `field` value seen so far (a
     * timestamp field of the records), so a refresh fetches only what changed. `start_from` names a
     * `replication_config` key (e.g. `start_date`) whose value bounds the first backfill the same way.
     * `format`: how the bound is written into the param (default iso8601). For APIs that list a time window
     * and require both ends (Gong calls): `until` names a list param that receives the time the pass started
     * (the same for every page of the pass, also after a restart), and `earliest` is the lower bound of a
     * pass that has no other (the whole history).
     */
    incremental: Type.Optional(
      Type.Object(
        {
          /** The list param that filters by update time; absent with `order: descending`. */
          param: Type.Optional(Name),
          field: FieldPath,
          /**
           * `descending`: the list can't filter by update time but can sort by it, newest first (Notion's search
           * by `last_edited_time`): a refresh reads until the first record older than the bound, then stops.
           */
          order: Type.Optional(Type.Literal('descending')),
          start_from: Type.Optional(Name),
          /**
           * `iso8601` (default, second precision), `unix_seconds`, `unix_ms`, or `datetime_minutes`
           * ("2024-05-01 13:45", UTC; Jira's JQL dates). Numbers become text for a string param.
           */
          format: Type.Optional(
            Type.Union([
              Type.Literal('iso8601'),
              Type.Literal('unix_seconds'),
              Type.Literal('unix_ms'),
              Type.Literal('datetime_minutes'),
            ]),
          ),
          /**
           * Seconds taken off every incremental bound: for filters read in another clock (Jira reads JQL dates
           * in the account's time zone) or lagging indexes. Records read again are upserted, never doubled.
           */
          lookback_seconds: Type.Optional(Type.Integer({ minimum: 1, maximum: 604_800 })),
          until: Type.Optional(Name),
          earliest: Type.Optional(
            Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}Z$', maxLength: 20 }),
          ),
        },
        { additionalProperties: false },
      ),
    ),
    /**
     * The most records the provider answers for one query (HubSpot's search: 10,000). With `incremental`, and
     * `params` sorting ascending by its field, a pass that would read past it starts a new query from the
     * largest value seen instead (load check: needs incremental).
     */
    query_cap: Type.Optional(Type.Integer({ minimum: 1 })),
  },
  { additionalProperties: false },
);
