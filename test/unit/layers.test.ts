// The dependency direction `npm run lint` enforces (scripts/check-layers.mjs): the tree follows it, and each rule
// catches the wrong-way import it names.
import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, it } from 'node:test';
import { importEdges, violations } from '../../scripts/check-layers.mjs';

const ROOT = path.resolve(import.meta.dirname, '../..');

describe('layers', () => {
  it('src follows the dependency direction', () => {
    const edges = importEdges(ROOT);
    assert.ok(edges.length > 200, `${edges.length} imports read`);
    assert.deepEqual(violations(edges), []);
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
  });
});
