/**
 * The pieces of a `download` that read the definition's `download` options: where the credential may go, the
 * file URL in a JSON answer, and the body a `download_body` hook gives the metadata request.
 */
import { DomainError } from '../../errors.ts';
import { atPath } from './dpath.ts';
import type { BaseUrl, BuiltRequest } from './request.ts';

/**
 * The origins a download may send the credential to: the API's, and the file hosts the definition names (each
 * replaced by the API's origin under an upstream override, where one fake serves everything).
 */
export function credentialOrigins(
  base: BaseUrl,
  declared: string[] | undefined,
  overridden: boolean,
): string[] {
  if (overridden || declared === undefined) return [base.origin];
  return [base.origin, ...declared.map((o) => new URL(o).origin)];
}

interface FoundFile {
  url: URL;
  filename: string | undefined;
  contentType: string | undefined;
}

/** The file URL (and name and type, if declared) in a JSON answer naming a file. */
export function fileUrl(
  provider: string,
  operation: string,
  base: BaseUrl,
  body: unknown,
  at: {
    file_url?: string[] | string[][] | undefined;
    filename?: string[] | undefined;
    content_type?: string[] | undefined;
  },
  /** the `download_url` hook: the URL of the link found, from the answer it came in */
  linkUrl?: (link: string, answer: unknown) => string,
): FoundFile {
  const paths = isPathList(at.file_url) ? at.file_url : [at.file_url ?? []];
  const found = paths.map((path) => atPath(body, path)).find((v) => v !== undefined && v !== null);
  // Absent or null: the provider has no such file (a Gong call recorded without video has no videoUrl).
  if (found === undefined || found === null) {
    throw new DomainError('UPSTREAM_NOT_FOUND', `${provider} has no file for ${operation}.`);
  }
  if (typeof found !== 'string' || found === '') {
    throw new DomainError('UPSTREAM_BAD_RESPONSE', `${provider} returned no file URL for ${operation}.`);
  }
  let url: URL;
  try {
    url = new URL(linkUrl === undefined ? found : linkUrl(found, body), `${base.href}/`);
  } catch {
    throw new DomainError(
      'UPSTREAM_BAD_RESPONSE',
      `${provider} returned an unusable file URL for ${operation}.`,
    );
  }
  const name = at.filename ? atPath(body, at.filename) : undefined;
  const type = at.content_type ? atPath(body, at.content_type) : undefined;
  return {
    url,
    filename: typeof name === 'string' ? name : undefined,
    contentType: typeof type === 'string' ? type : undefined,
  };
}

/** The metadata request with the body a `download_body` hook makes of the one the params built. */
export function withHookBody(
  built: BuiltRequest,
  hook: ((body: Readonly<Record<string, unknown>>) => Record<string, unknown>) | undefined,
): BuiltRequest {
  return hook === undefined ? built : { ...built, body: hook(built.body ?? {}) };
}

function isPathList(value: string[] | string[][] | undefined): value is string[][] {
  return Array.isArray(value) && Array.isArray(value[0]);
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
