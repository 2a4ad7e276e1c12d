// `download` answers the file itself (not the JSON envelope), streamed from the provider through ces: the
// body is handed to the caller as the stream it is, so memory stays flat whatever the file's size.
import type { Client } from 'openapi-fetch';
import { errorFromResponse } from './errors.ts';
import type { paths } from './generated/openapi.ts';
import type { CallOptions } from './types.ts';

export interface DownloadRequest {
  entity: string;
  params?: Record<string, unknown>;
  /** An HTTP Range (`bytes=0-1023`): the provider's part of the file, status 206. */
  range?: string;
}

export interface Download {
  /** The file's bytes as they arrive; read it to the end or cancel() it to free the connection. */
  body: ReadableStream<Uint8Array>;
  contentType: string;
  /** From Content-Disposition (its UTF-8 `filename*` when given). */
  filename: string | undefined;
  /** Bytes in `body` when the server declared them (not for a chunked answer). */
  size: number | undefined;
  /** 200, or 206 for a range. */
  status: number;
  /** For a range: `bytes start-end/total`. */
  contentRange: string | undefined;
}

/** The file name of a Content-Disposition header: `filename*=UTF-8''…` first, then `filename="…"`. */
export function filenameOf(disposition: string | null): string | undefined {
  if (!disposition) return undefined;
  const extended = /filename\*\s*=\s*[^']*'[^']*'([^;]+)/i.exec(disposition);
  if (extended?.[1]) {
    try {
      return decodeURIComponent(extended[1].trim());
    } catch {}
  }
  const quoted = /filename\s*=\s*"((?:[^"\\]|\\.)*)"/i.exec(disposition);
  if (quoted?.[1] !== undefined) return quoted[1].replace(/\\(.)/g, '$1');
  return /filename\s*=\s*([^;\s]+)/i.exec(disposition)?.[1];
}

export async function download(
  api: Client<paths>,
  connectorId: string,
  request: DownloadRequest,
  options: CallOptions,
): Promise<Download> {
  const { data, error, response } = await api.POST('/api/v1/integrations/connectors/{id}/execute', {
    params: { path: { id: connectorId } },
    body: { entity: request.entity, action: 'download', params: request.params ?? {} },
    parseAs: 'stream',
    headers: request.range ? { range: request.range } : {},
    ...options,
  });
  if (!response.ok) throw errorFromResponse(response, error);
  const length = response.headers.get('content-length');
  return {
    body: data ?? new ReadableStream<Uint8Array>({ start: (c) => c.close() }),
    contentType: response.headers.get('content-type') ?? 'application/octet-stream',
    filename: filenameOf(response.headers.get('content-disposition')),
    size: length !== null && /^\d+$/.test(length) ? Number(length) : undefined,
    status: response.status,
    contentRange: response.headers.get('content-range') ?? undefined,
  };
}
