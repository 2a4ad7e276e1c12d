// The Gong provider of the definition-driven suite: small pages so every list spans several.
import type { SuiteProvider } from '../suite/types.ts';
import { gongCases } from './cases.ts';
import { GONG_FAKE_ACCESS_KEY, GONG_FAKE_ACCESS_KEY_SECRET, startGongFake } from './fake/index.ts';
import { GONG_HOSTED_TYPE_EXCEPTIONS } from './hosted-exceptions.ts';

export const provider: SuiteProvider = {
  hostedTypeExceptions: GONG_HOSTED_TYPE_EXCEPTIONS,
  async start() {
    const fake = await startGongFake({ pageSize: 8, calls: 40, users: 30 });
    return {
      fake,
      otherUnhandled: () => fake.media.unhandled,
      env: {
        CES_UPSTREAM_OVERRIDES: JSON.stringify({ gong: fake.url }),
        // Recordings live on the media host, a loopback address here: allowed by host and port only.
        CES_EGRESS_ALLOW: new URL(fake.media.origin).host,
      },
      connector: {
        connector_type: 'gong',
        credentials: { access_key: GONG_FAKE_ACCESS_KEY, access_key_secret: GONG_FAKE_ACCESS_KEY_SECRET },
      },
      cases: gongCases(fake.data),
    };
  },
};
