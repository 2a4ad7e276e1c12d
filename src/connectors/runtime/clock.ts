/**
 * Time and randomness as a dependency, so retry waits, jitter and rate limits can be tested deterministically
 * (a fake clock advances instantly instead of sleeping for seconds).
 */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  sleep(ms: number): Promise<void>;
  /** Uniform in [0, 1): the jitter source. */
  random(): number;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms))),
  random: () => Math.random(),
};
