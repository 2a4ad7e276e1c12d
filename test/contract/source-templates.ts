// The store contract: source templates, and the template and entities a connector remembers (see store-contract.ts).
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from 'node:test';
import type { SourceTemplate, Store } from '../../src/store/port.ts';
import { freshStore, newConnector, newOrg, newWorkspace, type OpenedStore, T0, T1 } from './fixtures.ts';

function template(organizationId: string, fields: Partial<SourceTemplate> = {}): SourceTemplate {
  return {
    id: randomUUID(),
    organization_id: organizationId,
    definition_id: 'def-github',
    name: 'GitHub for customers',
    partial_default_config: { repositories: ['acme/app'], nested: { a: [1, 'x'] } },
    customization: null,
    tags: ['prod', 'eu'],
    mode: 'DIRECT',
    created_at: T0,
    updated_at: T0,
    ...fields,
  };
}

export function sourceTemplatesContract(name: string, open: () => Promise<OpenedStore>): void {
  describe(`${name} store contract: source templates`, () => {
    const s = freshStore(open);

    it('get returns a created template as it was given, only within its organization', async () => {
      const org = await newOrg(s());
      const other = await newOrg(s());
      const t = template(org, { customization: { stream_selection_mode: 'all' } });
      await s().sourceTemplates.create(t);
      assert.deepEqual(await s().sourceTemplates.get(org, t.id), t);
      assert.equal(await s().sourceTemplates.get(other, t.id), undefined);
    });

    it('list is per organization, oldest first, and filters by connector type', async () => {
      const org = await newOrg(s());
      const other = await newOrg(s());
      const a = template(org, { created_at: T0 });
      const b = template(org, { created_at: T1, definition_id: 'def-zendesk' });
      await s().sourceTemplates.create(b);
      await s().sourceTemplates.create(a);
      await s().sourceTemplates.create(template(other));
      assert.deepEqual(
        (await s().sourceTemplates.list(org)).map((t) => t.id),
        [a.id, b.id],
      );
      assert.deepEqual(
        (await s().sourceTemplates.list(org, { definitionId: 'def-zendesk' })).map((t) => t.id),
        [b.id],
      );
    });

    it('update changes only the given fields, within the organization', async () => {
      const org = await newOrg(s());
      const other = await newOrg(s());
      const t = template(org);
      await s().sourceTemplates.create(t);
      assert.equal(await s().sourceTemplates.update(other, t.id, { name: 'x', now: T1 }), undefined);
      const updated = await s().sourceTemplates.update(org, t.id, {
        name: 'Renamed',
        partial_default_config: {},
        customization: { stream_whitelist: ['issues'] },
        now: T1,
      });
      assert.deepEqual(updated, {
        ...t,
        name: 'Renamed',
        partial_default_config: {},
        customization: { stream_whitelist: ['issues'] },
        updated_at: T1,
      });
      const cleared = await s().sourceTemplates.update(org, t.id, {
        customization: null,
        mode: 'MULTI',
        now: T1,
      });
      assert.equal(cleared?.customization, null);
      assert.equal(cleared?.mode, 'MULTI');
    });

    it('delete removes it only within its organization', async () => {
      const org = await newOrg(s());
      const other = await newOrg(s());
      const t = template(org);
      await s().sourceTemplates.create(t);
      assert.equal(await s().sourceTemplates.delete(other, t.id), false);
      assert.equal(await s().sourceTemplates.delete(org, t.id), true);
      assert.equal(await s().sourceTemplates.delete(org, t.id), false);
      assert.equal(await s().sourceTemplates.get(org, t.id), undefined);
    });

    it('a connector remembers its template and requested entities; update sets or clears the entities', async () => {
      const store: Store = s();
      const org = await newOrg(store);
      const ws = await newWorkspace(store, org, 'templates');
      const plain = await newConnector(store, org, ws.id);
      const fresh = await store.connectors.get(org, plain.id);
      assert.equal(fresh?.source_template_id, null);
      assert.equal(fresh?.entities, null);
      const t = template(org);
      await store.sourceTemplates.create(t);
      const id = randomUUID();
      await store.connectors.create({
        ...plain,
        id,
        name: 'from template',
        source_template_id: t.id,
        entities: [{ entity: 'issues', modes: ['read'] }, { entity: 'users' }],
      });
      const made = await store.connectors.get(org, id);
      assert.equal(made?.source_template_id, t.id);
      assert.deepEqual(made?.entities, [{ entity: 'issues', modes: ['read'] }, { entity: 'users' }]);
      await store.connectors.update(org, id, { entities: [], now: T1 });
      assert.deepEqual((await store.connectors.get(org, id))?.entities, []);
      await store.connectors.update(org, id, { name: 'renamed', now: T1 });
      assert.deepEqual((await store.connectors.get(org, id))?.entities, []);
      await store.connectors.update(org, id, { entities: null, now: T1 });
      assert.equal((await store.connectors.get(org, id))?.entities, null);
    });
  });
}
