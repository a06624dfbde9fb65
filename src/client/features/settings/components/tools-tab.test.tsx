import { screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import type { McpServer } from '@shared/contracts/mcp-servers';
import { allowConsoleError } from '@/test/console';
import { fakeServer } from '@/test/fake-server';
import { mcpServer, mcpTool } from '@/test/mcp-servers';
import { renderScreen } from '@/test/render';
import { signIn } from '@/test/session';
import { SettingsPage } from './settings-page';

let server: ReturnType<typeof fakeServer>;
let servers: McpServer[];
beforeEach(() => {
  server = fakeServer();
  servers = [];
  server.json('GET', '/api/mcp-servers', () => ({ servers }));
});

const openTools = () => renderScreen(<SettingsPage />, '/settings?tab=tools');

describe('Settings → Tools', () => {
  it('lists the servers with their status and, opened, their tools', async () => {
    signIn();
    servers = [
      mcpServer({
        tools: [
          mcpTool('lookup_order', { readOnly: true }),
          mcpTool('cancel_order', { destructive: true }),
          mcpTool('note'),
        ],
      }),
      mcpServer({
        id: 5,
        name: 'Wiki',
        scope: 'everyone',
        editable: false,
        transport: 'sse',
        status: 'error',
        error: 'Could not reach the server',
      }),
    ];
    const { user } = openTools();

    const list = await screen.findByRole('list', { name: 'MCP servers' });
    const [orders, wiki] = within(list).getAllByRole('listitem');
    expect(within(orders!).getByText(/Connected · 3 tools/)).toBeTruthy();
    expect(within(wiki!).getByText('For everyone')).toBeTruthy();
    expect(within(wiki!).getByText('HTTP+SSE')).toBeTruthy();
    expect(within(wiki!).getByText('Could not reach the server')).toBeTruthy();
    // Another's server is only shown: nothing to change on it.
    expect(within(wiki!).queryByRole('button', { name: 'Edit Wiki' })).toBeNull();

    await user.click(within(orders!).getByRole('button', { name: 'Show 3 tools' }));
    const tools = within(orders!).getByRole('list', { name: 'Tools of Orders' });
    expect(
      within(tools)
        .getAllByRole('listitem')
        .map((item) => item.firstElementChild?.textContent),
    ).toEqual(['lookup_orderRead-only', 'cancel_orderDestructive', 'noteAsks first']);
  });

  it('adds a server with a bearer token and headers, and shows the server’s field errors on their fields', async () => {
    allowConsoleError(); // the client logs the 400
    signIn();
    let answer: { status: number; body: object } = {
      status: 400,
      body: { message: 'Validation failed', errors: [{ path: 'url', message: 'URL must be an http(s) address' }] },
    };
    server.on('POST', '/api/mcp-servers', () => {
      if (answer.status === 201) servers = [mcpServer({ tools: [mcpTool('note')] })];
      return new Response(JSON.stringify(answer.body), {
        status: answer.status,
        headers: { 'content-type': 'application/json' },
      });
    });
    const { user } = openTools();

    await screen.findByText(/An MCP \(Model Context Protocol\) server offers tools/);
    await user.click(screen.getByRole('button', { name: 'Add server' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add MCP server' });
    // Only administrators share servers or reach private addresses.
    expect(within(dialog).queryByRole('switch', { name: 'For everyone' })).toBeNull();
    await user.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'Orders');
    await user.type(within(dialog).getByRole('textbox', { name: 'URL' }), 'https://mcp.example.com/mcp');
    await user.type(within(dialog).getByLabelText('Bearer token'), 'secret-token');
    await user.click(within(dialog).getByRole('button', { name: 'Add header' }));
    await user.type(within(dialog).getByRole('textbox', { name: 'Header 1 name' }), 'X-Team');
    await user.type(within(dialog).getByLabelText('Header 1 value'), 'sales');
    await user.click(within(dialog).getByRole('button', { name: 'Add server' }));

    const url = within(dialog).getByRole('textbox', { name: 'URL' });
    expect((await within(dialog).findByRole('alert')).textContent).toBe('URL must be an http(s) address');
    expect(url.getAttribute('aria-invalid')).toBe('true');
    expect(server.sent('POST', '/api/mcp-servers')[0]?.body).toEqual({
      name: 'Orders',
      url: 'https://mcp.example.com/mcp',
      transport: 'streamable-http',
      bearerToken: 'secret-token',
      headers: { 'X-Team': 'sales' },
    });

    answer = { status: 201, body: mcpServer({}) };
    await user.click(within(dialog).getByRole('button', { name: 'Add server' }));
    expect(await screen.findByText(/Connected · 1 tool\b/)).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('lets an administrator share a server and keeps a stored token unless replaced', async () => {
    signIn({ role: 'admin' });
    servers = [mcpServer({ hasBearerToken: true, bearerTokenLast4: 'abcd', headerNames: ['X-Team'] })];
    server.json('PATCH', '/api/mcp-servers/4', (request) => ({ ...servers[0], ...(request.body as object) }));
    const { user } = openTools();

    await user.click(await screen.findByRole('button', { name: 'Edit Orders' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Orders' });
    expect(within(dialog).getByText('•••• abcd')).toBeTruthy();
    await user.click(within(dialog).getByRole('switch', { name: 'For everyone' }));
    await user.click(within(dialog).getByRole('button', { name: 'Remove Headers' }));
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));

    await screen.findByText('Server saved');
    expect(server.sent('PATCH', '/api/mcp-servers/4')[0]?.body).toEqual({
      name: 'Orders',
      url: 'https://mcp.example.com/mcp',
      transport: 'streamable-http',
      shared: true,
      allowPrivateAddress: false,
      headers: null,
    });
  });
});
