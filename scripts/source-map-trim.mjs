// Trims a bundle's source map to ces's own code (scripts/build.mjs runs it on every map it writes).
//
// Node parses a file's whole map the first time a stack trace passes through that file; for main.js, whose map is
// mostly the bundled dependencies' (634 of its 718 sources), that took ~80 ms of the event loop, and the first
// trace usually comes mid-traffic (undici formats the stack of the error that closes an idle upstream socket).
// Segments that point into node_modules/ become source-less (one field: the generated column), a run of them on
// a line one segment, so a dependency's frame keeps its place in dist/ instead of being attributed to whatever
// mapped segment comes before it. ces's own segments keep their exact positions.

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const DIGIT = new Map([...BASE64].map((c, i) => [c, i]));

/** The signed integers of one segment (base64 VLQ). */
function decodeSegment(text) {
  const fields = [];
  let value = 0;
  let shift = 0;
  for (const c of text) {
    const digit = DIGIT.get(c);
    if (digit === undefined) throw new Error(`source map: '${c}' is not a base64 digit`);
    value += (digit & 31) * 2 ** shift;
    if (digit & 32) {
      shift += 5;
      continue;
    }
    fields.push(value % 2 === 1 ? -(value - 1) / 2 : value / 2);
    value = 0;
    shift = 0;
  }
  if (shift !== 0) throw new Error('source map: a segment ends inside a number');
  return fields;
}

function encode(n) {
  let v = n < 0 ? -n * 2 + 1 : n * 2;
  let out = '';
  do {
    let digit = v % 32;
    v = Math.floor(v / 32);
    if (v > 0) digit |= 32;
    out += BASE64[digit];
  } while (v > 0);
  return out;
}

/**
 * The map with the segments of sources `drop` says yes to made source-less, and those sources left out. `map` is
 * a parsed version-3 map (no index maps: esbuild writes none); a new object is returned.
 */
export function trimSourceMap(map, drop = (source) => source.includes('node_modules/')) {
  const dropped = map.sources.map((s) => drop(s));
  if (!dropped.some(Boolean)) return map;
  // The sources kept, renumbered.
  const sources = [];
  const index = map.sources.map((s, i) => (dropped[i] ? -1 : sources.push(s) - 1));
  // Absolute values as read, and as last written (the fields after the column are relative across lines).
  const read = { source: 0, line: 0, column: 0, name: 0 };
  const written = { source: 0, line: 0, column: 0, name: 0 };
  const lines = map.mappings.split(';').map((line) => {
    if (line === '') return '';
    let column = 0;
    let writtenColumn = 0;
    let sourceless = false;
    const out = [];
    for (const text of line.split(',')) {
      const f = decodeSegment(text);
      column += f[0];
      if (f.length >= 4) {
        read.source += f[1];
        read.line += f[2];
        read.column += f[3];
        if (f.length >= 5) read.name += f[4];
      }
      if (f.length < 4 || dropped[read.source]) {
        if (!sourceless) {
          out.push(encode(column - writtenColumn));
          writtenColumn = column;
          sourceless = true;
        }
        continue;
      }
      let seg =
        encode(column - writtenColumn) +
        encode(index[read.source] - written.source) +
        encode(read.line - written.line) +
        encode(read.column - written.column);
      if (f.length >= 5) {
        seg += encode(read.name - written.name);
        written.name = read.name;
      }
      writtenColumn = column;
      written.source = index[read.source];
      written.line = read.line;
      written.column = read.column;
      sourceless = false;
      out.push(seg);
    }
    return out.join(',');
  });
  // Node's parser (20) reads a one-field segment at the very end of the mappings as if it had the fields of the
  // segment before it: a trailing separator ends it.
  const last = lines.at(-1)?.split(',').at(-1) ?? '';
  const mappings = lines.join(';') + (last !== '' && decodeSegment(last).length === 1 ? ';' : '');
  const trimmed = { ...map, sources, mappings };
  if (Array.isArray(map.sourcesContent))
    trimmed.sourcesContent = map.sourcesContent.filter((_, i) => !dropped[i]);
  return trimmed;
}
