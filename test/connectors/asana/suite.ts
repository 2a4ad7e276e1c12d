// The Asana provider of the definition-driven suite: the fake seeds two organizations (one premium, for the task
// search); attachments Asana hosts live on the fake's file storage, a second origin reached without credentials.
import type { SuiteProvider } from '../suite/types.ts';
import { asanaCases } from './cases.ts';
import { ASANA_FAKE_PAT, startAsanaFake } from './fake/index.ts';

export const provider: SuiteProvider = {
  async start() {
    const fake = await startAsanaFake({ largeFileBytes: 64 * 1024 });
    return {
      fake,
      otherUnhandled: () => fake.storage.unhandled,
      env: {
        CES_UPSTREAM_OVERRIDES: JSON.stringify({ asana: fake.url }),
        // The file storage is a loopback address here: allowed by host and port only.
        CES_EGRESS_ALLOW: new URL(fake.storage.origin).host,
      },
      connector: {
        connector_type: 'asana',
        credentials: { personal_access_token: ASANA_FAKE_PAT },
      },
      cases: asanaCases(fake.data),
    };
  },
};
