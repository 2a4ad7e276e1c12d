// Load-time checks of `page_size_param` (what a client's `limit` sets on a collection action) and of the
// top-level `scoping` (required params defaulted from a replication_config array), on the ACME fixture.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parse } from 'yaml';
import { pageSizeParam } from '../../../src/connectors/page-size.ts';
import { DefinitionRegistry } from '../../../src/connectors/registry.ts';
import { COLLECTION_ACTIONS } from '../../../src/connectors/schema.ts';
import { ACME_YAML, loadErrors } from './helpers.ts';

// biome-ignore lint/suspicious/noExplicitAny: the document is edited into invalid shapes on purpose
function acmeWith(change: (doc: any) => void): string[] {
  const doc = parse(ACME_YAML);
  change(doc);
  return loadErrors(doc, 'acme.yaml');
}

describe('page_size_param', () => {
  it('the fixture loads as it is', () => {
    assert.deepEqual(
      acmeWith(() => {}),
      [],
    );
  });

  it('a paged list with no page-size param to infer must say so', () => {
    assert.deepEqual(
      acmeWith((d) => delete d.entities[2].actions.list.page_size_param),
      [
        'acme.yaml: /entities/2/actions/list: no param sets the page size; name it with page_size_param, or say page_size_param: false (then limit only caps the records answered)',
      ],
    );
    // Unpaged, a list has no page size to set: limit only caps it.
    assert.deepEqual(
      acmeWith((d) => {
        delete d.entities[2].actions.list.page_size_param;
        delete d.entities[2].actions.list.pagination;
      }),
      [],
    );
  });

  it('infers a single candidate and refuses two', () => {
    // `per_page` of pages.list is inferred (and is its pagination's size_param).
    assert.deepEqual(
      acmeWith((d) => {
        d.entities[1].actions.list.params.maxResults = { type: 'integer', description: 'Also a size.' };
      }),
      [
        'acme.yaml: /entities/1/actions/list/page_size_param: ambiguous page size (per_page, maxResults); name the one limit sets',
      ],
    );
    assert.deepEqual(
      acmeWith((d) => {
        d.entities[1].actions.list.params.maxResults = { type: 'integer', description: 'Also a size.' };
        d.entities[1].actions.list.page_size_param = 'maxResults';
      }),
      [],
    );
  });

  it('names an integer param of a collection action', () => {
    assert.deepEqual(
      acmeWith((d) => {
        d.entities[0].actions.list.page_size_param = 'colour';
        d.entities[0].actions.get.page_size_param = 'id';
      }),
      [
        "acme.yaml: /entities/0/actions/list/page_size_param: 'colour' is not a param of the action",
        'acme.yaml: /entities/0/actions/get/page_size_param: only list and api_search actions have pages',
      ],
    );
    assert.deepEqual(
      acmeWith((d) => {
        d.entities[0].actions.list.page_size_param = 'tags';
      }),
      ["acme.yaml: /entities/0/actions/list/page_size_param: 'tags' must be an integer param"],
    );
  });

  it('keeps the name limit for the page size', () => {
    assert.deepEqual(
      acmeWith((d) => {
        d.entities[0].actions.list.params.folder.aliases = ['limit'];
      }),
      [
        "acme.yaml: /entities/0/actions/list/params/folder: 'limit' is the page size of a collection action; only its page_size_param may take that name",
      ],
    );
  });

  it('every shipped collection action knows its page size or has none', () => {
    const sizes: Record<string, string | undefined> = {};
    for (const def of DefinitionRegistry.default().all())
      for (const e of def.entities)
        for (const name of COLLECTION_ACTIONS) {
          const action = e.actions[name];
          if (action) sizes[`${def.slug} ${e.name}.${name}`] = pageSizeParam(action);
        }
    // A sample of each way: inferred by name, by api_name, a pagination limit_param, declared, and none.
    assert.equal(sizes['github issues.list'], 'per_page');
    assert.equal(sizes['linear issues.list'], 'first');
    assert.equal(sizes['jira users.list'], 'maxResults');
    assert.equal(sizes['slack files.list'], 'count');
    assert.equal(sizes['zendesk-support tickets.list'], 'page_size');
    assert.equal(sizes['gong users.list'], undefined);
  });
});

describe('scoping', () => {
  const withScoping = (scoping: unknown[], config: Record<string, unknown> = {}) =>
    acmeWith((d) => {
      d.scoping = scoping;
      Object.assign(d.replication_config.properties, config);
    });
  const folders = { folders: { type: 'array', items: { type: 'string' } } };

  it('loads a param taken from a replication_config array', () => {
    assert.deepEqual(withScoping([{ param: 'folder', config: 'folders', pattern: '{folder}' }], folders), []);
    assert.deepEqual(
      withScoping(
        [{ param: 'folder', config: 'folders', pattern: '{team}/{name}', value: '{team}-{name}' }],
        folders,
      ),
      [],
    );
  });

  it('names each problem', () => {
    assert.deepEqual(
      withScoping(
        [
          { param: 'folder', config: 'nowhere', pattern: 'fixed' },
          { param: 'folder', config: 'subdomain', pattern: '{a}', value: '{b}' },
          { param: 'colour', config: 'folders', pattern: '{colour}' },
        ],
        folders,
      ),
      [
        "acme.yaml: /scoping/0/config: 'nowhere' is not a replication_config property",
        'acme.yaml: /scoping/0/pattern: has no {placeholder}',
        'acme.yaml: /scoping/0/value: placeholder {folder} is not a placeholder of the pattern',
        "acme.yaml: /scoping/1/param: 'folder' is scoped twice",
        "acme.yaml: /scoping/1/config: replication_config property 'subdomain' must be an array of strings",
        'acme.yaml: /scoping/1/value: placeholder {b} is not a placeholder of the pattern',
        "acme.yaml: /scoping/2/param: 'colour' is a required param of no action",
      ],
    );
  });
});
