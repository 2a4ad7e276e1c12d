// The definition-driven suite: every entity-action every shipped definition declares runs through the HTTP API
// against its provider's fake, once as a success (a collection followed by end_cursor to its last page, a
// download's bytes, a write's answer) and once as a provider refusal that must reach the fake and come back as
// the one error body with the expected code. Params come from <slug>/cases.ts (through <slug>/suite.ts); which
// kind of call each action is comes from the definition, so a new entity (or connector) without cases fails
// here. CES_SUITE_SLUGS=a,b runs only those connectors (while writing one). Every success answer's records must
// type as the hosted connector's SDK types them (test/helpers/hosted-records.ts), where its facts type them.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DefinitionRegistry } from '../../src/connectors/registry.ts';
import type { ConnectorDefinition } from '../../src/connectors/schema.ts';
import { STATUS_BY_CODE } from '../../src/http/errors.ts';
import { type Harness, type InjectResult, startHarness } from '../helpers/harness.ts';
import { hostedRecordFacts, hostedRecordViolations } from '../helpers/hosted-records.ts';
import { assertError } from '../http/assertions.ts';
import { describeViolations } from './kit/contract.ts';
import { runContract } from './suite/contracts.ts';
import { unexcepted } from './suite/hosted-exceptions.ts';
import { providerFor } from './suite/providers.ts';
import type { Case, Cases, Params, SuiteFake, SuiteProvider } from './suite/types.ts';

const COLLECTIONS = new Set(['list', 'api_search']);
/** The actions whose answers are records the hosted SDK types. */
const TYPED_RECORDS = new Set(['list', 'api_search', 'get', 'create', 'update']);
/** A cursor walk longer than this is a paging loop, not data. */
const MAX_PAGES = 50;

const only = process.env.CES_SUITE_SLUGS?.split(',').filter(Boolean);
const definitions = DefinitionRegistry.default()
  .all()
  .filter((d) => only === undefined || only.includes(d.slug));
const PROVIDERS: Record<string, SuiteProvider | undefined> = Object.fromEntries(
  await Promise.all(definitions.map(async (d) => [d.slug, await providerFor(d.slug)] as const)),
);

function declared(
  def: ConnectorDefinition,
): Array<{ key: string; entity: string; action: string; paged: boolean }> {
  return def.entities.flatMap((e) =>
    Object.entries(e.actions).map(([action, spec]) => ({
      key: `${e.name}.${action}`,
      entity: e.name,
      action,
      paged: spec?.pagination !== undefined && spec.pagination.type !== 'none',
    })),
  );
}

const totals = { exercised: 0, declared: 0 };

