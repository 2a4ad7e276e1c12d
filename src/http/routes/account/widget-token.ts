import { Type } from 'typebox';
import { issueWidgetToken } from '../../../core/connect/widget.ts';
import { DomainError } from '../../../errors.ts';
import type { App, AppDeps } from '../../app-types.ts';
import { ctxOf } from '../../auth.ts';
import { Name, ShortText, withErrors } from '../../schemas.ts';
import { publicBase } from '../oauth/consent.ts';

const TagsMode = Type.Optional(Type.Union([Type.Literal('all'), Type.Literal('any'), Type.Null()]));

const Body = Type.Object(
  {
    workspace_name: Type.Optional(Name(200)),
    // The reference's earlier names for workspace_name.
    customer_name: Type.Optional(Name(200)),
    external_user_id: Type.Optional(Name(200)),
    allowed_origin: ShortText(300),
    region_id: Type.Optional(Type.Union([Type.String({ format: 'uuid' }), Type.Null()])),
    selected_source_template_tags: Type.Optional(Type.Array(ShortText(100), { maxItems: 50 })),
    selected_source_template_tags_mode: TagsMode,
    // Connection templates choose where a replication goes; ces replicates nowhere: accepted, no effect.
    selected_connection_template_tags: Type.Optional(Type.Array(ShortText(100), { maxItems: 50 })),
    selected_connection_template_tags_mode: TagsMode,
  },
  { additionalProperties: false },
);

export function register(app: App, deps: AppDeps) {
  app.post(
    '/api/v1/account/applications/widget-token',
    {
      schema: {
        tags: ['Authentication'],
        summary:
          'Mint a short-lived token for the connect page: one workspace (created if missing), one embedding origin',
        body: Body,
        response: withErrors({
          200: Type.Object({
            token: Type.String(),
            expires_in: Type.Integer(),
            /** The connect page with the token (in the fragment, which browsers never send to a server). */
            connect_url: Type.String(),
          }),
        }),
      },
    },
    async (request) => {
      const b = request.body;
      const workspace = b.workspace_name ?? b.customer_name ?? b.external_user_id;
      if (workspace === undefined) {
        throw new DomainError('VALIDATION_ERROR', 'workspace_name is required.', {
          errors: [{ field: 'workspace_name', message: 'is required', error_code: 'missing', details: null }],
        });
      }
      const { token, expires_in, allowed_origin } = await issueWidgetToken(deps, ctxOf(request), {
        workspace_name: workspace,
        allowed_origin: b.allowed_origin,
        selected_source_template_tags: b.selected_source_template_tags,
        selected_source_template_tags_mode: b.selected_source_template_tags_mode ?? undefined,
      });
      const page = new URL('/connect', publicBase(deps, request));
      page.searchParams.set('origin', allowed_origin);
      return { token, expires_in, connect_url: `${page.href}#token=${token}` };
    },
  );
}
