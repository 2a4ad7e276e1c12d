/**
 * Answers that fit a context window: a result longer than the caller's limit is cut to whole records (a list
 * keeps its first records) and says so, with what to do next. A single record that alone is too long is
 * replaced by the start of its JSON text.
 */
import type { SearchPage } from '../core/connectors/search-answer.ts';

export const DEFAULT_MAX_CHARS = 20_000;

/** Room left for the marker and the envelope around the result. */
const MARGIN = 400;

export interface Capped {
  result: unknown;
  truncated?: {
    records_returned?: number;
    records_on_page?: number;
    chars: number;
    max_chars: number;
    hint: string;
  };
}

const HINT =
  'The answer was cut to fit max chars: keep fewer fields (select_fields), ask for smaller pages (the limit or per_page param), or raise max_chars_per_item. Records after the kept ones on this page were left out; the next page (params.cursor = end_cursor) follows the whole page.';

/** `room`: characters left for the result and its marker; `maxChars`: the caller's limit, as reported. */
export function capAnswer(result: unknown, room: number, maxChars = room): Capped {
  const text = JSON.stringify(result) ?? 'null';
  if (text.length <= room) return { result };
  const budget = Math.max(0, room - MARGIN);
  if (Array.isArray(result)) {
    // The longest prefix of records that fits: the sizes add up, so a running sum finds it in one pass.
    let used = 2;
    let kept = 0;
    for (const record of result) {
      const size = (JSON.stringify(record) ?? 'null').length + (kept > 0 ? 1 : 0);
      if (used + size > budget) break;
      used += size;
      kept += 1;
    }
    if (kept > 0) {
      return {
        result: result.slice(0, kept),
        truncated: {
          records_returned: kept,
          records_on_page: result.length,
          chars: text.length,
          max_chars: maxChars,
          hint: HINT,
        },
      };
    }
  }
  return {
    result: { json_prefix: text.slice(0, budget) },
    truncated: { chars: text.length, max_chars: maxChars, hint: HINT },
  };
}

/**
 * A `context_store_search` page (`{data, meta}`) cut like a list: whole records of `data`, with `meta` (and so
 * `meta.cursor`, the next page) kept. A page whose first record alone is too long is cut as any other answer.
 */
export function capSearchPage(page: SearchPage, room: number, maxChars = room): Capped {
  const around = JSON.stringify({ data: [], meta: page.meta }).length - 2;
  const records = capAnswer(page.data, Math.max(0, room - around), maxChars);
  if (!records.truncated) return { result: page };
  if (!Array.isArray(records.result)) return capAnswer(page, room, maxChars);
  return { result: { data: records.result, meta: page.meta }, truncated: records.truncated };
}
