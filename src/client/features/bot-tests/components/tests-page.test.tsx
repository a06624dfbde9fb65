import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import type { FeedbackEntry } from '@shared/contracts/feedback';
import type { TestCase } from '@shared/contracts/test-cases';
import { allowConsoleError } from '@/test/console';
import { fakeServer } from '@/test/fake-server';
import { renderScreen } from '@/test/render';
import { signIn } from '@/test/session';
import { BotTests } from './tests-page';

const testCase = (id: number, over: Partial<TestCase> = {}): TestCase => ({
  id,
  botId: 7,
  query: `Question ${id}`,
  expected: null,
  tags: [],
  sourceMessageId: null,
  createdAt: '2026-11-26T10:00:00.000Z',
  updatedAt: '2026-11-26T10:00:00.000Z',
  ...over,
});

const entry = (messageId: number, over: Partial<FeedbackEntry> = {}): FeedbackEntry => ({
  messageId,
  conversationId: 3,
  rating: 'down',
  comment: 'Kale is a vegetable',
  question: 'Is kale a fruit?',
  reply: 'Yes, kale is a fruit.',
  botVersion: 2,
  surface: 'link',
  ratedAt: '2026-11-26T10:00:00.000Z',
  testCaseId: null,
  ...over,
});

let server: ReturnType<typeof fakeServer>;
let tests: TestCase[];
beforeEach(() => {
  server = fakeServer();
  signIn();
  tests = [
    testCase(1, { query: 'Soup tonight?', expected: 'A soup recipe', tags: ['dinner'] }),
    testCase(2, { query: 'Plan my week', tags: ['planning'] }),
  ];
  server.json('GET', '/api/bots/7/tests', () => tests);
});

const renderTests = () => renderScreen(<BotTests botId={7} currentVersion={2} />, '/bots/7/tests');
const dialog = () => screen.getByRole('dialog');

describe('Tests', () => {
  it('lists the cases with their criteria and tags, and filters by tag', async () => {
    const { user } = renderTests();
    expect(await screen.findByText('Soup tonight?')).toBeTruthy();
    expect(screen.getByText('A soup recipe')).toBeTruthy();
    expect(screen.getByText('Any fitting answer passes.')).toBeTruthy();
    await user.click(
      within(screen.getByRole('group', { name: 'Filter by tag' })).getByRole('button', { name: 'planning' }),
    );
    expect(screen.queryByText('Soup tonight?')).toBeNull();
    expect(screen.getByText('Plan my week')).toBeTruthy();
  });

  it('adds a case through the dialog, checking the question first', async () => {
    server.json(
      'POST',
      '/api/bots/7/tests',
      (request) => {
        const created = testCase(3, request.body as Partial<TestCase>);
        tests = [...tests, created];
        return created;
      },
      201,
    );
    const { user } = renderTests();
    await screen.findByText('Soup tonight?');
    await user.click(screen.getAllByRole('button', { name: 'Add test case' })[0]!);
    await user.click(within(dialog()).getByRole('button', { name: 'Add test case' }));
    expect(await within(dialog()).findByText('Question must be 1 to 8000 characters')).toBeTruthy();
    expect(server.sent('POST', '/api/bots/7/tests')).toHaveLength(0);

    await user.type(within(dialog()).getByRole('textbox', { name: 'Question' }), 'Vegan lunch?');
    await user.type(within(dialog()).getByRole('textbox', { name: 'Expected answer or criteria' }), 'Three dishes');
    await user.type(within(dialog()).getByRole('textbox', { name: 'Tags' }), 'vegan, lunch');
    await user.click(within(dialog()).getByRole('button', { name: 'Add test case' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(server.sent('POST', '/api/bots/7/tests')[0]?.body).toEqual({
      query: 'Vegan lunch?',
      expected: 'Three dishes',
      tags: ['vegan', 'lunch'],
    });
    expect(await screen.findByText('Vegan lunch?')).toBeTruthy();
  });

  it("shows the server's message when the question is a test already", async () => {
    allowConsoleError();
    server.json('PATCH', '/api/bots/7/tests/2', { message: '"Soup tonight?" is already a test of this bot' }, 409);
    const { user } = renderTests();
    await user.click(await screen.findByRole('button', { name: 'Edit Plan my week' }));
    const question = within(dialog()).getByRole('textbox', { name: 'Question' });
    await user.clear(question);
    await user.type(question, 'Soup tonight?');
    await user.click(within(dialog()).getByRole('button', { name: 'Save' }));
    expect(await within(dialog()).findByText('"Soup tonight?" is already a test of this bot')).toBeTruthy();
  });

  it('deletes a case after confirming, and imports a CSV file', async () => {
    server.json('DELETE', '/api/bots/7/tests/1', () => {
      tests = tests.filter((t) => t.id !== 1);
      return { message: 'Test case deleted' };
    });
    server.json('POST', '/api/bots/7/tests/import', () => {
      tests = [...tests, testCase(5, { query: 'From CSV' })];
      return { added: 1, updated: 0, tests };
    });
    const { user } = renderTests();
    await user.click(await screen.findByRole('button', { name: 'Delete Soup tonight?' }));
    await user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Delete test case' }));
    await waitFor(() => expect(screen.queryByText('Soup tonight?')).toBeNull());

    const file = new File(['query\nFrom CSV\n'], 'tests.csv', { type: 'text/csv' });
    await user.upload(screen.getByLabelText('CSV file of test cases'), file);
    expect(await screen.findByText('From CSV')).toBeTruthy();
    expect(server.sent('POST', '/api/bots/7/tests/import')).toHaveLength(1);
    expect(await screen.findByText('1 added, 0 updated.')).toBeTruthy();
  });
});

describe('Feedback', () => {
  it('lists rated replies, thumbs down first by default, filters, and adds one to the tests', async () => {
    let inTests: number | null = null;
    server.json('GET', '/api/bots/7/feedback', () => ({
      entries: [entry(40, { testCaseId: inTests }), entry(30, { question: 'Old question', testCaseId: 2 })],
      nextCursor: null,
    }));
    server.json(
      'POST',
      '/api/messages/40/test-case',
      () => {
        inTests = 9;
        return testCase(9, { query: 'Is kale a fruit?', expected: 'Kale is a vegetable', sourceMessageId: 40 });
      },
      201,
    );
    const { user } = renderTests();
    await user.click(screen.getByRole('tab', { name: 'Feedback' }));
    expect(await screen.findByText('Is kale a fruit?')).toBeTruthy();
    expect(server.sent('GET', '/api/bots/7/feedback?rating=down')).toHaveLength(1);
    expect(screen.getAllByText('Kale is a vegetable')).toHaveLength(2);
    expect(screen.getAllByText('Shared link').length).toBeGreaterThan(0);
    expect((screen.getByRole('button', { name: 'In tests' }) as HTMLButtonElement).disabled).toBe(true);

    await user.selectOptions(screen.getByRole('combobox', { name: 'Where' }), 'widget');
    await waitFor(() => expect(server.sent('GET', '/api/bots/7/feedback?rating=down&surface=widget')).toHaveLength(1));
    await user.selectOptions(screen.getByRole('combobox', { name: 'Where' }), '');

    await user.click(await screen.findByRole('button', { name: 'Add to tests: Is kale a fruit?' }));
    await waitFor(() => expect(screen.getAllByRole('button', { name: 'In tests' })).toHaveLength(2));
    expect(server.sent('POST', '/api/messages/40/test-case')).toHaveLength(1);
  });
});
