import { describe, expect, it } from 'vitest';
import type { Attachment, ChatStreamEvent, Message } from '@shared/contracts/chat';
import type { ReplyRequest } from '@/entities/chat/api/stream-reply';
import {
  failureOf,
  initialReplyState,
  isLive,
  nextRequest,
  refreshesAfter,
  type ReplyAction,
  replyMachine,
  type ReplyState,
  retryOf,
  stoppedBeforeText,
} from './reply-machine';

const CUT_OFF = 'The reply was cut off before it finished.';
const OFFLINE = 'Could not reach the server. Check your connection and try again.';
const file: Attachment = { id: 5, name: 'notes.pdf', mediaType: 'application/pdf', size: 10 };
const saved = (id: number, role: Message['role']): Message => ({
  id,
  conversationId: 7,
  role,
  content: 'Hi',
  status: 'complete',
  createdAt: '2025-01-01T00:00:00.000Z',
  sources: [],
  steps: [],
  attachments: [],
});

const send: ReplyRequest = { kind: 'send', content: 'Hi', fileIds: [5] };
const start = (request: ReplyRequest = send): ReplyAction => ({ type: 'start', request, attachments: [file] });
const event = (e: ChatStreamEvent, id: string | undefined): ReplyAction => ({ type: 'event', id, event: e });
const userMessage = event({ event: 'user-message', data: saved(3, 'user') }, '1');
const delta = event({ event: 'delta', data: { text: 'Hel' } }, '2');
const doneSaved = event({ event: 'done', data: saved(4, 'assistant') }, '3');
const doneEmpty = event({ event: 'done', data: null }, '3');
const serverError = event({ event: 'error', data: { message: 'The model failed' } }, '3');
const closed: ReplyAction = { type: 'closed' };
const drop: ReplyAction = { type: 'failed', message: OFFLINE, drop: true };
const refusal: ReplyAction = { type: 'failed', message: 'Bot is inactive', drop: false };
const aborted: ReplyAction = { type: 'aborted' };
const stop: ReplyAction = { type: 'stop' };
const stopFailed: ReplyAction = { type: 'stop-failed' };
const dismiss: ReplyAction = { type: 'dismiss' };

const run = (actions: ReplyAction[], from: ReplyState = initialReplyState) => actions.reduce(replyMachine, from);

/** One state of each phase, reached the way a real reply reaches it. */
const phases = {
  idle: initialReplyState,
  sending: run([start()]),
  streaming: run([start(), userMessage, delta]),
  ending: run([start(), userMessage, delta, doneSaved]),
  resuming: run([start(), userMessage, delta, drop]),
  done: run([start(), userMessage, delta, doneSaved, closed]),
  failed: run([start(), refusal]),
  left: run([start(), userMessage, aborted]),
} satisfies Record<ReplyState['phase'], ReplyState>;

const actions = { start: start(), delta, closed, drop, refusal, aborted, stop, stopFailed, dismiss };

/** The phase every action leads to from every phase: the machine's whole map. */
const map: Record<keyof typeof phases, Record<keyof typeof actions, ReplyState['phase']>> = {
  // prettier-ignore
  idle: { start: 'sending', delta: 'idle', closed: 'idle', drop: 'idle', refusal: 'idle', aborted: 'idle', stop: 'idle', stopFailed: 'idle', dismiss: 'idle' },
  // prettier-ignore
  sending: { start: 'sending', delta: 'streaming', closed: 'failed', drop: 'failed', refusal: 'failed', aborted: 'left', stop: 'sending', stopFailed: 'sending', dismiss: 'sending' },
  // prettier-ignore
  streaming: { start: 'streaming', delta: 'streaming', closed: 'resuming', drop: 'resuming', refusal: 'failed', aborted: 'left', stop: 'streaming', stopFailed: 'streaming', dismiss: 'streaming' },
  // prettier-ignore
  ending: { start: 'ending', delta: 'ending', closed: 'done', drop: 'done', refusal: 'done', aborted: 'left', stop: 'ending', stopFailed: 'ending', dismiss: 'ending' },
  // prettier-ignore
  resuming: { start: 'resuming', delta: 'streaming', closed: 'failed', drop: 'failed', refusal: 'failed', aborted: 'left', stop: 'resuming', stopFailed: 'resuming', dismiss: 'resuming' },
  // prettier-ignore
  done: { start: 'sending', delta: 'done', closed: 'done', drop: 'done', refusal: 'done', aborted: 'done', stop: 'done', stopFailed: 'done', dismiss: 'done' },
  // prettier-ignore
  failed: { start: 'sending', delta: 'failed', closed: 'failed', drop: 'failed', refusal: 'failed', aborted: 'failed', stop: 'failed', stopFailed: 'failed', dismiss: 'idle' },
  // prettier-ignore
  left: { start: 'sending', delta: 'left', closed: 'left', drop: 'left', refusal: 'left', aborted: 'left', stop: 'left', stopFailed: 'left', dismiss: 'left' },
};

