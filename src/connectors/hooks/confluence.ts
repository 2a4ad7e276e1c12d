/**
 * Confluence Cloud's quirks that no other provider shares
 * (https://developer.atlassian.com/cloud/confluence/rest/v2/intro/).
 * Tested with the connector: test/connectors/confluence/hooks.test.ts.
 */
import type { ConnectorHooks } from './types.ts';

export const confluence: ConnectorHooks = {
  /**
   * An attachment's `downloadLink` (`/download/attachments/65546/plan.pdf?version=1&api=v2`) is relative to the
   * site's Confluence root, which the answer names in `_links.base` (`https://acme.atlassian.net/wiki`), not to
   * the host: resolved as a URL it would lose the `/wiki` segment. The link is joined to that base; a link that
   * is already absolute, or an answer without a usable base, keeps the link as it is (resolved against the
   * connector's base URL, which ends in the same `/wiki`).
   */
  downloadUrl(link, answer) {
    if (!link.startsWith('/') || link.startsWith('//')) return link;
    const base = linksBase(answer);
    return base === undefined ? link.slice(1) : `${base.replace(/\/+$/, '')}${link}`;
  },
};

function linksBase(answer: unknown): string | undefined {
  if (typeof answer !== 'object' || answer === null) return undefined;
  const links = (answer as { _links?: unknown })._links;
  if (typeof links !== 'object' || links === null) return undefined;
  const base = (links as { base?: unknown }).base;
  return typeof base === 'string' && /^https?:\/\/[^/?#]+(\/[^?#]*)?$/.test(base) ? base : undefined;
}
