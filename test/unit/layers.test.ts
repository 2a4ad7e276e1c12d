// The dependency direction `npm run lint` enforces (scripts/check-layers.mjs): the tree follows it, and each rule
// catches the wrong-way import it names.
import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, it } from 'node:test';
import { importEdges, layerArrows, layerCycles, violations } from '../../scripts/check-layers.mjs';

const ROOT = path.resolve(import.meta.dirname, '../..');

describe('layers', () => {
  it('src follows the dependency direction', () => {
    const edges = importEdges(ROOT);
    assert.ok(edges.length > 200, `${edges.length} imports read`);
    assert.deepEqual(violations(edges), []);
    const { arrows, against, unplaced } = layerArrows(edges);
    assert.ok(arrows.length > 20, `${arrows.length} arrows between layers`);
    assert.deepEqual(against, []);
    assert.deepEqual(unplaced, []);
    assert.deepEqual(layerCycles(edges), []);
  });

  it('refuses each wrong-way import, and allows the shared errors module everywhere', () => {
    const wrong: Array<[string, string]> = [
      ['src/store/sqlite/context-store.ts', 'src/core/connectors/execute.ts'],
      ['src/core/connectors/create.ts', 'src/store/sqlite/index.ts'],
      ['src/connectors/runtime/executor.ts', 'src/core/context.ts'],
      ['src/context-store/query.ts', 'src/http/errors.ts'],
      ['src/context-store/status.ts', 'src/store/port.ts'],
      ['src/security/vault.ts', 'src/store/port.ts'],
      ['src/core/connectors/execute.ts', 'src/http/presenters.ts'],
      ['src/core/connectors/execute.ts', 'src/mcp/tools.ts'],
      ['src/mcp/tools.ts', 'src/http/auth.ts'],
      ['src/http/presenters.ts', 'src/store/port.ts'],
      ['src/http/routes/index.ts', 'src/app.ts'],
    ];
    for (const edge of wrong) assert.equal(violations([edge]).length, 1, edge.join(' -> '));
    const right: Array<[string, string]> = [
      ['src/store/open.ts', 'src/store/sqlite/index.ts'],
      ['src/store/sqlite/search-readers.ts', 'src/errors.ts'],
      ['src/core/sync/worker.ts', 'src/context-store/layout.ts'],
      ['src/security/tokens.ts', 'src/errors.ts'],
      ['src/http/routes/connectors/execute.ts', 'src/core/connectors/execute.ts'],
      ['src/http/routes/mcp.ts', 'src/mcp/server.ts'],
      ['src/mcp/tools.ts', 'src/core/connectors/execute.ts'],
    ];
    assert.deepEqual(violations(right), []);
    // Two rules forbid it at once (the adapter is opened in one place; http never imports the store).
    assert.equal(violations([['src/http/routes/ops/health.ts', 'src/store/sqlite/index.ts']]).length, 2);
  });

  it('counts the arrows that run up the layers and finds every circle of layers', () => {
    const down: Array<[string, string]> = [
      ['src/http/routes/connectors/execute.ts', 'src/core/connectors/execute.ts'],
      ['src/core/connectors/execute.ts', 'src/connectors/runtime/executor.ts'],
      ['src/connectors/runtime/executor.ts', 'src/errors.ts'],
    ];
    assert.deepEqual(layerArrows(down).against, []);
    assert.deepEqual(layerCycles(down), []);

    const up: Array<[string, string]> = [
      ...down,
      ['src/connectors/runtime/http.ts', 'src/core/context.ts'],
      ['src/connectors/runtime/params.ts', 'src/core/errors-of-core.ts'],
    ];
    const { against } = layerArrows(up);
    assert.deepEqual(
      against.map((a) => [a.from, a.to, a.imports.length]),
      [['connectors', 'core', 2]],
    );
    assert.deepEqual(layerCycles(up), [['connectors', 'core']]);

    assert.deepEqual(layerArrows([['src/newlayer/a.ts', 'src/errors.ts']]).unplaced, ['src/newlayer/a.ts']);
  });
});
