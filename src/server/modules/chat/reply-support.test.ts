import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { splitSources } from '@shared/chat/cited-sources';
import { EMBED_ORIGIN_HEADER, VISITOR_KEY_HEADER } from '@shared/chat/widget-protocol';
import type { Message } from '@shared/contracts/chat';
import type { Insights } from '@shared/contracts/insights';
import type { Snapshot } from '@shared/contracts/shares';
import type { WidgetMessage } from '@shared/contracts/widget';
import { createConversation, messagesOf, readWidgetEvents, streamChat } from '../../../../tests/support/chat-api';
import { databaseKinds } from '../../../../tests/support/databases';
import { createBot } from '../../../../tests/support/factories';
import { startFakeLlm, supportCaseOf, systemPromptOf, type FakeLlm } from '../../../../tests/support/fake-llm';
import { appsWithFiles, uploadSettled } from '../../../../tests/support/files-api';
import { signUp, type TestApp } from '../../../../tests/support/test-app';
import { until } from '../../../../tests/support/wait';

const RECALIBRATION = 'The Zephyr widget must be recalibrated every 42 days using the blue dial on its back.';
const WARRANTY = 'The Zephyr widget comes with a warranty of two years covering the motor and the dial.';
const INVENTED = 'It also plays classical music when left alone overnight.';
const QUESTION = 'How often must the Zephyr widget be recalibrated, and what about its warranty and dial?';

