import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { systemClock } from '../../lib/clock';
import { startCheckedApp } from '../../../../tests/support/auth-api';
import { createConversation, openChatStream } from '../../../../tests/support/chat-api';
import { databaseKinds } from '../../../../tests/support/databases';
import { createBot } from '../../../../tests/support/factories';
import { startFakeLlm } from '../../../../tests/support/fake-llm';
import { signUp } from '../../../../tests/support/test-app';
import { markInterruptedReplies } from './chat.service';

describe.each(databaseKinds)('reply checkpoints on %s', (kind) => {
  it('saves the text of every running reply each second, and keeps a reply with no new text alive', async () => {
    const fake = await startFakeLlm({ reply: { text: 'first then nothing', hangAfterChunks: 1 } });
    const t = await startCheckedApp({ kind, env: { LLM_BASE_URL: fake.baseUrl, LLM_MODEL: 'fake-model' } });
    try {
      const { token } = await signUp(t);
      const bot = await createBot(t, token);
      for (const content of ['One', 'Two']) {
        const conversation = await createConversation(t, token, bot.id);
        // A second empty conversation would be the first one again: each gets its message before the next.
        const stream = await openChatStream(t, `/api/conversations/${conversation.id}/stream`, {
          token,
          body: { content },
        });
        await stream.waitFor((e) => e.event === 'delta');
      }
      const replies = () =>
        t.db.kysely
          .selectFrom('messages')
          .select(['content', 'status', 'updated_at'])
          .where('role', '=', 'assistant')
          .orderBy('id')
          .execute();
      await expect
        .poll(async () => (await replies()).map((r) => r.content), { timeout: 3000 })
        .toEqual(['first ', 'first ']);
      const saved = await replies();
      // No new text since: the next ticks only move the checkpoint time on.
      await sleep(2200);
      const later = await replies();
      expect(later.map((r) => [r.content, r.status])).toEqual([
        ['first ', 'streaming'],
        ['first ', 'streaming'],
      ]);
      for (const [i, reply] of later.entries())
        expect(String(reply.updated_at) > String(saved[i]!.updated_at)).toBe(true);
      expect(await markInterruptedReplies({ db: t.db, clock: systemClock }, 1500)).toBe(0);
    } finally {
      await t.close();
      await fake.close();
    }
  });
});
