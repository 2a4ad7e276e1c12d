/**
 * The provider's own bytes of the value at a path of object keys in a JSON document, found by a scanner that
 * builds no objects. A list nested under a key (Zendesk's `{"tickets": [...], "next_page": ...}`) then reaches the
 * client as the provider wrote it, as whole-body lists already do, instead of being serialised again from the
 * parsed records. The document is one the caller has parsed already (so it is valid JSON); anything unexpected
 * (an array index in the path, a missing key) answers undefined and the caller serialises the parsed value.
 * Where a key repeats, the last one counts, as in JSON.parse.
 */
import { bracketEnds, withJoinedInMemory } from './bracket-scan.ts';
import { joinParts, rangeOfParts } from './parts.ts';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const COMMA = 0x2c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;

const isSpace = (b: number | undefined) => b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09;

export function jsonSlice(doc: Buffer, path: readonly string[]): Buffer | undefined {
  const found = path.length === 0 ? undefined : locate(doc, path);
  return found && doc.subarray(found[0], found[1]);
}

/** [start, end) of the value at `path` (`[]`: from the document's first byte to its end); undefined if none. */
function locate(doc: Buffer, path: readonly string[], ends = bracketEnds(doc)): [number, number] | undefined {
  let found: [number, number] | undefined = [skipSpace(doc, 0), doc.length];
  for (const key of path) {
    found = member(doc, found[0], key, ends);
    if (!found) return undefined;
  }
  return found;
}

function skipSpace(doc: Buffer, at: number): number {
  let i = at;
  while (isSpace(doc[i])) i++;
  return i;
}

/** [start, end) of the value of `key` in the object starting at `at`, the last one if it repeats. */
function member(
  doc: Buffer,
  at: number,
  key: string,
  ends: (at: number) => number,
): [number, number] | undefined {
  if (doc[at] !== OPEN_OBJECT) return undefined;
  let i = skipSpace(doc, at + 1);
  let found: [number, number] | undefined;
  if (doc[i] === CLOSE_OBJECT) return undefined;
  for (;;) {
    if (doc[i] !== QUOTE) return undefined;
    const keyEnd = stringEnd(doc, i);
    if (keyEnd < 0) return undefined;
    const name = keyText(doc, i, keyEnd);
    i = skipSpace(doc, keyEnd);
    if (doc[i] !== COLON) return undefined;
    const valueStart = skipSpace(doc, i + 1);
    const valueEnd = valueEndAt(doc, valueStart, ends);
    if (valueEnd < 0) return undefined;
    if (name === key) found = [valueStart, valueEnd];
    i = skipSpace(doc, valueEnd);
    if (doc[i] === COMMA) {
      i = skipSpace(doc, i + 1);
      continue;
    }
    return doc[i] === CLOSE_OBJECT ? found : undefined;
  }
}

function keyText(doc: Buffer, start: number, end: number): string {
  // Escapes are rare in keys: decode them the way JSON.parse would only when there is one.
  const raw = doc.toString('utf8', start + 1, end - 1);
  return raw.includes('\\') ? (JSON.parse(`"${raw}"`) as string) : raw;
}

/** The index just past the string whose opening quote is at `at`; -1 if it does not end. */
function stringEnd(doc: Buffer, at: number): number {
  let from = at + 1;
  for (;;) {
    const quote = doc.indexOf(QUOTE, from);
    if (quote < 0) return -1;
    if (!escaped(doc, quote)) return quote + 1;
    from = quote + 1;
  }
}

/** Whether the quote at `quote`, inside a string, is escaped: an odd number of backslashes before it. */
function escaped(doc: Buffer, quote: number): boolean {
  let slashes = 0;
  for (let k = quote - 1; doc[k] === BACKSLASH; k--) slashes++;
  return slashes % 2 === 1;
}

/**
 * The index just past the value starting at `at`; -1 if the text ends first. `ends` finds where an object or
 * array ends (bracket-scan.ts), made once per document.
 */
function valueEndAt(doc: Buffer, at: number, ends: (at: number) => number): number {
  const first = doc[at];
  if (first === QUOTE) return stringEnd(doc, at);
  if (first === OPEN_OBJECT || first === OPEN_ARRAY) return ends(at);
  // A number, true, false or null: up to the next delimiter.
  let i = at;
  while (i < doc.length) {
    const b = doc[i];
    if (b === COMMA || b === CLOSE_OBJECT || b === CLOSE_ARRAY || isSpace(b)) break;
    i++;
  }
  return i > at ? i : -1;
}

