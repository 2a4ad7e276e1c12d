/**
 * The connect page's side of ces: widget tokens (`POST /account/applications/widget-token`) and what a widget
 * token may do. An application mints one for one of its end users (one workspace) and one embedding origin;
 * the connect page, holding it, lists the source templates the organization enabled (filtered by the token's
 * tags), checks and creates connectors from them in that workspace, and starts consent flows. Nothing else:
 * widget tokens have an audience of their own, and every verb here acts as a token scoped to the workspace.
 */
import { consentOptions } from '../../connectors/runtime/authorization-code.ts';
import type { ConnectorDefinition, CredentialOption } from '../../connectors/schema.ts';
import { DomainError } from '../../errors.ts';
import type { WidgetClaims } from '../../security/tokens.ts';
import { checkNewConnector } from '../connectors/check.ts';
import { type ConnectorView, viewOf } from '../connectors/context-store.ts';
import { createConnector, resolveWorkspace } from '../connectors/create.ts';
import { loadConnector, resolveDefinition } from '../connectors/lookup.ts';
import type { CoreDeps, RequestContext } from '../context.ts';
import { isoNow, requireApplicationToken } from '../context.ts';
import { initiateConsent } from '../oauth/consent.ts';
import { matchesTags, type TemplateView } from '../templates/source-templates.ts';
import { ensureWorkspace } from '../workspaces/ensure.ts';
import { parseOrigin } from './origin.ts';

export interface WidgetTokenInput {
  workspace_name: string;
  allowed_origin: string;
  selected_source_template_tags?: string[] | undefined;
  selected_source_template_tags_mode?: 'all' | 'any' | undefined;
}

const invalid = (field: string, message: string) =>
  new DomainError('VALIDATION_ERROR', `${field} ${message}.`, {
    errors: [{ field, message, error_code: 'invalid', details: null }],
  });

/** The allowed origin, strictly parsed (./origin.ts): what frame-ancestors and postMessage will carry. */
function allowedOrigin(value: string): string {
  const parsed = parseOrigin(value);
  if ('origin' in parsed) return parsed.origin;
  throw invalid(
    'allowed_origin',
    parsed.problem === 'insecure'
      ? 'must be https; http is for this machine only (localhost, 127.0.0.1)'
      : 'must be an origin: https://, a host name or IPv4 address, an optional port, nothing else (https://app.example.com)',
  );
}

/** As minting a scoped token does, minting a widget token creates its workspace when it does not exist yet. */
export async function issueWidgetToken(
  deps: Pick<CoreDeps, 'store' | 'tokens' | 'now' | 'quotas'>,
  ctx: RequestContext,
  input: WidgetTokenInput,
): Promise<{ token: string; expires_in: number; allowed_origin: string }> {
  requireApplicationToken(ctx);
  const origin = allowedOrigin(input.allowed_origin);
  const { workspace } = await ensureWorkspace(
    deps.store,
    ctx.organizationId,
    input.workspace_name,
    isoNow(deps),
    deps.quotas.workspacesPerOrganization,
  );
  const { token, expiresIn } = await deps.tokens.issueWidget({
    applicationId: ctx.applicationId,
    organizationId: ctx.organizationId,
    workspaceId: workspace.id,
    allowedOrigin: origin,
    tags: [...new Set(input.selected_source_template_tags ?? [])],
    tagsMode: input.selected_source_template_tags_mode ?? 'any',
  });
  return { token, expires_in: expiresIn, allowed_origin: origin };
}

export interface Widget extends WidgetClaims {
  expiresAt: string;
  /** The token's own id: its end user's request rate and its open consent flows are counted by it. */
  tokenId: string;
}

