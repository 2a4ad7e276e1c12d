import pino, { type DestinationStream, type Logger } from 'pino';

/**
 * Structured logs. Fastify's request serializer logs method, URL and status, never headers or bodies; the
 * redaction list is a second line of defence should anyone log a request or an error object with them.
 */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  return pino(
    {
      level,
      base: { service: 'ces' },
      redact: {
        paths: [
          'req.headers.authorization',
          'req.headers.cookie',
          'headers.authorization',
          '*.authorization',
          '*.client_secret',
          '*.credentials',
          '*.access_token',
          '*.token',
          '*.password',
          '*.api_token',
          '*.personal_access_token',
        ],
        censor: '[redacted]',
      },
    },
    destination,
  );
}

/** Query parameters that carry a secret: an OAuth code or state, a download link, a token someone put in a URL. */
const SECRET_QUERY =
  /([?&](?:code|state|link|token|access_token|refresh_token|id_token|client_secret|api_key|key|password)=)[^&#]*/gi;

export function redactUrl(url: string): string {
  return url.replace(SECRET_QUERY, '$1[redacted]');
}

/**
 * The logger Fastify logs requests with: its own request summary (method, URL, host, address), with the
 * URL's secret query parameters redacted (a consent flow's callback carries the authorization code). Fastify
 * merges a logger instance's `serializers` member over its defaults.
 */
export function requestLogger<L extends { child(bindings: Record<string, never>): L }>(logger: L): L {
  const serializers = {
    req: (req: {
      method?: string;
      url?: string;
      host?: string;
      ip?: string;
      socket?: { remotePort?: number };
    }) => ({
      method: req.method,
      url: req.url === undefined ? undefined : redactUrl(req.url),
      host: req.host,
      remoteAddress: req.ip,
      remotePort: req.socket?.remotePort,
    }),
  };
  return Object.assign(logger.child({}), { serializers });
}

const LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace'] as const;
type Write = (...args: unknown[]) => void;

/** The part of a pino logger the lazy child below needs from its parent. */
interface ChildCapable {
  level: string;
  isLevelEnabled(level: string): boolean;
  child(bindings: Record<string, unknown>, options?: object): ChildCapable;
  bindings(): Record<string, unknown>;
}

/**
 * A request's logger that becomes pino's child only when something writes at an enabled level (or reads or sets
 * its level, asks for its bindings or a child of it). pino's child() serialises the bindings and runs the
 * redaction over them, on every request (~2% of an execute's CPU) for a logger that most requests never write
 * to: at the default level, the framework's `incoming request` and `request completed` lines are the only
 * writes, and they are skipped the same way.
 */
class LazyChild {
  declare fatal: Write;
  declare error: Write;
  declare warn: Write;
  declare info: Write;
  declare debug: Write;
  declare trace: Write;

  static {
    // One method per level, each the same: written only if the level is enabled, through the child.
    for (const level of LEVELS) {
      Object.defineProperty(LazyChild.prototype, level, {
        value(this: LazyChild, ...args: unknown[]) {
          if (!this.#current().isLevelEnabled(level)) return;
          (this.#logger() as unknown as Record<(typeof LEVELS)[number], Write>)[level](...args);
        },
        writable: true,
        configurable: true,
      });
    }
  }

  #made: ChildCapable | undefined;
  readonly #parent: ChildCapable;
  readonly #bindings: Record<string, unknown>;
  readonly #options: object;

  constructor(parent: ChildCapable, bindings: Record<string, unknown>, options: object) {
    this.#parent = parent;
    this.#bindings = bindings;
    this.#options = options;
  }

  /** The child once made; until then the parent, whose level is the child's. */
  #current(): ChildCapable {
    return this.#made ?? this.#parent;
  }

  #logger(): ChildCapable {
    this.#made ??= this.#parent.child(this.#bindings, this.#options);
    return this.#made;
  }

  get level(): string {
    return this.#current().level;
  }
  set level(level: string) {
    this.#logger().level = level;
  }
  isLevelEnabled(level: string): boolean {
    return this.#current().isLevelEnabled(level);
  }
  bindings(): Record<string, unknown> {
    return this.#logger().bindings();
  }
  child(bindings: Record<string, unknown>, options?: object): ChildCapable {
    return this.#logger().child(bindings, options);
  }
  silent(): void {}
}

/**
 * Fastify's `childLoggerFactory`: each request's logger, made lazily (LazyChild), unless the route sets its own
 * level or serializers (whether a line is written would then depend on the child's options): made at once.
 */
export function lazyChildLogger<L>(
  logger: L,
  bindings: Record<string, unknown>,
  options: { level?: string; serializers?: unknown },
): L {
  const parent = logger as unknown as ChildCapable;
  if (options.level !== undefined || options.serializers !== undefined)
    return parent.child(bindings, options) as unknown as L;
  return new LazyChild(parent, bindings, options) as unknown as L;
}
