import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Connection } from '@shared/contracts/admin';
import { fakeServer } from '@/test/fake-server';
import { allowConsoleError } from '@/test/console';
import { connection, openAdmin, SETTINGS, signInAs } from '../test/admin-fixtures';

const BASE = '/api/admin/connections';
let server: ReturnType<typeof fakeServer>;
let connections: Connection[];

beforeEach(() => {
  server = fakeServer();
  connections = [];
  server.json('GET', BASE, () => ({ connections }));
  server.json('GET', '/api/admin/settings', SETTINGS);
  server.json('GET', '/api/models', { models: [], defaultModel: null });
  signInAs('admin');
});

const dialog = () => screen.getByRole('dialog');

describe('Admin → Connections', () => {
  it('adds a connection, tests it and enables one of its models', async () => {
    server.json('POST', BASE, (request) => {
      const created = connection({ id: 4, ...(request.body as Partial<Connection>) });
      connections = [created];
      return created;
    });
    server.json('POST', `${BASE}/4/test`, {
      ok: true,
      models: [
        { model: 'llama3', sizeBytes: 4_700_000_000 },
        { model: 'qwen3', sizeBytes: null },
      ],
      error: null,
    });
    server.json('PATCH', `${BASE}/4`, (request) => {
      connections = [{ ...connections[0]!, ...(request.body as Partial<Connection>) }];
      return connections[0]!;
    });
    const { user } = await openAdmin('/admin');

    expect(await screen.findByText('http://127.0.0.1:11434/v1')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Add connection' }));
    await user.type(within(dialog()).getByRole('textbox', { name: 'Name' }), 'Local Ollama');
    expect(within(dialog()).getByRole('combobox', { name: 'Kind' })).toHaveProperty('value', 'openai-compatible');
    await user.type(within(dialog()).getByRole('textbox', { name: 'Base URL' }), 'http://127.0.0.1:11434/v1');
    await user.click(within(dialog()).getByRole('checkbox', { name: 'Allow private or loopback address' }));
    await user.click(within(dialog()).getByRole('button', { name: 'Add connection' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(server.sent('POST', BASE)[0]?.body).toEqual({
      name: 'Local Ollama',
      kind: 'openai-compatible',
      baseUrl: 'http://127.0.0.1:11434/v1',
      allowPrivateAddress: true,
    });

    await user.click(await screen.findByRole('button', { name: 'Test Local Ollama' }));
    expect((await screen.findByRole('status')).textContent).toContain('Connected: 2 models offered.');
    const llama = screen.getByRole('checkbox', { name: 'llama3 (4.7 GB)' });
    expect(screen.getByRole('checkbox', { name: 'qwen3' })).toBeTruthy();
    await user.click(llama);
    await user.click(screen.getByRole('button', { name: 'Save models' }));

    await waitFor(() => expect(server.sent('PATCH', `${BASE}/4`)).toHaveLength(1));
    expect(server.sent('PATCH', `${BASE}/4`)[0]?.body).toEqual({ enabledModels: ['llama3'] });
    expect(await screen.findByText('Models saved')).toBeTruthy();
  });

  it.each([
    ['a field message', { errors: [{ path: 'baseUrl', message: 'Base URL must be an http or https address' }] }],
    ['a refused address', {}],
  ])('shows %s under the Base URL field', async (_case, extra) => {
    allowConsoleError();
    const message = 'Base URL must be an http or https address';
    server.json('POST', BASE, { message, code: 'VALIDATION', ...extra }, 400);
    const { user } = await openAdmin('/admin/connections');

    await user.click(await screen.findByRole('button', { name: 'Add connection' }));
    await user.type(within(dialog()).getByRole('textbox', { name: 'Name' }), 'Bad');
    await user.type(within(dialog()).getByRole('textbox', { name: 'Base URL' }), 'ftp://example.com');
    await user.click(within(dialog()).getByRole('button', { name: 'Add connection' }));

    const baseUrl = within(dialog()).getByRole('textbox', { name: 'Base URL' });
    await waitFor(() => expect(baseUrl.getAttribute('aria-invalid')).toBe('true'));
    expect(within(dialog()).getByRole('alert').textContent).toBe(message);
  });

  it('shows the environment’s connection read-only, and a stored key only by its last four characters', async () => {
    connections = [
      connection({ id: 0, name: 'Environment', readOnly: true, enabledModels: ['llama3'] }),
      connection({ id: 2, name: 'OpenAI', kind: 'openai', baseUrl: null, hasApiKey: true, apiKeyLast4: 'x9Qz' }),
    ];
    server.json('PATCH', `${BASE}/2`, (request) => ({ ...connections[1]!, ...(request.body as object) }));
    const { user } = await openAdmin('/admin/connections');

    expect(await screen.findByText('From environment variables')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Edit Environment' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Delete Environment' })).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Edit OpenAI' }));
    expect(within(dialog()).getByText('•••• x9Qz')).toBeTruthy();
    expect(within(dialog()).queryByLabelText('API key')).toBeNull();
    await user.click(within(dialog()).getByRole('button', { name: 'Remove API key' }));
    await user.click(within(dialog()).getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(server.sent('PATCH', `${BASE}/2`)).toHaveLength(1));
    expect(server.sent('PATCH', `${BASE}/2`)[0]?.body).toEqual({
      name: 'OpenAI',
      baseUrl: null,
      allowPrivateAddress: true,
      apiKey: null,
    });
  });

  it('saves a default model per task', async () => {
    const llama = { id: '1/llama3', label: 'llama3 (Local Ollama)', connectionId: 1, model: 'llama3' };
    server.json('GET', '/api/models', { models: [llama], defaultModel: null });
    server.json('PATCH', '/api/admin/settings', (request) => ({ ...SETTINGS, ...(request.body as object) }));
    const { user } = await openAdmin('/admin');

    const chat = await screen.findByRole('combobox', { name: 'Chat' });
    expect(chat).toHaveProperty('value', '');
    await user.selectOptions(chat, '1/llama3');
    await user.click(screen.getByRole('button', { name: 'Save default models' }));

    await waitFor(() => expect(server.sent('PATCH', '/api/admin/settings')).toHaveLength(1));
    expect(server.sent('PATCH', '/api/admin/settings')[0]?.body).toEqual({
      defaultModels: { ...SETTINGS.defaultModels, chat: '1/llama3' },
    });
  });
});
