// The rule `npm run lint` enforces with scripts/check-provider-names.mjs: only definitions and hook modules name a
// provider in code; the tree follows it, and the check finds a planted naming (so it cannot pass vacuously).
import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, it } from 'node:test';
import { namings, providerNamings, providerWords } from '../../scripts/check-provider-names.mjs';

const ROOT = path.resolve(import.meta.dirname, '../..');

describe('provider names', () => {
  it('are the slugs of the shipped definitions and their first words', () => {
    const words = providerWords(ROOT);
    for (const w of ['github', 'gong', 'zendesk-support', 'zendesk']) assert.ok(words.includes(w), w);
  });

  it('src names none outside src/connectors/hooks/ and the definitions', () => {
    assert.deepEqual(providerNamings(ROOT), []);
  });

  it('finds a provider in a string, in any case, but not in comments, identifiers or another word', () => {
    const words = providerWords(ROOT);
    const text = [
      "if (def.slug === 'gong') return;", // 1: a quirk in code
      'const label = `Zendesk`;', // 2: a template literal
      '// GitHub answers 404 here', // 3: a comment
      'const linearBackoff = 2; /* Slack */', // 4: an identifier, a comment
      "const s = 'gongs, linearly';", // 5: other words
      "const t = 'GitHub, Zendesk'; // provider-names: prose", // 6: allowed prose
    ].join('\n');
    assert.deepEqual(
      namings('x.ts', text, words).map((l) => l.split(':')[1]),
      ['1', '2'],
    );
  });
});
