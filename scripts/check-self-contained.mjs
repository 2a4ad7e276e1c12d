// The repository carries what its code and tests read: run by `npm run lint`, this fails, listing file:line, when a
// string literal in a .ts/.mts/.js/.mjs/.cjs file under src/, test/, bench/, packages/ or scripts/ names a path
// outside the checkout. A clone with nothing beside it must pass its own tests; CI has the steering repo's
// files beside its clone, so only a check like this one notices code that reads them.
//
// A literal is refused when it
//   - is relative ('./', '../', '.', '..') and, resolved from its file's directory, leaves the repository root
//     (imports, `new URL('../..', import.meta.url)`, `path.resolve(import.meta.dirname, '../..')`; string arguments
//     that follow each other in a call, `path.join(import.meta.dirname, '..', '..')`, are joined with '/' first);
//   - is absolute (or a file: URL) into /work/, /home/ or the directory the checkout sits in;
//   - contains the steering repo's reference folder (shared, then reference).
// Comments and regular expressions are not literals. Other absolute paths (URL paths, /proc, /tmp, /usr/bin, /dev,
// /etc) are fine. A relative literal that is data, not a path (a traversal attempt a test sends as a URL param),
// is allowed by a comment ending its line: `// self-contained: not a path`.
// scripts/reference-facts.ts is the one exception: a developer runs it by hand to reduce the reference
// descriptions beside the checkout into test/reference/.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const DIRS = ['src', 'test', 'bench', 'packages', 'scripts'];
export const EXCEPTIONS = ['scripts/reference-facts.ts'];
const EXTENSIONS = /\.(?:ts|mts|cts|js|mjs|cjs)$/;
const SKIP_DIRS = new Set(['node_modules', 'dist', 'test-results', 'data', '.tmp', '.test-build']);
const NOT_A_PATH = /\/\/\s*self-contained: not a path\s*$/;

// A `/` after one of these (or a keyword below) starts a regular expression, after anything else it divides.
const BEFORE_REGEX = new Set([...'(,=:[!&|?{};+-*%<>~^'], '');
const KEYWORDS_BEFORE_REGEX = new Set([
  'return',
  'typeof',
  'case',
  'do',
  'else',
  'in',
  'of',
  'new',
  'delete',
  'void',
  'throw',
  'yield',
  'await',
  'instanceof',
]);
const IDENT = /[\w$]/;

/**
 * Every string literal of `text` (quoted strings, and template literals chunk by chunk: `head` marks a template's
 * first chunk), with its line and its character range.
 */
export function stringLiterals(text) {
  const out = [];
  const n = text.length;
  let i = 0;
  let line = 1;
  let prev = '';
  let word = '';
  const substitutions = []; // open `${` of templates: the brace depth inside each

  const readTemplate = (head) => {
    // i is just past the backtick or the `}` closing a substitution
    const start = i;
    const startLine = line;
    let value = '';
    while (i < n) {
      const c = text[i];
      if (c === '\\') {
        value += text[i + 1] ?? '';
        if (text[i + 1] === '\n') line++;
        i += 2;
        continue;
      }
      if (c === '`') {
        out.push({ value, line: startLine, start, end: i, template: true, head });
        i++;
        prev = '`';
        return;
      }
      if (c === '$' && text[i + 1] === '{') {
        out.push({ value, line: startLine, start, end: i, template: true, head });
        i += 2;
        substitutions.push(0);
        prev = '{';
        return;
      }
      if (c === '\n') line++;
      value += c;
      i++;
    }
  };

  while (i < n) {
    const c = text[i];
    if (c === '\n') {
      line++;
      i++;
      continue;
    }
    if (c === ' ' || c === '\t' || c === '\r') {
      i++;
      continue;
    }
    if (c === '/' && text[i + 1] === '/') {
      while (i < n && text[i] !== '\n') i++;
      continue;
    }
    if (c === '/' && text[i + 1] === '*') {
      const close = text.indexOf('*/', i + 2);
      const stop = close === -1 ? n : close + 2;
      for (let k = i; k < stop; k++) if (text[k] === '\n') line++;
      i = stop;
      continue;
    }
    if (c === "'" || c === '"') {
      const start = i + 1;
      let value = '';
      i++;
      while (i < n && text[i] !== c && text[i] !== '\n') {
        if (text[i] === '\\') {
          value += text[i + 1] ?? '';
          i += 2;
        } else value += text[i++];
      }
      out.push({ value, line, start, end: i, template: false, head: true });
      i++;
      prev = c;
      continue;
    }
    if (c === '`') {
      i++;
      readTemplate(true);
      continue;
    }
    if (c === '/' && (BEFORE_REGEX.has(prev) || (IDENT.test(prev) && KEYWORDS_BEFORE_REGEX.has(word)))) {
      let inClass = false;
      i++;
      while (i < n && text[i] !== '\n') {
        const r = text[i];
        if (r === '\\') i += 2;
        else {
          i++;
          if (r === '[') inClass = true;
          else if (r === ']') inClass = false;
          else if (r === '/' && !inClass) break;
        }
      }
      while (i < n && IDENT.test(text[i])) i++;
      prev = ')';
      continue;
    }
    if (IDENT.test(c)) {
      const start = i;
      while (i < n && IDENT.test(text[i])) i++;
      word = text.slice(start, i);
      prev = text[i - 1];
      continue;
    }
    if (substitutions.length > 0 && c === '{') substitutions[substitutions.length - 1]++;
    if (substitutions.length > 0 && c === '}') {
      if (substitutions[substitutions.length - 1] === 0) {
        substitutions.pop();
        i++;
        readTemplate(false);
        continue;
      }
      substitutions[substitutions.length - 1]--;
    }
    prev = c;
    i++;
  }
  return out;
}

