import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import type { Bot } from '../src/shared/contracts/bots';
import type { McpServer } from '../src/shared/contracts/mcp-servers';
import { createBot } from '../tests/support/factories';
import { startFakeMcpServer, type FakeMcpServer } from '../tests/support/fake-mcp-server';
import { startTestAppWithModel } from '../tests/support/test-app';
import {
  appInBrowser,
  emulateColorScheme,
  expectAccessible,
  signedInPage,
  snap,
  toastWith,
  VIEWPORTS,
  visible,
} from './support/browser';
import { held } from './support/held-reply';

let mcp: FakeMcpServer;
afterAll(() => mcp?.close());
const suite = appInBrowser(async () => {
  mcp = await startFakeMcpServer();
  return startTestAppWithModel({
    // UNSAFE anywhere but tests: lets a user's MCP server on loopback through, as web research's pages are.
    env: { WEB_FETCH_ALLOW_HOSTS: '127.0.0.1' },
  });
});

const button = (page: Page, name: string) => page.getByRole('button', { name, exact: true });
const messages = (page: Page) => page.getByRole('log', { name: 'Messages' });

async function send(page: Page, text: string) {
  const input = page.getByRole('textbox', { name: 'Message' });
  await input.fill(text);
  await input.press('Enter');
}

/** The page at 360 px (no sideways scroll), 390 and 1280 px (screenshots, axe at 1280), left at 1280. */
async function lookAt(page: Page, name: string) {
  await page.setViewportSize({ width: 360, height: 800 });
  await expect
    .poll(() => page.evaluate(() => document.documentElement.scrollWidth), {
      message: `${name} scrolls sideways at 360 px`,
    })
    .toBeLessThanOrEqual(360);
  await page.setViewportSize(VIEWPORTS.phone);
  await snap(page, `tools-${name}-390`);
  await page.setViewportSize(VIEWPORTS.desktop);
  await expectAccessible(page, `${name} at 1280 px`);
  await snap(page, `tools-${name}-1280`);
}

/** Light and dark alike pass axe (colour contrast is read in both themes). */
async function inDarkToo(page: Page, name: string) {
  await emulateColorScheme(page, 'dark');
  await expectAccessible(page, `${name}, dark`);
  await snap(page, `tools-${name}-dark-1280`);
  await emulateColorScheme(page, 'light');
}

