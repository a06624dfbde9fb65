import { tool } from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { CHAT_MESSAGES, type ChatStreamEvent, type ReplyStep } from '@shared/contracts/chat';
import { expectError } from '../../../../tests/support/auth-api';
import { createConversation, messagesOf, openChatStream } from '../../../../tests/support/chat-api';
import { databaseKinds } from '../../../../tests/support/databases';
import { createBot } from '../../../../tests/support/factories';
import { startFakeLlm, toolResultsOf, type FakeLlm } from '../../../../tests/support/fake-llm';
import { signUp, startTestApp, type SignedUp, type TestApp } from '../../../../tests/support/test-app';
import { startTwoInstances, type TwoInstances } from '../../../../tests/support/two-instances';
import type { ReplyContextProvider } from '../replies/reply-context';

/**
 * A test fixture, not one of Botty's modules: a reply context with a tool that changes things, which asks the
 * person chatting (`input.approve`) before it runs, as the MCP tools do, and counts its runs.
 */
function approvalFixture() {
  const runs: unknown[] = [];
  const provider: ReplyContextProvider = async (input, context) => {
    context.tools.change_thing = tool({
      description: 'Changes a thing',
      inputSchema: z.object({ what: z.string() }),
      execute: async (args, { toolCallId }) => {
        const index = context.steps.length;
        const base = { kind: 'tool' as const, callId: toolCallId, server: 'Home', tool: 'change_thing' };
        const show = (step: ReplyStep) => {
          context.steps[index] = step;
          input.emit({ event: 'step', data: { ...step, index } });
        };
        const input_ = JSON.stringify(args);
        if (!input.approve) {
          show({ ...base, input: input_, status: 'denied', error: 'Nobody here can approve it' });
          return 'Not allowed here';
        }
        show({ ...base, input: input_, status: 'awaiting_approval' });
        const decision = await input.approve(
          { callId: toolCallId, server: 'Home', tool: 'change_thing', input: args },
          input.signal,
        );
        if (decision !== 'approved') {
          const error = decision === 'timed_out' ? CHAT_MESSAGES.toolNoAnswer : CHAT_MESSAGES.toolDenied;
          show({ ...base, input: input_, status: decision === 'timed_out' ? 'skipped' : 'denied', error });
          return error;
        }
        runs.push(args);
        show({ ...base, input: input_, status: 'done', result: 'changed', durationMs: 1 });
        return 'changed';
      },
    });
  };
  return { runs, provider };
}

const CALL = { toolCalls: [{ name: 'change_thing', arguments: { what: 'lamp' } }] };
const waitingStep = (e: ChatStreamEvent) => e.event === 'step' && e.data.status === 'awaiting_approval';
const callIdOf = (e: ChatStreamEvent) => (e.event === 'step' ? e.data.callId! : '');
const doneOf = (events: ChatStreamEvent[]) => events.find((e) => e.event === 'done');
const decide = (t: TestApp, user: SignedUp, conversationId: number, body: object) =>
  t.request('POST', `/api/conversations/${conversationId}/tool-approvals`, { token: user.token, body });

