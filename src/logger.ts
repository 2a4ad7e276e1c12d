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
