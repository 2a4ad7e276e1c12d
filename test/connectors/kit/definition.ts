// A fake reads the facts its provider's connector already declares (token URL, grants, client authentication,
// body format) from the definition itself, parsed by the repository's own loader, so the fake and the
// connector cannot disagree about them.
import { readFileSync } from 'node:fs';
import { parseDefinition } from '../../../src/connectors/load.ts';
import type { ConnectorDefinition, RefreshDefinition } from '../../../src/connectors/schema.ts';

const DIR = new URL('../../../src/connectors/definitions/', import.meta.url);
const cache = new Map<string, ConnectorDefinition>();

/** `src/connectors/definitions/<slug>.yaml`, parsed and checked once per process. */
export function loadDefinition(slug: string): ConnectorDefinition {
  let def = cache.get(slug);
  if (def === undefined) {
    const file = `${slug}.yaml`;
    def = parseDefinition(readFileSync(new URL(file, DIR), 'utf8'), file);
    cache.set(slug, def);
  }
  return def;
}

export type Grant = 'authorization_code' | 'refresh_token' | 'client_credentials';
export type ClientAuth = 'basic' | 'body';
export type BodyFormat = 'form' | 'json' | 'query';

/** What the definition says about its token endpoint: the union over the credential options using it. */
export interface TokenFacts {
  /** the token URL's path, which the fake serves on its own origin (as an upstream override sends it there) */
  path: string;
  grants: Set<Grant>;
  clientAuth: Set<ClientAuth>;
  bodyFormats: Set<BodyFormat>;
  /** members of the token answer, by their RFC 6749 names */
  response: { access_token: string; refresh_token: string; expires_in: string; error: string };
}

export function tokenFacts(def: ConnectorDefinition): TokenFacts | undefined {
  let facts: TokenFacts | undefined;
  for (const option of def.credential_options) {
    const refresh = option.refresh;
    if (refresh === undefined) continue;
    const path = tokenPath(refresh);
    facts ??= {
      path,
      grants: new Set(),
      clientAuth: new Set(),
      bodyFormats: new Set(),
      response: {
        access_token: refresh.response?.access_token ?? 'access_token',
        refresh_token: refresh.response?.refresh_token ?? 'refresh_token',
        expires_in: refresh.response?.expires_in ?? 'expires_in',
        error: refresh.response?.error ?? 'error',
      },
    };
    // One endpoint per fake: a definition with two token URLs would need two endpoints, which no provider has.
    if (facts.path !== path) throw new Error(`${def.slug}: two token URLs (${facts.path}, ${path})`);
    facts.grants.add(refresh.grant_type ?? 'refresh_token');
    if (option.authorization !== undefined) facts.grants.add('authorization_code');
    facts.clientAuth.add(refresh.client_auth ?? 'basic');
    facts.bodyFormats.add(refresh.body_format ?? 'form');
  }
  return facts;
}

/** The path of the definition's token URL (what a fake serves it at). */
export function tokenEndpointPath(def: ConnectorDefinition): string {
  const facts = tokenFacts(def);
  if (facts === undefined) throw new Error(`${def.slug}: no credential option has a refresh block`);
  return facts.path;
}

function tokenPath(refresh: RefreshDefinition): string {
  // `{subdomain}` and other base URL variables only ever fill the host.
  return new URL(refresh.token_url.replace(/\{[^}]+\}/g, 'x')).pathname;
}
