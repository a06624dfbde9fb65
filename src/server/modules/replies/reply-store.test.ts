import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, databaseKinds, type TestDb } from '../../../../tests/support/databases';
import { insertUserWithBot } from '../../../../tests/support/rows';
import { fromJson } from '../../db/json';
import type { Clock } from '../../lib/clock';
import { insertConversation } from '../chat/conversations.repository';
import { insertMessage, newReply } from '../chat/messages.repository';
import type { FinishedReply } from './replies.repository';
import { canTransition, endOf, REPLY_TRANSITIONS, SHUTDOWN_REASON, type ReplyState } from './reply-lifecycle';
import { createReplyStore, type ReplyStore, sweepSchedule } from './reply-store';

/** A clock the test moves by hand: checkpoint times and staleness without waiting. */
function manualClock(start = Date.parse('2026-11-26T10:00:00Z')) {
  let now = start;
  const clock: Clock = { now: () => new Date(now) };
  return { clock, advance: (ms: number) => (now += ms) };
}

const finished = (content: string, status: FinishedReply['status'] = 'complete'): FinishedReply => ({
  content,
  status,
  sources: [],
  steps: [],
  inputTokens: null,
  outputTokens: null,
  firstTokenMs: null,
  replyMs: 1,
});

describe('the reply lifecycle', () => {
  it('ends a live reply once, waits for an approval only while streaming, and never moves an ended one', () => {
    const states = Object.keys(REPLY_TRANSITIONS) as ReplyState[];
    const live = ['streaming', 'awaiting_approval'];
    for (const from of states)
      for (const to of states) {
        const allowed =
          (from === 'streaming' && to !== 'streaming') ||
          (from === 'awaiting_approval' && to !== 'awaiting_approval' && to !== 'complete');
        expect(canTransition(from, to)).toBe(live.includes(from) && allowed);
      }
  });

  it('tells a failure over a stop, a stop over completion, and a shutdown from a stop', () => {
    const aborted = (reason?: unknown) => AbortSignal.abort(reason);
    const live = new AbortController().signal;
    expect(endOf({ error: 'down', signal: aborted() })).toBe('failed');
    expect(endOf({ error: null, signal: aborted() })).toBe('stopped');
    expect(endOf({ error: null, signal: aborted(SHUTDOWN_REASON) })).toBe('interrupted');
    expect(endOf({ error: null, signal: live })).toBe('complete');
  });
});

describe('the sweeper’s schedule', () => {
  it('marks a dead reply within CHAT_STALE_REPLY_MS of its last checkpoint, and never a live one', () => {
    for (const staleMs of [3_000, 15_000, 60_000]) {
      const { everyMs, silentForMs } = sweepSchedule(staleMs, 1_000);
      // The last checkpoint, then at most silentFor until it counts as silent, then at most one round.
      expect(silentForMs + everyMs).toBeLessThanOrEqual(staleMs);
      expect(silentForMs).toBeGreaterThanOrEqual(2_000);
    }
    // Too small a setting for both: a live reply is never taken for dead, and the bound loosens instead.
    expect(sweepSchedule(1_500, 1_000)).toEqual({ everyMs: 375, silentForMs: 1_500 });
  });
});

