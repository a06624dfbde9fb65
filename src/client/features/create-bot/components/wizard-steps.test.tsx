import { screen, waitFor, within } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';
import { Route, Routes } from 'react-router';
import { beforeEach, describe, expect, it } from 'vitest';
import type { ModelChoice } from '@shared/contracts/admin';
import type { Bot } from '@shared/contracts/bots';
import { fakeServer } from '@/test/fake-server';
import { mcpServer, mcpTool } from '@/test/mcp-servers';
import { renderScreen } from '@/test/render';
import { signIn } from '@/test/session';
import { CreateBotPage } from './create-bot-page';

const CONTEXT_WINDOW = 'Number of previous messages to consider for context (1-20)';
const TRUSTED_SOURCES = 'Trusted sources must be a comma-separated list of domains (e.g. nature.com, arxiv.org)';
const PROMPT = 'You are Chef, who plans meals from what is in the fridge.';

const model = (connectionId: number, name: string, label: string): ModelChoice => ({
  id: `${connectionId}/${name}`,
  label,
  connectionId,
  model: name,
});
const MODELS = {
  models: [model(0, 'llama3', 'llama3 (Environment)'), model(2, 'claude-haiku', 'Claude Haiku (Anthropic)')],
  defaultModel: model(0, 'llama3', 'llama3 (Environment)'),
};

let server: ReturnType<typeof fakeServer>;
beforeEach(() => {
  server = fakeServer();
  server.json('GET', '/api/models', MODELS);
});

async function openWizard() {
  const view = renderScreen(
    <Routes>
      <Route path="/create-bot" element={<CreateBotPage />} />
      <Route path="/" element={<h1>Home</h1>} />
    </Routes>,
    '/create-bot',
  );
  await screen.findByRole('heading', { name: 'Define Bot' });
  return view;
}

const button = (name: string) => screen.getByRole('button', { name });
const field = (role: 'textbox' | 'spinbutton', name: string) => screen.getByRole(role, { name });

/** Replaces a field's text in one input, as pasting does: typing key by key adds nothing these tests look at. */
async function fill(user: UserEvent, input: HTMLElement, text: string) {
  await user.clear(input);
  if (text) await user.paste(text);
}
const stepTitle = (name: string) => screen.findByRole('heading', { name, level: 2 });

async function define(
  user: UserEvent,
  { capability, description = 'Plans meals' }: { capability?: string; description?: string } = {},
) {
  await fill(user, field('textbox', 'Name'), 'Chef');
  await fill(user, field('textbox', 'Description'), description);
  if (capability) await user.click(screen.getByRole('checkbox', { name: capability }));
  await user.click(button('Continue'));
  await stepTitle('Customize');
}

async function addExamples(user: UserEvent, ...queries: string[]) {
  for (const query of queries) {
    await fill(user, field('textbox', 'Example query'), query);
    await user.click(button('Add Example'));
  }
}

/** Through Customize and Train to Finish, the prompt written from the description (no model answered). */
async function reachFinish(user: UserEvent, description?: string) {
  await define(user, { description });
  await trainToFinish(user);
}

/** From Customize through Train (two examples) to Finish. */
async function trainToFinish(user: UserEvent) {
  await user.click(button('Continue'));
  await stepTitle('Train');
  server.json('POST', '/api/generate-prompt', { systemPrompt: PROMPT, exampleQueries: [], source: 'template' });
  await addExamples(user, 'Dinner?', 'Rice?');
  await user.click(button('Start Training'));
  await user.click(await screen.findByRole('button', { name: 'Review Botty' }));
  await stepTitle('Finish');
}