/**
 * What to check: each template chunk, and each run of quoted literals that are consecutive arguments
 * (`'..', '..', 'x'`): each member alone, then joined with '/' to the run's end (so `path.join(root, 'x', '..')`
 * is read from its '..' too). `run` is where the run starts: a run is reported once, by the first of these.
 */
function candidates(text, literals) {
  const out = [];
  for (let k = 0; k < literals.length; k++) {
    const first = literals[k];
    if (first.template) {
      out.push({ ...first, run: first.start });
      continue;
    }
    let end = k;
    while (
      end + 1 < literals.length &&
      !literals[end + 1].template &&
      /^\s*,\s*$/.test(text.slice(literals[end].end + 1, literals[end + 1].start - 1))
    )
      end++;
    for (let from = k; from <= end; from++) {
      out.push({ ...literals[from], run: first.start });
      if (from === end) continue;
      const value = literals
        .slice(from, end + 1)
        .map((l) => l.value)
        .join('/');
      out.push({ ...literals[from], value, run: first.start });
    }
    k = end;
  }
  return out;
}

const RELATIVE = /^\.\.?(?:\/|$)/;
const SHARED_REFERENCE = /shared\/reference/;
const FORBIDDEN_ROOTS = /^\/(?:work|home)(?:\/|$)/;

/** Why `value`, a literal of `file` (repository-relative), names a path outside the checkout at `root`; or null. */
export function outsideReason(value, file, root) {
  if (SHARED_REFERENCE.test(value)) return "names the steering repo's reference folder";
  if (RELATIVE.test(value)) {
    const resolved = path.posix.join(path.posix.dirname(file), value);
    return resolved === '..' || resolved.startsWith('../') ? 'climbs out of the repository' : null;
  }
  const absolute = value.startsWith('file://') ? value.slice('file://'.length) : value;
  if (!absolute.startsWith('/')) return null;
  if (FORBIDDEN_ROOTS.test(absolute)) return 'an absolute path under /work or /home';
  const parent = path.posix.dirname(root);
  if (parent !== '/' && (absolute === parent || absolute.startsWith(`${parent}/`)))
    return 'an absolute path beside the checkout';
  return null;
}

/** The literals of `text` (the file `file`, repository-relative) that name a path outside the checkout. */
export function outsidePaths(text, file, root) {
  const lines = text.split('\n');
  const found = [];
  const seen = new Set();
  for (const literal of candidates(text, stringLiterals(text))) {
    if (!literal.head && !SHARED_REFERENCE.test(literal.value)) continue;
    const why = outsideReason(literal.value, file, root);
    if (!why || NOT_A_PATH.test(lines[literal.line - 1] ?? '')) continue;
    if (seen.has(literal.run)) continue;
    seen.add(literal.run);
    found.push({ line: literal.line, literal: literal.value, why });
  }
  return found;
}

/** Every source file the check reads, repository-relative. */
export function sourceFiles(root) {
  const walk = (dir) =>
    fs.readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
      const rel = `${dir}/${entry.name}`;
      if (entry.isDirectory())
        return SKIP_DIRS.has(entry.name) || entry.name.startsWith('.') ? [] : walk(rel);
      return entry.isFile() && EXTENSIONS.test(entry.name) ? [rel] : [];
    });
  return DIRS.filter((d) => fs.existsSync(path.join(root, d))).flatMap(walk);
}

/** `file:line: literal (why)` for every offending literal under the checkout at `root`. */
export function check(root) {
  const out = [];
  for (const file of sourceFiles(root)) {
    if (EXCEPTIONS.includes(file)) continue;
    const text = fs.readFileSync(path.join(root, file), 'utf8');
    for (const f of outsidePaths(text, file, root)) out.push(`${file}:${f.line}: '${f.literal}' (${f.why})`);
  }
  return out;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const found = check(root);
  for (const line of found) console.error(line);
  if (found.length > 0) {
    console.error(
      `${found.length} literal(s) name a path outside the repository: the code and tests read only what it carries`,
    );
    process.exit(1);
  }
}