describe('definition-driven suite: every declared entity-action against its provider fake', () => {
  after(() => {
    console.log(`coverage total: ${totals.exercised}/${totals.declared} entity-actions exercised`);
  });

  test('every shipped definition has a provider fake in the suite', () => {
    assert.deepEqual(
      definitions.map((d) => d.slug).filter((slug) => PROVIDERS[slug] === undefined),
      [],
    );
  });

  for (const def of definitions) {
    const provider: SuiteProvider | undefined = PROVIDERS[def.slug];
    if (provider === undefined) continue;
    const actions = declared(def);
    describe(def.slug, () => {
      let h: Harness;
      let fake: SuiteFake;
      let cases: Cases;
      let otherUnhandled: () => Array<{ method: string; path: string }> = () => [];
      let token: string;
      let connectorId: string;
      const exercised = new Set<string>();
      const typed = hostedRecordFacts(def.slug) !== undefined;
      /** Asserts `records` of a success answer type as the hosted connector's do. */
      const assertHostedTypes = (entity: string, action: string, records: unknown[]) => {
        if (!typed || !TYPED_RECORDS.has(action)) return;
        assert.deepEqual(
          unexcepted(
            hostedRecordViolations(def.slug, entity, action, records),
            provider.hostedTypeExceptions ?? [],
          ),
          [],
          'typed as the hosted records',
        );
      };

      const exec = (entity: string, action: string, params: Params): Promise<InjectResult> =>
        h.inject({
          method: 'POST',
          url: `/api/v1/integrations/connectors/${connectorId}/execute`,
          token,
          body: { entity, action, params },
        });

      before(async () => {
        const started = await provider.start();
        fake = started.fake;
        cases = started.cases;
        if (started.otherUnhandled) otherUnhandled = started.otherUnhandled;
        h = await startHarness({
          // Each entity-action's answers are under test here, not the provider's request rate (Gong's 3/s,
          // Slack's 50/min): without the proactive limit the suite runs at the fake's speed.
          CES_RATE_LIMIT_OVERRIDES: JSON.stringify({ [def.slug]: null }),
          ...started.env,
          CES_SYNC_ENABLED: 'false',
        });
        token = await h.token();
        const res = await h.inject({
          method: 'POST',
          url: '/api/v1/integrations/connectors',
          token,
          body: { workspace_name: 'default', name: `suite-${def.slug}`, ...started.connector },
        });
        assert.equal(res.status, 200, res.body);
        connectorId = res.json.id;
      });

      after(async () => {
        await h?.close();
        await fake?.close();
      });

      test('the cases name exactly the declared entity-actions', () => {
        const keys = new Set(actions.map((a) => a.key));
        assert.deepEqual(
          Object.keys(cases).filter((k) => !keys.has(k)),
          [],
          'cases for entity-actions the definition does not declare',
        );
        assert.deepEqual(
          actions.map((a) => a.key).filter((k) => cases[k] === undefined),
          [],
          'declared entity-actions without a case',
        );
      });

      for (const { key, entity, action, paged } of actions) {
        test(key, async () => {
          const c: Case | undefined = cases[key];
          assert.ok(c, `${key} is declared but has no case in test/connectors/${def.slug}/cases.ts`);

          if (action === 'download') {
            const res = await exec(entity, action, c.happy);
            assert.equal(res.status, 200, res.body);
            assert.ok(res.raw.length > 0, 'the download has bytes');
          } else if (COLLECTIONS.has(action)) {
            let res = await exec(entity, action, c.happy);
            let pages = 0;
            let records = 0;
            for (;;) {
              assert.equal(res.status, 200, `page ${pages + 1}: ${res.body}`);
              assert.ok(Array.isArray(res.json.result), res.body);
              pages += 1;
              records += res.json.result.length;
              assertHostedTypes(entity, action, res.json.result);
              const meta = res.json.connector_metadata;
              if (!meta?.has_next_page) break;
              assert.equal(typeof meta.end_cursor, 'string', res.body);
              assert.ok(pages < MAX_PAGES, 'paging never ends');
              res = await exec(entity, action, { cursor: meta.end_cursor });
            }
            assert.ok(records > 0, 'the list answered at least one record');
            if (paged && c.single_page === undefined)
              assert.ok(pages >= 2, `a paged list is followed across pages (got ${pages})`);
          } else {
            const res = await exec(entity, action, c.happy);
            assert.equal(res.status, 200, res.body);
            if (c.no_content !== undefined) assert.equal(res.json.result, null, res.body);
            else {
              assert.ok(res.json.result !== null && typeof res.json.result === 'object', res.body);
              assertHostedTypes(entity, action, [res.json.result]);
            }
          }

          const mark = fake.requests.length;
          if (c.error.fault) fake.failNext({ ...c.error.fault, times: 1 });
          const res = await exec(entity, action, c.error.params);
          const sent = fake.requests.slice(mark);
          assert.ok(sent.length > 0, 'the refusal came from the provider, not from ces');
          const fault = c.error.fault;
          if (fault)
            assert.ok(
              sent.some((r) => r.path.startsWith(fault.match)),
              `the injected fault was answered (sent: ${sent.map((r) => r.path).join(', ')})`,
            );
          assertError(res, STATUS_BY_CODE[c.error.code], c.error.code);
          // The provider's own answer, as ces passes its allowlisted part on.
          const upstream = res.json.upstream as { status?: unknown } | undefined;
          assert.equal(typeof upstream?.status, 'number', `no upstream answer in ${res.body}`);
          if (fault) assert.equal(upstream?.status, fault.status);
          exercised.add(key);
        });
      }

      test('coverage', () => {
        totals.exercised += exercised.size;
        totals.declared += actions.length;
        console.log(`coverage ${def.slug}: ${exercised.size}/${actions.length} entity-actions exercised`);
        assert.deepEqual(
          actions.map((a) => a.key).filter((k) => !exercised.has(k)),
          [],
          'entity-actions not exercised',
        );
        assert.deepEqual(
          [...fake.unhandled, ...otherUnhandled()].map((r) => `${r.method} ${r.path}`),
          [],
          'requests the fake does not serve',
        );
      });

      // Every exchange above, held to the provider's description: a fake answering what the provider would not
      // (a route, a parameter, an answer without a required member) fails here (suite/contracts.ts).
      test('contract: every exchange against the provider description', () => {
        const started = performance.now();
        const result = runContract(def.slug, fake.requests);
        const ms = (performance.now() - started).toFixed(1);
        assert.ok(result, `no contract for ${def.slug} in test/connectors/suite/contracts.ts`);
        console.log(
          `contract ${def.slug}: ${result.checked} exchanges over ${result.operations.size} operations` +
            ` (${result.exempted} exempt) in ${ms} ms`,
        );
        assert.ok(result.checked > 0, 'the contract checked no exchange');
        assert.equal(result.violations.length, 0, describeViolations(result.violations));
      });
    });
  }
});
