/**
 * Persisting OAuth2 credentials the runtime refreshes. The runtime calls `refresh` once per process per
 * connector at a time (single flight), and the store's `exclusive` makes it one at a time across processes
 * (PostgreSQL advisory lock); the store's compare-and-swap still decides what is written:
 *
 *  - before asking the provider, re-read the row: if its credentials changed since this execute read them,
 *    someone already refreshed (or the owner PUT new ones), so use those instead of spending the refresh
 *    token again (it may be single-use);
 *  - after a refresh, write the new credentials only if the row still holds the ones refreshed from; if not,
 *    another process won, and the stored ones are used;
 *  - when the provider refuses the grant, mark the connector `needs_reauth` only if the row still holds the
 *    grant that was refused (an `invalid_grant` may just mean another process used the token first).
 */
import type { ResolvedCredentials } from '../../connectors/credentials.ts';
import { type CredentialStore, RefreshRejectedError } from '../../connectors/runtime/oauth2.ts';
import type { ConnectorDefinition } from '../../connectors/schema.ts';
import { DomainError } from '../../errors.ts';
import { connectorAad } from '../../security/vault.ts';
import type { Connector, StoredCredentials } from '../../store/port.ts';
import type { CoreDeps } from '../context.ts';
import { connectorNotFound } from './lookup.ts';

/** A re-encryption (key rotation) changes the ciphertext but not the credentials; retry the swap then. */
const MAX_SWAPS = 3;

export function reauthRequired(id: string, reason: string | null): DomainError {
  const why = reason ?? 'The provider refused to renew its access.';
  return new DomainError(
    'CONNECTOR_REAUTH_REQUIRED',
    `Connector ${id} needs new credentials: ${why} Authorise again with the provider, then PUT the new credentials to /api/v1/integrations/connectors/${id} ({"credentials": {...}}).`,
    {
      extra: { credentials_status: 'needs_reauth' },
      errors: [{ field: 'credentials', message: why, error_code: 'reauth_required', details: null }],
    },
  );
}

/** The needs_reauth gate of execute: fails at once, without calling the provider. */
export function assertCredentialsUsable(connector: Connector): void {
  if (connector.credentials_status === 'needs_reauth')
    throw reauthRequired(connector.id, connector.credentials_error);
}

/** `loaded` is the ciphertext this execute decrypted its credentials from. */
export function connectorCredentialStore(
  deps: Pick<CoreDeps, 'store' | 'vault'>,
  organizationId: string,
  id: string,
  loaded: StoredCredentials,
): CredentialStore {
  const aad = connectorAad(organizationId, id);
  const open = (stored: StoredCredentials) => deps.vault.decrypt(stored, aad);
  // Decrypted only when a refresh happens: every execute builds this store, few ever use it.
  let expected: string | undefined;

  const latest = async () => {
    const found = await deps.store.connectors.getWithCredentials(organizationId, id);
    if (!found) throw connectorNotFound(id);
    assertCredentialsUsable(found.connector);
    return { stored: found.credentials, text: open(found.credentials) };
  };

  return {
    // Held across processes too (the store's exclusive): of processes racing to renew one grant, the first
    // refreshes and the others, let in after it, read what it stored.
    refresh: (current, doRefresh) =>
      deps.store.exclusive(`oauth2-refresh:${organizationId}:${id}`, () => refreshOnce(current, doRefresh)),
  };

  async function refreshOnce(
    _current: ResolvedCredentials,
    doRefresh: (credentials: ResolvedCredentials) => Promise<ResolvedCredentials>,
  ): Promise<ResolvedCredentials> {
    let { stored, text } = await latest();
    expected ??= open(loaded);
    if (text !== expected) return JSON.parse(text) as ResolvedCredentials;

    let next: ResolvedCredentials;
    try {
      next = await doRefresh(JSON.parse(text) as ResolvedCredentials);
    } catch (err) {
      if (!(err instanceof RefreshRejectedError)) throw err;
      for (let i = 0; i < MAX_SWAPS; i++) {
        if (await deps.store.connectors.markCredentialsNeedReauth(organizationId, id, stored, err.reason))
          break;
        const now = await latest();
        if (now.text !== text) return JSON.parse(now.text) as ResolvedCredentials;
        stored = now.stored;
      }
      throw reauthRequired(id, err.reason);
    }

    const nextText = JSON.stringify(next);
    for (let i = 0; i < MAX_SWAPS; i++) {
      const sealed = deps.vault.encrypt(nextText, aad);
      if (await deps.store.connectors.replaceCredentialsIfUnchanged(organizationId, id, stored, sealed)) {
        expected = nextText;
        return next;
      }
      const now = await latest();
      if (now.text !== text) return JSON.parse(now.text) as ResolvedCredentials;
      stored = now.stored;
    }
    // Unreachable in practice (three key rotations during one refresh); the new tokens still serve this call.
    return next;
  }
}

/**
 * "Open a connector call": what every runtime call on a stored connector needs (its definition, its decrypted
 * credentials, its settings, and where a refresh stores rotated tokens). Execute and the sync both start here.
 */
export function openConnectorCall(
  deps: Pick<CoreDeps, 'store' | 'vault'>,
  organizationId: string,
  connector: Pick<Connector, 'id' | 'replication_config'>,
  stored: StoredCredentials,
  definition: ConnectorDefinition,
) {
  return {
    connectorId: connector.id,
    definition,
    credentials: openCredentials(deps, connectorAad(organizationId, connector.id), stored),
    config: connector.replication_config,
    credentialStore: connectorCredentialStore(deps, organizationId, connector.id, stored),
  };
}

/**
 * Credentials by the stored value they were decrypted from, and its AAD. An execute's stored value is the one the
 * read cache keeps for its connector (src/core/read-cache.ts): while it is kept, the calls on that connector
 * share one decrypted and parsed object instead of building their own (a cache lookup by the ciphertext's
 * text and a JSON parse per call). Entries go with the stored value. Frozen: calls share it.
 */
const opened = new WeakMap<StoredCredentials, { aad: string; credentials: ResolvedCredentials }>();

function openCredentials(
  deps: Pick<CoreDeps, 'vault'>,
  aad: string,
  stored: StoredCredentials,
): ResolvedCredentials {
  const hit = opened.get(stored);
  if (hit?.aad === aad) return hit.credentials;
  const credentials = JSON.parse(deps.vault.decrypt(stored, aad)) as ResolvedCredentials;
  Object.freeze(credentials.values);
  Object.freeze(credentials);
  opened.set(stored, { aad, credentials });
  return credentials;
}
