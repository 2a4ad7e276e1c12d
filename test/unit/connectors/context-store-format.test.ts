// Load-time checks of `context_store` declarations (src/connectors/load.ts): every name a sync request is
// built from must resolve, and every broken declaration fails naming the file and the JSON pointer.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { parse, stringify } from 'yaml';
import { parseDefinition } from '../../../src/connectors/load.ts';
import { DefinitionRegistry } from '../../../src/connectors/registry.ts';
import { definitionLayouts } from '../../../src/context-store/layout.ts';
import { ACME_YAML, loadErrors } from './helpers.ts';

const CS = '/entities/0/context_store';

/**
 * ACME (helpers.ts) with a replicated `things` entity: one sync per `folders` item `{space}/{folder}`, a
 * `*` folder expanded by listing `folders`, and refreshes bounded by `since`.
 */
// biome-ignore lint/suspicious/noExplicitAny: the document is edited into invalid shapes on purpose
function acmeDoc(): any {
  const doc = parse(ACME_YAML);
  doc.replication_config.properties.folders = { type: 'array', items: { type: 'string' } };
  doc.replication_config.properties.start_date = { type: 'string', format: 'date-time' };
  Object.assign(doc.entities[0].actions.list.params, {
    space: { type: 'string', required: true, description: 'Space.' },
    since: { type: 'string', format: 'date-time', description: 'Changed at or after.' },
    order: { type: 'string', enum: ['asc', 'desc'], description: 'Order.' },
    page: { type: 'integer', conflicts_with: ['size'], description: 'Page number.' },
  });
  doc.entities[0].context_store = {
    suggested: true,
    params: { size: 50, order: 'asc' },
    partitions: {
      config: 'folders',
      pattern: '{space}/{folder}',
      wildcard: { param: 'folder', entity: 'folders', params: { space: '{space}' }, value: 'name' },
    },
    incremental: { param: 'since', field: 'updated_at', start_from: 'start_date' },
    fields: [
      { name: 'id', type: 'integer' },
      { name: 'title', type: 'string' },
      { name: 'body', type: 'text' },
      { name: 'updated_at', type: 'timestamp' },
      { name: 'tags', type: 'array', items: 'string' },
      { name: 'owners', type: 'array', properties: [{ name: 'login', type: 'string' }] },
    ],
  };
  doc.entities.push({
    name: 'folders',
    description: 'Folders of a space.',
    primary_key: ['id'],
    actions: {
      list: {
        description: 'Folders.',
        params: { space: { type: 'string', required: true, description: 'Space.' } },
        request: { method: 'GET', path: '/spaces/{space}/folders' },
      },
    },
  });
  return doc;
}

// biome-ignore lint/suspicious/noExplicitAny: see acmeDoc
function errorsOf(change: (doc: any) => void): string[] {
  const doc = acmeDoc();
  change(doc);
  return loadErrors(doc, 'acme.yaml');
}

/** The change fails the load with an error line naming the file and this pointer, saying `message`. */
// biome-ignore lint/suspicious/noExplicitAny: see acmeDoc
function failsAt(change: (doc: any) => void, pointer: string, message: RegExp): void {
  const lines = errorsOf(change);
  const prefix = `acme.yaml: ${pointer}: `;
  const hit = lines.find((l) => l.startsWith(prefix) && message.test(l.slice(prefix.length)));
  assert.ok(
    hit,
    `expected an error at ${pointer} matching ${message}, got:\n${lines.join('\n') || '(none)'}`,
  );
}

// biome-ignore lint/suspicious/noExplicitAny: see acmeDoc
function loads(change: (doc: any) => void = () => {}): void {
  assert.deepEqual(errorsOf(change), []);
}

