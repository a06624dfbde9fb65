import type { McpServer } from '@shared/contracts/mcp-servers';

type McpTool = McpServer['tools'][number];

/** A tool as GET /api/mcp-servers lists it: neither read-only nor destructive unless told. */
export const mcpTool = (name: string, fields: Partial<McpTool> = {}): McpTool => ({
  name,
  title: null,
  description: `Does ${name}`,
  readOnly: false,
  destructive: false,
  ...fields,
});

/** A personal server the signed-in person added, reached just now, with no tools unless told. */
export const mcpServer = (fields: Partial<McpServer> = {}): McpServer => ({
  id: 4,
  name: 'Orders',
  url: 'https://mcp.example.com/mcp',
  transport: 'streamable-http',
  scope: 'personal',
  editable: true,
  hasBearerToken: false,
  bearerTokenLast4: null,
  headerNames: [],
  allowPrivateAddress: false,
  status: 'ok',
  error: null,
  tools: [],
  refreshedAt: new Date().toISOString(),
  createdAt: new Date().toISOString(),
  ...fields,
});