/** A widget token's claims and the context its verbs run in; the application must still be active. */
export async function authenticateWidget(
  deps: Pick<CoreDeps, 'tokens' | 'store'>,
  authorization: string | undefined,
): Promise<{ ctx: RequestContext; widget: Widget }> {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
  if (!match?.[1]) throw new DomainError('UNAUTHENTICATED', 'The connect page needs its widget token.');
  const widget = await deps.tokens.verifyWidget(match[1]);
  if (!(await deps.store.applications.isActiveInOrganization(widget.applicationId, widget.organizationId)))
    throw new DomainError('UNAUTHENTICATED', 'The application behind this widget token has been revoked.');
  const workspace = await deps.store.workspaces.get(widget.organizationId, widget.workspaceId);
  if (!workspace)
    throw new DomainError('UNAUTHENTICATED', 'The workspace of this widget token no longer exists.');
  return {
    widget,
    ctx: {
      organizationId: widget.organizationId,
      applicationId: widget.applicationId,
      kind: 'scoped',
      workspaceId: widget.workspaceId,
    },
  };
}

/** The organization's templates this token offers: its own (enabled) templates matching the token's tags. */
async function offered(deps: Pick<CoreDeps, 'store' | 'registry'>, widget: Widget): Promise<TemplateView[]> {
  const own = await deps.store.sourceTemplates.list(widget.organizationId);
  const views: TemplateView[] = [];
  for (const t of own) {
    const definition = deps.registry.byId(t.definition_id);
    if (definition && matchesTags(t.tags, widget.tags, widget.tagsMode)) views.push({ ...t, definition });
  }
  return views;
}

async function offeredTemplate(deps: CoreDeps, widget: Widget, id: string): Promise<TemplateView> {
  const template = (await offered(deps, widget)).find((t) => t.id === id);
  // Exists or not, a template this token does not offer is not found for it.
  if (!template) throw new DomainError('SOURCE_TEMPLATE_NOT_FOUND', `Source template ${id} not found.`);
  return template;
}

interface EnvironmentField {
  name: string;
  description: string;
  required: boolean;
  pattern?: string;
}

/** Base URL variables the end user must give: not fixed by the template, no default, not a field of the option. */
function environmentFields(
  def: ConnectorDefinition,
  template: TemplateView,
  option: CredentialOption,
): EnvironmentField[] {
  return Object.entries(def.base_url_variables ?? {})
    .filter(([name, v]) => {
      const key = v.config_key ?? name;
      const asField = v.credential_field !== undefined && v.credential_field in option.fields;
      return v.default === undefined && !(key in template.partial_default_config) && !asField;
    })
    .map(([name, v]) => ({
      name,
      description: v.description,
      required: true,
      ...(v.pattern !== undefined ? { pattern: v.pattern } : {}),
    }));
}

/** What the connect page shows: the templates offered, each with the ways to connect it. */
export async function widgetSession(deps: CoreDeps, widget: Widget) {
  const workspace = await deps.store.workspaces.get(widget.organizationId, widget.workspaceId);
  const templates = [];
  for (const t of await offered(deps, widget)) {
    const def = t.definition;
    const app = await deps.store.oauthApps.get(widget.organizationId, def.id);
    const consent = new Set(app ? consentOptions(def).map((o) => o.title) : []);
    const options = def.credential_options
      // An option renewed with an app's client secret is the consent flow's to fill, never an end user's form.
      .filter((o) => consent.has(o.title) || o.refresh === undefined)
      .map((o) => ({
        title: o.title,
        description: o.description,
        kind: consent.has(o.title) ? ('oauth' as const) : ('form' as const),
        fields: consent.has(o.title)
          ? []
          : Object.entries(o.fields).map(([name, f]) => ({
              name,
              title: f.title,
              description: f.description,
              secret: f.secret === true,
              required: o.required.includes(name),
            })),
        environment: environmentFields(def, t, o),
      }));
    templates.push({
      id: t.id,
      name: t.name,
      connector_type: def.slug,
      definition_id: def.id,
      icon_url: `/connect/icons/${def.id}.svg`,
      credential_options: options,
    });
  }
  return {
    workspace_name: workspace?.name ?? '',
    allowed_origin: widget.allowedOrigin,
    expires_at: widget.expiresAt,
    templates,
  };
}

