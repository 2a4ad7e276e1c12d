/**
 * The HTTP reply of an execute, the one place that writes its envelope: `{status, result, connector_metadata,
 * execution_metadata}` around the answer's payload, or the file of a download.
 */
import type { OutgoingHttpHeaders } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { DownloadResult } from '../connectors/runtime/download.ts';
import type { ExecuteAnswer, JsonAnswer } from '../core/connectors/execute.ts';
import { REQUEST_ID_HEADER } from './request-id.ts';

const HEAD = Buffer.from(`{"status":"success","result":`);

/** The envelope with `result` as a value, for Fastify to serialise by the route's response schema. */
function envelope(out: JsonAnswer, result: unknown) {
  return {
    status: 'success' as const,
    result,
    connector_metadata: out.connector_metadata,
    execution_metadata: out.execution_metadata,
  };
}

/** Streamed as it arrives: memory stays flat whatever the file's size. */
export function replyFile(reply: FastifyReply, file: DownloadResult, headers: OutgoingHttpHeaders = {}) {
  return reply
    .code(file.status)
    .headers({ ...file.headers, ...headers })
    .send(file.body);
}

/**
 * Replies with `out`: a file as it streams; a JSON answer whose payload holds JSON bytes with those bytes spliced
 * into the envelope as they are; one holding only values serialised by Fastify.
 */
export function replyExecute(request: FastifyRequest, reply: FastifyReply, out: ExecuteAnswer) {
  if (out.kind === 'file') return replyFile(reply, out.file);
  const { payload } = out;
  if (payload.kind === 'bytes') return splice(request, reply, out, payload.parts);
  if (payload.json !== undefined) return splice(request, reply, out, [payload.json]);
  return envelope(out, payload.value);
}

/**
 * Same document as serialising the envelope, minus re-encoding a result that is already JSON bytes. Written here
 * as its pieces (an unparsed list: ranges of the upstream answer's chunks as they came) in one writev, the way
 * Fastify would send one buffer (its headers, this request's id; its onResponse hooks still run when the response
 * finishes), rather than copied into one buffer first: that copy and its allocation (external memory to V8, whose
 * full collections it brings on) cost several percent of an execute's CPU, and a 30 MB answer would sit in memory
 * twice.
 */
function splice(request: FastifyRequest, reply: FastifyReply, out: JsonAnswer, parts: readonly Buffer[]) {
  const tail = Buffer.from(
    `,"connector_metadata":${JSON.stringify(out.connector_metadata)},"execution_metadata":${JSON.stringify(out.execution_metadata)}}`,
  );
  reply.hijack();
  const res = reply.raw;
  // A fresh object (Fastify's headers and the response's): set on it rather than spread into another.
  const headers = reply.getHeaders() as OutgoingHttpHeaders;
  headers['content-type'] = 'application/json; charset=utf-8';
  let length = HEAD.length + tail.length;
  for (const part of parts) length += part.length;
  headers['content-length'] = length;
  headers[REQUEST_ID_HEADER] = request.id;
  res.writeHead(200, headers);
  res.cork();
  res.write(HEAD);
  for (const part of parts) res.write(part);
  res.end(tail);
  return reply;
}
