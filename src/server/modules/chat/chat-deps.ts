import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/database';
import type { Clock } from '../../lib/clock';
import type { ReplyEvents } from '../replies/reply-events';
import type { ReplyPipelineDeps } from '../replies/reply-pipeline';
import type { ReplyRegistry } from '../replies/reply-registry';
import type { ReplyStore } from '../replies/reply-store';
import type { ToolApprovalWaiters } from '../replies/tool-approval-waiters';

/** What the chat's services share: one per app, built in app.ts. */
export interface ChatDeps extends ReplyPipelineDeps {
  db: Db;
  clock: Clock;
  replies: ReplyRegistry;
  /** The events of running replies, for clients that reconnect. */
  replyEvents: ReplyEvents;
  /** The instance's checkpoints and ends of the replies it writes. */
  replyStore: ReplyStore;
  /** Tool calls waiting for the person's answer, and the way answers reach them. */
  approvals: ToolApprovalWaiters;
  /** Work that outlives its reply (naming the conversation); the app waits for it when it closes. */
  background?: Set<Promise<unknown>>;
}

/** Replies log through the request's logger, so their lines carry its request id. */
export type ReplyDeps = ChatDeps & { log: FastifyBaseLogger };