describe('context_store: the declaration as a whole', () => {
  it('a complete declaration loads and gets an index layout with every field', () => {
    loads();
    const def = parseDefinition(stringify(acmeDoc()), 'acme.yaml');
    const [layout] = definitionLayouts(def);
    assert.equal(layout?.entity, 'things');
    assert.deepEqual(
      [...(layout?.fields.keys() ?? [])],
      ['id', 'title', 'body', 'updated_at', 'tags', 'owners'],
    );
  });

  it('needs a list action on its entity', () => {
    loads((doc) => delete doc.entities[0].actions.get);
    failsAt((doc) => delete doc.entities[0].actions.list, CS, /list action/);
  });

  it('every required list param gets a value from params, partitions or incremental', () => {
    loads((doc) => {
      doc.entities[0].context_store.partitions = undefined;
      doc.entities[0].context_store.params = { space: 'main', folder: 'inbox' };
    });
    failsAt(
      (doc) => delete doc.entities[0].context_store.partitions,
      CS,
      /required list param 'space' is set by neither params, partitions nor incremental/,
    );
  });

  it('a required param filled only by incremental needs a required start_from key for the first sync', () => {
    const requiredSince = (doc: ReturnType<typeof acmeDoc>) => {
      doc.entities[0].actions.list.params.since.required = true;
    };
    loads((doc) => {
      requiredSince(doc);
      doc.replication_config.required.push('start_date');
    });
    failsAt(
      requiredSince,
      `${CS}/incremental/start_from`,
      /'since' is required, so the first sync needs a bound/,
    );
  });

  it('a time window: `until` gets a list param of the bound type, `earliest` bounds the first sync', () => {
    const windowed = (doc: ReturnType<typeof acmeDoc>) => {
      Object.assign(doc.entities[0].actions.list.params, {
        before: { type: 'string', required: true, format: 'date-time', description: 'Changed before.' },
      });
      doc.entities[0].actions.list.params.since.required = true;
      doc.entities[0].context_store.incremental = {
        param: 'since',
        field: 'updated_at',
        until: 'before',
        earliest: '2000-01-01T00:00:00Z',
      };
    };
    loads(windowed);
    failsAt(
      (doc) => {
        windowed(doc);
        doc.entities[0].context_store.incremental.until = 'after';
      },
      `${CS}/incremental/until`,
      /'after' is not a param of the list action/,
    );
    failsAt(
      (doc) => {
        windowed(doc);
        doc.entities[0].context_store.incremental.until = 'since';
      },
      `${CS}/incremental/until`,
      /already the incremental param/,
    );
    failsAt(
      (doc) => {
        windowed(doc);
        doc.entities[0].actions.list.params.before = { type: 'integer', description: 'Changed before.' };
      },
      `${CS}/incremental/until`,
      /'before' is integer, but iso8601 bounds are strings/,
    );
    failsAt(
      (doc) => {
        windowed(doc);
        doc.entities[0].context_store.params.before = 'x';
      },
      `${CS}/incremental/until`,
      /'before' is already set by/,
    );
    failsAt(
      (doc) => {
        windowed(doc);
        doc.entities[0].context_store.incremental.earliest = '2000-13-45T00:00:00Z';
      },
      `${CS}/incremental/earliest`,
      /is not a date/,
    );
    failsAt(
      (doc) => {
        windowed(doc);
        delete doc.entities[0].context_store.incremental.earliest;
      },
      `${CS}/incremental/start_from`,
      /'since' is required, so the first sync needs a bound/,
    );
  });

  it('no list param is set twice, and params that exclude each other are not combined', () => {
    failsAt(
      (doc) => {
        doc.entities[0].context_store.params.folder = 'inbox';
      },
      `${CS}/partitions/pattern`,
      /list param 'folder' is already set by \/entities\/0\/context_store\/params\/folder/,
    );
    failsAt(
      (doc) => {
        doc.entities[0].context_store.params.page = 1;
      },
      `${CS}/params/page`,
      /'page' can't be combined with 'size'/,
    );
  });
});

