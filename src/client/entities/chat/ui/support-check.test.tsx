import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Message, Source, Support } from '@shared/contracts/chat';
import { fakeServer } from '@/test/fake-server';
import { renderScreen } from '@/test/render';
import type { ChatBot } from '../model/chat-bot';
import { ChatPanel } from './chat-panel';
import { ReadOnlyMessages } from './read-only-messages';
import { UNSUPPORTED_LABEL } from './unsupported-marker';

const CONVERSATION = 7;
const base = `/api/conversations/${CONVERSATION}`;
const bot: ChatBot = {
  id: 3,
  name: 'Helper',
  description: 'Answers questions',
  purpose: 'answering',
  icon: 'robot',
  active: true,
  capabilities: ['document_analysis'],
  exampleQueries: [],
  config: { greeting: 'Hi, ask me anything.' },
};

const CITED = 'The Zephyr widget must be recalibrated every 42 days [1].';
const INVENTED = 'It also plays classical music when left alone overnight.';
const content = `${CITED} ${INVENTED}`;
const sources: Source[] = [
  {
    n: 1,
    kind: 'file',
    fileId: 11,
    title: 'recalibration.txt',
    snippet: 'Recalibrate every 42 days with the blue dial.',
  },
  { n: 2, kind: 'file', fileId: 12, title: 'warranty.txt', snippet: 'A warranty of two years covers the motor.' },
];
const support = (method: Support['method']): Support => ({
  method,
  faithfulness: 0.5,
  checked: 2,
  sentences: [
    { text: CITED, start: 0, end: CITED.length, sources: [1], checkable: true, supported: true },
    {
      text: INVENTED,
      start: CITED.length + 1,
      end: content.length,
      sources: [],
      checkable: true,
      supported: false,
    },
  ],
});

const reply = (fields: Partial<Message> = {}): Message => ({
  id: 101,
  conversationId: CONVERSATION,
  role: 'assistant',
  content,
  status: 'complete',
  createdAt: '2025-01-01T00:00:00.000Z',
  sources,
  steps: [],
  attachments: [],
  ...fields,
});

let server: ReturnType<typeof fakeServer>;
beforeEach(() => {
  server = fakeServer();
  server.json('GET', '/api/chat/status', { offline: false, provider: 'openai-compatible', model: 'fake' });
  server.json('GET', `${base}/feedback`, []);
});

const sourcesOf = () => screen.getByRole('region', { name: 'Sources' });

describe('a reply checked against its sources, in the chat', () => {
  it('lists the cited source, keeps the other under "Also consulted", and marks the unsupported sentence', async () => {
    server.json('GET', `${base}/messages`, [reply({ support: support('judge') })]);
    const { user } = renderScreen(<ChatPanel bot={bot} conversationId={CONVERSATION} />);
    await screen.findByText(/plays classical music/);

    const region = sourcesOf();
    expect(
      within(region)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([expect.stringContaining('recalibration.txt')]);
    const consulted = within(region).getByRole('button', { name: 'Also consulted (1)' });
    expect(consulted.getAttribute('aria-expanded')).toBe('false');
    expect(within(region).queryByText('warranty.txt')).toBeNull();
    await user.click(consulted);
    expect(consulted.getAttribute('aria-expanded')).toBe('true');
    expect(within(region).getByText('warranty.txt')).toBeTruthy();

    expect(within(region).getByText(/1 of 2 sentences supported/).textContent).toContain('Checked by the judge');

    // One quiet mark, after the invented sentence, that opens its explanation from the keyboard too.
    const marks = await screen.findAllByRole('button', { name: UNSUPPORTED_LABEL });
    expect(marks).toHaveLength(1);
    marks[0]!.focus();
    await user.keyboard('{Enter}');
    const about = await screen.findByRole('dialog', { name: 'About this sentence' });
    expect(about.textContent).toContain('Checked by the judge');
  });

  it('opens a file source’s passage in place', async () => {
    server.json('GET', `${base}/messages`, [reply({ support: support('judge') })]);
    const { user } = renderScreen(<ChatPanel bot={bot} conversationId={CONVERSATION} />);
    const title = await screen.findByRole('button', { name: 'recalibration.txt' });
    expect(title.getAttribute('aria-expanded')).toBe('false');
    await user.click(title);
    expect(title.getAttribute('aria-expanded')).toBe('true');
    expect(document.getElementById(title.getAttribute('aria-controls')!)?.textContent).toBe(sources[0]!.snippet);
  });

  it('lists every source as before for a reply that cites none and was never checked', async () => {
    server.json('GET', `${base}/messages`, [reply({ content: 'Recalibrate it often.' })]);
    renderScreen(<ChatPanel bot={bot} conversationId={CONVERSATION} />);
    await screen.findByText('Recalibrate it often.');
    expect(within(sourcesOf()).getAllByRole('listitem')).toHaveLength(2);
    expect(screen.queryByRole('button', { name: /Also consulted/ })).toBeNull();
    expect(screen.queryByText(/sentences supported/)).toBeNull();
  });
});

describe('a shared snapshot of a checked reply', () => {
  it('splits the sources and says the check was by word overlap', async () => {
    const user = userEvent.setup();
    render(
      <ReadOnlyMessages
        messages={[
          { role: 'user', content: 'How often?', sources: [] },
          { role: 'assistant', content, sources, support: support('lexical') },
        ]}
      />,
    );
    await screen.findByText(/plays classical music/);
    expect(screen.getByRole('list', { name: 'Sources' }).textContent).toContain('recalibration.txt');
    await user.click(screen.getByRole('button', { name: 'Also consulted (1)' }));
    expect(screen.getByRole('list', { name: 'Also consulted' }).textContent).toContain('warranty.txt');
    expect(screen.getByText(/1 of 2 sentences supported/).textContent).toContain('Checked by word overlap (offline)');
    expect(await screen.findAllByRole('button', { name: UNSUPPORTED_LABEL })).toHaveLength(1);
  });
});
