import { isIPv6 } from 'node:net';

export interface TokenAttemptLimits {
  /** Failed attempts allowed per source address in the window; 0: no limit. */
  perAddress: number;
  /** Failed attempts allowed per client id in the window; 0: no limit. */
  perClient: number;
  windowMs?: number;
  /** Keys tracked per table; past it, expired entries are swept, then the least recently failed are forgotten. */
  maxKeys?: number;
  /** How long a client id stays trusted at an address where it presented its secret. */
  trustMs?: number;
}

const MINUTE = 60_000;
const DAY = 86_400_000;

/**
 * Throttles failed client-credential exchanges: at most `perAddress` failures per source address and `perClient`
 * per client id in any sliding window, after which attempts are refused before the secret is looked at (so a
 * throttled guess learns nothing).
 *
 * A client id that presented its secret from an address stays trusted there for a day: that address's limit no
 * longer applies to it, so a valid client is never slowed by others failing with other client ids behind the same
 * NAT. Failures on its own client id still count against it, from anywhere: the exemption gives a guesser at the
 * same address nothing the per-client limit does not already allow. Successes never count against anything.
 * A client id new to an address that is over its limit waits like any other attempt from there: before the
 * secret is checked, nothing tells it from a guess.
 *
 * State is in-process: one ces process serves the API today. Several processes would each allow the limit.
 * Memory is bounded: at most `maxKeys` keys per table, and per key only its last `limit` failure times.
 */
export class TokenAttemptLimiter {
  private readonly windowMs: number;
  private readonly maxKeys: number;
  private readonly trustMs: number;
  private readonly byAddress = new Map<string, number[]>();
  private readonly byClient = new Map<string, number[]>();
  /** `${address}\n${clientId}` -> until when the pair is trusted. */
  private readonly trusted = new Map<string, number>();
  private lastSweep = 0;

  constructor(
    private readonly limits: TokenAttemptLimits,
    private readonly now: () => number = Date.now,
  ) {
    this.windowMs = limits.windowMs ?? MINUTE;
    this.maxKeys = limits.maxKeys ?? 10_000;
    this.trustMs = limits.trustMs ?? DAY;
  }

  /**
   * Seconds until this client id may try again from this address; 0: it may try now. Without an address (an
   * in-process caller) only the client id's limit applies.
   */
  retryAfter(clientId: string, address: string | undefined): number {
    const now = this.now();
    const addr = address === undefined ? undefined : addressKey(address);
    const trusted = addr !== undefined && (this.trusted.get(`${addr}\n${clientId}`) ?? 0) > now;
    const waitMs = Math.max(
      addr === undefined || trusted ? 0 : this.waitMs(this.byAddress, addr, this.limits.perAddress, now),
      this.waitMs(this.byClient, clientId, this.limits.perClient, now),
    );
    return waitMs > 0 ? Math.max(1, Math.ceil(waitMs / 1000)) : 0;
  }

  recordFailure(clientId: string, address: string | undefined): void {
    const now = this.now();
    this.sweep(now);
    if (address !== undefined) this.push(this.byAddress, addressKey(address), this.limits.perAddress, now);
    this.push(this.byClient, clientId, this.limits.perClient, now);
  }

  recordSuccess(clientId: string, address: string | undefined): void {
    if (address === undefined) return;
    const now = this.now();
    this.sweep(now);
    const key = `${addressKey(address)}\n${clientId}`;
    this.trusted.delete(key);
    this.trusted.set(key, now + this.trustMs);
    evictOldest(this.trusted, this.maxKeys);
  }

  /** Keys currently tracked (failure tables and trusted pairs); for tests of the memory bound. */
  get size(): number {
    return this.byAddress.size + this.byClient.size + this.trusted.size;
  }

  private waitMs(table: Map<string, number[]>, key: string, limit: number, now: number): number {
    if (limit <= 0) return 0;
    const times = table.get(key);
    if (!times || times.length < limit) return 0;
    // `times` holds the last `limit` failures, oldest first: the window is full until the oldest leaves it.
    return times[0]! + this.windowMs - now;
  }

  private push(table: Map<string, number[]>, key: string, limit: number, now: number): void {
    if (limit <= 0) return;
    const times = table.get(key) ?? [];
    times.push(now);
    if (times.length > limit) times.splice(0, times.length - limit);
    // Re-inserting keeps the map ordered by last failure, so eviction forgets the quietest keys first.
    table.delete(key);
    table.set(key, times);
    evictOldest(table, this.maxKeys);
  }

  /** Drops what can no longer matter, at most once per window (each sweep is linear in the keys held). */
  private sweep(now: number): void {
    if (now - this.lastSweep < this.windowMs) return;
    this.lastSweep = now;
    for (const table of [this.byAddress, this.byClient]) {
      for (const [key, times] of table)
        if (times[times.length - 1]! + this.windowMs <= now) table.delete(key);
    }
    for (const [key, until] of this.trusted) if (until <= now) this.trusted.delete(key);
  }
}

function evictOldest<V>(table: Map<string, V>, maxKeys: number): void {
  while (table.size > maxKeys) {
    const oldest = table.keys().next().value;
    if (oldest === undefined) return;
    table.delete(oldest);
  }
}

/**
 * The unit an address limit applies to. One IPv6 host usually holds a whole /64 (and picks new addresses in it
 * at will), so IPv6 addresses count per /64; IPv4-mapped addresses count as their IPv4 address.
 */
export function addressKey(address: string): string {
  const plain = address.replace(/%.*$/, '').toLowerCase();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(plain);
  if (mapped) return mapped[1]!;
  if (!isIPv6(plain)) return plain;
  const [head = '', tail] = plain.split('::');
  const groups = (part: string) => (part === '' ? [] : part.split(':'));
  const left = groups(head);
  // An embedded IPv4 tail fills two groups; only the first four groups matter here.
  const right = tail === undefined ? [] : groups(tail).flatMap((g) => (g.includes('.') ? ['0', '0'] : [g]));
  const full =
    tail === undefined
      ? left
      : [...left, ...Array(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right];
  return `${full
    .slice(0, 4)
    .map((g) => Number.parseInt(g || '0', 16).toString(16))
    .join(':')}::/64`;
}