describe.each(databaseKinds)('tool approvals in the chat on %s', (kind) => {
  const fixture = approvalFixture();
  let fake: FakeLlm;
  let t: TestApp;
  let alice: SignedUp;
  let bob: SignedUp;
  let botId: number;

  beforeAll(async () => {
    fake = await startFakeLlm();
    t = await startTestApp({
      kind,
      env: {
        LLM_BASE_URL: fake.baseUrl,
        LLM_MODEL: fake.model,
        TOOL_APPROVAL_TIMEOUT_MS: '2500',
        // Shorter than the first test's wait for Approve: the person's time is not the reply's.
        CHAT_TOTAL_TIMEOUT_MS: '2000',
      },
      extraContextProviders: [fixture.provider],
    });
    alice = await signUp(t);
    bob = await signUp(t);
    botId = (await createBot(t, alice.token)).id;
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  const ask = async (conversationId: number, content = 'Turn off the lamp') =>
    openChatStream(t, `/api/conversations/${conversationId}/stream`, { token: alice.token, body: { content } });

  it('waits for Approve (a reload finds the waiting call), runs the tool once, and refuses a second answer', async () => {
    const conversation = await createConversation(t, alice.token, botId);
    fake.enqueue(CALL, 'The lamp is off.');
    const stream = await ask(conversation.id);
    const callId = callIdOf(await stream.waitFor(waitingStep));

    // A reload: the saved reply waits, with the call and its id in its steps.
    await expect
      .poll(async () => (await messagesOf(t, alice.token, conversation.id)).at(-1), { timeout: 2000 })
      .toMatchObject({
        status: 'awaiting_approval',
        steps: [{ status: 'awaiting_approval', callId, tool: 'change_thing' }],
      });

    expectError(await decide(t, bob, conversation.id, { callId, decision: 'approve' }), 404, 'Conversation not found');
    expectError(
      await decide(t, alice, conversation.id, { callId: 'no-such-call', decision: 'approve' }),
      404,
      'Tool call not found',
    );
    await new Promise((resolve) => setTimeout(resolve, 2100));
    const approved = await decide(t, alice, conversation.id, { callId, decision: 'approve' });
    expect(approved).toMatchObject({ status: 200, body: { decision: 'approved' } });
    expectError(
      await decide(t, alice, conversation.id, { callId, decision: 'deny' }),
      409,
      CHAT_MESSAGES.toolCallDecided,
    );

    const events = await stream.finished;
    expect(doneOf(events)).toMatchObject({
      data: { status: 'complete', content: 'The lamp is off.', steps: [{ status: 'done', result: 'changed' }] },
    });
    expect(fixture.runs).toHaveLength(1);
    expect(toolResultsOf(fake.requests.at(-1)!)).toEqual([
      expect.objectContaining({ content: expect.stringContaining('changed') }),
    ]);
  });

  it('does not run a denied call, and remembers "always for this chat" for the next one', async () => {
    const before = fixture.runs.length;
    const conversation = await createConversation(t, alice.token, botId);
    fake.enqueue(CALL, 'I did not change it.');
    const first = await ask(conversation.id);
    const callId = callIdOf(await first.waitFor(waitingStep));
    expect((await decide(t, alice, conversation.id, { callId, decision: 'deny', always: true })).status).toBe(200);
    expect(doneOf(await first.finished)).toMatchObject({
      data: { status: 'complete', steps: [{ status: 'denied', error: CHAT_MESSAGES.toolDenied }] },
    });

    // The same tool again in this conversation: answered at once, never shown as waiting.
    fake.enqueue(CALL, 'Still not changed.');
    const events = await (await ask(conversation.id, 'Try again')).finished;
    expect(events.some(waitingStep)).toBe(false);
    expect(doneOf(events)).toMatchObject({ data: { status: 'complete', steps: [{ status: 'denied' }] } });
    expect(fixture.runs.length).toBe(before);
  });

  it('gives up a call nobody answers, saying so, and ends a reply stopped while it waits', async () => {
    const before = fixture.runs.length;
    const conversation = await createConversation(t, alice.token, botId);
    fake.enqueue(CALL, 'Nobody answered.');
    const unanswered = await ask(conversation.id);
    const callId = callIdOf(await unanswered.waitFor(waitingStep));
    expect(doneOf(await unanswered.finished)).toMatchObject({
      data: { status: 'complete', steps: [{ status: 'skipped', error: CHAT_MESSAGES.toolNoAnswer }] },
    });
    expectError(
      await decide(t, alice, conversation.id, { callId, decision: 'approve' }),
      409,
      CHAT_MESSAGES.toolCallDecided,
    );

    // The model is asked once: the reply is stopped before the tool's result would go back to it.
    fake.enqueue(CALL);
    const stopped = await ask(conversation.id, 'Once more');
    await stopped.waitFor(waitingStep);
    const stop = await t.request('POST', `/api/conversations/${conversation.id}/stop`, { token: alice.token });
    expect(stop.body).toEqual({ stopped: true });
    const events = await stopped.finished;
    // Stopped before the model wrote any text: nothing is kept, and the reply is not left waiting.
    expect(doneOf(events)).toMatchObject({ data: null });
    expect((await messagesOf(t, alice.token, conversation.id)).map((m) => m.status)).not.toContain('awaiting_approval');
    expect(fixture.runs.length).toBe(before);
  });

  it('never asks where nobody watches the reply (the non-streaming /bot-message)', async () => {
    const conversation = await createConversation(t, alice.token, botId);
    fake.enqueue(CALL, 'Not here.');
    const res = await t.request('POST', '/api/bot-message', {
      token: alice.token,
      body: { conversationId: conversation.id, botId, userMessageContent: 'Change it' },
    });
    expect(res.status).toBe(200);
    expect(res.body.message.steps).toEqual([expect.objectContaining({ status: 'denied' })]);
  });
});

// Two instances behind a balancer: the reply waits on A, the answer comes in on B.
describe.runIf(databaseKinds.includes('postgres'))('tool approvals across instances', () => {
  const fixture = approvalFixture();
  let instances: TwoInstances;
  let fake: FakeLlm;
  let a: TestApp;
  let b: TestApp;

  beforeAll(async () => {
    instances = await startTwoInstances({ extraContextProviders: [fixture.provider] });
    ({ fake, a, b } = instances);
  });
  afterAll(() => instances.close());

  it('runs the call on A as soon as it is approved through B', async () => {
    const alice = await signUp(a);
    const botId = (await createBot(a, alice.token)).id;
    const conversation = await createConversation(a, alice.token, botId);
    fake.enqueue(CALL, 'Done from afar.');
    const stream = await openChatStream(a, `/api/conversations/${conversation.id}/stream`, {
      token: alice.token,
      body: { content: 'Turn off the lamp' },
    });
    const callId = callIdOf(await stream.waitFor(waitingStep));
    const asked = Date.now();
    expect((await decide(b, alice, conversation.id, { callId, decision: 'approve' })).status).toBe(200);
    const events = await stream.finished;
    expect(doneOf(events)).toMatchObject({ data: { status: 'complete', steps: [{ status: 'done' }] } });
    expect(fixture.runs).toHaveLength(1);
    // Through Redis, not the database poll that would take APPROVAL_POLL_MS.
    expect(Date.now() - asked).toBeLessThan(1500);
  });
});
