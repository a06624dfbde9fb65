import { screen } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { beforeEach, expect, it } from 'vitest';
import type { Bot } from '@shared/contracts/bots';
import type { FileProgress, KnowledgeFile } from '@shared/contracts/files';
import { fakeServer } from '@/test/fake-server';
import { renderScreen } from '@/test/render';
import { signIn } from '@/test/session';
import { CreateBotPage } from './create-bot-page';

const bot = {
  id: 7,
  name: 'Archivist',
  description: 'Answers from old scans',
  purpose: 'answering',
  icon: 'book',
  userId: 1,
  active: true,
  capabilities: ['document_analysis'],
  config: { model: null, systemPrompt: 'You answer from the scans.' },
  exampleQueries: [],
  testNotes: [],
  version: 1,
  publishedVersion: null,
  usageCount: 0,
  lastUsed: null,
  createdAt: '2025-01-01T00:00:00.000Z',
  sharing: { visibility: 'private', hasLink: false, showPrompt: false, embedOrigins: [], embedDailyCap: 100 },
} as Bot;

const scan = (over: Partial<KnowledgeFile>): KnowledgeFile => ({
  id: 3,
  botId: 7,
  conversationId: null,
  name: 'minutes-1987.pdf',
  mediaType: 'application/pdf',
  size: 250_000,
  status: 'processing',
  error: null,
  chunkCount: 0,
  progress: null,
  createdAt: '2025-01-02T00:00:00.000Z',
  ...over,
});
const reading = (done: number): FileProgress => ({ stage: 'ocr', done, total: 12 });

let server: ReturnType<typeof fakeServer>;
beforeEach(() => {
  server = fakeServer();
  server.json('GET', '/api/models', { models: [], defaultModel: null });
  server.json('GET', '/api/bots/7', bot);
  signIn();
});

it('shows the page being read by OCR with a progress bar, as the list polls, until the file is ready', async () => {
  // What the server answers at each poll of the list: pages read one after another, then the file ready.
  const answers = [
    scan({ progress: reading(2) }),
    scan({ progress: reading(3) }),
    scan({ status: 'ready', chunkCount: 20, error: '12 pages had no text layer and were read by OCR.' }),
  ];
  server.json('GET', '/api/bots/7/files', () => [answers.length > 1 ? answers.shift()! : answers[0]!]);
  const { user } = renderScreen(
    <Routes>
      <Route path="/create-bot" element={<CreateBotPage />} />
    </Routes>,
    '/create-bot?edit=7',
  );
  await user.click(await screen.findByRole('button', { name: 'Continue' }));

  expect(await screen.findByText('Reading page 3 of 12 (OCR)…')).toBeTruthy();
  const bar = screen.getByRole('progressbar', { name: 'Reading minutes-1987.pdf by OCR' });
  expect(bar.getAttribute('aria-valuenow')).toBe('17');
  expect(bar.getAttribute('aria-valuetext')).toBe('2 of 12 pages read');

  // The list asks again while a file is processing.
  expect(await screen.findByText('Reading page 4 of 12 (OCR)…')).toBeTruthy();
  expect(screen.getByRole('progressbar').getAttribute('aria-valuetext')).toBe('3 of 12 pages read');

  expect(await screen.findByText('Ready · 20 passages')).toBeTruthy();
  expect(screen.queryByRole('progressbar')).toBeNull();
  expect(screen.queryByText(/Reading page/)).toBeNull();
  expect(screen.getByText('12 pages had no text layer and were read by OCR.')).toBeTruthy();
});
