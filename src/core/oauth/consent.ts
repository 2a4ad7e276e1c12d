/**
 * The consent flow (the hosted service's `POST /integrations/connectors/oauth/initiate` and its callback): an
 * end user is sent to the provider's consent page for the organization's own OAuth app; the code that comes back
 * is exchanged for tokens, the connector is created through the create path (credentials checked live, Context
 * Store started), and the browser is sent on to the application's redirect URL with `connector_id`, or with
 * `error` and `error_description`.
 *
 * The `state` parameter is signed and names a row holding everything else (organization, workspace, redirect
 * URL, the PKCE verifier encrypted): it is single-use (consumed by one conditional update before the code is
 * exchanged) and expires after STATE_TTL_MS. A code is only ever exchanged with the app of the organization that
 * began the flow, so a code obtained for another organization's app is refused by the provider.
 */
import { randomUUID } from 'node:crypto';
import { EXPIRES_AT, type ResolvedCredentials, resolveCredentials } from '../../connectors/credentials.ts';
import { consentOptions, pkcePair } from '../../connectors/runtime/authorization-code.ts';
import type { ConnectorDefinition, CredentialOption } from '../../connectors/schema.ts';
import { DomainError } from '../../errors.ts';
import { signValue, verifyValue } from '../../security/signed.ts';
import { oauthAppAad, oauthStateAad } from '../../security/vault.ts';
import type { CappedCreate } from '../../store/port.ts';
import type { ConnectorView } from '../connectors/context-store.ts';
import { createWithCredentials, resolveWorkspace } from '../connectors/create.ts';
import {
  composeReplicationConfig,
  type ReferenceInput,
  refuseOauthSecretId,
  requestedEntities,
  resolveTemplate,
} from '../connectors/reference-input.ts';
import { validateReplicationConfig } from '../connectors/replication-config.ts';
import type { CoreDeps, RequestContext } from '../context.ts';
import { isoNow } from '../context.ts';

/** How long an end user has to give consent. */
export const STATE_TTL_MS = 15 * 60_000;
const STATE_PURPOSE = 'oauth-state';

export interface InitiateInput extends ReferenceInput {
  workspace_name?: string | undefined;
  name?: string | undefined;
  redirect_url: string;
  /** The credential option to consent for, when a connector type has several (default: the first). */
  option_title?: string | undefined;
}

/** What the connector is created with once the end user consents (stored with the state). */
interface PendingCreate {
  name?: string;
  replication_config: Record<string, unknown>;
  entities?: ReferenceInput['entities'];
  source_template_id?: string;
  definition_id: string;
}

const invalid = (field: string, message: string, code = 'invalid') =>
  new DomainError('VALIDATION_ERROR', `${field} ${message}.`, {
    errors: [{ field, message, error_code: code, details: null }],
  });

/** Where the application may send its end users back to: exact origin and path; any query; no fragment. */
async function assertRedirectAllowed(
  deps: Pick<CoreDeps, 'store'>,
  applicationId: string,
  redirectUrl: string,
  trusted: string | undefined,
): Promise<URL> {
  let url: URL;
  try {
    url = new URL(redirectUrl);
  } catch {
    throw invalid('redirect_url', 'is not a URL');
  }
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.username || url.password || url.hash)
    throw invalid('redirect_url', 'must be an http(s) URL without credentials or fragment');
  const key = (u: URL) => `${u.origin}${u.pathname}`;
  if (trusted !== undefined && key(url) === key(new URL(trusted))) return url;
  const allowed = await deps.store.applications.redirectUrls(applicationId);
  if (!allowed.some((a) => key(new URL(a)) === key(url))) {
    throw invalid(
      'redirect_url',
      `is not one of this application's redirect URLs (an operator adds them with \`ces apps redirect-urls\`)`,
      'not_allowed',
    );
  }
  return url;
}

function consentOption(def: ConnectorDefinition, title: string | undefined): CredentialOption {
  const options = consentOptions(def);
  const option =
    title === undefined ? options[0] : options.find((o) => o.title.toLowerCase() === title.toLowerCase());
  if (!option) {
    throw invalid(
      title === undefined ? 'connector_type' : 'option_title',
      options.length === 0
        ? `names ${def.name}, which has no consent flow (no credential option declares an authorization)`
        : `must name one of ${def.name}'s consent options: ${options.map((o) => o.title).join(', ')}`,
      'no_consent_flow',
    );
  }
  return option;
}

