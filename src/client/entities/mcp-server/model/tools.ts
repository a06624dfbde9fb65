import type { McpTool, McpTransport } from '@shared/contracts/mcp-servers';

export const TRANSPORT_LABELS: Record<McpTransport, string> = {
  'streamable-http': 'Streamable HTTP',
  sse: 'HTTP+SSE',
};

/** How a tool behaves in a reply: read-only tools just run; the others ask the person chatting first. */
export type ToolRisk = 'read-only' | 'destructive' | 'asks-first';

export const toolRisk = (tool: Pick<McpTool, 'readOnly' | 'destructive'>): ToolRisk =>
  tool.readOnly ? 'read-only' : tool.destructive ? 'destructive' : 'asks-first';

/** The name people read: the server's title when it gave one. */
export const toolLabel = (tool: Pick<McpTool, 'name' | 'title'>) => tool.title ?? tool.name;