describe('tools from MCP servers', () => {
  it('adds an MCP server in Settings and gives a botty its tools in the tool picker', async () => {
    const { page, token, close } = await signedInPage(suite.browser, suite.t);

    // Settings → Tools: empty, it says what MCP servers are and offers to add one.
    await page.goto('/settings?tab=tools');
    await visible(page.getByText(/An MCP \(Model Context Protocol\) server offers tools/));
    await button(page, 'Add server').click();
    const dialog = page.getByRole('dialog', { name: 'Add MCP server' });
    await dialog.getByRole('textbox', { name: 'Name' }).fill('Facts');
    await dialog.getByRole('textbox', { name: 'URL' }).fill(mcp.streamableUrl);
    await button(page, 'Add header').click();
    await dialog.getByRole('textbox', { name: 'Header 1 name' }).fill('X-Team');
    await dialog.getByLabel('Header 1 value').fill('research');
    await expectAccessible(page, 'the Add MCP server dialog');
    await page.setViewportSize(VIEWPORTS.phone);
    await snap(page, 'tools-dialog-390');
    await page.setViewportSize(VIEWPORTS.desktop);
    await dialog.getByRole('button', { name: 'Add server' }).click();
    await visible(toastWith(page, 'Server added'), 10_000);

    // Botty connected and listed the tools, sending the header with every request.
    const card = page.getByRole('list', { name: 'MCP servers' }).getByRole('listitem').first();
    await visible(card.getByText(/Connected · 3 tools/));
    expect(mcp.requests.some((request) => request.headers['x-team'] === 'research')).toBe(true);
    await card.getByRole('button', { name: 'Show 3 tools' }).click();
    const tools = card.getByRole('list', { name: 'Tools of Facts' });
    await visible(tools.getByText('Look up a fact'));
    await visible(tools.getByText('Destructive'));
    await lookAt(page, 'settings');
    await inDarkToo(page, 'settings');

    // The botty's settings: the Tools section offers the server's tools.
    const bot: Bot = await createBot(suite.t, token, {
      name: 'Fact Finder',
      description: 'Looks facts up and tidies records.',
      capabilities: ['tools'],
      // A trained botty: the Train step leads on to Finish.
      config: { systemPrompt: 'You are Fact Finder.' },
    });
    await page.goto(`/create-bot?edit=${bot.id}`);
    // Step 1 offers Tools as a fifth capability, on for this botty.
    const capabilities = page.getByRole('group', { name: 'Capabilities' });
    expect(await capabilities.getByRole('checkbox', { name: 'Tools' }).isChecked()).toBe(true);
    await page.setViewportSize(VIEWPORTS.phone);
    await snap(page, 'tools-capabilities-390');
    await page.setViewportSize(VIEWPORTS.desktop);
    await button(page, 'Continue').click();
    await page.getByRole('checkbox', { name: 'Select all tools of Facts' }).click();
    // Only the tool that changes things can be auto-approved; it is left asking here.
    await visible(page.getByRole('switch', { name: 'Auto-approve delete_record' }));
    expect(await page.getByRole('switch', { name: 'Auto-approve Look up a fact' }).count()).toBe(0);
    await page.getByRole('heading', { name: 'Tools', exact: true }).scrollIntoViewIfNeeded();
    await lookAt(page, 'picker');
    await button(page, 'Continue').click();
    await button(page, 'Review Botty').click();
    await visible(page.getByText('lookup_fact, delete_record, wait'));
    await button(page, 'Save Changes').click();
    await page.waitForURL((url) => url.pathname === '/dashboard');
    const saved = await suite.t.request<Bot>('GET', `/api/bots/${bot.id}`, { token });
    expect(saved.body.config.tools?.map((t) => t.name)).toEqual(['lookup_fact', 'delete_record', 'wait']);
    await close();
    // Axe at three sizes and two themes on a machine shared by the whole suite takes its time.
  }, 150_000);

  it('shows a tool call in the chat, and runs a destructive one only after Approve', async () => {
    const { page, token, close } = await signedInPage(suite.browser, suite.t);
    const added = await suite.t.request<McpServer>('POST', '/api/mcp-servers', {
      token,
      body: { name: 'Facts', url: mcp.streamableUrl },
    });
    expect(added.status).toBe(201);
    const bot: Bot = await createBot(suite.t, token, {
      name: 'Fact Finder',
      description: 'Looks facts up and tidies records.',
      capabilities: ['tools'],
      config: {
        tools: [
          { serverId: added.body.id, name: 'lookup_fact' },
          { serverId: added.body.id, name: 'delete_record' },
        ],
      },
    });
    const before = { calls: mcp.calls.length, deletes: mcp.deleteCalls };

    // In the chat the read-only tool runs at once, and its call shows while the reply is written.
    const answer = held({ text: 'Owls are well documented [1].' });
    suite.fake.enqueue({ toolCalls: [{ name: 'mcp_facts_lookup_fact', arguments: { topic: 'owls' } }] }, answer.plan);
    await page.goto(`/chat/${bot.id}`);
    await send(page, 'Tell me a fact about owls');
    await visible(page.getByRole('status', { name: 'Research steps' }).getByText(/lookup_fact|Look up a fact/), 10_000);
    answer.release();
    await visible(messages(page).getByText('Owls are well documented', { exact: false }), 10_000);
    expect(mcp.calls.slice(before.calls)).toEqual([{ tool: 'lookup_fact', args: { topic: 'owls' } }]);

    // The destructive one waits for the person's approval, and runs only after it.
    suite.fake.enqueue(
      { toolCalls: [{ name: 'mcp_facts_delete_record', arguments: { id: 'r-7' } }] },
      { text: 'Record r-7 is deleted.' },
    );
    await send(page, 'Delete record r-7');
    const approve = messages(page).getByRole('button', { name: 'Approve', exact: true });
    await visible(approve, 10_000);
    expect(mcp.deleteCalls).toBe(before.deletes);
    await expectAccessible(page, 'a tool call waiting for approval');
    await page.setViewportSize({ width: 360, height: 800 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await page.setViewportSize(VIEWPORTS.phone);
    await snap(page, 'tools-approval-390');
    await page.setViewportSize(VIEWPORTS.desktop);
    // The page's approvals, sent and answered: a failure then says whether the click sent one at all.
    const sent: string[] = [];
    const answered: number[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/tool-approvals')) sent.push(request.method());
    });
    page.on('response', (response) => {
      if (response.url().endsWith('/tool-approvals')) answered.push(response.status());
    });
    await approve.click();
    // Twice in clean-clone runs the approved call never ran. A click that sent nothing within 2 s and left the
    // button enabled met the list still moving after the resize: it is made again. One that was taken is not.
    const taken = await expect
      .poll(() => sent.length, { timeout: 2_000 })
      .toBe(1)
      .then(
        () => true,
        () => false,
      );
    if (!taken && (await approve.isEnabled({ timeout: 1_000 }).catch(() => false))) await approve.click();
    await expect.poll(() => answered, { timeout: 10_000, message: 'the approval sent and answered' }).toEqual([200]);
    // In two steps, so a failure says which went wrong: the answer reaching the reply, or its text being drawn.
    await expect
      .poll(() => mcp.deleteCalls, { timeout: 10_000, message: 'the approved call never ran' })
      .toBe(before.deletes + 1);
    await expect.poll(() => messages(page).innerText(), { timeout: 10_000 }).toContain('Record r-7 is deleted.');
    // The fake model writes its text whatever the tool answered: what it was given says what became of the call.
    const given = suite.fake.requests.at(-1)?.body.messages.filter((m) => m.role === 'tool');
    expect(JSON.stringify(given), "the tool's answer given to the model").toContain('Deleted record r-7.');
    await close();
  });
});
