import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Message } from '@shared/contracts/chat';
import { fakeServer } from '@/test/fake-server';
import { allowConsoleError } from '../../../../../tests/support/fail-on-console-error';
import { renderScreen } from '@/test/render';
import type { ChatBot } from '../model/chat-bot';
import { ChatPanel } from './chat-panel';

const CONVERSATION = 7;
const base = `/api/conversations/${CONVERSATION}`;
const bot: ChatBot = {
  id: 3,
  name: 'Helper',
  description: 'Answers questions',
  purpose: 'answering',
  icon: 'robot',
  active: true,
  capabilities: [],
  exampleQueries: [],
  config: { greeting: 'Hi, ask me anything.' },
};

let nextId = 100;
const message = (role: Message['role'], content: string, fields: Partial<Message> = {}): Message => ({
  id: nextId++,
  conversationId: CONVERSATION,
  role,
  content,
  status: 'complete',
  createdAt: '2025-01-01T00:00:00.000Z',
  sources: [],
  steps: [],
  attachments: [],
  ...fields,
});

let server: ReturnType<typeof fakeServer>;
beforeEach(() => {
  server = fakeServer();
  server.json('GET', '/api/chat/status', { offline: false, provider: 'openai-compatible', model: 'fake' });
  server.json('GET', `${base}/messages`, []);
  server.json('GET', `${base}/feedback`, []);
});

async function openChat() {
  const view = renderScreen(<ChatPanel bot={bot} conversationId={CONVERSATION} />);
  await screen.findByText('Hi, ask me anything.');
  return view;
}

const messages = () => screen.getByRole('log', { name: 'Messages' });
const button = (name: string) => screen.getByRole('button', { name });
/** The reply's trouble, with its Retry (a reply cut short has one of its own in the list). */
const problem = async (text: string) => {
  const alert = await screen.findByRole('alert');
  expect(alert.textContent).toContain(text);
  return { alert, retry: within(alert).getByRole('button', { name: 'Retry' }) };
};

async function send(user: UserEvent, text: string) {
  await user.type(screen.getByRole('textbox', { name: 'Message' }), `${text}{Enter}`);
}

/** A conversation of `count` messages the fake server answers a page at a time, as the API does. */
function pagedConversation(count: number) {
  const all = Array.from({ length: count }, (_, i) => message(i % 2 ? 'assistant' : 'user', `Message ${i}`));
  server.json('GET', `${base}/messages`, (request) => {
    const params = new URL(request.path, 'http://localhost').searchParams;
    const cursor = params.get('cursor');
    const end = cursor ? all.findIndex((m) => m.id === Number(cursor)) : all.length;
    return all.slice(Math.max(0, end - Number(params.get('limit'))), end);
  });
  return all;
}

