/**
 * The MCP SDK's server half, loaded with the first `/mcp` request: importing it costs 0.3–1 s, which every start
 * of the app, and every test that starts one, would otherwise pay.
 */
async function importSdk() {
  const [mcp, streamableHttp] = await Promise.all([
    import('@modelcontextprotocol/sdk/server/mcp.js'),
    import('@modelcontextprotocol/sdk/server/streamableHttp.js'),
  ]);
  return { McpServer: mcp.McpServer, StreamableHTTPServerTransport: streamableHttp.StreamableHTTPServerTransport };
}

let loading: ReturnType<typeof importSdk> | null = null;

export const loadServerSdk = () => (loading ??= importSdk());
