// Confluence's hook (src/connectors/hooks/confluence.ts): an attachment's downloadLink joined to the answer's
// _links.base, and where the download_url hook point may be used. The e2e test downloads through it against the
// fake; this holds the edges the fake's answers don't show.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { confluence } from '../../../src/connectors/hooks/confluence.ts';
import { parseDefinition } from '../../../src/connectors/load.ts';

const link = '/download/attachments/65546/plan%20v2.pdf?version=3&api=v2';
const join = (answer: unknown, l = link) =>
  (confluence.downloadUrl as (l: string, a: unknown) => string)(l, answer);

describe('confluence.downloadUrl', () => {
  it("joins a root-relative link to _links.base, keeping the base's /wiki", () => {
    assert.equal(
      join({ _links: { base: 'https://acme.atlassian.net/wiki' } }),
      `https://acme.atlassian.net/wiki${link}`,
    );
    assert.equal(
      join({ _links: { base: 'https://acme.atlassian.net/wiki/' } }),
      `https://acme.atlassian.net/wiki${link}`,
    );
  });

  it('keeps an absolute or scheme-relative link as it is', () => {
    const base = { _links: { base: 'https://acme.atlassian.net/wiki' } };
    assert.equal(
      join(base, 'https://api.media.atlassian.com/file/x/binary'),
      'https://api.media.atlassian.com/file/x/binary',
    );
    assert.equal(join(base, '//elsewhere.example/file'), '//elsewhere.example/file');
  });

  it("without a usable base, the link becomes relative to the connector's base URL (which ends in /wiki)", () => {
    for (const answer of [
      {},
      null,
      'text',
      { _links: {} },
      { _links: { base: 'javascript:alert(1)' } },
      { _links: { base: 7 } },
    ])
      assert.equal(join(answer), link.slice(1));
    assert.equal(
      new URL(join({}), 'https://acme.atlassian.net/wiki/').href,
      `https://acme.atlassian.net/wiki${link}`,
    );
  });
});

describe('download_url in a definition', () => {
  const text = readFileSync(
    new URL('../../../src/connectors/definitions/confluence.yaml', import.meta.url),
    'utf8',
  );

  it('loads on the attachment download', () => {
    const def = parseDefinition(text, 'confluence.yaml');
    const attachments = def.entities.find((e) => e.name === 'attachments');
    assert.deepEqual(attachments?.actions.download?.uses_hooks, ['download_url']);
  });

  it('is refused where no link is read (an action other than a download with file_url)', () => {
    const moved = text.replace(
      'request: { method: GET, path: "/api/v2/spaces/{id}" }',
      'request: { method: GET, path: "/api/v2/spaces/{id}" }\n        uses_hooks: [download_url]',
    );
    assert.notEqual(moved, text);
    assert.throws(
      () => parseDefinition(moved, 'confluence.yaml'),
      /\/entities\/2\/actions\/get\/uses_hooks\/0: download_url: only a download with file_url/,
    );
  });
});
