import { z } from 'zod';
import { boundedText, flag } from './common';

/**
 * MCP servers (Settings → Tools, issue 24): a person's own servers, and servers an admin added for everyone.
 * Their tools are what a bot with the Tools capability may call (its `tools` setting, bots/bot-settings.ts).
 * Stored credentials (a bearer token, header values) are never returned: only whether one is set.
 */

export const MCP_MESSAGES = {
  notFound: 'MCP server not found',
  adminOnlyShared: 'Only an administrator can add a server for everyone',
  adminOnlyPrivate: 'Only an administrator can allow a private or loopback address',
  notYours: 'Only the person who added this server can change it',
  urlInvalid: 'URL must be an http(s) address',
  deleted: 'MCP server deleted',
  /** A bot's `tools` naming a server its owner cannot use (bots are saved with 400). */
  toolNotFound: (name: string) => `Tool not found: ${name}`,
} as const;

export const MCP_TRANSPORTS = ['streamable-http', 'sse'] as const;
export const mcpTransportSchema = z.enum(MCP_TRANSPORTS, { error: 'Transport must be streamable-http or sse' });
export type McpTransport = z.infer<typeof mcpTransportSchema>;

/** The most headers a server may be given, and their sizes. */
export const MCP_HEADERS_MAX = 20;
const HEADER_NAME = /^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,100}$/;
const HEADERS_MESSAGE = `Headers must be at most ${MCP_HEADERS_MAX} name–value pairs of text`;

/** A tool as the server lists it; `readOnly`/`destructive` are the server's own annotations (hints). */
export const mcpToolSchema = z.object({
  name: z.string(),
  title: z.string().nullable(),
  description: z.string(),
  /** The server says the tool does not change anything: it runs without asking. */
  readOnly: z.boolean(),
  /** The server says the tool may destroy or overwrite something. */
  destructive: z.boolean(),
});
export type McpTool = z.infer<typeof mcpToolSchema>;

export const mcpServerSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  url: z.string(),
  transport: mcpTransportSchema,
  /** `everyone`: an admin's server that every person's bots may use; only admins change it. */
  scope: z.enum(['personal', 'everyone']),
  /** Whether the person asking may change or delete it. */
  editable: z.boolean(),
  hasBearerToken: z.boolean(),
  bearerTokenLast4: z.string().nullable(),
  /** Names of the extra headers sent; their values are never returned. */
  headerNames: z.array(z.string()),
  allowPrivateAddress: z.boolean(),
  /** The last connection's outcome: `error` with its message when the server could not be reached or listed. */
  status: z.enum(['ok', 'error', 'unknown']),
  error: z.string().nullable(),
  tools: z.array(mcpToolSchema),
  /** When the tools were last listed; null before the first connection. */
  refreshedAt: z.string().nullable(),
  createdAt: z.string(),
});
export type McpServer = z.infer<typeof mcpServerSchema>;

const urlSchema = z
  .string({ error: MCP_MESSAGES.urlInvalid })
  .trim()
  .max(2_000, MCP_MESSAGES.urlInvalid)
  .refine((text) => {
    try {
      return ['http:', 'https:'].includes(new URL(text).protocol);
    } catch {
      return false;
    }
  }, MCP_MESSAGES.urlInvalid);

const headersSchema = z
  .record(
    z.string().regex(HEADER_NAME, HEADERS_MESSAGE),
    z.string({ error: HEADERS_MESSAGE }).max(4_000, HEADERS_MESSAGE),
    { error: HEADERS_MESSAGE },
  )
  .refine((headers) => Object.keys(headers).length <= MCP_HEADERS_MAX, HEADERS_MESSAGE);

const bearerTokenSchema = z.string({ error: 'Bearer token must be text' }).trim().min(1).max(4_000);

export const mcpServerCreateSchema = z.object({
  name: boundedText('Name', 80).min(1, 'Name is required'),
  url: urlSchema,
  transport: mcpTransportSchema.default('streamable-http'),
  bearerToken: bearerTokenSchema.optional(),
  headers: headersSchema.optional(),
  /** Admins only (else 403): a server for everyone. */
  shared: flag('Shared').optional(),
  /** Admins only (else 403): connect to a private or loopback address. */
  allowPrivateAddress: flag('Allow private address').optional(),
});
export type McpServerCreate = z.infer<typeof mcpServerCreateSchema>;

/** Only the fields sent change; `bearerToken: null` / `headers: null` remove them. */
export const mcpServerUpdateSchema = mcpServerCreateSchema.omit({ transport: true }).partial().extend({
  transport: mcpTransportSchema.optional(),
  bearerToken: bearerTokenSchema.nullable().optional(),
  headers: headersSchema.nullable().optional(),
});
export type McpServerUpdate = z.infer<typeof mcpServerUpdateSchema>;

export const mcpServerListSchema = z.object({ servers: z.array(mcpServerSchema) });

/** POST /api/conversations/{id}/tool-approvals: the person's answer to a tool call waiting in a reply. */
export const toolApprovalBodySchema = z.object({
  callId: z.string({ error: 'callId is required' }).min(1, 'callId is required').max(200),
  decision: z.enum(['approve', 'deny'], { error: 'Decision must be approve or deny' }),
  /** Remember the answer for this tool for the rest of this conversation. */
  always: flag('Always').optional(),
});
export type ToolApprovalBody = z.infer<typeof toolApprovalBodySchema>;
