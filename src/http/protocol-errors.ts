import http from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { FastifyBaseLogger, FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DomainError } from '../errors.ts';
import { STATUS_BY_CODE, sendError, TransportError, type WireCode } from './errors.ts';
import { newRequestId } from './request-id.ts';

/** No route takes a long URL (the longest legitimate one carries a 1,000-character cursor). */
export const MAX_URL_LENGTH = 4096;
/** A path parameter (an id) longer than this is refused by the router before any route runs. */
export const MAX_PARAM_LENGTH = 200;

type ParserError = Error & { code?: string; reason?: unknown; rawPacket?: unknown };

/** Parser errors that are not a plain 400; for the others llhttp's own reason (a fixed text) says what is wrong. */
const PARSER_ERRORS: Record<string, { code: WireCode; message: string }> = {
  HPE_HEADER_OVERFLOW: { code: 'HEADERS_TOO_LARGE', message: 'The request headers are larger than allowed.' },
  HPE_CHUNK_EXTENSIONS_OVERFLOW: {
    code: 'PAYLOAD_TOO_LARGE',
    message: 'The chunk extensions of the request body are larger than allowed.',
  },
  ERR_HTTP_REQUEST_TIMEOUT: { code: 'REQUEST_TIMEOUT', message: 'The request did not arrive in time.' },
};

function describe(err: ParserError): { code: WireCode; message: string } {
  const known = err.code ? PARSER_ERRORS[err.code] : undefined;
  if (err.code === 'HPE_HEADER_OVERFLOW' && Buffer.isBuffer(err.rawPacket)) {
    // The request line counts against the header limit: when it alone overflows, the URL is what is too long.
    const head = err.rawPacket.subarray(0, MAX_URL_LENGTH + 64).toString('latin1');
    const lineEnd = head.indexOf('\n');
    if (/^[A-Z]+ \//.test(head) && (lineEnd === -1 || lineEnd > MAX_URL_LENGTH)) {
      return { code: 'URI_TOO_LONG', message: `The URL is longer than ${MAX_URL_LENGTH} characters.` };
    }
  }
  if (known) return known;
  const reason = err.code?.startsWith('HPE_') && typeof err.reason === 'string' ? `: ${err.reason}` : '';
  return { code: 'BAD_REQUEST', message: `The request is not valid HTTP/1.1${reason}.` };
}

/** The one error body, for requests that never become a Fastify request. */
function errorPayload(code: WireCode, message: string) {
  const id = newRequestId();
  return {
    status: STATUS_BY_CODE[code],
    id,
    body: JSON.stringify({ message, code, request_id: id, errors: [] }),
  };
}

const headersOf = (p: { id: string; body: string }) => ({
  'Content-Type': 'application/json; charset=utf-8',
  'Content-Length': String(Buffer.byteLength(p.body)),
  'X-Request-Id': p.id,
  Connection: 'close',
});

/** A complete response written straight to a socket. */
function rawResponse(code: WireCode, message: string): { status: number; id: string; text: string } {
  const p = errorPayload(code, message);
  const head = Object.entries(headersOf(p)).map(([k, v]) => `${k}: ${v}`);
  const text = [`HTTP/1.1 ${p.status} ${http.STATUS_CODES[p.status]}`, ...head, '', p.body].join('\r\n');
  return { status: p.status, id: p.id, text };
}

/** Sends the response, then closes: after a refused request the connection cannot be trusted to resynchronise. */
function answerAndClose(socket: Duplex, text: string): void {
  socket.end(text, () => socket.destroy());
  // A peer that never reads would keep the socket open forever.
  setTimeout(() => socket.destroy(), 5000).unref();
}

/**
 * Requests Node's HTTP parser refuses never reach Fastify; without this the client gets Node's or Fastify's own
 * bodies. Answers with the one error body, then closes the connection (the parser cannot resynchronise).
 * Only the error code is logged: the raw packet holds the request's headers, tokens included.
 */
export function clientErrorHandler(logger: FastifyBaseLogger) {
  return (err: ParserError, socket: Socket): void => {
    if (err.code === 'ECONNRESET' || socket.destroyed) return;
    // A response of an earlier request on this connection already started: writing now would corrupt it.
    const inFlight = (socket as Socket & { _httpMessage?: http.ServerResponse })._httpMessage;
    if (!socket.writable || inFlight?.headersSent) {
      socket.destroy();
      return;
    }
    const { code, message } = describe(err);
    const response = rawResponse(code, message);
    logger.info(
      { request_id: response.id, parser_error: err.code, status: response.status },
      'malformed HTTP request refused',
    );
    answerAndClose(socket, response.text);
  };
}

/**
 * The server events Node answers on its own, without a body: an `Expect` other than 100-continue (417), and
 * CONNECT (the connection was closed without an answer).
 */
export function installServerGuards(server: http.Server, logger: FastifyBaseLogger): void {
  server.on('checkExpectation', (_req: http.IncomingMessage, res: http.ServerResponse) => {
    const p = errorPayload('EXPECTATION_FAILED', 'Only "Expect: 100-continue" is supported.');
    res.writeHead(p.status, headersOf(p)).end(p.body);
  });
  server.on('connect', (_req: http.IncomingMessage, socket: Duplex) => {
    const response = rawResponse('METHOD_NOT_ALLOWED', 'CONNECT is not supported: this is not a proxy.');
    logger.info({ request_id: response.id }, 'CONNECT refused');
    answerAndClose(socket, response.text);
  });
}

/** Errors Fastify's router raises before any route (and so before the error handler) runs. */
export function frameworkErrorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  reply.header('x-request-id', request.id);
  if (error.code === 'FST_ERR_BAD_URL') {
    return sendError(reply, 400, {
      code: 'BAD_REQUEST',
      message: 'The URL is not valid (malformed percent-encoding).',
      errors: [],
    });
  }
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    return sendError(reply, STATUS_BY_CODE.URI_TOO_LONG, {
      code: 'URI_TOO_LONG',
      message: `A segment of the URL path is longer than ${MAX_PARAM_LENGTH} characters.`,
      errors: [],
    });
  }
  request.log.error({ err: error }, 'router error');
  return sendError(reply, 500, {
    code: 'INTERNAL_ERROR',
    message: 'Internal server error. Quote the request_id when reporting it.',
    errors: [],
  });
}

/**
 * Checks of the request line and headers that Node's parser leaves to the application: the URL's length, and
 * the Host header HTTP/1.1 requires (checked here rather than by Node, which answers without a body).
 */
export function installRequestGuards(app: FastifyInstance): void {
  // Callback style: an async hook costs a promise and a microtask turn on every request.
  app.addHook('onRequest', (request, _reply, done) => {
    if ((request.raw.url ?? '').length > MAX_URL_LENGTH) {
      done(new TransportError('URI_TOO_LONG', `The URL is longer than ${MAX_URL_LENGTH} characters.`));
      return;
    }
    const { httpVersionMajor, httpVersionMinor } = request.raw;
    const http11 = httpVersionMajor > 1 || (httpVersionMajor === 1 && httpVersionMinor >= 1);
    if (http11 && request.headers.host === undefined) {
      done(new DomainError('BAD_REQUEST', 'An HTTP/1.1 request needs a Host header.'));
      return;
    }
    done();
  });
}
