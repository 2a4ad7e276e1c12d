import type { Clock } from '../../src/connectors/runtime/clock.ts';

/**
 * A clock whose sleeps return at once and move its time forward, recording each wait. `now()` follows real
 * time plus the slept total, so real socket timeouts still work next to it.
 */
export class FakeClock implements Clock {
  readonly sleeps: number[] = [];
  offset = 0;

  constructor(
    private readonly base: () => number = Date.now,
    private readonly jitter = 0.5,
  ) {}

  now(): number {
    return this.base() + this.offset;
  }

  async sleep(ms: number): Promise<void> {
    this.sleeps.push(ms);
    this.offset += ms;
  }

  random(): number {
    return this.jitter;
  }

  advance(ms: number): void {
    this.offset += ms;
  }
}