describe('context_store.params', () => {
  it('keys must be params of the list action', () => {
    loads((doc) => {
      doc.entities[0].context_store.params = { order: 'desc' };
    });
    failsAt(
      (doc) => {
        doc.entities[0].context_store.params.colour = 'red';
      },
      `${CS}/params/colour`,
      /'colour' is not a param of the list action/,
    );
  });

  it('values must pass the list param’s own type, enum and range', () => {
    failsAt(
      (doc) => {
        doc.entities[0].context_store.params.size = 500;
      },
      `${CS}/params/size`,
      /500 does not fit the list param/,
    );
    failsAt(
      (doc) => {
        doc.entities[0].context_store.params.order = 'sideways';
      },
      `${CS}/params/order`,
      /does not fit/,
    );
    failsAt(
      (doc) => {
        doc.entities[0].context_store.params.size = '50';
      },
      `${CS}/params/size`,
      /does not fit/,
    );
  });
});

describe('context_store.partitions', () => {
  it('pattern placeholders must be list params', () => {
    loads((doc) => {
      doc.entities[0].context_store.partitions.pattern = 'spaces/{space}/{folder}';
    });
    failsAt(
      (doc) => {
        doc.entities[0].context_store.partitions.pattern = '{space}/{dir}';
      },
      `${CS}/partitions/pattern`,
      /placeholder \{dir\} is not a param of the list action/,
    );
    failsAt(
      (doc) => {
        doc.entities[0].context_store.partitions.pattern = 'all-of-them';
      },
      `${CS}/partitions/pattern`,
      /has no \{placeholder\}/,
    );
  });

  it('config must be an array property of replication_config', () => {
    failsAt(
      (doc) => {
        doc.entities[0].context_store.partitions.config = 'dirs';
      },
      `${CS}/partitions/config`,
      /'dirs' is not a replication_config property/,
    );
    failsAt(
      (doc) => {
        doc.entities[0].context_store.partitions.config = 'subdomain';
      },
      `${CS}/partitions/config`,
      /'subdomain' must be an array/,
    );
  });

  it('wildcard.param must be a placeholder of the pattern', () => {
    loads((doc) => {
      doc.entities[0].context_store.partitions.wildcard = undefined;
    });
    failsAt(
      (doc) => {
        doc.entities[0].context_store.partitions.wildcard.param = 'size';
      },
      `${CS}/partitions/wildcard/param`,
      /'size' is not a placeholder of the pattern/,
    );
  });

  it('wildcard.entity must be an entity with a list action', () => {
    failsAt(
      (doc) => {
        doc.entities[0].context_store.partitions.wildcard.entity = 'shelves';
      },
      `${CS}/partitions/wildcard/entity`,
      /'shelves' is not an entity with a list action/,
    );
    failsAt(
      (doc) => {
        const folders = doc.entities.at(-1);
        folders.actions = { get: { ...folders.actions.list, description: 'One folder.' } };
      },
      `${CS}/partitions/wildcard/entity`,
      /'folders' is not an entity with a list action/,
    );
  });

  it('wildcard.params fill that list action’s params from the other placeholders', () => {
    failsAt(
      (doc) => {
        doc.entities[0].context_store.partitions.wildcard.params.shelf = '{space}';
      },
      `${CS}/partitions/wildcard/params/shelf`,
      /'shelf' is not a param of folders's list action/,
    );
    failsAt(
      (doc) => {
        doc.entities[0].context_store.partitions.wildcard.params.space = '{folder}';
      },
      `${CS}/partitions/wildcard/params/space`,
      /placeholder \{folder\} must be another placeholder of the pattern/,
    );
    failsAt(
      (doc) => {
        doc.entities[0].context_store.partitions.wildcard.params = {};
      },
      `${CS}/partitions/wildcard/params`,
      /required param 'space' of folders's list action is not given/,
    );
  });
});

