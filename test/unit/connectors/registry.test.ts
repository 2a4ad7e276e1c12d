import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { parse, stringify } from 'yaml';
import { DefinitionRegistry } from '../../../src/connectors/registry.ts';
import { ACME_YAML } from './helpers.ts';

const GITHUB_YAML = readFileSync(
  fileURLToPath(new URL('../../../src/connectors/definitions/github.yaml', import.meta.url)),
  'utf8',
);
const dirs: string[] = [];
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function dirWith(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'ces-defs-'));
  dirs.push(dir);
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

/** github.yaml with one change applied to its parsed document (loosely typed: tests break it on purpose). */
// biome-ignore lint/suspicious/noExplicitAny: the document is edited into invalid shapes
function githubWith(change: (doc: any) => void): string {
  const doc = parse(GITHUB_YAML);
  change(doc);
  return stringify(doc);
}

function loadError(files: Record<string, string>): string {
  try {
    DefinitionRegistry.loadFromDir(dirWith(files));
  } catch (err) {
    return (err as Error).message;
  }
  assert.fail('expected the load to fail');
}

describe('DefinitionRegistry', () => {
  it('loads the shipped definitions and finds GitHub by id, slug, display name and partial name', () => {
    const reg = DefinitionRegistry.default();
    const gh = reg.byId('ef69ef6e-aa7f-4af1-a01d-ef775033524e');
    assert.equal(gh?.slug, 'github');
    assert.equal(reg.bySlug('GITHUB'), gh);
    assert.equal(reg.bySlug('GitHub'), gh);
    assert.equal(reg.bySlug('git'), undefined);
    assert.deepEqual(
      reg.searchByName('GITH').map((d) => d.slug),
      ['github'],
    );
    // Every definition whose name holds the text, case-insensitively.
    const hub = reg.searchByName('HUB').map((d) => d.slug);
    assert.ok(hub.includes('github'), hub.join());
    assert.deepEqual(
      hub,
      reg
        .all()
        .filter((d) => d.name.toLowerCase().includes('hub'))
        .map((d) => d.slug),
    );
    assert.deepEqual(
      reg.searchByName('zendesk').map((d) => d.slug),
      ['zendesk-support'],
    );
    assert.deepEqual(reg.searchByName('nothing-like-this'), []);
    assert.ok(reg.all().length >= 1);
  });

  it('names the file and the path inside it when a field has the wrong type', () => {
    const text = githubWith((doc) => {
      doc.entities[2].actions.list.request.path = 42;
    });
    assert.match(
      loadError({ 'github.yaml': text }),
      /^github\.yaml: \/entities\/2\/actions\/list\/request\/path: must be string$/m,
    );
  });

  it('reports the error of the pagination style the author chose, not of every other style', () => {
    const wrongShape = githubWith((doc) => {
      doc.entities[1].actions.list.pagination = { type: 'next_url', path: 'next' };
    });
    const msg = loadError({ 'github.yaml': wrongShape });
    assert.match(msg, /github\.yaml: \/entities\/1\/actions\/list\/pagination\/path: must be array/);
    assert.doesNotMatch(msg, /link_header|must be equal to constant/);

    const unknownType = githubWith((doc) => {
      doc.entities[1].actions.list.pagination = { type: 'pages' };
    });
    assert.match(
      loadError({ 'github.yaml': unknownType }),
      /\/entities\/1\/actions\/list\/pagination\/type: must be one of "none", "link_header", "next_url"/,
    );
  });

  it('reports several errors at once, including inside auth and enum unions', () => {
    const text = githubWith((doc) => {
      doc.entities[0].actions.get.params.owner.type = 'strng';
      doc.credential_options[1].auth = { type: 'basic', username: '{access_token}' };
      doc.errors.rules[0].error = 'limited';
    });
    const msg = loadError({ 'github.yaml': text });
    assert.match(msg, /github\.yaml: \/credential_options\/1\/auth\/password: required property is missing/);
    assert.match(msg, /\/errors\/rules\/0\/error: must be one of "auth_failed", "forbidden"/);
    assert.match(msg, /\/entities\/0\/actions\/get\/params\/owner\/type: must be one of "string", "integer"/);
  });

  it('reports unknown and missing properties by name', () => {
    const text = githubWith((doc) => {
      doc.entities[0].actions.get.request.verb = 'GET';
      delete doc.entities[0].actions.get.request.method;
    });
    const msg = loadError({ 'github.yaml': text });
    assert.match(msg, /\/entities\/0\/actions\/get\/request\/verb: unknown property/);
    assert.match(msg, /\/entities\/0\/actions\/get\/request\/method: required property is missing/);
  });

  it('rejects a path placeholder that is not a declared param', () => {
    const text = githubWith((doc) => {
      doc.entities[1].actions.get.request.path = '/repos/{owner}/{repo}/issues/{issue_number}';
    });
    assert.match(
      loadError({ 'github.yaml': text }),
      /github\.yaml: \/entities\/1\/actions\/get\/request\/path: placeholder \{issue_number\} is not a declared param/,
    );
  });

  it('rejects auth templates naming undeclared fields and base URL variables that are not declared', () => {
    const text = githubWith((doc) => {
      doc.credential_options[0].auth.token = '{pat}';
      doc.base_url = '{api_url}/{version}';
    });
    const msg = loadError({ 'github.yaml': text });
    assert.match(msg, /\/credential_options\/0\/auth\/token: placeholder \{pat\} is not a declared field/);
    assert.match(msg, /\/base_url: placeholder \{version\} is not declared/);
  });

  it('rejects duplicate ids and slugs across files, naming both files', () => {
    const acmeAsGithub = ACME_YAML.replace(/^id: .*$/m, 'id: ef69ef6e-aa7f-4af1-a01d-ef775033524e');
    assert.match(
      loadError({ 'acme.yaml': acmeAsGithub, 'github.yaml': GITHUB_YAML }),
      /github\.yaml: duplicate id .*acme\.yaml/,
    );
    const acmeSlug = ACME_YAML.replace(/^slug: acme$/m, 'slug: github');
    assert.match(
      loadError({ 'acme.yaml': acmeSlug, 'github.yaml': GITHUB_YAML }),
      /duplicate slug 'github'.*acme\.yaml/,
    );
  });

  it('names the file on a YAML syntax error and ignores non-yaml files', () => {
    assert.match(loadError({ 'broken.yaml': 'id: [unclosed' }), /^broken\.yaml: YAML syntax error/);
    const reg = DefinitionRegistry.loadFromDir(
      dirWith({ 'acme.yaml': ACME_YAML, 'README.md': '# not a definition' }),
    );
    assert.deepEqual(
      reg.all().map((d) => d.slug),
      ['acme'],
    );
  });

  it('hands out frozen definitions', () => {
    const gh = DefinitionRegistry.default().bySlug('github');
    assert.ok(gh && Object.isFrozen(gh) && Object.isFrozen(gh.entities[0]));
  });
});