describe('ChatPanel', () => {
  it('opens a conversation longer than a page at its newest page, the greeting waiting for the start', async () => {
    const all = pagedConversation(250);
    renderScreen(<ChatPanel bot={bot} conversationId={CONVERSATION} />);
    const shown = async () =>
      (await within(messages()).findAllByText(/^Message \d+$/)).map((row) => Number(row.textContent!.slice(8)));
    expect(Math.min(...(await shown()))).toBeGreaterThanOrEqual(150);
    expect(server.sent('GET', `${base}/messages?limit=100`)).toHaveLength(1);
    expect(server.sent('GET', `${base}/messages?limit=100&cursor=${all[150]!.id}`)).toHaveLength(0);
    expect(screen.queryByText('Hi, ask me anything.')).toBeNull();
  });

  it('fetches the pages before the newest, the largest the API gives, up to a message it is asked to show', async () => {
    const all = pagedConversation(250);
    renderScreen(<ChatPanel bot={bot} conversationId={CONVERSATION} messageId={all[20]!.id} />);
    // Bringing it into view needs a laid-out page: the end-to-end test sees it there.
    await waitFor(() =>
      expect(server.sent('GET', `${base}/messages?limit=200&cursor=${all[150]!.id}`)).toHaveLength(1),
    );
    expect(server.sent('GET', `${base}/messages?limit=200&cursor=${all[0]!.id}`)).toHaveLength(0);
  });

  it('sends a message and streams the reply into place', async () => {
    const replies = server.streams('POST', `${base}/stream`);
    const { user } = await openChat();
    await send(user, 'What is up?');

    const stream = await replies.next();
    expect(stream.request.body).toEqual({ content: 'What is up?' });
    expect(within(messages()).getByText('What is up?')).toBeTruthy();
    expect(screen.getByRole('status', { name: 'Botty is typing' })).toBeTruthy();
    expect(button('Stop generating')).toBeTruthy();

    const reply = message('assistant', 'All good.');
    stream.send('user-message', message('user', 'What is up?'));
    stream.send('start', { messageId: reply.id });
    stream.send('delta', { text: 'All ' });
    stream.send('delta', { text: 'good.' });
    expect(await within(messages()).findByText('All good.')).toBeTruthy();
    expect(screen.queryByRole('status', { name: 'Botty is typing' })).toBeNull();

    stream.send('done', reply);
    stream.end();
    expect(await screen.findByRole('button', { name: 'Send message' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Stop generating' })).toBeNull();
    expect(within(messages()).getByRole('button', { name: 'Regenerate' })).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it("draws the text after the first in frames of its own, whole through the stream's other events and its end", async () => {
    const replies = server.streams('POST', `${base}/stream`);
    const { user } = await openChat();
    await send(user, 'Count to four');
    const stream = await replies.next();
    const reply = message('assistant', 'One two three four.');
    stream.send('user-message', message('user', 'Count to four'));
    stream.send('start', { messageId: reply.id });
    // Each piece in a frame of its own: the first goes into the messages, the others into the reply's row alone.
    let shown = '';
    for (const piece of ['One', ' two', ' three']) {
      stream.send('delta', { text: piece });
      shown += piece;
      expect(await within(messages()).findByText(shown)).toBeTruthy();
    }
    stream.send('sources', { sources: [] });
    stream.send('delta', { text: ' four.' });
    expect(await within(messages()).findByText('One two three four.')).toBeTruthy();
    stream.send('done', reply);
    stream.end();
    expect(await within(messages()).findByRole('button', { name: 'Regenerate' })).toBeTruthy();
    expect(within(messages()).getAllByText('One two three four.')).toHaveLength(1);
    expect(within(messages()).queryByText(/four\.\s*four/)).toBeNull();
  });

  it('keeps the text typed while a reply streams, Send waiting for more than spaces, and empties the box once sent', async () => {
    const replies = server.streams('POST', `${base}/stream`);
    const { user } = await openChat();
    const box = screen.getByRole<HTMLTextAreaElement>('textbox', { name: 'Message' });
    await user.type(box, '   ');
    expect(button('Send message')).toHaveProperty('disabled', true);
    await user.clear(box);
    await send(user, 'First');
    expect(box.value).toBe('');
    const stream = await replies.next();
    stream.send('user-message', message('user', 'First'));
    stream.send('delta', { text: 'Thinking' });
    await user.type(box, 'Second question');
    expect(box.value).toBe('Second question');
    stream.send('done', message('assistant', 'Thinking'));
    stream.end();
    expect(await screen.findByRole('button', { name: 'Send message' })).toHaveProperty('disabled', false);
    expect(box.value).toBe('Second question');
    await user.type(box, '{Enter}');
    expect((await replies.next()).request.body).toEqual({ content: 'Second question' });
    expect(box.value).toBe('');
    expect(button('Stop generating')).toBeTruthy();
  });

  it('stops a reply, keeping what it had written', async () => {
    const replies = server.streams('POST', `${base}/stream`);
    server.json('POST', `${base}/stop`, { stopped: true });
    const { user } = await openChat();
    await send(user, 'Tell me a story');
    const stream = await replies.next();
    stream.send('user-message', message('user', 'Tell me a story'));
    stream.send('delta', { text: 'Once upon' });
    await within(messages()).findByText('Once upon');

    await user.click(button('Stop generating'));
    expect(await screen.findByText('Stopping')).toBeTruthy();
    expect(button('Stop generating')).toHaveProperty('disabled', true);
    expect(server.sent('POST', `${base}/stop`)).toHaveLength(1);

    stream.send('done', message('assistant', 'Once upon', { status: 'stopped' }));
    stream.end();
    expect(await within(messages()).findByText('(stopped)')).toBeTruthy();
    expect(within(messages()).getByText('Once upon')).toBeTruthy();
    expect(button('Send message')).toBeTruthy();
  });

  it('asks to stop once more when Stop overtook the message it stops', async () => {
    const replies = server.streams('POST', `${base}/stream`);
    let asked = 0;
    server.json('POST', `${base}/stop`, () => ({ stopped: ++asked > 1 }));
    const { user } = await openChat();
    await send(user, 'Hello');
    const stream = await replies.next();
    await user.click(button('Stop generating'));

    await waitFor(() => expect(asked).toBe(2));
    stream.send('user-message', message('user', 'Hello'));
    stream.send('done', null);
    stream.end();
    expect(await screen.findByRole('button', { name: 'Send message' })).toBeTruthy();
  });

  it('asks once more only for the reply it stopped, not for the next message sent meanwhile', async () => {
    const replies = server.streams('POST', `${base}/stream`);
    // The first ask found nothing running yet, and its answer comes after the reply ended and another began.
    let answer!: () => void;
    const answered = new Promise<void>((resolve) => (answer = resolve));
    server.on('POST', `${base}/stop`, async () => {
      await answered;
      return new Response(JSON.stringify({ stopped: false }), { headers: { 'content-type': 'application/json' } });
    });
    const { user } = await openChat();
    await send(user, 'Hello');
    const first = await replies.next();
    await user.click(button('Stop generating'));
    await waitFor(() => expect(server.sent('POST', `${base}/stop`)).toHaveLength(1));
    first.send('user-message', message('user', 'Hello'));
    first.send('done', null);
    first.end();
    await screen.findByRole('button', { name: 'Send message' });
    await send(user, 'Anyone there?');
    const second = await replies.next();

    answer();
    // Past the moment a second ask goes out: the new reply is left alone.
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(server.sent('POST', `${base}/stop`)).toHaveLength(1);
    second.send('user-message', message('user', 'Anyone there?'));
    second.send('delta', { text: 'Here.' });
    expect(await within(messages()).findByText('Here.')).toBeTruthy();
    second.send('done', message('assistant', 'Here.'));
    second.end();
  });

  it('keeps a message sent while the conversation was being fetched again', async () => {
    const replies = server.streams('POST', `${base}/stream`);
    const { user } = await openChat();
    // A reply stopped before its text has the conversation fetched again; the answer comes after the next send.
    let answer!: (list: Message[]) => void;
    server.on('GET', `${base}/messages`, async () => {
      const list = await new Promise<Message[]>((resolve) => (answer = resolve));
      return new Response(JSON.stringify(list), { headers: { 'content-type': 'application/json' } });
    });
    await send(user, 'Hello');
    const first = await replies.next();
    const hello = message('user', 'Hello');
    first.send('user-message', hello);
    first.send('done', null);
    first.end();
    await waitFor(() => expect(server.sent('GET', `${base}/messages?limit=100`)).toHaveLength(2));
    await send(user, 'Anyone there?');
    const second = await replies.next();

    answer([hello]);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(within(messages()).getByText('Anyone there?')).toBeTruthy();
    second.send('user-message', message('user', 'Anyone there?'));
    second.send('delta', { text: 'Here.' });
    second.send('done', message('assistant', 'Here.'));
    second.end();
    expect(await within(messages()).findByText('Here.')).toBeTruthy();
    expect(within(messages()).getByText('Anyone there?')).toBeTruthy();
    // What the cancelled fetch was for is fetched once the reply has settled.
    await waitFor(() => expect(server.sent('GET', `${base}/messages?limit=100`)).toHaveLength(3));
    answer([hello, message('user', 'Anyone there?'), message('assistant', 'Here.')]);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(within(messages()).getByText('Anyone there?')).toBeTruthy();
  });

  it("keeps a rating given while the conversation's ratings were still being fetched, and takes it back", async () => {
    const reply = message('assistant', 'Done.');
    server.json('GET', `${base}/messages`, [message('user', 'Do it'), reply]);
    // The first fetch of the ratings reads the list before the rating is saved, and answers after it was.
    let answer!: () => void;
    let fetches = 0;
    server.on('GET', `${base}/feedback`, async () => {
      const saved = server.sent('POST', `/api/messages/${reply.id}/feedback`).at(-1)?.body as { rating: string | null };
      const list = saved?.rating ? [{ messageId: reply.id, rating: saved.rating, comment: null }] : [];
      fetches += 1;
      if (fetches === 1) await new Promise<void>((resolve) => (answer = resolve));
      return new Response(JSON.stringify(list), { headers: { 'content-type': 'application/json' } });
    });
    server.json('POST', `/api/messages/${reply.id}/feedback`, (request) => ({
      messageId: reply.id,
      rating: (request.body as { rating: string | null }).rating,
      comment: null,
    }));
    const { user } = renderScreen(<ChatPanel bot={bot} conversationId={CONVERSATION} />);
    const up = await screen.findByRole('button', { name: 'Good reply' });
    await user.click(up);
    await waitFor(() => expect(up.getAttribute('aria-pressed')).toBe('true'));
    answer();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(up.getAttribute('aria-pressed')).toBe('true');
    await user.click(up);
    await waitFor(() => expect(up.getAttribute('aria-pressed')).toBe('false'));
    expect(server.sent('POST', `/api/messages/${reply.id}/feedback`).map((r) => r.body)).toEqual([
      { rating: 'up' },
      { rating: null },
    ]);
  });

  it("shows the model's error as it comes, and Retry asks for a new reply", async () => {
    const replies = server.streams('POST', `${base}/stream`);
    const regenerated = server.streams('POST', `${base}/regenerate`);
    const { user } = await openChat();
    await send(user, 'Why?');
    const stream = await replies.next();
    const asked = message('user', 'Why?');
    const partial = message('assistant', 'Because', { status: 'failed' });
    server.json('GET', `${base}/messages`, [asked, partial]);
    stream.send('user-message', asked);
    stream.send('delta', { text: 'Because' });
    stream.send('error', { message: 'The model failed', messageId: partial.id });
    const { retry } = await problem('The model failed');
    stream.end();
    // What the server kept is fetched: the partial reply, marked as cut short.
    expect(await within(messages()).findByText('(interrupted by an error)')).toBeTruthy();

    await user.click(retry);
    const again = await regenerated.next();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(within(messages()).queryByText('Because')).toBeNull();
    again.send('delta', { text: 'Because it is.' });
    again.send('done', message('assistant', 'Because it is.'));
    again.end();
    expect(await within(messages()).findByText('Because it is.')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('keeps a refused message beside the reason, and Retry sends it again', async () => {
    allowConsoleError();
    server.json('POST', `${base}/stream`, { message: 'This botty is inactive.', code: 'CONFLICT' }, 409);
    const { user } = await openChat();
    await send(user, 'Hello there');
    const { retry } = await problem('This botty is inactive.');
    expect(within(messages()).getByText('Hello there')).toBeTruthy();

    const replies = server.streams('POST', `${base}/stream`);
    await user.click(retry);
    const stream = await replies.next();
    expect(stream.request.body).toEqual({ content: 'Hello there' });
    expect(within(messages()).getAllByText('Hello there')).toHaveLength(1);
    stream.send('user-message', message('user', 'Hello there'));
    stream.send('done', message('assistant', 'Hi!'));
    stream.end();
    expect(await within(messages()).findByText('Hi!')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('says when the server cannot be reached, and Retry sends the message again', async () => {
    server.on('POST', `${base}/stream`, () => {
      throw new TypeError('Failed to fetch');
    });
    const { user } = await openChat();
    await send(user, 'Anyone?');
    const { retry } = await problem('Could not reach the server. Check your connection and try again.');

    const replies = server.streams('POST', `${base}/stream`);
    await user.click(retry);
    expect((await replies.next()).request.body).toEqual({ content: 'Anyone?' });
  });

  it('picks a dropped reply up again from its last event and finishes it', async () => {
    const replies = server.streams('POST', `${base}/stream`);
    const resumed = server.streams('GET', `${base}/stream`);
    const { user } = await openChat();
    await send(user, 'Count to three');
    const stream = await replies.next();
    stream.send('user-message', message('user', 'Count to three'));
    const last = stream.send('delta', { text: 'One, two' });
    await within(messages()).findByText('One, two');
    stream.drop();

    const again = await resumed.next();
    expect(again.request.headers.get('Last-Event-ID')).toBe(last);
    again.send('delta', { text: ', three.' });
    again.send('done', message('assistant', 'One, two, three.'));
    again.end();
    expect(await within(messages()).findByText('One, two, three.')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(server.sent('GET', `${base}/stream`)).toHaveLength(1);
  });

  it('says the reply was cut off when it is lost again, and shows what the server kept', async () => {
    const replies = server.streams('POST', `${base}/stream`);
    const resumed = server.streams('GET', `${base}/stream`);
    const { user } = await openChat();
    await send(user, 'Count to three');
    const stream = await replies.next();
    const asked = message('user', 'Count to three');
    stream.send('user-message', asked);
    stream.send('delta', { text: 'One' });
    stream.drop();
    server.json('GET', `${base}/messages`, [asked, message('assistant', 'One, two', { status: 'interrupted' })]);
    (await resumed.next()).end();

    await problem('The reply was cut off before it finished.');
    expect(await within(messages()).findByText('(interrupted)')).toBeTruthy();
    expect(within(messages()).getByText('One, two')).toBeTruthy();
    expect(server.sent('GET', `${base}/stream`)).toHaveLength(1);
  });

  it('follows a reply still being written when the conversation opens', async () => {
    const writing = message('assistant', 'Half an', { status: 'streaming' });
    server.json('GET', `${base}/messages`, [message('user', 'Go on'), writing]);
    const resumed = server.streams('GET', `${base}/stream`);
    await openChat();

    const stream = await resumed.next();
    expect(stream.request.headers.has('Last-Event-ID')).toBe(false);
    expect(button('Stop generating')).toBeTruthy();
    stream.send('start', { messageId: writing.id });
    stream.send('delta', { text: 'Half an answer, now whole.' });
    expect(await within(messages()).findByText('Half an answer, now whole.')).toBeTruthy();
    expect(within(messages()).queryByText('Half an')).toBeNull();
    stream.send('done', message('assistant', 'Half an answer, now whole.', { id: writing.id }));
    stream.end();
    expect(await screen.findByRole('button', { name: 'Send message' })).toBeTruthy();
    expect(server.sent('GET', `${base}/stream`)).toHaveLength(1);
  });

  it('names the model of each reply, and the latest one in the header', async () => {
    server.json('GET', `${base}/messages`, [
      message('user', 'Hello?'),
      message('assistant', 'Hi there.', { model: 'llama3:8b' }),
    ]);
    const replies = server.streams('POST', `${base}/stream`);
    const { user } = await openChat();
    const header = screen.getByRole('banner');
    expect(await within(header).findByText('Model: llama3:8b')).toBeTruthy();
    expect(within(messages()).getByText('llama3:8b')).toBeTruthy();

    await send(user, 'And now?');
    const stream = await replies.next();
    stream.send('user-message', message('user', 'And now?'));
    stream.send('done', message('assistant', 'Now this.', { model: 'claude-haiku' }));
    stream.end();
    expect(await within(header).findByText('Model: claude-haiku')).toBeTruthy();
    expect(within(messages()).getByText('claude-haiku')).toBeTruthy();
    expect(within(messages()).getByText('llama3:8b')).toBeTruthy();
  });

  it("tells the owner when the bot's model is no longer offered", async () => {
    const warning = 'The model this botty used is no longer available, so it answers with the default model.';
    const llama = { id: '0/llama3', label: 'llama3', connectionId: 0, model: 'llama3' };
    server.json('GET', '/api/models', { models: [llama], defaultModel: llama });
    renderScreen(
      <ChatPanel bot={{ ...bot, config: { ...bot.config, model: '4/retired' } }} conversationId={CONVERSATION} />,
    );
    expect(await screen.findByText(warning)).toBeTruthy();
  });

  it('says why a pasted or dropped image is left out when the bot cannot look at images', async () => {
    await openChat();
    const photo = new File(['x'], 'photo.png', { type: 'image/png' });
    fireEvent.paste(screen.getByRole('textbox', { name: 'Message' }), {
      clipboardData: { files: [photo], getData: () => '' },
    });
    const why = "Helper can't look at images: turn on Image understanding in its settings.";
    expect(await screen.findByText(why)).toBeTruthy();
    expect(screen.queryByText('photo.png')).toBeNull();

    // Pasted text is only text, even when a picture of it comes along.
    fireEvent.paste(screen.getByRole('textbox', { name: 'Message' }), {
      clipboardData: { files: [photo], getData: () => 'Some words' },
    });
    const form = screen.getByRole('textbox', { name: 'Message' }).closest('form')!;
    const manual = new File(['x'], 'manual.pdf', { type: 'application/pdf' });
    fireEvent.drop(form, { dataTransfer: { files: [manual], types: ['Files'] } });
    expect(
      await screen.findByText("Helper can't read documents: turn on Document analysis in its settings."),
    ).toBeTruthy();
    expect(screen.queryByText(why)).toBeNull();
  });
});
