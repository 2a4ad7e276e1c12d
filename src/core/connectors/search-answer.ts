/**
 * The two answers of one Context Store search, one per action name. Both run the same query and page with the
 * same cursor; they differ only in `result`:
 *  - `search` answers the records as an array, as `list` does, so a generic client pages both alike;
 *  - `context_store_search` answers the page object the reference SDK's typed search parses,
 *    `{data: [records], meta: {has_more, cursor, took_ms}}` (its `took_ms` an integer: the SDK's model rejects
 *    a fraction).
 * `connector_metadata` carries `has_next_page`/`end_cursor` for both.
 */

/** The action whose `result` is the page object. */
export const SEARCH_PAGE_ACTION = 'context_store_search';
/** The search actions: records as an array, and the page object. */
export const SEARCH_ACTIONS: ReadonlySet<string> = new Set(['search', SEARCH_PAGE_ACTION]);

export interface SearchMeta {
  has_more: boolean;
  /** The next page's `params.cursor` (the same value as `connector_metadata.end_cursor`); null on the last. */
  cursor: string | null;
  took_ms: number;
}

/** `result` of a `context_store_search`. */
export interface SearchPage<T = unknown> {
  data: T[];
  meta: SearchMeta;
}

export function answersSearchPage(action: string): boolean {
  return action === SEARCH_PAGE_ACTION;
}

const DATA_HEAD = Buffer.from('{"data":');

/** `result` for `action`, around records already built. */
export function searchResult(action: string, records: unknown[], meta: SearchMeta): unknown {
  return answersSearchPage(action) ? ({ data: records, meta } satisfies SearchPage) : records;
}

/**
 * `result` for `action` as JSON bytes, around the stored records' own JSON texts: they are written as they are,
 * never parsed, in either shape.
 */
export function searchResultParts(action: string, recordTexts: string[], meta: SearchMeta): Buffer[] {
  const records = Buffer.from(`[${recordTexts.join(',')}]`);
  if (!answersSearchPage(action)) return [records];
  return [DATA_HEAD, records, Buffer.from(`,"meta":${JSON.stringify(meta)}}`)];
}
