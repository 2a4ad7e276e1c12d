// The MCP server over Streamable HTTP at /mcp (stateless: each POST carries its own JSON-RPC messages and gets
// its answer as JSON). Authenticated like every API route: an application token, or a scoped token that sees
// only its workspace. Protocol-level problems inside a valid request are JSON-RPC errors, as MCP requires.
import { Type } from 'typebox';
import type { App, AppDeps } from '../app-types.ts';
import { ctxOf } from '../auth.ts';
import { TransportError } from '../errors.ts';
import { withErrors } from '../schemas.ts';
import { publicBase } from './oauth/consent.ts';

/** A JSON-RPC 2.0 message (request, notification or response), members bounded. */
const Message = Type.Object(
  {
    jsonrpc: Type.Literal('2.0'),
    id: Type.Optional(Type.Union([Type.String({ maxLength: 200 }), Type.Integer(), Type.Null()])),
    method: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    params: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
    result: Type.Optional(Type.Unknown()),
    error: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  },
  { additionalProperties: false },
);

/** The MCP SDK and ces's tools, loaded at the first request: about a tenth of the code start-up would load. */
let mcpModules:
  | Promise<
      [
        typeof import('@modelcontextprotocol/sdk/server/streamableHttp.js'),
        typeof import('../../mcp/server.ts'),
      ]
    >
  | undefined;
function loadMcp() {
  mcpModules ??= Promise.all([
    import('@modelcontextprotocol/sdk/server/streamableHttp.js'),
    import('../../mcp/server.ts'),
  ]);
  return mcpModules;
}

export function register(app: App, deps: AppDeps) {
  app.post(
    '/mcp',
    {
      schema: {
        tags: ['MCP'],
        summary:
          'MCP server (Streamable HTTP, stateless): tools to list, describe, execute, search connectors',
        body: Type.Union([Message, Type.Array(Message, { minItems: 1, maxItems: 50 })]),
        response: withErrors({ 200: Type.Unknown() }),
      },
    },
    async (request, reply) => {
      const accept = String(request.headers.accept ?? '');
      if (!accept.includes('application/json') || !accept.includes('text/event-stream')) {
        throw new TransportError(
          'NOT_ACCEPTABLE',
          'An MCP client sends Accept: application/json, text/event-stream (Streamable HTTP).',
        );
      }
      const [{ StreamableHTTPServerTransport }, { createMcpServer }] = await loadMcp();
      const ctx = ctxOf(request);
      // Authentication counted this request once: that pays for its first tool or resource request; each
      // further one of a batch is counted as a request of its own, so a batch does what as many requests may.
      let prepaid = 1;
      const server = createMcpServer({
        deps,
        ctx,
        publicBase: publicBase(deps, request),
        onInternalError: (err) => request.log.error({ err }, 'mcp tool failed'),
        take: () => (prepaid-- > 0 ? undefined : deps.requestRates.organization(ctx.organizationId)),
      });
      const transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: undefined,
        enableJsonResponse: true,
      });
      reply.hijack();
      reply.raw.once('close', () => {
        void transport.close();
        void server.close();
      });
      await server.connect(transport);
      await transport.handleRequest(request.raw, reply.raw, request.body);
    },
  );
}
