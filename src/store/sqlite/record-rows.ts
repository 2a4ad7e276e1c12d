/**
 * The rows SQLite's index tables take for a page of records: built from parsed records (`encodeRows`), or on
 * the writer thread from the provider's bytes of the list (`decodeList`), which keeps a backfill's parsing and
 * encoding off the thread that answers requests. A row: connector id (the writer puts its key in its place),
 * record key, the record's JSON, sync generation, synced at, then each field's column value.
 */
import { elementTexts } from '../../connectors/runtime/json-slice.ts';
import { columnValue, type EntityLayout, recordKey } from '../../context-store/layout.ts';
import { DomainError } from '../../errors.ts';

/** Where a field's value sits in a row. */
const FIRST_FIELD = 5;

export function encodeRows(
  connectorId: string,
  layout: EntityLayout,
  records: readonly unknown[],
  generation: number,
  syncedAt: string,
  /** Each record's JSON as the provider wrote it, kept instead of serialising the record again. */
  texts?: readonly string[],
): unknown[][] {
  const fields = [...layout.fields.values()];
  const rows: unknown[][] = [];
  for (const [i, record] of records.entries()) {
    const key = recordKey(layout, record);
    if (key === undefined) continue; // without its primary key a record can't be kept in step
    const row: unknown[] = [connectorId, key, texts?.[i] ?? JSON.stringify(record), generation, syncedAt];
    for (const f of fields) row.push(columnValue(f, record));
    rows.push(row);
  }
  return rows;
}

/** A page given to the writer as the provider's bytes of its list of records (`encodeBytes`). */
export interface ListPage {
  /** The list's bytes in the pieces they arrived in. */
  list: readonly Uint8Array[];
  connectorId: string;
  generation: number;
  syncedAt: string;
  /** The incremental field whose largest value the commit reports, under this partition key. */
  high?: { field: string; key: string };
}

export interface DecodedList {
  /** Empty when the decoder was given a port to post them to (context-writer-thread.ts). */
  rows: unknown[][];
  /** The largest value (ms) of the page's `high` field among its records. */
  high?: number;
}

/** The rows of a list page, and the largest value of its `high` field. */
export function decodeList(page: ListPage, layout: EntityLayout): DecodedList {
  const [only] = page.list;
  const bytes =
    page.list.length === 1 && only
      ? Buffer.from(only.buffer, only.byteOffset, only.byteLength)
      : Buffer.concat(page.list);
  let records: unknown;
  try {
    records = JSON.parse(bytes.toString('utf8'));
  } catch {
    // Not the parser's message: it quotes the provider's text.
    throw new DomainError(
      'UPSTREAM_BAD_RESPONSE',
      `The provider (${layout.slug}) returned a list of ${layout.entity} that is not valid JSON.`,
    );
  }
  if (!Array.isArray(records)) {
    throw new DomainError(
      'UPSTREAM_BAD_RESPONSE',
      `The provider (${layout.slug}) returned no list of ${layout.entity}.`,
    );
  }
  const texts = elementTexts(bytes, records.length);
  const rows = encodeRows(page.connectorId, layout, records, page.generation, page.syncedAt, texts);
  if (!page.high) return { rows };
  const at = FIRST_FIELD + [...layout.fields.keys()].indexOf(page.high.field);
  let high: number | undefined;
  for (const row of rows) {
    const ms = row[at];
    if (typeof ms === 'number' && (high === undefined || ms > high)) high = ms;
  }
  return high === undefined ? { rows } : { rows, high };
}