/** The fake model cites the recalibration passage by its number, and adds a sentence no passage says. */
function citeOneAndInvent(request: Parameters<typeof systemPromptOf>[0]) {
  const n = /\[(\d+)\] \(recalibration\.txt/.exec(systemPromptOf(request))?.[1];
  return n ? `The Zephyr widget must be recalibrated every 42 days [${n}]. ${INVENTED}` : 'I do not know.';
}

const text = (s: string) => new TextEncoder().encode(s);

describe.each(databaseKinds)('replies checked against their sources, on %s', (kind) => {
  const apps = appsWithFiles(kind, 'botty-support-');
  let fake: FakeLlm;
  beforeAll(async () => {
    fake = await startFakeLlm({ reply: citeOneAndInvent });
  });
  afterAll(() => fake.close());

  async function botWithTwoFiles(t: TestApp) {
    const { token } = await signUp(t);
    const bot = await createBot(t, token, {
      capabilities: ['document_analysis'],
      config: { citationGeneration: true },
    });
    for (const [name, body] of [
      ['recalibration.txt', RECALIBRATION],
      ['warranty.txt', WARRANTY],
    ] as const) {
      expect(await uploadSettled(t, token, `/api/bots/${bot.id}/files`, name, text(body))).toMatchObject({
        status: 'ready',
      });
    }
    return { token, bot };
  }

  async function replyWithTwoPassages(t: TestApp) {
    const { token, bot } = await botWithTwoFiles(t);
    const conversation = await createConversation(t, token, bot.id);
    await streamChat(t, `/api/conversations/${conversation.id}/stream`, { token, body: { content: QUESTION } });
    let reply: Message | undefined;
    await until(
      async () => {
        reply = (await messagesOf(t, token, conversation.id)).at(-1);
        return reply?.support != null;
      },
      { what: 'the reply to be checked against its sources', timeoutMs: 15_000, intervalMs: 20 },
    );
    return { reply: reply!, token, conversation };
  }

  it('maps the cited sentence to its passage, flags the invented one, and splits the sources', async () => {
    const t = await apps.start({ env: { LLM_BASE_URL: fake.baseUrl, LLM_MODEL: fake.model } });
    const { reply, token, conversation } = await replyWithTwoPassages(t);
    expect(reply.sources.map((s) => s.title).sort()).toEqual(['recalibration.txt', 'warranty.txt']);
    const cited = reply.sources.find((s) => s.title === 'recalibration.txt')!.n;

    // The judge was asked with the reply's sentences and both passages, apart from the chat's own requests.
    const asked = supportCaseOf(fake.supportRequests.at(-1)!);
    expect(asked.sources.sort()).toEqual([1, 2]);
    expect(asked.sentences.map((s) => s.text)).toEqual([
      `The Zephyr widget must be recalibrated every 42 days [${cited}].`,
      INVENTED,
    ]);

    const support = reply.support!;
    expect(support.method).toBe('judge');
    expect(
      support.sentences.map((s) => ({ sources: s.sources, supported: s.supported, checkable: s.checkable })),
    ).toEqual([
      { sources: [cited], supported: true, checkable: true },
      { sources: [], supported: false, checkable: true },
    ]);
    expect(reply.content.slice(support.sentences[1]!.start, support.sentences[1]!.end)).toBe(INVENTED);
    expect(support.faithfulness).toBe(0.5);

    const split = splitSources(reply.content, reply.sources, support);
    expect(split.cited.map((s) => s.title)).toEqual(['recalibration.txt']);
    expect(split.consulted.map((s) => s.title)).toEqual(['warranty.txt']);

    // The bot's insights average its checked replies.
    const insights = await t.request<Insights>('GET', `/api/bots/${conversation.botId}/insights?days=7`, { token });
    expect(insights.body.faithfulness).toEqual({ average: 0.5, replies: 1 });
  });

  it('falls back to word overlap when the judge answers nothing usable, and says so', async () => {
    const judge = await startFakeLlm({ reply: citeOneAndInvent });
    judge.setSupportReply({ raw: 'not a JSON answer' });
    try {
      const t = await apps.start({ env: { LLM_BASE_URL: judge.baseUrl, LLM_MODEL: judge.model } });
      const { reply } = await replyWithTwoPassages(t);
      const cited = reply.sources.find((s) => s.title === 'recalibration.txt')!.n;
      expect(judge.supportRequests.length).toBeGreaterThan(0);
      expect(reply.support!.method).toBe('lexical');
      expect(reply.support!.sentences.map((s) => [s.sources, s.supported])).toEqual([
        [[cited], true],
        [[], false],
      ]);
    } finally {
      await judge.close();
    }
  });

  it('shows the check in shared snapshots and to widget visitors', async () => {
    const t = await apps.start({ env: { LLM_BASE_URL: fake.baseUrl, LLM_MODEL: fake.model } });
    const { reply, token, conversation } = await replyWithTwoPassages(t);
    const shared = await t.request<{ token: string }>('POST', `/api/conversations/${conversation.id}/share`, {
      token,
      body: {},
    });
    const snapshot = await t.request<Snapshot>('GET', `/api/shares/${shared.body.token}`);
    expect(snapshot.body.messages.at(-1)!.support).toEqual(reply.support);

    const site = 'http://127.0.0.1:4321';
    const { token: owner, bot } = await botWithTwoFiles(t);
    await t.request('PATCH', `/api/bots/${bot.id}/sharing`, {
      token: owner,
      body: { visibility: 'link', embedOrigins: [site] },
    });
    const headers = { [EMBED_ORIGIN_HEADER]: site, [VISITOR_KEY_HEADER]: `visitor-key-${'0'.repeat(20)}` };
    const asked = await fetch(`${t.url}/api/widget/${bot.id}/replies`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ content: QUESTION }),
    });
    const done = (await readWidgetEvents(asked)).at(-1);
    expect(done?.event === 'done' && done.data?.support).toBeFalsy();
    let seen: WidgetMessage | undefined;
    await until(
      async () => {
        const res = await t.request<{ messages: WidgetMessage[] }>('GET', `/api/widget/${bot.id}/messages`, {
          headers,
        });
        seen = res.body.messages.at(-1);
        return seen?.support != null;
      },
      { what: 'the widget reply to be checked', timeoutMs: 15_000, intervalMs: 20 },
    );
    expect(seen!.support!.sentences.map((s) => s.supported)).toEqual([true, false]);
  });

  it('leaves replies without sources unchecked', async () => {
    const t = await apps.start({ env: { LLM_BASE_URL: fake.baseUrl, LLM_MODEL: fake.model } });
    const { token } = await signUp(t);
    const bot = await createBot(t, token);
    const conversation = await createConversation(t, token, bot.id);
    const before = fake.supportRequests.length;
    await streamChat(t, `/api/conversations/${conversation.id}/stream`, { token, body: { content: 'Hello there' } });
    await t.close();
    apps.closed(t);
    // The app waits for its background work when it closes: a check, had one started, would be done by now.
    expect(fake.supportRequests.length).toBe(before);
  });
});
