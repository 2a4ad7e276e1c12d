/**
 * What a hook module may implement: one member per hook point, each a quirk of one provider that no second
 * provider shares (docs/connector-definitions.md, "Options and hooks"). A definition names its module
 * (`hooks: <name>`) and each action the points it uses (`uses_hooks: [...]`); the loader refuses an unknown
 * module, and a point whose member the module lacks, naming the file and the JSON pointer.
 *
 * Keep it small: a point is added when a provider's quirk can't be said as data without an option only it would
 * use, and it is shaped after that quirk, not after what a later provider might want.
 */
import type { DomainError } from '../../errors.ts';

export interface ConnectorHooks {
  /**
   * `empty_answer` (list and api_search): whether an upstream error means the query matched nothing. ces then
   * answers an empty last page (no records, no cursor, every `meta` member null) instead of the error.
   */
  emptyAnswer?(error: DomainError): boolean;
  /**
   * `download_body` (a download with `file_url` on a request with a body): the metadata request's JSON body as
   * sent, from the one the params built. For a provider that names a file's URL only when asked.
   */
  downloadBody?(body: Readonly<Record<string, unknown>>): Record<string, unknown>;
  /**
   * `download_url` (a download with `file_url`): the file's URL from the link found at `file_url` and the
   * metadata answer it came from, for a provider whose links are relative to a base that answer itself names.
   * What it returns is resolved against the base URL as a found link is (an absolute URL stays as it is).
   */
  downloadUrl?(link: string, answer: unknown): string;
}

/** The hook points a definition's `uses_hooks` may name, and the member each needs. */
export const HOOK_POINT_NAMES = ['empty_answer', 'download_body', 'download_url'] as const;
export type HookPoint = (typeof HOOK_POINT_NAMES)[number];
export const HOOK_POINTS: Readonly<Record<HookPoint, keyof ConnectorHooks>> = {
  empty_answer: 'emptyAnswer',
  download_body: 'downloadBody',
  download_url: 'downloadUrl',
};