export interface ConnectInput {
  template_id: string;
  option?: string | undefined;
  name?: string | undefined;
  credentials?: Record<string, unknown> | undefined;
  environment?: Record<string, unknown> | undefined;
}

function createInput(template: TemplateView, input: ConnectInput) {
  return {
    source_template_id: template.id,
    name: input.name,
    environment: input.environment,
    credentials:
      input.option !== undefined
        ? { ...(input.credentials ?? {}), option_title: input.option }
        : input.credentials,
  };
}

export async function widgetCheck(deps: CoreDeps, ctx: RequestContext, widget: Widget, input: ConnectInput) {
  const template = await offeredTemplate(deps, widget, input.template_id);
  return checkNewConnector(deps, ctx, createInput(template, input));
}

export async function widgetCreate(
  deps: CoreDeps,
  ctx: RequestContext,
  widget: Widget,
  input: ConnectInput,
): Promise<ConnectorView> {
  const template = await offeredTemplate(deps, widget, input.template_id);
  return createConnector(deps, ctx, createInput(template, input));
}

/** A consent flow whose browser comes back to the connect page (`doneUrl`), which tells the embedding page. */
export async function widgetConsent(
  deps: CoreDeps,
  ctx: RequestContext,
  widget: Widget,
  input: ConnectInput,
  urls: { callbackUrl: string; doneUrl: string },
) {
  const template = await offeredTemplate(deps, widget, input.template_id);
  return initiateConsent(
    deps,
    ctx,
    {
      source_template_id: template.id,
      name: input.name,
      environment: input.environment,
      option_title: input.option,
      redirect_url: urls.doneUrl,
    },
    { callbackUrl: urls.callbackUrl, trustedRedirect: urls.doneUrl, widgetTokenId: widget.tokenId },
  );
}

/** A connector of the token's workspace (the page shows and reports the one it just created). */
export async function widgetConnector(
  deps: CoreDeps,
  ctx: RequestContext,
  id: string,
): Promise<ConnectorView> {
  return viewOf(deps, await loadConnector(deps, ctx, id));
}

/**
 * A connect-page link for a user who is not embedded in an application page (an agent hands it to its user):
 * a widget token for the caller's workspace (a scoped caller's own, or the one named), its allowed origin ces's
 * own, so the page opens on its own and only shows the outcome. Says whether the type is enabled (a template
 * exists) and which credential fields the page will ask for.
 */
export async function connectLink(
  deps: CoreDeps,
  ctx: RequestContext,
  input: { connector_type: string; workspace_name?: string | undefined },
  publicBase: string,
) {
  const def = resolveDefinition(deps, { connector_type: input.connector_type });
  const workspace = await resolveWorkspace(
    deps,
    ctx,
    input.workspace_name ?? (ctx.workspaceId ? undefined : 'default'),
  );
  const enabled =
    (await deps.store.sourceTemplates.list(ctx.organizationId, { definitionId: def.id })).length > 0;
  const consent = (await deps.store.oauthApps.get(ctx.organizationId, def.id)) !== undefined;
  const { token, expiresIn } = await deps.tokens.issueWidget({
    applicationId: ctx.applicationId,
    organizationId: ctx.organizationId,
    workspaceId: workspace.id,
    allowedOrigin: new URL(publicBase).origin,
    tags: [],
    tagsMode: 'any',
  });
  return {
    connector_type: def.slug,
    workspace_name: workspace.name,
    enabled,
    connect_url: enabled ? `${publicBase}/connect#token=${token}` : null,
    expires_in: expiresIn,
    credential_options: def.credential_options
      .filter((o) => o.refresh === undefined || (consent && o.authorization !== undefined))
      .map((o) => ({
        title: o.title,
        kind: o.authorization !== undefined && consent ? 'oauth' : 'form',
        fields: o.authorization !== undefined && consent ? [] : Object.keys(o.fields),
        required: o.authorization !== undefined && consent ? [] : o.required,
      })),
  };
}
