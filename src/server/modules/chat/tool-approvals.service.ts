import { CHAT_MESSAGES, type ReplyStep } from '@shared/contracts/chat';
import type { ToolApprovalBody } from '@shared/contracts/mcp-servers';
import { isoNow } from '../../lib/clock';
import { AppError, notFound } from '../../lib/errors';
import type { ApprovalDecision, ToolApprover } from '../replies/reply-context';
import type { ToolCallAnswer } from '../replies/tool-approval-waiters';
import type { ChatDeps, ReplyDeps } from './chat-deps';
import { requireConversation } from './conversations.service';
import {
  decideCall,
  findCall,
  insertWaitingCall,
  rememberedDecision,
  type ToolDecision,
} from './tool-approvals.repository';

/**
 * How often a waiting reply reads its call's row, in case the answer's message was lost on the way (Redis away
 * when it was given on another instance): the answer then arrives this much later at worst.
 */
const APPROVAL_POLL_MS = 2_000;

/** What the approver of one reply reads of it: where it is saved, and its text and steps so far. */
interface ApprovingReply {
  conversationId: number;
  /** The reply's row; known once it is saved (a reply may start before, see beginReply). */
  replyId: Promise<number>;
  text(): string;
  steps(): readonly ReplyStep[];
  /**
   * The call's `awaiting_approval` step is held back from the client until an answer can be taken (its row
   * saved), so an Approve never comes too early; `show` false drops it (answered at once, or the reply stopped).
   */
  reveal(callId: string, show: boolean): void;
}

/**
 * The chat's approver (decision 0038): an answer the person gave "always for this chat" to this tool stands at
 * once; otherwise the call is recorded as waiting, the reply becomes `awaiting_approval` with its steps saved (a
 * reload shows the call and its buttons), and it waits for the answer, the timeout (`timed_out`) or a stop
 * (`denied`: the reply ends stopped), whichever is recorded first.
 */
export function toolApprover(deps: ReplyDeps, reply: ApprovingReply): ToolApprover {
  const db = deps.db.kysely;
  const { conversationId } = reply;
  return async (call, signal) => {
    let waits = false;
    let replyId: number | null;
    try {
      const remembered = await rememberedDecision(db, conversationId, call.server, call.tool);
      if (remembered) return remembered;
      replyId = await Promise.race([reply.replyId, aborted(signal)]);
      if (replyId === null) return 'denied';
      await insertWaitingCall(db, { conversationId, ...call, now: isoNow(deps.clock) });
      await deps.replyStore.pause(replyId, { content: reply.text(), steps: reply.steps() });
      waits = true;
    } finally {
      reply.reveal(call.callId, waits);
    }
    try {
      return await waitForDecision(deps, conversationId, call.callId, signal);
    } finally {
      await deps.replyStore.resume(replyId);
    }
  };
}

/** Resolves null when the signal aborts. */
const aborted = (signal: AbortSignal) =>
  new Promise<null>((resolve) => {
    if (signal.aborted) resolve(null);
    else signal.addEventListener('abort', () => resolve(null), { once: true });
  });

async function waitForDecision(
  deps: ReplyDeps,
  conversationId: number,
  callId: string,
  signal: AbortSignal,
): Promise<ApprovalDecision> {
  const db = deps.db.kysely;
  let poll: NodeJS.Timeout | undefined;
  let timeout: NodeJS.Timeout | undefined;
  let unlisten = () => {};
  // What the person answered, as it arrives (or as the row says); else the end the wait came to.
  const answered = new Promise<ToolCallAnswer | 'timed_out' | 'stopped'>((resolve) => {
    unlisten = deps.approvals.listen(conversationId, callId, resolve);
    poll = setInterval(() => {
      findCall(db, conversationId, callId).then(
        (row) => row?.decision && resolve(row.decision),
        (err: unknown) => deps.log.warn({ err }, 'tool approval: could not read the call'),
      );
    }, APPROVAL_POLL_MS);
    timeout = setTimeout(() => resolve('timed_out'), deps.approvals.timeoutMs);
    void aborted(signal).then(() => resolve('stopped'));
  });
  try {
    const outcome = await answered;
    if (outcome === 'approved' || outcome === 'denied') return outcome;
    // The wait ended here: recorded unless an answer was recorded first, which then stands.
    const decision: ToolDecision = outcome === 'timed_out' ? 'timed_out' : 'denied';
    if (await decideCall(db, { conversationId, callId, decision, now: isoNow(deps.clock) })) return decision;
    const row = await findCall(db, conversationId, callId);
    return signal.aborted ? 'denied' : (row?.decision ?? decision);
  } finally {
    unlisten();
    clearInterval(poll);
    clearTimeout(timeout);
  }
}

/**
 * POST /api/conversations/{id}/tool-approvals: the owner's answer to a call waiting in the conversation's reply.
 * 404 when the conversation is not theirs or no such call waited; 409 when it was decided already (an earlier
 * answer, the timeout, a stop). The answer is recorded first, so it holds whichever instance writes the reply.
 */
export async function decideToolCall(deps: ChatDeps, userId: number, conversationId: number, body: ToolApprovalBody) {
  const db = deps.db.kysely;
  await requireConversation(db, userId, conversationId);
  const answer: ToolCallAnswer = body.decision === 'approve' ? 'approved' : 'denied';
  const decided = await decideCall(db, {
    conversationId,
    callId: body.callId,
    decision: answer,
    always: body.always,
    now: isoNow(deps.clock),
  });
  if (!decided) {
    if (await findCall(db, conversationId, body.callId)) throw new AppError('CONFLICT', CHAT_MESSAGES.toolCallDecided);
    throw notFound('Tool call');
  }
  await deps.approvals.deliver(conversationId, body.callId, answer);
  return { decision: answer };
}