describe('replyMachine', () => {
  for (const [from, row] of Object.entries(map)) {
    it(`moves from ${from} as the map says`, () => {
      for (const [name, to] of Object.entries(row)) {
        const state = phases[from as keyof typeof phases];
        expect(replyMachine(state, actions[name as keyof typeof actions]).phase, `${from} + ${name}`).toBe(to);
      }
    });
  }

  it('leaves a state it has nothing to do with untouched', () => {
    expect(replyMachine(phases.streaming, start())).toBe(phases.streaming);
    expect(replyMachine(phases.done, delta)).toBe(phases.done);
    expect(replyMachine(phases.idle, stop)).toBe(phases.idle);
  });

  it('counts a request that sends no message as saved already', () => {
    for (const request of [{ kind: 'regenerate' }, { kind: 'resume' }] as const) {
      expect(run([start(request)])).toMatchObject({ reply: { userSaved: true } });
    }
    expect(run([start()])).toMatchObject({ reply: { userSaved: false, attachments: [file] } });
    expect(run([start({ kind: 'edit', messageId: 3, content: 'Hey' })])).toMatchObject({ reply: { userSaved: false } });
  });

  it('notes the saved user message and the last event id, keeping it through events without one', () => {
    expect(phases.streaming).toMatchObject({ reply: { userSaved: true, lastEventId: '2' } });
    const next = replyMachine(phases.streaming, event({ event: 'delta', data: { text: 'lo' } }, undefined));
    expect(next).toMatchObject({ phase: 'streaming', reply: { lastEventId: '2' } });
  });

  it('ends with the saved reply, with nothing saved after a stop before any text, or with the error', () => {
    expect(run([doneSaved, closed], phases.streaming)).toMatchObject({
      phase: 'done',
      reply: { end: { saved: true } },
    });
    expect(run([doneEmpty, closed], phases.streaming)).toMatchObject({
      phase: 'done',
      reply: { end: { saved: false } },
    });
    expect(run([serverError, closed], phases.streaming)).toMatchObject({
      phase: 'failed',
      message: 'The model failed',
    });
  });

  it("shows the server's error as it arrives, before the stream has closed", () => {
    const erring = replyMachine(phases.streaming, serverError);
    expect(erring.phase).toBe('ending');
    expect(isLive(erring)).toBe(true);
    expect(failureOf(erring)).toBe('The model failed');
  });

  it('settles on the final event whatever the connection does after it', () => {
    expect(run([serverError, drop], phases.streaming)).toMatchObject({ phase: 'failed', message: 'The model failed' });
    expect(nextRequest(run([doneSaved, drop], phases.streaming))).toBeNull();
  });

  it('picks a dropped reply up again from its last event, once', () => {
    for (const lost of [closed, drop]) {
      const resuming = replyMachine(phases.streaming, lost);
      expect(nextRequest(resuming)).toEqual({ kind: 'resume', lastEventId: '2' });
      expect(failureOf(resuming)).toBeNull();
      const again = run([event({ event: 'delta', data: { text: 'lo' } }, '5'), lost], resuming);
      expect(again).toMatchObject({ phase: 'failed', message: lost === drop ? OFFLINE : CUT_OFF });
      expect(nextRequest(again)).toBeNull();
    }
  });

  it('resumes the reply after the stream has closed early and finishes it from there', () => {
    const state = run(
      [closed, event({ event: 'delta', data: { text: 'lo' } }, '3'), doneSaved, closed],
      phases.streaming,
    );
    expect(state).toMatchObject({ phase: 'done', reply: { resumed: true, lastEventId: '3' } });
  });

  it('fails without resuming when nothing came before the drop, or the server refused', () => {
    expect(run([drop], phases.sending)).toMatchObject({ phase: 'failed', message: OFFLINE });
    expect(run([closed], phases.sending)).toMatchObject({ phase: 'failed', message: CUT_OFF });
    expect(run([refusal], phases.streaming)).toMatchObject({ phase: 'failed', message: 'Bot is inactive' });
  });

  it('takes a resume that finds no reply running, or loses it again, for the end', () => {
    const joining = run([start({ kind: 'resume' })]);
    expect(run([closed], joining).phase).toBe('done');
    const lostTwice = run([delta, closed, closed], joining);
    expect(lostTwice.phase).toBe('done');
    expect(run([delta, closed, drop], joining)).toMatchObject({ phase: 'failed', message: OFFLINE });
  });

  it('keeps Stop asked for through the rest of the stream, a resume included, until the reply settles', () => {
    const stopping = run([stop, delta, closed], phases.sending);
    expect(stopping).toMatchObject({ phase: 'resuming', stopping: true });
    expect(replyMachine(stopping, stopFailed)).toMatchObject({ stopping: false });
    expect(run([doneEmpty, closed], stopping)).not.toHaveProperty('stopping');
  });

  it('joins a reply found running only once per view', () => {
    expect(initialReplyState.joined).toBe(false);
    expect(run([start()]).joined).toBe(false);
    const joined = run([start({ kind: 'resume' }), closed]);
    expect(joined.joined).toBe(true);
    expect(run([start(), refusal, dismiss], joined)).toEqual({ phase: 'idle', joined: true });
  });
});

