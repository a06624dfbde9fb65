import { hostname } from 'node:os';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config';
import { connectRedis } from '../../lib/redis';
import { redisReplyEvents } from './redis-reply-events';
import { redisReplyRegistry } from './redis-reply-registry';
import { inProcessReplyEvents, type ReplyEvents } from './reply-events';
import { inProcessReplyRegistry, type ReplyRegistry } from './reply-registry';
import { toolApprovalWaiters, type ToolApprovalWaiters } from './tool-approval-waiters';

/**
 * How running replies are shared: through Redis when REDIS_URL is set (the conversation lock, Stop, the event
 * log and the answers to tool calls reach every instance), else within this process. Closed with the app: running replies are stopped
 * first (so each saves what it has and ends its response), then the connections.
 */
export async function replySharing(
  app: FastifyInstance,
  config: Pick<Config, 'redisUrl' | 'redisKeyPrefix' | 'chat'>,
): Promise<{
  replies: ReplyRegistry;
  replyEvents: ReplyEvents;
  approvals: ToolApprovalWaiters;
  redisUp: () => boolean | undefined;
}> {
  const redis = config.redisUrl ? await connectRedis(config.redisUrl, { log: app.log, name: 'replies' }) : undefined;
  const keyPrefix = config.redisKeyPrefix;
  const replies = redis
    ? await redisReplyRegistry(redis, { instanceId: `${hostname()}:${process.pid}`, log: app.log, keyPrefix })
    : inProcessReplyRegistry();
  const replyEvents = redis ? redisReplyEvents(redis, { log: app.log, keyPrefix }) : inProcessReplyEvents();
  const approvals = await toolApprovalWaiters({
    timeoutMs: config.chat.toolApprovalTimeoutMs,
    log: app.log,
    redis,
    keyPrefix,
  });
  app.addHook('preClose', async () => replies.stopAll());
  app.addHook('onClose', async () => {
    await replyEvents.close();
    await replies.close();
    approvals.close();
    redis?.disconnect();
  });
  // Undefined without Redis: nothing to be degraded.
  const redisUp = () => (redis ? redis.status === 'ready' : undefined);
  return { replies, replyEvents, approvals, redisUp };
}