describe('the bot wizard', () => {
  it('Define Bot: offers purposes, icons and capabilities, and goes on only with a name and a description', async () => {
    const { user } = await openWizard();
    expect(within(screen.getByRole('radiogroup', { name: 'Purpose' })).getAllByRole('radio')).toHaveLength(4);
    expect(within(screen.getByRole('group', { name: 'Icon' })).getAllByRole('button')).toHaveLength(20);
    expect(within(screen.getByRole('group', { name: 'Capabilities' })).getAllByRole('checkbox')).toHaveLength(5);

    const name = field('textbox', 'Name');
    const description = field('textbox', 'Description');
    expect(button('Continue')).toHaveProperty('disabled', true);
    await fill(user, name, '   ');
    await fill(user, description, 'Plans meals');
    expect(button('Continue')).toHaveProperty('disabled', true);
    await fill(user, description, '  ');
    await fill(user, name, 'Chef');
    expect(button('Continue')).toHaveProperty('disabled', true);
    await fill(user, description, 'Plans meals');
    await user.click(button('Continue'));

    await stepTitle('Customize');
    // The step indicator leads back to it; Testing Library's name drops the space before the hidden note.
    expect(screen.getByRole('button', { name: /^Define Bot ?\(completed\)$/ })).toBeTruthy();
  });

  it('Customize: keeps Web browsing and the Web search capability in step, checks its fields, and goes back and on', async () => {
    const { user } = await openWizard();
    await define(user, { capability: 'Web search' });
    const browsing = screen.getByRole('switch', { name: 'Web browsing' });
    expect(browsing.getAttribute('aria-checked')).toBe('true');

    const contextWindow = field('spinbutton', 'Context window');
    await fill(user, contextWindow, '25');
    await fill(user, field('textbox', 'Trusted sources'), 'not a domain');
    await user.click(button('Continue'));
    // Both messages come from one validation, but a slow machine may draw them in two renders.
    await waitFor(() =>
      expect(
        screen
          .getAllByRole('alert')
          .map((error) => error.textContent)
          .sort(),
      ).toEqual([CONTEXT_WINDOW, TRUSTED_SOURCES]),
    );
    expect(contextWindow.getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByRole('heading', { name: 'Customize', level: 2 })).toBeTruthy();

    await user.click(browsing);
    await user.click(button('Back'));
    await stepTitle('Define Bot');
    expect(field('textbox', 'Name')).toHaveProperty('value', 'Chef');
    expect((screen.getByRole('checkbox', { name: 'Web search' }) as HTMLInputElement).checked).toBe(false);

    await user.click(button('Continue'));
    await stepTitle('Customize');
    await fill(user, field('spinbutton', 'Context window'), '20');
    await fill(user, field('textbox', 'Trusted sources'), 'nature.com, arxiv.org');
    await user.click(button('Continue'));
    await stepTitle('Train');
  });

  it('Train: needs two example queries, trains with them, and shows the answers and the prompt it got', async () => {
    server.json('POST', '/api/generate-prompt', {
      systemPrompt: PROMPT,
      exampleQueries: ['What goes with leeks?'],
      source: 'model',
    });
    server.on('POST', '/api/bots/preview-answers', (request) => {
      const { queries } = request.body as { queries: string[] };
      const lines = queries.map((query, index) => ({ type: 'answer', index, query, answer: `Answer to ${query}` }));
      const text = [...lines, { type: 'done', answered: queries.length }].map((line) => `${JSON.stringify(line)}\n`);
      return new Response(text.join(''), { headers: { 'content-type': 'application/x-ndjson' } });
    });
    const { user } = await openWizard();
    await define(user);
    await user.click(button('Continue'));
    await stepTitle('Train');

    expect(screen.getByText('Add at least 2 example queries to start training.')).toBeTruthy();
    expect(screen.getByText('Tip: add at least 5 example queries for the best results.')).toBeTruthy();
    expect(button('Start Training')).toHaveProperty('disabled', true);
    await fill(user, field('textbox', 'Example query'), '   ');
    expect(button('Add Example')).toHaveProperty('disabled', true);
    await addExamples(user, 'Dinner?');
    expect(button('Start Training')).toHaveProperty('disabled', true);
    await addExamples(user, 'Rice?');
    const examples = screen.getByRole('list', { name: 'Your example queries' });
    expect(
      within(examples)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['Dinner?', 'Rice?']);

    await user.click(button('Start Training'));
    expect(await screen.findByText('Training complete')).toBeTruthy();
    expect(server.sent('POST', '/api/generate-prompt')[0]?.body).toMatchObject({
      name: 'Chef',
      exampleQueries: ['Dinner?', 'Rice?'],
    });
    expect(screen.getByText('Answer to Rice?')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Your botty is trained' })).toBeTruthy();
    expect(screen.getByRole('region', { name: 'AI-enhanced prompt' }).textContent).toBe(PROMPT);
    await user.click(button('Keep: What goes with leeks?'));
    expect(within(examples).getAllByRole('listitem')).toHaveLength(3);

    await user.click(button('Review Botty'));
    await stepTitle('Finish');
  });

  it('Finish: reviews the botty, creates it and goes home', async () => {
    signIn();
    server.json('POST', '/api/bots', (request) => ({ id: 9, ...(request.body as object) }));
    server.json('GET', '/api/bots/9/files', []);
    const { user } = await openWizard();
    await reachFinish(user, 'you are a bot that plans meals');

    expect(screen.getByRole('heading', { name: 'Chef' })).toBeTruthy();
    // Tidied for the review as the dashboard and Home show it; saved as written.
    expect(screen.getByText('Plans meals')).toBeTruthy();
    expect(screen.getByText('Memory & context')).toBeTruthy();
    expect(screen.getByText('10 messages')).toBeTruthy();
    expect(screen.getByText('No files')).toBeTruthy();
    expect(screen.getByText(PROMPT)).toBeTruthy();

    await user.click(button('Create Botty'));
    expect(await screen.findByText('Success!')).toBeTruthy();
    expect(server.sent('POST', '/api/bots')[0]?.body).toMatchObject({
      name: 'Chef',
      description: 'you are a bot that plans meals',
      exampleQueries: ['Dinner?', 'Rice?'],
      active: true,
    });
    expect(await screen.findByRole('heading', { name: 'Home' })).toBeTruthy();
  });

  it('Finish: tells a signed-out user to log in, and leads back to any step to change it', async () => {
    const { user } = await openWizard();
    await reachFinish(user);

    await user.click(button('Create Botty'));
    expect(await screen.findByText('You must be logged in to create a bot')).toBeTruthy();
    expect(server.sent('POST', '/api/bots')).toHaveLength(0);

    await user.click(button('Change customization'));
    await stepTitle('Customize');
  });
});

describe("the wizard's model picker", () => {
  const picker = () => screen.getByRole('combobox', { name: 'Model' });

  it('lists Default and the enabled models, shows the label on Finish and saves the id', async () => {
    signIn();
    server.json('POST', '/api/bots', (request) => ({ id: 9, ...(request.body as object) }));
    server.json('GET', '/api/bots/9/files', []);
    const { user } = await openWizard();
    await define(user);
    await waitFor(() => expect(picker()).toHaveProperty('disabled', false));
    expect(picker().textContent).toBe('Default (llama3 (Environment))');

    await user.click(picker());
    const options = screen.getAllByRole('option').map((option) => option.textContent);
    expect(options).toEqual(['Default (llama3 (Environment))', 'llama3 (Environment)', 'Claude Haiku (Anthropic)']);
    await user.click(screen.getByRole('option', { name: 'Claude Haiku (Anthropic)' }));
    expect(picker().textContent).toBe('Claude Haiku (Anthropic)');

    await user.click(button('Continue'));
    await stepTitle('Train');
    server.json('POST', '/api/generate-prompt', { systemPrompt: PROMPT, exampleQueries: [], source: 'template' });
    await addExamples(user, 'Dinner?', 'Rice?');
    await user.click(button('Start Training'));
    await user.click(await screen.findByRole('button', { name: 'Review Botty' }));
    await stepTitle('Finish');
    expect(screen.getByText('Model').nextElementSibling?.textContent).toBe('Claude Haiku (Anthropic)');

    await user.click(button('Create Botty'));
    expect(await screen.findByText('Success!')).toBeTruthy();
    expect(server.sent('POST', '/api/bots')[0]?.body).toMatchObject({ config: { model: '2/claude-haiku' } });
  });

  it("warns when the bot's model is no longer offered, and saves it as Default", async () => {
    signIn();
    const bot: Bot = {
      id: 7,
      name: 'Chef',
      description: 'Plans meals',
      purpose: 'answering',
      icon: 'utensils',
      userId: 1,
      active: true,
      capabilities: [],
      config: { model: '5/retired', systemPrompt: PROMPT },
      exampleQueries: ['Dinner?', 'Rice?'],
      testNotes: [],
      version: 2,
      publishedVersion: null,
      usageCount: 0,
      lastUsed: null,
      createdAt: '2025-01-01T00:00:00.000Z',
      sharing: { visibility: 'private', hasLink: false, showPrompt: false, embedOrigins: [], embedDailyCap: 100 },
    } as Bot;
    server.json('GET', '/api/bots/7', bot);
    server.json('GET', '/api/bots/7/files', []);
    server.json('PATCH', '/api/bots/7', (request) => ({ ...bot, ...(request.body as object) }));
    const { user } = renderScreen(
      <Routes>
        <Route path="/create-bot" element={<CreateBotPage />} />
        <Route path="/dashboard" element={<h1>Dashboard</h1>} />
      </Routes>,
      '/create-bot?edit=7',
    );
    await user.click(await screen.findByRole('button', { name: 'Continue' }));
    await stepTitle('Customize');

    expect(
      await screen.findByText(
        'The model this botty used is no longer available, so it answers with the default model.',
      ),
    ).toBeTruthy();
    expect(picker().textContent).toBe('Default (llama3 (Environment))');

    await user.click(button('Continue'));
    await user.click(await screen.findByRole('button', { name: 'Review Botty' }));
    await stepTitle('Finish');
    expect(screen.getByText('Model').nextElementSibling?.textContent).toBe('Default');
    await user.click(button('Save Changes'));
    await screen.findByRole('heading', { name: 'Dashboard' });
    expect(server.sent('PATCH', '/api/bots/7')[0]?.body).toMatchObject({ config: { model: null } });
  });

  it('is disabled with a hint when no model is connected', async () => {
    server.json('GET', '/api/models', { models: [], defaultModel: null });
    const { user } = await openWizard();
    await define(user);
    expect(
      await screen.findByText('No model is connected yet. An administrator can connect one in the admin console.'),
    ).toBeTruthy();
    expect(picker()).toHaveProperty('disabled', true);
    expect(picker().textContent).toBe('Default');
  });
});

describe("the wizard's tool picker", () => {
  it('offers the tools of the MCP servers only with the Tools capability, and saves the chosen ones', async () => {
    signIn();
    server.json('GET', '/api/mcp-servers', {
      servers: [
        mcpServer({
          tools: [mcpTool('lookup_order', { readOnly: true }), mcpTool('cancel_order', { destructive: true })],
        }),
      ],
    });
    server.json('POST', '/api/bots', (request) => ({ id: 9, ...(request.body as object) }));
    server.json('GET', '/api/bots/9/files', []);
    const { user } = await openWizard();
    await define(user);
    expect(screen.getByText(/Turn on Tools in step 1/)).toBeTruthy();
    await user.click(button('Back'));
    await stepTitle('Define Bot');
    await user.click(screen.getByRole('checkbox', { name: 'Tools' }));
    await user.click(button('Continue'));
    await stepTitle('Customize');

    await user.click(await screen.findByRole('checkbox', { name: 'Select all tools of Orders' }));
    expect((screen.getByRole('checkbox', { name: /lookup_order/ }) as HTMLInputElement).checked).toBe(true);
    // Only the tool that changes things can run without asking.
    expect(screen.queryByRole('switch', { name: 'Auto-approve lookup_order' })).toBeNull();
    await user.click(screen.getByRole('switch', { name: 'Auto-approve cancel_order' }));

    await trainToFinish(user);
    expect(screen.getByText('Tools', { selector: 'dt' }).nextElementSibling?.textContent).toBe(
      'lookup_order, cancel_order',
    );
    await user.click(button('Create Botty'));
    expect(await screen.findByText('Success!')).toBeTruthy();
    expect(server.sent('POST', '/api/bots')[0]?.body).toMatchObject({
      capabilities: expect.arrayContaining(['tools']),
      config: {
        tools: [
          { serverId: 4, name: 'lookup_order' },
          { serverId: 4, name: 'cancel_order', autoApprove: true },
        ],
      },
    });
  });
});
