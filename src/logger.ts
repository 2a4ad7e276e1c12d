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