describe.each(databaseKinds)('the reply store on %s', (kind) => {
  let t: TestDb;
  let conversationId: number;
  let questionId: number;
  const time = manualClock();
  let store: ReplyStore;
  beforeAll(async () => {
    t = await createTestDb(kind);
    const owner = await insertUserWithBot(t.db.kysely);
    const at = time.clock.now().toISOString();
    conversationId = (await insertConversation(t.db.kysely, { ...owner, title: 'T', titleSource: 'user' }, at)).id;
    questionId = (
      await insertMessage(
        t.db.kysely,
        { conversationId, parentId: null, role: 'user', content: 'Q', status: 'complete' },
        at,
      )
    ).id;
    // A checkpoint interval no test reaches: rounds run when the test says so.
    store = createReplyStore({ db: t.db, clock: time.clock, log: pino({ enabled: false }), checkpointMs: 3_600_000 });
  });
  afterAll(async () => {
    await store.close();
    await t.drop();
  });

  const at = () => time.clock.now().toISOString();
  const newReplyRow = async () =>
    (await insertMessage(t.db.kysely, newReply(conversationId, questionId, 1), time.clock.now().toISOString())).id;
  const row = (id: number) =>
    t.db.kysely
      .selectFrom('messages')
      .select(['content', 'status', 'updated_at'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();

  it('checkpoints the text of every tracked reply, and keeps one with no new text alive', async () => {
    const ids = [await newReplyRow(), await newReplyRow()];
    const texts = ['first ', 'second '];
    const untrack = ids.map((id, i) => store.track(id, () => texts[i]!));
    time.advance(1_000);
    await store.checkpoint();
    const saved = await Promise.all(ids.map(row));
    expect(saved.map((r) => [r.content, r.status])).toEqual([
      ['first ', 'streaming'],
      ['second ', 'streaming'],
    ]);
    // No new text: the round only moves the checkpoint time on, which the sweeper reads.
    time.advance(1_000);
    await store.checkpoint();
    const later = await Promise.all(ids.map(row));
    for (const [i, r] of later.entries()) {
      expect(r.content).toBe(texts[i]);
      expect(new Date(r.updated_at!).getTime()).toBeGreaterThan(new Date(saved[i]!.updated_at!).getTime());
    }
    expect((await store.sweep(1_500)).marked).toHaveLength(0);
    await Promise.all(untrack.map((stop) => stop()));
    // Untracked, they stay as they were: only the sweeper ends them now.
    time.advance(2_000);
    expect((await store.sweep(1_500)).marked).toHaveLength(2);
    expect((await Promise.all(ids.map(row))).map((r) => r.status)).toEqual(['interrupted', 'interrupted']);
  });

  it('keeps a reply waiting for an approval alive while its instance checkpoints it, with its steps saved', async () => {
    const id = await newReplyRow();
    const untrack = store.track(id, () => 'Let me');
    const step = { kind: 'tool' as const, callId: 'c1', tool: 'switch', status: 'awaiting_approval' as const };
    await store.pause(id, { content: 'Let me', steps: [step] });
    expect(await row(id)).toMatchObject({ status: 'awaiting_approval', content: 'Let me' });
    const steps = await t.db.kysely
      .selectFrom('messages')
      .select('steps')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(fromJson(steps.steps)).toEqual([step]);
    for (let i = 0; i < 3; i++) {
      time.advance(1_000);
      await store.checkpoint();
      expect((await store.sweep(1_500)).marked).toHaveLength(0);
    }
    await store.resume(id);
    expect(await row(id)).toMatchObject({ status: 'streaming' });
    await store.pause(id, { content: 'Let me', steps: [step] });
    // Its instance dies while it waits: swept like a streaming reply.
    await untrack();
    time.advance(2_000);
    expect((await store.sweep(1_500)).marked).toMatchObject([{ id, status: 'interrupted' }]);
    await store.resume(id);
    expect(await row(id)).toMatchObject({ status: 'interrupted' });
  });

  it('never lets a late checkpoint or finish overwrite a reply that has ended', async () => {
    const id = await newReplyRow();
    let text = 'partial';
    const untrack = store.track(id, () => text);
    await store.checkpoint();
    time.advance(10_000);
    expect(await store.sweep(5_000)).toMatchObject({ marked: [{ id }], freed: [conversationId] });
    text = 'partial and more';
    await store.checkpoint();
    await untrack();
    expect(await row(id)).toMatchObject({ content: 'partial', status: 'interrupted' });
    expect(
      await store.finish({ now: at(), id, conversationId, replacesRepliesTo: null, reply: finished('all of it') }),
    ).toBe(undefined);
    expect(await row(id)).toMatchObject({ content: 'partial', status: 'interrupted' });
  });

  it('ends replies that finish together in one group, removing a reply without text', async () => {
    const [a, b, empty] = [await newReplyRow(), await newReplyRow(), await newReplyRow()];
    const results = await Promise.all([
      store.finish({ now: at(), id: a, conversationId, replacesRepliesTo: null, reply: finished('A') }),
      store.finish({ now: at(), id: b, conversationId, replacesRepliesTo: null, reply: finished('B', 'stopped') }),
      store.finish({ now: at(), id: empty, conversationId, replacesRepliesTo: null, reply: finished('', 'stopped') }),
    ]);
    expect(results.map((r) => r && [r.content, r.status])).toEqual([['A', 'complete'], ['B', 'stopped'], null]);
    const left = await t.db.kysely.selectFrom('messages').select('id').where('id', '=', empty).execute();
    expect(left).toEqual([]);
  });

  it('takes the earlier replies to a question off the branch, as versions, only once the regenerated one is saved', async () => {
    const earlier = await newReplyRow();
    await store.finish({ now: at(), id: earlier, conversationId, replacesRepliesTo: null, reply: finished('Old') });
    const failedEarly = await newReplyRow();
    await store.finish({
      now: at(),
      id: failedEarly,
      conversationId,
      replacesRepliesTo: questionId,
      reply: finished('', 'failed'),
    });
    expect(await row(earlier)).toMatchObject({ content: 'Old' });
    const regenerated = await newReplyRow();
    await store.finish({
      now: at(),
      id: regenerated,
      conversationId,
      replacesRepliesTo: questionId,
      reply: finished('New'),
    });
    const replies = await t.db.kysely
      .selectFrom('messages')
      .select(['id', 'content'])
      .where('parent_id', '=', questionId)
      .where('role', '=', 'assistant')
      .where('active', '=', true)
      .execute();
    expect(replies).toEqual([{ id: regenerated, content: 'New' }]);
    expect(await row(earlier)).toMatchObject({ content: 'Old' });
  });

  it('frees a conversation it marks only when no other reply is being written in it', async () => {
    const dead = await newReplyRow();
    time.advance(10_000);
    // Claimed after the dead instance's lock expired, and alive.
    const live = await newReplyRow();
    expect(await store.sweep(5_000)).toMatchObject({ marked: [{ id: dead }], freed: [] });
    time.advance(10_000);
    expect(await store.sweep(5_000)).toMatchObject({ marked: [{ id: live }], freed: [conversationId] });
  });
});
