import type { Tool } from 'ai';
import type { FastifyBaseLogger } from 'fastify';
import type { Capability } from '@shared/bots/capabilities';
import type { ChatStreamEvent, Message, ReplyStep, Source } from '@shared/contracts/chat';
import type { PromptBot } from '../../ai/compose-prompt';
import { offlineReplyText, ToolsUnsupportedError } from '../../ai/tasks/chat-reply';

/**
 * What other domains add to one reply, gathered before the model is asked (and, for tools, while it answers):
 * numbered sources, instructions for the system prompt, tools, images for the question. Chat knows nothing of
 * files or the web; app.ts hands it providers that fill this in.
 */
export interface ReplyContext {
  /** Numbered from 1 in the order added; the model cites them as [n]. */
  sources: Source[];
  /** Research steps taken so far (web searches, pages read), saved with the reply. */
  steps: ReplyStep[];
  /** Extra sections for the system prompt (e.g. the passages to answer from). */
  instructions: string[];
  tools: Record<string, Tool>;
  /** Images that go to the model with the question. */
  images: { mediaType: string; data: Uint8Array }[];
  /**
   * Called when the model refuses tool definitions (some local models): gather up front what the tools would
   * have found (e.g. search with the question), as sources and instructions; the model is then asked without tools.
   */
  withoutTools?: () => Promise<void>;
}

/** The message being answered: a saved one, or (the stateless OpenAI-compatible API) one with no conversation. */
export type ReplyQuestion = Pick<Message, 'content' | 'attachments'> & { conversationId: number | null };

/**
 * The bot a reply is written as: its settings (the bot's own, one of its versions', or the wizard's draft) and,
 * once it exists (`id`), whose knowledge it answers from (`userId`, its owner).
 */
export type ReplyingBot = PromptBot & { id: number | null; userId: number; capabilities: readonly Capability[] };

/** A tool call that changes things, as the person chatting is asked about it. */
export interface ToolCallForApproval {
  callId: string;
  /** The MCP server's name as its owner named it. */
  server: string;
  tool: string;
  input: unknown;
}
export type ApprovalDecision = 'approved' | 'denied' | 'timed_out';
/**
 * Asks the person chatting whether a tool call may run (the reply waits in `awaiting_approval`). Absent where
 * nobody can answer (widget, `/v1`, `/mcp`, shared links, evaluations): there, only auto-approved tools run.
 */
export type ToolApprover = (call: ToolCallForApproval, signal: AbortSignal) => Promise<ApprovalDecision>;

export interface ReplyContextInput {
  userId: number;
  bot: ReplyingBot;
  /** The user message being answered, with the files it carried. */
  question: ReplyQuestion;
  signal: AbortSignal;
  log: FastifyBaseLogger;
  /** Sends an event to the client as it happens (e.g. a step starting). */
  emit(event: ChatStreamEvent): void;
  approve?: ToolApprover;
}

export type ReplyContextProvider = (input: ReplyContextInput, context: ReplyContext) => Promise<void>;

export const newReplyContext = (): ReplyContext => ({
  sources: [],
  steps: [],
  instructions: [],
  tools: {},
  images: [],
});

/** Adds a source with the next number, or returns the number it already has (same file passage or page). */
export function addSource(context: ReplyContext, source: Omit<Source, 'n'>): number {
  const same = context.sources.find(
    (s) =>
      s.kind === source.kind &&
      (source.kind === 'file'
        ? s.fileId === source.fileId && s.snippet === source.snippet
        : source.url
          ? s.url === source.url
          : s.title === source.title && s.snippet === source.snippet),
  );
  if (same) return same.n;
  const n = context.sources.length + 1;
  context.sources.push({ n, ...source });
  return n;
}

/**
 * Records a step (running, unless it starts another way: a tool call awaiting approval) and tells the client;
 * returns a function that moves it on (running, done, failed, denied…), with what became known (a tool's result).
 */
export function startStep(
  input: ReplyContextInput,
  context: ReplyContext,
  step: Omit<ReplyStep, 'status'>,
  status: ReplyStep['status'] = 'running',
) {
  const index = context.steps.length;
  let current: ReplyStep = { ...step, status };
  context.steps.push(current);
  input.emit({ event: 'step', data: { ...current, index } });
  return (next: ReplyStep['status'], error?: string, learnt: Partial<Omit<ReplyStep, 'status'>> = {}) => {
    current = { ...current, ...learnt, status: next, ...(error ? { error } : {}) };
    context.steps[index] = current;
    input.emit({ event: 'step', data: { ...current, index } });
  };
}

/** Offline, the reply still shows what retrieval found: the passages a model would have been given. */
export function offlineReplyWithSources(botName: string, sources: Source[]): string {
  const notice = offlineReplyText(botName);
  if (!sources.length) return notice;
  const passages = sources.map((s) => `[${s.n}] **${s.title}**: ${s.snippet}`).join('\n\n');
  return `${notice}\n\nThese passages would have been used to answer:\n\n${passages}`;
}

/**
 * Asks the model with the context's tools; when the model refuses tool definitions (some local models), the
 * providers gather up front what the tools would have found, and the model is asked again without tools.
 */
export async function askWithContextTools(
  context: ReplyContext,
  log: FastifyBaseLogger,
  ask: (tools: ReplyContext['tools'] | undefined) => Promise<void>,
): Promise<void> {
  try {
    await ask(context.tools);
  } catch (err) {
    if (!(err instanceof ToolsUnsupportedError) || !context.withoutTools) throw err;
    log.info('chat reply: the model refused tools; researching up front');
    await context.withoutTools();
    await ask(undefined);
  }
}
