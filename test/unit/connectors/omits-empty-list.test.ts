// `omits_empty_list`: a list answer without its record member (Google's APIs leave empty lists out) is an empty
// page, with and without the records left unparsed; a member that is not a list is still refused.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { parse } from 'yaml';
import { parseDefinition } from '../../../src/connectors/load.ts';
import { parseRecords } from '../../../src/connectors/runtime/payload.ts';
import { DomainError } from '../../../src/errors.ts';
import { ACME_CONFIG, ACME_KEY, ACME_YAML, json, loadErrors, runtime, startServer } from './helpers.ts';

// biome-ignore lint/suspicious/noExplicitAny: the document is edited on purpose
function acmeWith(change: (doc: any) => void) {
  const doc = parse(ACME_YAML);
  change(doc);
  return doc;
}
const cursors = (doc: { entities: Array<{ name: string; actions: Record<string, unknown> }> }) =>
  doc.entities.find((e) => e.name === 'cursors')!.actions as Record<string, Record<string, unknown>>;

describe('omits_empty_list', () => {
  let server: Awaited<ReturnType<typeof startServer>>;
  let body: unknown = {};
  before(async () => {
    server = await startServer((_req, res) => json(res, 200, body));
  });
  after(() => server.close());

  const run = (omits: boolean, unparsedRecords: boolean) => {
    const def = parseDefinition(
      JSON.stringify(
        acmeWith((doc) => {
          if (omits) cursors(doc).list!.omits_empty_list = true;
        }),
      ),
      'acme.yaml',
    );
    const rt = runtime({ acme: server.url });
    return rt
      .execute({
        connectorId: 'c',
        definition: def,
        credentials: ACME_KEY,
        config: ACME_CONFIG,
        entity: 'cursors',
        action: 'list',
        params: {},
        unparsedRecords,
      })
      .finally(() => rt.close());
  };

  it('reads an answer without the record member as an empty last page, parsed or not', async () => {
    body = { meta: { has_more: false } };
    for (const unparsed of [false, true]) {
      const out = await run(true, unparsed);
      assert.deepEqual(parseRecords(out.payload), [], `unparsed: ${unparsed}`);
      assert.equal(out.connector_metadata.has_next_page, false);
    }
  });

  it('refuses it without the option, and a member that is not a list with it', async () => {
    body = { meta: { has_more: false } };
    await assert.rejects(
      run(false, false),
      (e) => e instanceof DomainError && e.code === 'UPSTREAM_BAD_RESPONSE',
    );
    body = { data: { id: 1 }, meta: { has_more: false } };
    await assert.rejects(
      run(true, false),
      (e) => e instanceof DomainError && e.code === 'UPSTREAM_BAD_RESPONSE',
    );
  });

  it('is checked at load: a list action with a record selector only', () => {
    const errors = loadErrors(
      acmeWith((doc) => {
        cursors(doc).list!.record_selector = [];
        const things = doc.entities.find((e: { name: string }) => e.name === 'things').actions;
        things.get.omits_empty_list = true;
        cursors(doc).list!.omits_empty_list = true;
      }),
      'acme.yaml',
    );
    assert.ok(
      errors.some((e) => /entities\/0\/actions\/get\/omits_empty_list: only list and api_search/.test(e)),
      errors.join('\n'),
    );
    assert.ok(
      errors.some((e) =>
        /entities\/3\/actions\/list\/omits_empty_list: the records are the whole body/.test(e),
      ),
      errors.join('\n'),
    );
  });
});
