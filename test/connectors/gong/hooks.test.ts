// Gong's hook module (src/connectors/hooks/gong.ts) as the Gong definition uses it. Against Gong's fake, the
// empty window is in runtime.test.ts ("maps 404s") and the media URLs of a download in parity.test.ts
// ("call_audio streams the recording"); this file pins what each member decides on its own.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { hooksOf } from '../../../src/connectors/hooks/index.ts';
import { DefinitionRegistry } from '../../../src/connectors/registry.ts';
import { actionNames } from '../../../src/connectors/schema.ts';
import { DomainError } from '../../../src/errors.ts';

const gong = DefinitionRegistry.default().bySlug('gong')!;
const hooks = hooksOf(gong);

describe('Gong hooks', () => {
  it('the definition names the module and uses empty_answer on the call lists, download_body on the media', () => {
    assert.equal(gong.hooks, 'gong');
    const uses = gong.entities.flatMap((e) =>
      actionNames(e).flatMap((a) => (e.actions[a]?.uses_hooks ?? []).map((p) => `${e.name}.${a}: ${p}`)),
    );
    assert.deepEqual(uses, [
      'calls.list: empty_answer',
      'calls_extensive.api_search: empty_answer',
      'call_audio.download: download_body',
      'call_video.download: download_body',
    ]);
  });

  it('empty_answer: only a 404 is an empty window', () => {
    const answer = hooks.emptyAnswer!;
    assert.equal(
      answer(new DomainError('UPSTREAM_NOT_FOUND', 'No calls found for the specified period')),
      true,
    );
    for (const code of ['UPSTREAM_FORBIDDEN', 'INVALID_PARAMS', 'UPSTREAM_ERROR'] as const)
      assert.equal(answer(new DomainError(code, 'no')), false, code);
  });

  it("download_body: media is asked for whatever the client said; the rest of the client's body stays", () => {
    const body = hooks.downloadBody!;
    const sent = {
      filter: { callIds: ['7'] },
      contentSelector: { context: 'Extended', exposedFields: { media: false, parties: true } },
    };
    assert.deepEqual(body(sent), {
      filter: { callIds: ['7'] },
      contentSelector: { context: 'Extended', exposedFields: { media: true, parties: true } },
    });
    assert.equal(sent.contentSelector.exposedFields.media, false, 'the built body is not changed in place');
    assert.deepEqual(body({ filter: { callIds: ['7'] } }), {
      filter: { callIds: ['7'] },
      contentSelector: { exposedFields: { media: true } },
    });
    assert.deepEqual(body({ contentSelector: 'all' }), {
      contentSelector: { exposedFields: { media: true } },
    });
  });
});
