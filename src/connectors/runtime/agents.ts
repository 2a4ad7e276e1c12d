/**
 * The pair of undici agents an upstream client holds: `guarded` for URLs a user can influence (the egress policy
 * checks every address it connects to), `trusted` for the definition's own origins. Made at the first call, and
 * undici loaded then: it is about half of what start-up would otherwise compile. One pair per client, so its
 * connection pools stay warm across calls.
 */
import type { Agent, Dispatcher } from 'undici';
import { type EgressPolicy, guardedConnector } from './egress.ts';

export interface AgentPair {
  request: typeof import('undici').request;
  guarded: Agent;
  trusted: Agent;
}

export class UpstreamAgents {
  private made: Promise<AgentPair> | undefined;

  constructor(
    private readonly options: Pick<Agent.Options, 'keepAliveTimeout' | 'headersTimeout' | 'bodyTimeout'>,
    private readonly connectTimeoutMs: number,
    private readonly egress: EgressPolicy,
  ) {}

  get(): Promise<AgentPair> {
    // Its module.exports (`default`), not the namespace: a bundle's namespace of a CommonJS module can miss
    // members that Node's own import finds.
    this.made ??= import('undici').then(({ default: undici }) => ({
      request: undici.request,
      guarded: new undici.Agent({
        ...this.options,
        connect: guardedConnector(undici.buildConnector, this.egress, this.connectTimeoutMs),
      }),
      trusted: new undici.Agent({ ...this.options, connect: { timeout: this.connectTimeoutMs } }),
    }));
    return this.made;
  }

  /** The agent for a URL: trusted or guarded. */
  async dispatcher(trusted: boolean): Promise<{ request: AgentPair['request']; dispatcher: Dispatcher }> {
    const pair = await this.get();
    return { request: pair.request, dispatcher: trusted ? pair.trusted : pair.guarded };
  }

  async close(): Promise<void> {
    if (!this.made) return;
    const { guarded, trusted } = await this.made;
    await Promise.all([guarded.close(), trusted.close()]);
  }
}
