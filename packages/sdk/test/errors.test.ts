import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  CesError,
  ConflictError,
  errorFromResponse,
  filenameOf,
  isCesError,
  NotFoundError,
  RateLimitError,
  ServerError,
  ValidationError,
} from '../src/index.ts';

const response = (status: number, headers: Record<string, string> = {}) =>
  new Response(null, { status, headers });

test("ces's error body becomes a typed error by status, with its code, request id and errors", () => {
  const body = {
    message: "Unknown entity 'isues'.",
    code: 'UNKNOWN_ENTITY',
    request_id: 'req_1',
    errors: [{ field: 'entity', message: 'unknown', error_code: 'unknown_entity', details: null }],
  };
  const err = errorFromResponse(response(422), body);
  assert.ok(err instanceof ValidationError && err instanceof CesError && err instanceof Error);
  assert.equal(err.name, 'ValidationError');
  assert.equal(err.code, 'UNKNOWN_ENTITY');
  assert.equal(err.message, "Unknown entity 'isues'.");
  assert.equal(err.requestId, 'req_1');
  assert.equal(err.errors[0]?.field, 'entity');
  assert.ok(isCesError(err, 'UNKNOWN_ENTITY'));
  assert.ok(!isCesError(err, 'INVALID_PARAMS'));
  assert.ok(
    errorFromResponse(response(404), { ...body, code: 'CONNECTOR_NOT_FOUND' }) instanceof NotFoundError,
  );
  const busy = errorFromResponse(response(503), { ...body, code: 'SERVER_BUSY', retry_after: 2 });
  assert.ok(busy instanceof ServerError);
  assert.equal(busy.retryAfter, 2);
  const notReady = errorFromResponse(response(409), {
    ...body,
    code: 'CONTEXT_STORE_NOT_READY',
    context_store_status: 'Loading',
  });
  assert.ok(notReady instanceof ConflictError);
  assert.equal((notReady.body as Record<string, unknown>).context_store_status, 'Loading');
});

test('an answer without the error body keeps its status and text', () => {
  const err = errorFromResponse(
    response(429, { 'retry-after': '7', 'x-request-id': 'req_9' }),
    '<html>slow down</html>',
  );
  assert.ok(err instanceof RateLimitError);
  assert.equal(err.code, 'UNEXPECTED_RESPONSE');
  assert.equal(err.retryAfter, 7);
  assert.equal(err.requestId, 'req_9');
  assert.match(err.message, /429.*slow down/);
});

test('file names from Content-Disposition, the UTF-8 form first', () => {
  assert.equal(
    filenameOf(`attachment; filename="r_sum_.pdf"; filename*=UTF-8''r%C3%A9sum%C3%A9.pdf`),
    'résumé.pdf',
  );
  assert.equal(filenameOf('attachment; filename="a \\"b\\".txt"'), 'a "b".txt');
  assert.equal(filenameOf('attachment; filename=plain.tar.gz'), 'plain.tar.gz');
  assert.equal(filenameOf('inline'), undefined);
  assert.equal(filenameOf(null), undefined);
});
