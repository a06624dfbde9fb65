import type { McpError } from '@modelcontextprotocol/sdk/types.js';

/**
 * The MCP SDK's client half, loaded with the first connection: importing it (its schemas above all) costs
 * 0.3–1 s, which every start of the app, and every test that starts one, would otherwise pay for servers that
 * most instances never connect to.
 */
async function importSdk() {
  const [client, sse, streamableHttp, types] = await Promise.all([
    import('@modelcontextprotocol/sdk/client/index.js'),
    import('@modelcontextprotocol/sdk/client/sse.js'),
    import('@modelcontextprotocol/sdk/client/streamableHttp.js'),
    import('@modelcontextprotocol/sdk/types.js'),
  ]);
  return {
    Client: client.Client,
    SSEClientTransport: sse.SSEClientTransport,
    StreamableHTTPClientTransport: streamableHttp.StreamableHTTPClientTransport,
    McpError: types.McpError,
    ErrorCode: types.ErrorCode,
    ToolListChangedNotificationSchema: types.ToolListChangedNotificationSchema,
  };
}
type ClientSdk = Awaited<ReturnType<typeof importSdk>>;

let loaded: ClientSdk | null = null;
let loading: Promise<ClientSdk> | null = null;

export function loadClientSdk(): Promise<ClientSdk> {
  loading ??= importSdk().then((sdk) => (loaded = sdk));
  return loading;
}

/** A JSON-RPC error answer or a request the SDK gave up on; only a loaded SDK throws one. */
export const isMcpError = (err: unknown): err is McpError => loaded !== null && err instanceof loaded.McpError;

/** The SDK's own request timeout (its `timeout` option passed). */
export const isMcpTimeout = (err: unknown): boolean =>
  isMcpError(err) && err.code === Number(loaded!.ErrorCode.RequestTimeout);
