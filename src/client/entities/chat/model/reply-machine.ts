import type { Attachment, ChatStreamEvent } from '@shared/contracts/chat';
import type { ReplyRequest } from '@/entities/chat/api/stream-reply';

const CUT_OFF = 'The reply was cut off before it finished.';

/** What is known of the reply asked for, kept from its request to its end. */
interface ReplyProgress {
  request: ReplyRequest;
  /** The files a sent or edited message carries, shown on its draft and sent again on a retry. */
  attachments: Attachment[];
  /** The server saved the user message (always, for a request that sends none). */
  userSaved: boolean;
  /** The id of the last event received: where a resumed stream picks up. */
  lastEventId?: string;
  /** The stream has dropped once and been picked up again; a second drop is a failure. */
  resumed: boolean;
  /** What the final event said: the reply saved (false when stopped before any text), or its error. */
  end?: { saved: boolean } | { error: string };
}

/**
 * Where the reply is (decision record 0011). `sending`: asked, nothing back yet; `streaming`: its events are
 * arriving; `ending`: the final event came and the stream is closing; `resuming`: the stream dropped after
 * the server had begun the reply, which goes on there, so it is asked for again from the last event. `done`,
 * `failed` and `left` (the view stopped listening) are settled. Stop is a flag on the live phases rather than
 * a phase of its own: it is only a request to the server, while the stream goes on (its last text, then
 * `done`) and may even drop and be resumed meanwhile.
 */
type Stage =
  | { phase: 'idle' }
  | { phase: 'sending' | 'streaming' | 'ending' | 'resuming'; reply: ReplyProgress; stopping: boolean }
  | { phase: 'done' | 'left'; reply: ReplyProgress }
  | { phase: 'failed'; reply: ReplyProgress; message: string };

/** `joined`: this view has followed a reply it found being written on opening, which it does once. */
export type ReplyState = Stage & { joined: boolean };

export type ReplyAction =
  | { type: 'start'; request: ReplyRequest; attachments: Attachment[] }
  | { type: 'event'; id: string | undefined; event: ChatStreamEvent }
  /** The stream ended without an error. */
  | { type: 'closed' }
  /** The stream could not be opened or broke off; `drop`: a network drop rather than a refusal. */
  | { type: 'failed'; message: string; drop: boolean }
  /** The view stopped listening; the server goes on with the reply. */
  | { type: 'aborted' }
  | { type: 'stop' }
  | { type: 'stop-failed' }
  /** Another failure (switching versions) takes the reply's place on screen. */
  | { type: 'dismiss' };

export const initialReplyState: ReplyState = { phase: 'idle', joined: false };

type Live = Extract<ReplyState, { stopping: boolean }>;

export const isLive = (state: ReplyState): state is Live => 'stopping' in state;

const sendsMessage = (request: ReplyRequest) => request.kind === 'send' || request.kind === 'edit';

function received(state: Live, id: string | undefined, event: ChatStreamEvent): ReplyState {
  const reply = { ...state.reply, lastEventId: id ?? state.reply.lastEventId };
  if (event.event === 'user-message') reply.userSaved = true;
  else if (event.event === 'done') reply.end = { saved: event.data !== null };
  else if (event.event === 'error') reply.end = { error: event.data.message };
  return { ...state, reply, phase: reply.end ? 'ending' : 'streaming' };
}

/** Settled by the final event, whatever the connection does after it. */
function ended({ reply, joined }: Live): ReplyState {
  const { end } = reply;
  if (end && 'error' in end) return { phase: 'failed', reply, message: end.error, joined };
  return { phase: 'done', reply, joined };
}

/** Once an event came, the server is writing the reply without us: it is picked up again, once. */
const canResume = ({ reply }: Live) => reply.lastEventId !== undefined && !reply.resumed;

const resuming = (state: Live): ReplyState => ({
  ...state,
  phase: 'resuming',
  reply: { ...state.reply, resumed: true },
});

