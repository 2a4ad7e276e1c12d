/**
 * The MCP server (a second transport over the core verbs): tools from tools.ts, errors as tool errors carrying
 * ces's error code. One server serves one caller: the HTTP transport builds one per request for the bearer
 * token's context, the stdio transport one for the process's client credentials.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { allSkills, skillMarkdown } from '../core/skills/markdown.ts';
import { DomainError } from '../errors.ts';
import { errorOf, TOOLS, type ToolContext, validateInput } from './tools.ts';

export const SERVER_INFO = { name: 'ces', version: '0.1.0' };
/** Skills are offered as resources under this URI scheme: `ces-skill:<skill id>`. */
const SKILL_SCHEME = 'ces-skill:';

const INSTRUCTIONS = `ces runs operations against SaaS accounts its users connected (connectors).
Start with list_connectors (or connect, to have the user connect an account), then describe_connector to learn
the entities, actions and params, then execute (batched; every read needs select_fields or exclude_fields) or
search (indexed records, fast, no live API call). Page with params.cursor = connector_metadata.end_cursor.
Never ask the user for credentials in the chat: use the connect tool.`;

/**
 * The JSON-RPC error a resource or listing request over the request rate answers (a tool call answers a tool
 * error instead): in the range JSON-RPC leaves to servers, clear of the codes the MCP SDK gives a meaning.
 */
export const RATE_LIMITED_RPC_CODE = -32029;

function toolError(err: DomainError): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: JSON.stringify({ error: errorOf(err) }) }] };
}

/** Counts a request against the caller's rate before its handler does any work. */
function admit(tc: ToolContext): void {
  const refused = tc.take();
  if (refused) throw new McpError(RATE_LIMITED_RPC_CODE, refused.message, errorOf(refused));
}

export function createMcpServer(tc: ToolContext): Server {
  const server = new Server(SERVER_INFO, {
    capabilities: { tools: {}, resources: {} },
    instructions: INSTRUCTIONS,
  });
  // Each request of a batch is counted on its own against the request rate, as an HTTP request is, before it
  // does any work (initialize and ping do none: not counted). The skills (the same documents as
  // GET /api/v1/skills/docs) are resources, as markdown: how to authenticate, page and search, and one per
  // connector type.
  server.setRequestHandler(ListResourcesRequestSchema, async () => {
    admit(tc);
    return {
      resources: allSkills(tc.deps).map((s) => ({
        uri: `${SKILL_SCHEME}${encodeURIComponent(s.id)}`,
        name: s.id,
        title: s.title,
        description: s.summary,
        mimeType: 'text/markdown',
      })),
    };
  });
  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    admit(tc);
    const { uri } = request.params;
    const id = uri.startsWith(SKILL_SCHEME) ? decodeURIComponent(uri.slice(SKILL_SCHEME.length)) : undefined;
    try {
      if (id === undefined) throw new DomainError('NOT_FOUND', `No resource ${uri}.`);
      return { contents: [{ uri, mimeType: 'text/markdown', text: skillMarkdown(tc.deps, id) }] };
    } catch (err) {
      // -32002: MCP's "resource not found".
      if (err instanceof DomainError) throw new McpError(-32002, err.message, { code: err.code, uri });
      throw err;
    }
  });
  server.setRequestHandler(ListToolsRequestSchema, async () => {
    admit(tc);
    return {
      tools: TOOLS.map((t) => ({
        name: t.name,
        title: t.title,
        description: t.description,
        inputSchema: t.inputSchema as { type: 'object'; [k: string]: unknown },
        annotations: { title: t.title, readOnlyHint: t.readOnly, openWorldHint: true },
      })),
    };
  });
  server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => {
    const refused = tc.take();
    if (refused) return toolError(refused);
    const tool = TOOLS.find((t) => t.name === request.params.name);
    if (!tool) return toolError(new DomainError('NOT_FOUND', `No tool named ${request.params.name}.`));
    try {
      validateInput(tool, request.params.arguments);
      const answer = await tool.run(request.params.arguments ?? {}, tc);
      return {
        content: [
          { type: 'text', text: JSON.stringify(answer.json) },
          ...(answer.links ?? []).map((l) => ({ type: 'resource_link' as const, ...l })),
        ],
      };
    } catch (err) {
      if (err instanceof DomainError) return toolError(err);
      // Never the internal message: it may name what a caller should not learn.
      tc.onInternalError?.(err);
      return toolError(new DomainError('INTERNAL_ERROR', 'An internal error occurred.'));
    }
  });
  return server;
}
