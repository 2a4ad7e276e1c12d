// Provider quirks live in definitions (data) and, for one provider's own, in its hook module: run by `npm run
// lint`, this fails, listing file:line, when a string literal of TypeScript under src/ outside src/connectors/hooks/
// names a provider (a slug of src/connectors/definitions/*.yaml, or a slug's first word: `zendesk` of
// `zendesk-support`): `if (def.slug === 'gong')` is how a quirk hides from the format. Comments may name
// providers (they give examples: "Zendesk's subdomain"); identifiers are not read, as a code path telling
// providers apart compares a string. A string that is prose shown to readers, naming providers as
// examples, is allowed by a comment ending its line: `// provider-names: prose`.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { stringLiterals } from './check-self-contained.mjs';

const ALLOWED_DIRS = ['src/connectors/hooks/', 'src/connectors/definitions/'];
const PROSE = /\/\/\s*provider-names: prose\s*$/;

/** The words that name a provider: each definition's slug, and its first word when the slug has several. */
export function providerWords(root) {
  const dir = path.join(root, 'src/connectors/definitions');
  const slugs = fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.yaml'))
    .map((f) => f.slice(0, -'.yaml'.length));
  return [...new Set(slugs.flatMap((s) => [s, s.split('-')[0]]))].sort();
}

/** `file:line: text` for each line of `text` holding a string literal that names one of `words`. */
export function namings(file, text, words) {
  const pattern = new RegExp(`\\b(?:${words.join('|')})\\b`, 'i');
  const lines = text.split('\n');
  const hits = new Set();
  for (const literal of stringLiterals(text)) {
    if (!pattern.test(literal.value)) continue;
    const at = lines[literal.line - 1] ?? '';
    if (!PROSE.test(at)) hits.add(`${file}:${literal.line}: ${at.trim()}`);
  }
  return [...hits];
}

/** Every naming in the .ts files under src/ outside the allowed folders. */
export function providerNamings(root) {
  const words = providerWords(root);
  const walk = (d) =>
    fs.readdirSync(path.join(root, d)).flatMap((name) => {
      const rel = `${d}/${name}`;
      if (fs.statSync(path.join(root, rel)).isDirectory()) return walk(rel);
      return rel.endsWith('.ts') ? [rel] : [];
    });
  return walk('src')
    .filter((f) => !ALLOWED_DIRS.some((d) => f.startsWith(d)))
    .flatMap((f) => namings(f, fs.readFileSync(path.join(root, f), 'utf8'), words));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const found = providerNamings(root);
  for (const line of found) console.error(line);
  if (found.length > 0) {
    console.error(
      `${found.length} line(s) name a provider outside src/connectors/hooks/: declare the quirk in the definition, or as a hook`,
    );
    process.exit(1);
  }
}