function closed(state: Live): ReplyState {
  if (state.reply.end) return ended(state);
  // Closing before the final event is a drop.
  if (canResume(state)) return resuming(state);
  // A resume that found no reply running (204), or lost it again, leaves what the server kept to be fetched.
  if (state.reply.request.kind === 'resume') return ended(state);
  return { phase: 'failed', reply: state.reply, message: CUT_OFF, joined: state.joined };
}

function lost(state: Live, message: string, drop: boolean): ReplyState {
  if (state.reply.end) return ended(state);
  if (drop && canResume(state)) return resuming(state);
  return { phase: 'failed', reply: state.reply, message, joined: state.joined };
}

/** The next state of the reply; actions that do not apply to the current one leave it as it is. */
export function replyMachine(state: ReplyState, action: ReplyAction): ReplyState {
  const { joined } = state;
  if (action.type === 'start') {
    if (isLive(state)) return state;
    const { request, attachments } = action;
    const reply = { request, attachments, userSaved: !sendsMessage(request), resumed: false };
    return { phase: 'sending', reply, stopping: false, joined: joined || request.kind === 'resume' };
  }
  if (action.type === 'dismiss') return state.phase === 'failed' ? { phase: 'idle', joined } : state;
  if (!isLive(state)) return state;
  switch (action.type) {
    case 'event':
      return received(state, action.id, action.event);
    case 'closed':
      return closed(state);
    case 'failed':
      return lost(state, action.message, action.drop);
    case 'aborted':
      return { phase: 'left', reply: state.reply, joined };
    case 'stop':
      return { ...state, stopping: true };
    case 'stop-failed':
      return { ...state, stopping: false };
  }
}

/** The message shown for the reply: its failure, or the server's error as soon as it arrives. */
export function failureOf(state: ReplyState): string | null {
  if (state.phase === 'failed') return state.message;
  const end = isLive(state) ? state.reply.end : undefined;
  return end && 'error' in end ? end.error : null;
}

/**
 * Stop reached the reply before the model wrote anything, so the server kept no reply: the question is shown
 * as stopped, not as one that is still waiting for its answer.
 */
export function stoppedBeforeText(state: ReplyState): boolean {
  const end = state.phase === 'done' ? state.reply.end : undefined;
  return end !== undefined && 'saved' in end && !end.saved;
}

/** What the stream asks for next: the reply again from its last event while resuming, else nothing. */
export function nextRequest(state: ReplyState): ReplyRequest | null {
  return state.phase === 'resuming' ? { kind: 'resume', lastEventId: state.reply.lastEventId } : null;
}

/**
 * Retry of a failed reply: a message the server never saved is sent again (`resend`: its draft is dropped
 * first); once it was saved, a new reply to it is asked for.
 */
export function retryOf(state: ReplyState): { request: ReplyRequest; attachments: Attachment[]; resend: boolean } {
  const reply = 'reply' in state ? state.reply : undefined;
  if (reply && sendsMessage(reply.request) && !reply.userSaved) {
    return { request: reply.request, attachments: reply.attachments, resend: true };
  }
  return { request: { kind: 'regenerate' }, attachments: [], resend: false };
}

/**
 * What to fetch again once the reply has settled. Whatever the server kept without sending it here (a partial
 * or failed reply, the previous reply after a failed regeneration, a message cut off in flight, a reply that
 * had already ended when resumed) is fetched rather than guessed; a refused message changed nothing there and
 * stays as a draft beside its error. A saved reply changes its bot's interaction count.
 */
export function refreshesAfter(state: ReplyState): { messages: boolean; bots: boolean } {
  if (!('reply' in state) || isLive(state)) return { messages: false, bots: false };
  const { end, userSaved } = state.reply;
  const saved = end !== undefined && 'saved' in end && end.saved;
  return { messages: !saved && (userSaved || state.phase === 'left'), bots: saved };
}