describe('context_store.incremental', () => {
  it('param must be a list param whose type fits the bound format', () => {
    loads((doc) => {
      doc.entities[0].actions.list.params.since = { type: 'integer', description: 'Epoch seconds.' };
      doc.entities[0].context_store.incremental.format = 'unix_seconds';
    });
    failsAt(
      (doc) => {
        doc.entities[0].context_store.incremental.param = 'changed_since';
      },
      `${CS}/incremental/param`,
      /'changed_since' is not a param of the list action/,
    );
    failsAt(
      (doc) => {
        doc.entities[0].context_store.incremental.format = 'datetime_minutes';
        doc.entities[0].actions.list.params.since.type = 'integer';
        delete doc.entities[0].actions.list.params.since.format;
      },
      `${CS}/incremental/param`,
      /'since' is integer, but datetime_minutes bounds are strings/,
    );
  });

  it('field must be a declared field of type timestamp', () => {
    failsAt(
      (doc) => {
        doc.entities[0].context_store.incremental.field = 'modified_at';
      },
      `${CS}/incremental/field`,
      /'modified_at' is not a declared field/,
    );
    failsAt(
      (doc) => {
        doc.entities[0].context_store.incremental.field = 'title';
      },
      `${CS}/incremental/field`,
      /'title' is a string field, not a timestamp/,
    );
  });

  it('start_from must be a replication_config property, and is optional', () => {
    loads((doc) => delete doc.entities[0].context_store.incremental.start_from);
    failsAt(
      (doc) => {
        doc.entities[0].context_store.incremental.start_from = 'begin';
      },
      `${CS}/incremental/start_from`,
      /'begin' is not a replication_config property/,
    );
  });
});

describe('context_store.fields', () => {
  const field = (j: number, value: unknown) => (doc: ReturnType<typeof acmeDoc>) => {
    doc.entities[0].context_store.fields[j] = value;
  };

  it('names are unique within the entity, and within an array element', () => {
    failsAt(field(6, { name: 'title', type: 'text' }), `${CS}/fields/6/name`, /duplicate field 'title'/);
    failsAt(
      field(5, {
        name: 'owners',
        type: 'array',
        properties: [
          { name: 'login', type: 'string' },
          { name: 'login', type: 'text' },
        ],
      }),
      `${CS}/fields/5/properties/1/name`,
      /duplicate member 'login'/,
    );
  });

  it('items and properties only on array fields', () => {
    failsAt(
      field(1, { name: 'title', type: 'string', items: 'string' }),
      `${CS}/fields/1/items`,
      /only for type array/,
    );
    failsAt(
      field(1, { name: 'title', type: 'string', properties: [{ name: 'x', type: 'string' }] }),
      `${CS}/fields/1/properties`,
      /only for type array/,
    );
  });

  it('index: a switch for the fields that have a B-tree index, refused on text and array fields', () => {
    loads(field(1, { name: 'title', type: 'string', index: false }));
    loads(field(1, { name: 'title', type: 'string', index: true }));
    failsAt(
      field(1, { name: 'title', type: 'text', index: true }),
      `${CS}/fields/1/index`,
      /a text field has no B-tree index/,
    );
    failsAt(
      field(4, { name: 'tags', type: 'array', items: 'string', index: true }),
      `${CS}/fields/4/index`,
      /an? array field has no B-tree index/,
    );
  });

  it('an array field needs exactly one of items and properties', () => {
    failsAt(
      field(4, { name: 'tags', type: 'array' }),
      `${CS}/fields/4`,
      /exactly one of items .* or properties/,
    );
    failsAt(
      field(4, { name: 'tags', type: 'array', items: 'string', properties: [{ name: 'x', type: 'string' }] }),
      `${CS}/fields/4`,
      /exactly one of items/,
    );
  });

  it('search behaviour follows the declared type alone: no other types and no per-field switches', () => {
    loads(field(6, { name: 'summary', type: 'text', description: 'Searched with fuzzy and keyword.' }));
    failsAt(
      field(1, { name: 'title', type: 'string', fuzzy: true }),
      `${CS}/fields/1/fuzzy`,
      /unknown property/,
    );
    failsAt(field(1, { name: 'title', type: 'keyword' }), `${CS}/fields/1/type`, /must be one of/);
    failsAt(
      field(4, { name: 'tags', type: 'array', items: 'text' }),
      `${CS}/fields/4/items`,
      /must be one of/,
    );
  });
});

