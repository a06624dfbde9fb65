import type { Locator } from 'playwright-core';
import { sql } from 'kysely';
import { createConversation } from '../../tests/support/chat-api';
import type { TestApp } from '../../tests/support/test-app';

/** The text of message `i` of a seeded conversation: questions and answers in turn, numbered from 0000. */
export const seededText = (i: number) => `${i % 2 === 0 ? 'Question' : 'Answer'} number ${String(i).padStart(4, '0')}`;

/**
 * A conversation of `count` finished messages, created through the API and its messages written straight to the
 * database as one branch (a thousand replies through the model would take minutes and test nothing more).
 */
export async function seedLongConversation(
  t: TestApp,
  token: string,
  botId: number,
  count: number,
  text: (i: number) => string = seededText,
) {
  const conversation = await createConversation(t, token, botId);
  const db = t.db.kysely;
  const stamp = new Date().toISOString();
  const rows = Array.from({ length: count }, (_, i) => ({
    conversation_id: conversation.id,
    role: i % 2 === 0 ? ('user' as const) : ('assistant' as const),
    content: text(i),
    status: 'complete',
    created_at: stamp,
    updated_at: stamp,
  }));
  for (let start = 0; start < rows.length; start += 250)
    await db
      .insertInto('messages')
      .values(rows.slice(start, start + 250))
      .execute();
  await sql`update messages set parent_id = (select max(p.id) from messages p
    where p.conversation_id = messages.conversation_id and p.id < messages.id)
    where conversation_id = ${conversation.id}`.execute(db);
  return conversation;
}

/**
 * Scrolls the message log a screenful at a time until `first` is drawn at its top, one frame each (harsher than a
 * wheel), waiting at the top while older messages load. Returns the screens it took and the most message rows the
 * page held at once (how fast it went is the bench's to say: bench/long-conversations.ts).
 */
export function scrollLogToTop(log: Locator, first: string) {
  return log.evaluate(async (element, first) => {
    const frame = () => new Promise<number>((resolve) => requestAnimationFrame(resolve));
    let mostRows = 0;
    let steps = 0;
    while ((element.scrollTop > 0 || !element.textContent?.includes(first)) && steps < 5_000) {
      // As a reader's wheel turn would: a scroll with no reader behind it leaves the list following the newest
      // message, and the rows measured once drawn then pull it back down (use-follow-latest.ts).
      element.dispatchEvent(new WheelEvent('wheel', { deltaY: -element.clientHeight }));
      element.scrollTop = Math.max(0, element.scrollTop - element.clientHeight);
      await frame();
      mostRows = Math.max(mostRows, element.querySelectorAll('[data-index]').length);
      steps += 1;
    }
    return { steps, mostRows, atTop: element.scrollTop === 0 };
  }, first);
}
