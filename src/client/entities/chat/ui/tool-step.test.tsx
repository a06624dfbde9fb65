import { render, screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { CHAT_MESSAGES, type Message, type ReplyStep } from '@shared/contracts/chat';
import { fakeServer } from '@/test/fake-server';
import { renderScreen } from '@/test/render';
import type { ChatBot } from '../model/chat-bot';
import { ChatPanel } from './chat-panel';
import { ResearchSteps } from './research-steps';

const CONVERSATION = 7;
const base = `/api/conversations/${CONVERSATION}`;
const bot: ChatBot = {
  id: 3,
  name: 'Helper',
  description: 'Changes things',
  purpose: 'answering',
  icon: 'robot',
  active: true,
  capabilities: ['tools'],
  exampleQueries: [],
  config: { greeting: 'Hi.' },
};
const call = {
  kind: 'tool',
  callId: 'call-1',
  server: 'Home',
  tool: 'switch_lamp',
  input: '{"room":"hall","on":false}',
} as const satisfies Partial<ReplyStep>;

let server: ReturnType<typeof fakeServer>;
beforeEach(() => {
  server = fakeServer();
  server.json('GET', '/api/chat/status', { offline: false, provider: 'openai-compatible', model: 'fake' });
  server.json('GET', `${base}/messages`, []);
  server.json('GET', `${base}/feedback`, []);
});

describe('tool calls in the chat', () => {
  it('shows a waiting call with its arguments, sends Approve with "always", and shows what the call did', async () => {
    const replies = server.streams('POST', `${base}/stream`);
    server.json('POST', `${base}/tool-approvals`, { decision: 'approved' });
    const { user } = renderScreen(<ChatPanel bot={bot} conversationId={CONVERSATION} />);
    await screen.findByText('Hi.');
    await user.type(screen.getByRole('textbox', { name: 'Message' }), 'Turn off the hall lamp{Enter}');
    const stream = await replies.next();
    stream.send('start', { messageId: 50 });
    stream.send('step', { ...call, status: 'awaiting_approval', index: 0 });

    const prompt = await screen.findByRole('group', { name: 'Run switch_lamp on Home?' });
    // Announced politely with the rest of the reply's steps.
    expect(screen.getByRole('status', { name: 'Research steps' }).textContent).toContain(
      'switch_lamp on Home wants to run',
    );
    expect(screen.getByText(call.input).closest('details')?.open).toBe(true);
    await user.click(within(prompt).getByRole('checkbox', { name: 'Always for this chat' }));
    await user.click(within(prompt).getByRole('button', { name: 'Approve' }));
    expect(server.sent('POST', `${base}/tool-approvals`).map((r) => r.body)).toEqual([
      { callId: 'call-1', decision: 'approve', always: true },
    ]);
    expect(within(prompt).getByRole('button', { name: 'Deny' })).toHaveProperty('disabled', true);

    stream.send('step', { ...call, status: 'done', result: 'The hall lamp is off.', durationMs: 1200, index: 0 });
    expect(await screen.findByText('Called switch_lamp on Home · 1.2 s')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Approve' })).toBeNull();
    expect(screen.getByText('Result')).toBeTruthy();
    const reply: Message = {
      id: 50,
      conversationId: CONVERSATION,
      role: 'assistant',
      content: 'Done.',
      status: 'complete',
      createdAt: '2025-01-01T00:00:00.000Z',
      sources: [],
      steps: [{ ...call, status: 'done', result: 'The hall lamp is off.', durationMs: 1200 }],
      attachments: [],
    };
    stream.send('done', reply);
    stream.end();
    expect(await screen.findByText('Used 1 tool')).toBeTruthy();
  });

  it('after a reload, shows the waiting call with its buttons and follows the reply live', async () => {
    const waiting: Message = {
      id: 60,
      conversationId: CONVERSATION,
      role: 'assistant',
      content: '',
      status: 'awaiting_approval',
      createdAt: '2025-01-01T00:00:00.000Z',
      sources: [],
      steps: [{ ...call, status: 'awaiting_approval' }],
      attachments: [],
    };
    server.json('GET', `${base}/messages`, [waiting]);
    const resumed = server.streams('GET', `${base}/stream`);
    renderScreen(<ChatPanel bot={bot} conversationId={CONVERSATION} />);
    expect(await screen.findByRole('group', { name: 'Run switch_lamp on Home?' })).toBeTruthy();
    const stream = await resumed.next();
    stream.send('start', { messageId: 60 });
    stream.send('step', { ...call, status: 'awaiting_approval', index: 0 });
    expect(await screen.findByRole('button', { name: 'Approve' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Stop generating' })).toBeTruthy();
  });

  it('says plainly when a call was denied or nobody answered, and offers no buttons where nobody may answer', () => {
    const steps: ReplyStep[] = [
      { ...call, status: 'denied', error: CHAT_MESSAGES.toolDenied },
      { ...call, callId: 'call-2', status: 'skipped', error: CHAT_MESSAGES.toolNoAnswer },
      { ...call, callId: 'call-3', status: 'awaiting_approval' },
    ];
    render(<ResearchSteps steps={steps} sources={[]} live={false} />);
    const list = screen.getByRole('status', { name: 'Research steps' });
    expect(list.textContent).toContain(`switch_lamp on Home: ${CHAT_MESSAGES.toolDenied}`);
    expect(list.textContent).toContain(`switch_lamp on Home: ${CHAT_MESSAGES.toolNoAnswer}`);
    // A read-only view (no conversation of the person's own): the waiting call, without Approve or Deny.
    expect(screen.queryByRole('button', { name: 'Approve' })).toBeNull();
  });
});
