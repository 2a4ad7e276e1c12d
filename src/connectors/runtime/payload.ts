/**
 * What an execute answers as its `result`: values, or JSON bytes nobody parsed. Which one a caller holds is its
 * `kind`, never a getter: building records from bytes costs a parse of the whole list (a 30 MB answer is 30 MB of
 * objects), so it happens only where someone calls `parseRecords`, and reads as such. A reply that passes the
 * bytes on (src/http/execute-reply.ts) and a store that parses them on its own thread (the Context Store's sync)
 * never build them.
 */
import { DomainError } from '../../errors.ts';
import { elementTexts } from './json-slice.ts';
import { joinParts } from './parts.ts';

/**
 * Values the runtime parsed or built: a list of records, one record, whatever the provider answered. `json` is
 * the same value's JSON exactly as the provider wrote it, when the answer holds it unchanged (the whole body, or
 * the value the record selector names): a reply writes it on instead of serialising the value again.
 */
export interface RecordsPayload {
  readonly kind: 'records';
  readonly value: unknown;
  readonly json?: Buffer | undefined;
}

/**
 * Records as JSON bytes, not parsed: a list cut from the provider's answer, as ranges of its chunks as they came,
 * from the list's `[` to its `]` (json-slice.ts cutList found where it lies; the records inside were never looked
 * at); or a Context Store search's answer written around the stored records' own texts (search-answer.ts).
 */
export interface BytesPayload {
  readonly kind: 'bytes';
  /** The JSON text, joined in this order. */
  readonly parts: readonly Buffer[];
  /** Who wrote the bytes and for which call: the error's words if they are not JSON. */
  readonly source: { readonly provider: string; readonly operation: string };
}

export type Payload = RecordsPayload | BytesPayload;

export function recordsPayload(value: unknown, json?: Buffer): RecordsPayload {
  return { kind: 'records', value, json };
}

/**
 * The payload's values: a records payload's own, or a bytes payload's parsed (UPSTREAM_BAD_RESPONSE if they are
 * not JSON, the error a parsed answer would have had). Parses again at each call: call it once.
 */
export function parseRecords(payload: Payload): unknown {
  if (payload.kind === 'records') return payload.value;
  try {
    return JSON.parse(joinParts(payload.parts).toString('utf8'));
  } catch {
    const { provider, operation } = payload.source;
    throw new DomainError(
      'UPSTREAM_BAD_RESPONSE',
      `${provider} returned a list of records for ${operation} that is not valid JSON.`,
    );
  }
}

/**
 * Each record of a parsed list as the provider wrote it: what the Context Store keeps instead of serialising every
 * parsed record again. Undefined when the payload is not a list with the provider's bytes beside it.
 */
export function recordTexts(payload: Payload): string[] | undefined {
  if (payload.kind !== 'records') return undefined;
  const { json, value } = payload;
  return json && Array.isArray(value) ? elementTexts(json, value.length) : undefined;
}
