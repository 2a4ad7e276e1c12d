import { randomUUID } from 'node:crypto';
import { DomainError } from '../../errors.ts';
import { hashClientSecret, newClientId, newClientSecret } from '../../security/client-secrets.ts';
import type { Store } from '../../store/port.ts';

export interface CreatedApplication {
  application_id: string;
  account_id: string;
  organization_ids: string[];
  client_id: string;
  /** Shown once, at creation; only its keyed hash is stored. */
  client_secret: string;
}

/**
 * An application belongs to an account; the account is a member of one or more organizations. Passing an
 * existing account id adds another application to that account, so its memberships carry over.
 */
export async function createApplication(
  store: Store,
  pepper: Buffer,
  input: { name: string; organizationIds: string[]; accountId?: string | undefined; now: string },
): Promise<CreatedApplication> {
  if (input.organizationIds.length === 0 && !input.accountId) {
    throw new DomainError('VALIDATION_ERROR', 'An application needs at least one organization.');
  }
  return store.transaction(async (tx) => {
    for (const orgId of input.organizationIds) {
      if (!(await tx.organizations.get(orgId)))
        throw new DomainError('NOT_FOUND', `Organization ${orgId} not found.`);
    }
    const accountId = input.accountId ?? randomUUID();
    if (!input.accountId)
      await tx.accounts.create({ id: accountId, name: input.name, created_at: input.now });
    for (const orgId of input.organizationIds) await tx.accounts.addMembership(accountId, orgId, input.now);
    const clientId = newClientId();
    const clientSecret = newClientSecret();
    const id = randomUUID();
    await tx.applications.create({
      id,
      account_id: accountId,
      name: input.name,
      client_id: clientId,
      secret_hash: hashClientSecret(pepper, clientSecret),
      created_at: input.now,
      revoked_at: null,
    });
    return {
      application_id: id,
      account_id: accountId,
      organization_ids: await tx.accounts.organizationIds(accountId),
      client_id: clientId,
      client_secret: clientSecret,
    };
  });
}

/** Adds an existing account (by one of its applications' client_id) to another organization. */
export async function addAccountToOrganization(
  store: Store,
  input: { clientId: string; organizationId: string; now: string },
) {
  const app = await store.applications.findByClientIdForLogin(input.clientId);
  if (!app) throw new DomainError('NOT_FOUND', `No active application with client_id ${input.clientId}.`);
  if (!(await store.organizations.get(input.organizationId))) {
    throw new DomainError('NOT_FOUND', `Organization ${input.organizationId} not found.`);
  }
  await store.accounts.addMembership(app.account_id, input.organizationId, input.now);
  return {
    account_id: app.account_id,
    organization_ids: await store.accounts.organizationIds(app.account_id),
  };
}

/**
 * Adds and removes the URLs an application's consent flows may send end users back to (`redirect_url` of
 * `POST /integrations/connectors/oauth/initiate`); answers the list. Compared by origin and path.
 */
export async function changeRedirectUrls(
  store: Store,
  input: { clientId: string; add: string[]; remove: string[]; now: string },
): Promise<{ client_id: string; redirect_urls: string[] }> {
  const app = await store.applications.findByClientIdForLogin(input.clientId);
  if (!app) throw new DomainError('NOT_FOUND', `No active application with client_id ${input.clientId}.`);
  for (const url of input.add) {
    let parsed: URL | undefined;
    try {
      parsed = new URL(url);
    } catch {
      parsed = undefined;
    }
    if (
      !parsed ||
      (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') ||
      parsed.username ||
      parsed.password ||
      parsed.hash ||
      parsed.search
    )
      throw new DomainError(
        'VALIDATION_ERROR',
        `${url} is not an http(s) URL without credentials, query or fragment.`,
      );
  }
  const normal = (u: string) => new URL(u).href;
  const drop = new Set(input.remove.map((u) => (URL.canParse(u) ? normal(u) : u)));
  const current = await store.applications.redirectUrls(app.id);
  const next = [...current.filter((u) => !drop.has(u)), ...input.add.map(normal).filter((u) => !drop.has(u))];
  await store.applications.setRedirectUrls(app.id, next, input.now);
  return { client_id: app.client_id, redirect_urls: await store.applications.redirectUrls(app.id) };
}
