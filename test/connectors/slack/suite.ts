// The Slack provider of the definition-driven suite: the fake's default workspace, a Bot Token connector, and
// one reaction of the bot seeded for reactions.delete to remove. Files are served on the fake's own origin, the
// override's, which stands for files.slack.com (the definition's credentials_to).
import type { SuiteProvider } from '../suite/types.ts';
import { seedBotReaction, slackCases } from './cases.ts';
import { SLACK_FAKE_BOT_TOKEN, startSlackFake } from './fake/index.ts';

export const provider: SuiteProvider = {
  async start() {
    const fake = await startSlackFake();
    seedBotReaction(fake.data);
    return {
      fake,
      env: { CES_UPSTREAM_OVERRIDES: JSON.stringify({ slack: fake.url }) },
      connector: { connector_type: 'slack', credentials: { bot_token: SLACK_FAKE_BOT_TOKEN } },
      cases: slackCases(fake.data),
    };
  },
};