describe('context_store in the shipped definitions', () => {
  const registry = DefinitionRegistry.default();
  const declared = (slug: string) =>
    Object.fromEntries(
      (registry.bySlug(slug)?.entities ?? []).flatMap((e) =>
        e.context_store ? [[e.name, e.context_store.suggested === true]] : [],
      ),
    );

  it('replicates the entities whose list can be synced, suggesting the main ones', () => {
    assert.deepEqual(declared('github'), {
      repositories: false,
      issues: true,
      pull_requests: false,
      comments: false,
      commits: false,
      releases: false,
      labels: false,
      users: false,
      branches: false,
      milestones: false,
      org_repositories: false,
      organizations: false,
      pr_comments: false,
      reviews: false,
      stargazers: false,
      tags: false,
      teams: false,
      discussions: false,
      projects: false,
      project_items: false,
      viewer_repositories: false,
    });
    assert.deepEqual(declared('zendesk-support'), {
      tickets: true,
      users: true,
      organizations: true,
      groups: false,
      ticket_metrics: false,
      deleted_tickets: false,
      ticket_fields: false,
      ticket_forms: false,
      brands: false,
      macros: false,
      triggers: false,
      automations: false,
      sla_policies: false,
      satisfaction_ratings: false,
      tags: false,
      group_memberships: false,
      organization_memberships: false,
      articles: true,
      ticket_comments: true,
      ticket_audits: false,
      article_attachments: false,
    });
    assert.deepEqual(declared('gong'), {
      users: true,
      calls: true,
      calls_extensive: false,
      workspaces: false,
      stats_activity_scorecards: true,
      settings_scorecards: true,
    });
  });

  it('Gong calls sync as time windows: from the last start seen (or 2000) to when the pass started', () => {
    const calls = registry.bySlug('gong')?.entities.find((e) => e.name === 'calls')?.context_store;
    assert.deepEqual(calls?.incremental, {
      param: 'fromDateTime',
      field: 'started',
      until: 'toDateTime',
      earliest: '2000-01-01T00:00:00Z',
    });
    // Gong answers an empty window 404; the list reads it as an empty page, and the sync reads through the list.
    const list = registry.bySlug('gong')?.entities.find((e) => e.name === 'calls')?.actions.list;
    assert.deepEqual(list?.uses_hooks, ['empty_answer']);
    // Without the window's end the declaration is refused: the list requires toDateTime.
    const doc = parse(
      readFileSync(new URL('../../../src/connectors/definitions/gong.yaml', import.meta.url), 'utf8'),
    );
    const index = doc.entities.findIndex((e: { name: string }) => e.name === 'calls');
    delete doc.entities[index].context_store.incremental.until;
    assert.match(
      loadErrors(doc, 'gong.yaml').join('\n'),
      new RegExp(
        `gong.yaml: /entities/${index}/context_store: required list param 'toDateTime' is set by neither`,
      ),
    );
  });

  it('GitHub issues sync per repository, oldest change first, and refresh from the last updated_at', () => {
    const issues = registry.bySlug('github')?.entities.find((e) => e.name === 'issues')?.context_store;
    assert.deepEqual(issues?.params, { state: 'all', sort: 'updated', direction: 'asc', per_page: 100 });
    assert.deepEqual(issues?.partitions, {
      config: 'repositories',
      pattern: '{owner}/{repo}',
      wildcard: { param: 'repo', entity: 'repositories', params: { owner: '{owner}' }, value: 'name' },
    });
    assert.deepEqual(issues?.incremental, { param: 'since', field: 'updated_at', start_from: 'start_date' });
  });
});