/**
 * Each element's [start, end) of a JSON array document that parsed already (a page of records as the provider
 * sent it), flat: start0, end0, start1, end1, ...; undefined if `doc` is not an array. The sync stores each
 * record's own bytes this way instead of serialising the parsed record again.
 */
export function arrayElements(doc: Buffer): number[] | undefined {
  let i = skipSpace(doc, 0);
  if (doc[i] !== OPEN_ARRAY) return undefined;
  const bounds: number[] = [];
  i = skipSpace(doc, i + 1);
  if (doc[i] === CLOSE_ARRAY) return bounds;
  const ends = bracketEnds(doc);
  for (;;) {
    const end = valueEndAt(doc, i, ends);
    if (end < 0) return undefined;
    bounds.push(i, end);
    i = skipSpace(doc, end);
    if (doc[i] === COMMA) i = skipSpace(doc, i + 1);
    else return doc[i] === CLOSE_ARRAY ? bounds : undefined;
  }
}

/**
 * The list at `path` of a document not parsed yet (`[]`: the whole document is the list), cut out of it: its
 * bytes, and the text of the rest with an empty list in its place (the envelope, for the caller to parse). A
 * nested list is scanned for where it ends; a whole document is taken from its first to its last bracket,
 * unscanned. The records themselves are not checked here: the sync's writer parses them, and an execute reply
 * passes them on as the provider wrote them. Undefined: no list there, or not where a well-formed document would
 * have it.
 *
 * The document is given as the chunks it arrived in (one buffer is one chunk) and is not joined: the list is
 * sub-ranges of the chunks. A nested list is looked for in the one copy of the chunks the scanner makes anyway
 * (bracket-scan.ts), the envelope's text taken from there; a document too large for that copy is looked for in
 * the chunks joined, and its list is still ranges of the chunks (the joined copy is not kept).
 */
export function cutList(
  parts: readonly Buffer[],
  path: readonly string[],
): { list: readonly Buffer[]; envelope: string } | undefined {
  if (path.length === 0) return cutWholeList(parts);
  let cut = withJoinedInMemory(parts, (doc, ends) => listBounds(doc, path, ends));
  // Undefined: too large for the scanner's memory (null: no list there).
  if (cut === undefined) cut = listBounds(joinParts(parts), path);
  return cut ? { list: rangeOfParts(parts, cut.start, cut.end), envelope: cut.envelope } : undefined;
}

function listBounds(
  doc: Buffer,
  path: readonly string[],
  ends?: (at: number) => number,
): { start: number; end: number; envelope: string } | null {
  const found = locate(doc, path, ends);
  if (!found || doc[found[0]] !== OPEN_ARRAY) return null;
  const [start, end] = found;
  return { start, end, envelope: `${doc.toString('utf8', 0, start)}[]${doc.toString('utf8', end)}` };
}

/**
 * cutList of a whole document that is a list: the same chunks from its first bracket to its last, without
 * joining them (the bytes in between are not looked at).
 */
export function cutWholeList(
  parts: readonly Buffer[],
): { list: readonly Buffer[]; envelope: string } | undefined {
  let first = 0;
  let start = 0;
  for (; first < parts.length; first++) {
    const part = parts[first] as Buffer;
    start = skipSpace(part, 0);
    if (start < part.length) break;
  }
  let last = parts.length - 1;
  let end = 0;
  for (; last >= first; last--) {
    const part = parts[last] as Buffer;
    end = part.length;
    while (end > (last === first ? start : 0) && isSpace(part[end - 1])) end--;
    if (end > (last === first ? start : 0)) break;
  }
  // `last === first` with one byte: a lone bracket is no list.
  if (last < first || (last === first && end - start < 2)) return undefined;
  if (parts[first]?.[start] !== OPEN_ARRAY || parts[last]?.[end - 1] !== CLOSE_ARRAY) return undefined;
  if (first === last) return { list: [(parts[first] as Buffer).subarray(start, end)], envelope: '[]' };
  const list = parts.slice(first, last + 1);
  list[0] = (list[0] as Buffer).subarray(start);
  list[list.length - 1] = (list[list.length - 1] as Buffer).subarray(0, end);
  return { list, envelope: '[]' };
}

/**
 * Each element's text of a JSON array document that parsed already into `count` elements (a page of records as
 * the provider sent it); undefined if the bytes do not hold that many.
 */
export function elementTexts(doc: Buffer, count: number): string[] | undefined {
  const bounds = arrayElements(doc);
  if (!bounds || bounds.length !== count * 2) return undefined;
  const texts: string[] = new Array(count);
  for (let i = 0; i < count; i++) texts[i] = doc.toString('utf8', bounds[2 * i], bounds[2 * i + 1]);
  return texts;
}