async function oauthApp(
  deps: Pick<CoreDeps, 'store' | 'vault'>,
  organizationId: string,
  def: ConnectorDefinition,
) {
  const app = await deps.store.oauthApps.get(organizationId, def.id);
  if (!app) {
    throw invalid(
      'connector_type',
      `has no OAuth app in this organization: set its client id and secret with PUT /api/v1/oauth/credentials first`,
      'no_oauth_app',
    );
  }
  return {
    clientId: app.client_id,
    clientSecret: deps.vault.decrypt(app.secret, oauthAppAad(organizationId, def.id)),
  };
}

/**
 * Begins a consent flow: checks everything the connector will be created with (so the end user is not sent
 * to consent for a connector that cannot be created), stores the state and answers the provider's consent URL.
 * `callbackUrl` is ces's own callback; `trustedRedirect` a redirect URL allowed besides the application's own
 * (the connect page's), and `widgetTokenId` the token the connect page holds, whose open flows are capped.
 */
export async function initiateConsent(
  deps: CoreDeps,
  ctx: RequestContext,
  input: InitiateInput,
  urls: { callbackUrl: string; trustedRedirect?: string; widgetTokenId?: string },
): Promise<{ consent_url: string }> {
  const workspace = await resolveWorkspace(deps, ctx, input.workspace_name);
  refuseOauthSecretId(input);
  const redirect = await assertRedirectAllowed(
    deps,
    ctx.applicationId,
    input.redirect_url,
    urls.trustedRedirect,
  );
  const { def, template } = await resolveTemplate(deps, ctx.organizationId, input);
  const option = consentOption(def, input.option_title);
  const entities = requestedEntities(def, input.entities);
  const replicationConfig = validateReplicationConfig(def, composeReplicationConfig(def, template, input));
  const app = await oauthApp(deps, ctx.organizationId, def);

  const now = deps.now();
  await deps.store.oauthStates.deleteExpired(now.toISOString());
  const id = randomUUID();
  const pkce = option.authorization?.pkce === true ? pkcePair() : undefined;
  const pending: PendingCreate = {
    definition_id: def.id,
    replication_config: replicationConfig,
    ...(input.name?.trim() ? { name: input.name.trim() } : {}),
    ...(entities !== null ? { entities } : {}),
    ...(template.organization_id !== null ? { source_template_id: template.id } : {}),
  };
  const state = signValue(deps.secrets.cursorKey, STATE_PURPOSE, { o: ctx.organizationId, s: id });
  // Built before the row is stored: a config value failing a URL variable's pattern stops here.
  const consentUrl = deps.runtime.consentUrl(def, option, {
    config: replicationConfig,
    clientId: app.clientId,
    redirectUri: urls.callbackUrl,
    state,
    codeChallenge: pkce?.challenge,
  });
  const stored = await deps.store.oauthStates.createWithinCaps(
    {
      id,
      organization_id: ctx.organizationId,
      application_id: ctx.applicationId,
      workspace_id: workspace.id,
      widget_token_id: urls.widgetTokenId ?? null,
      definition_id: def.id,
      option_title: option.title,
      redirect_url: redirect.href,
      request: JSON.stringify(pending),
      verifier: pkce ? deps.vault.encrypt(pkce.verifier, oauthStateAad(ctx.organizationId, id)) : null,
      created_at: now.toISOString(),
      expires_at: new Date(now.getTime() + STATE_TTL_MS).toISOString(),
      used_at: null,
    },
    deps.openConsents,
    now.toISOString(),
  );
  if (!stored.created) throw tooManyOpen(stored, now);
  return { consent_url: consentUrl.href };
}

/** A 429: waiting helps, since a flow neither completed nor abandoned stops counting when its state expires. */
function tooManyOpen(refused: Extract<CappedCreate, { created: false }>, now: Date): DomainError {
  const holder = refused.cap === 'workspace' ? 'this workspace' : 'this connect page (its widget token)';
  const retryAfter = Math.max(1, Math.ceil((Date.parse(refused.freesAt) - now.getTime()) / 1000));
  const variable =
    refused.cap === 'workspace'
      ? 'CES_MAX_OPEN_CONSENTS_PER_WORKSPACE'
      : 'CES_MAX_OPEN_CONSENTS_PER_WIDGET_TOKEN';
  return new DomainError(
    'RATE_LIMITED',
    `${refused.limit} consent flows of ${holder} are open already (begun, neither completed nor expired); finish one, or start again in ${retryAfter} seconds.`,
    {
      retryAfter,
      errors: [
        {
          field: null,
          message: `at most ${refused.limit} open consent flows per ${refused.cap === 'workspace' ? 'workspace' : 'widget token'}`,
          error_code: 'too_many_open_consent_flows',
          details: { limit: refused.limit, variable },
        },
      ],
    },
  );
}