describe('failureOf', () => {
  it('is null unless the reply failed or the server sent its error', () => {
    for (const phase of ['idle', 'sending', 'streaming', 'ending', 'resuming', 'done', 'left'] as const) {
      expect(failureOf(phases[phase]), phase).toBeNull();
    }
    expect(failureOf(phases.failed)).toBe('Bot is inactive');
  });
});

describe('stoppedBeforeText', () => {
  it('is true only once a reply stopped before any text has settled', () => {
    expect(stoppedBeforeText(run([start(), userMessage, stop, doneEmpty, closed]))).toBe(true);
    // Still closing, saved with its text, failed, or a resume that found nothing running: not a stop.
    expect(stoppedBeforeText(run([start(), userMessage, stop, doneEmpty]))).toBe(false);
    for (const phase of ['idle', 'sending', 'streaming', 'ending', 'resuming', 'done', 'failed', 'left'] as const) {
      expect(stoppedBeforeText(phases[phase]), phase).toBe(false);
    }
    expect(stoppedBeforeText(run([start({ kind: 'resume' }), closed]))).toBe(false);
    // The next reply asked for starts afresh.
    expect(stoppedBeforeText(run([start(), userMessage, doneEmpty, closed, start()]))).toBe(false);
  });
});

describe('retryOf', () => {
  it('sends again a message the server never saved, with its files', () => {
    expect(retryOf(phases.failed)).toEqual({ request: send, attachments: [file], resend: true });
    const edit: ReplyRequest = { kind: 'edit', messageId: 3, content: 'Hey' };
    expect(retryOf(run([start(edit), drop]))).toMatchObject({ request: edit, resend: true });
  });

  it('asks for a new reply once the message was saved, or when none was sent', () => {
    const regenerate = { request: { kind: 'regenerate' }, attachments: [], resend: false };
    expect(retryOf(run([start(), userMessage, serverError, closed]))).toEqual(regenerate);
    expect(retryOf(run([start({ kind: 'regenerate' }), refusal]))).toEqual(regenerate);
    expect(retryOf(phases.idle)).toEqual(regenerate);
  });
});

describe('refreshesAfter', () => {
  it('refreshes nothing while the reply is live', () => {
    for (const phase of ['idle', 'sending', 'streaming', 'ending', 'resuming'] as const) {
      expect(refreshesAfter(phases[phase]), phase).toEqual({ messages: false, bots: false });
    }
  });

  it("refreshes the bot's counts after a saved reply, whose message the stream brought", () => {
    expect(refreshesAfter(phases.done)).toEqual({ messages: false, bots: true });
  });

  it('fetches what the server kept when the stream did not bring it', () => {
    expect(refreshesAfter(run([doneEmpty, closed], phases.streaming))).toEqual({ messages: true, bots: false });
    expect(refreshesAfter(run([serverError, closed], phases.streaming))).toEqual({ messages: true, bots: false });
    expect(refreshesAfter(run([start({ kind: 'resume' }), closed]))).toEqual({ messages: true, bots: false });
    expect(refreshesAfter(run([start(), aborted]))).toEqual({ messages: true, bots: false });
  });

  it('leaves a refused message as a draft beside its error', () => {
    expect(refreshesAfter(phases.failed)).toEqual({ messages: false, bots: false });
  });
});
