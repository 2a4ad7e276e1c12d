// Deleting a large connector while the API writes (SQLite): how long a request's write waits behind the
// deletion of the connector's index rows, against the same writes in the same run with nothing being deleted.
//   npm run bench:connector-drop -- [--records 200000] [--out connector-drop.json]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { parseDefinition } from '../src/connectors/load.ts';
import { definitionLayouts, type EntityLayout } from '../src/context-store/layout.ts';
import type { Store } from '../src/store/port.ts';
import { openSqliteStore } from '../src/store/sqlite/index.ts';
import { newConnector, newOrg, newWorkspace, T0, T1 } from '../test/contract/fixtures.ts';
import { indexedEntityYaml, testDefinitionYaml } from '../test/helpers/definition-yaml.ts';
import { latencyStats, writeResults } from './lib.ts';

const { values } = parseArgs({
  options: {
    records: { type: 'string', default: '200000' },
    out: { type: 'string', default: 'connector-drop.json' },
  },
});
const records = Number(values.records);

// An entity with a string, an integer and a full-text field, records of ~1 KB.
const def = parseDefinition(
  testDefinitionYaml(
    '6a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5e',
    'dropbench',
    indexedEntityYaml('issues', [
      ['id', 'string'],
      ['title', 'string'],
      ['number', 'integer'],
      ['body', 'text'],
    ]),
  ),
  'dropbench.yaml',
);
const layout = definitionLayouts(def)[0] as EntityLayout;
const WORDS = 'alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu'.split(' ');

/** Request-path writes (a workspace rename), one every 5 ms, until `until` settles; each one's latency. */
async function writesDuring(store: Store, org: string, ws: string, until: Promise<unknown>) {
  let done = false;
  until.then(() => {
    done = true;
  });
  const ms: number[] = [];
  while (!done) {
    const t = performance.now();
    await store.workspaces.update(org, ws, { name: `Main ${ms.length % 2}`, now: T0 });
    ms.push(performance.now() - t);
    await new Promise((r) => setTimeout(r, 5));
  }
  return ms;
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ces-bench-drop-'));
try {
  const { store } = await openSqliteStore({ file: path.join(dir, 'ces.db'), migrate: true });
  const cs = store.contextStore;
  await cs.ensureLayouts([layout], T0);
  const org = await newOrg(store);
  const ws = await newWorkspace(store, org, 'Main');
  const connector = await newConnector(store, org, ws.id, { definition_id: def.id });
  await cs.initConnector(org, connector.id, ['issues'], T0);
  const job = await cs.claim('bench', T0, T1);
  if (!job) throw new Error('no sync to claim');
  for (let at = 0; at < records; at += 2000) {
    const page = Array.from({ length: Math.min(2000, records - at) }, (_, i) => ({
      id: `r${at + i}`,
      number: at + i,
      title: `${WORDS[i % 12]} ${WORDS[(i * 7) % 12]} issue ${at + i}`,
      body: `${WORDS[(i * 5) % 12]} `.repeat(150),
    }));
    const state = { status: 'Preview' as const, ready_for_search: true, count: false };
    const pages = [cs.encode(connector.id, layout, page, 1, T0)];
    const done = await cs.commitPage(job, { layout, pages }, { cursor: null } as never, state, T0, T1);
    if (!done.held) throw new Error('lease lost');
  }
  console.log(`indexed ${records} records`);

  const idle = await writesDuring(store, org, ws.id, new Promise((r) => setTimeout(r, 2000)));
  const started = performance.now();
  const drop = cs.dropConnector(org, connector.id, [layout]);
  const during = await writesDuring(store, org, ws.id, drop);
  const dropMs = performance.now() - started;
  await store.close();

  const result = {
    records,
    drop_ms: Math.round(dropMs),
    write_ms_idle: latencyStats(idle),
    write_ms_during_drop: latencyStats(during),
  };
  console.log(result);
  writeResults(values.out, result);
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