export interface CallbackQuery {
  state?: string | undefined;
  code?: string | undefined;
  error?: string | undefined;
  error_description?: string | undefined;
}

/** The redirect URL with the outcome added to its query. */
function outcome(redirectUrl: string, params: Record<string, string>): string {
  const url = new URL(redirectUrl);
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  return url.href;
}

/** Printable ASCII, at most 300 characters: what may travel in a redirect's query from elsewhere. */
const clean = (text: string) => text.replace(/[^\x20-\x7e]+/g, ' ').slice(0, 300);

/**
 * Ends a consent flow: answers where to send the browser. Throws OAUTH_STATE_INVALID (the browser is then shown
 * an error, not redirected) when the state is missing, forged, expired or used, or its application has been
 * revoked since: there is no redirect URL one could trust then.
 */
export async function completeConsent(
  deps: CoreDeps,
  query: CallbackQuery,
  callbackUrl: string,
): Promise<{ redirect: string; connector?: ConnectorView }> {
  const signed = query.state ? verifyValue(deps.secrets.cursorKey, STATE_PURPOSE, query.state) : undefined;
  const ref = signed as { o?: unknown; s?: unknown } | undefined;
  if (!ref || typeof ref.o !== 'string' || typeof ref.s !== 'string') {
    throw new DomainError('OAUTH_STATE_INVALID', 'The state of this consent flow is missing or not ours.');
  }
  const state = await deps.store.oauthStates.consume(ref.o, ref.s, isoNow(deps));
  if (!state) {
    throw new DomainError(
      'OAUTH_STATE_INVALID',
      'This consent flow has expired or was already completed; start it again.',
    );
  }
  // Revoking an application stops its tokens at once; a flow it began before then must not land either: the
  // state is spent, no code is exchanged, and the browser is not sent on to the revoked application's URL.
  if (!(await deps.store.applications.isActiveInOrganization(state.application_id, state.organization_id))) {
    throw new DomainError(
      'OAUTH_STATE_INVALID',
      'The application that began this consent flow has been revoked; nothing was connected.',
    );
  }
  if (query.error !== undefined || query.code === undefined) {
    return {
      redirect: outcome(state.redirect_url, {
        error: /^[\x21-\x7e]{1,64}$/.test(query.error ?? '') ? (query.error as string) : 'access_denied',
        error_description: clean(query.error_description ?? 'The provider returned no authorization code.'),
      }),
    };
  }
  const pending = JSON.parse(state.request) as PendingCreate;
  const ctx: RequestContext = {
    organizationId: state.organization_id,
    applicationId: state.application_id,
    kind: 'scoped',
    workspaceId: state.workspace_id,
  };
  try {
    const def = deps.registry.byId(pending.definition_id);
    if (!def) throw new DomainError('DEFINITION_NOT_FOUND', 'This connector type is no longer available.');
    const option = consentOption(def, state.option_title);
    const app = await oauthApp(deps, state.organization_id, def);
    const verifier = state.verifier
      ? deps.vault.decrypt(state.verifier, oauthStateAad(state.organization_id, state.id))
      : undefined;
    const exchanged = await deps.runtime.exchangeAuthorizationCode(
      def,
      option,
      { code: query.code, redirectUri: callbackUrl, codeVerifier: verifier, ...app },
      pending.replication_config,
    );
    const connector = await createWithCredentials(
      deps,
      ctx,
      {
        definition_id: def.id,
        name: pending.name,
        replication_config: pending.replication_config,
        entities: pending.entities,
        source_template_id: pending.source_template_id,
      },
      () => withExpiry(def, option, exchanged),
    );
    return { redirect: outcome(state.redirect_url, { connector_id: connector.id }), connector };
  } catch (err) {
    if (!(err instanceof DomainError)) throw err;
    return {
      redirect: outcome(state.redirect_url, {
        error: 'creation_failed',
        error_description: clean(err.message),
      }),
    };
  }
}

/** The exchanged values checked against the option as any create's are; the expiry ces keeps carried over. */
function withExpiry(def: ConnectorDefinition, option: CredentialOption, exchanged: ResolvedCredentials) {
  const { [EXPIRES_AT]: expiresAt, ...values } = exchanged.values;
  const checked = resolveCredentials(def, { option_title: option.title, ...values });
  return { ...checked, values: { ...checked.values, ...(expiresAt ? { [EXPIRES_AT]: expiresAt } : {}) } };
}
