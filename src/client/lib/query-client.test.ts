import { notifyManager, QueryClient, QueryObserver } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { drawBeforeNextPaint } from './query-client';

/**
 * Changes the cache and tells what a component watching the query would have heard by the end of the microtasks
 * after it (React's adapter hears its observer through `notifyManager.batchCalls`, as here), and after a timer.
 */
async function heardBeforeATimer(change: (client: QueryClient) => void) {
  const client = new QueryClient();
  client.setQueryData(['messages'], 1);
  const heard: unknown[] = [];
  const unsubscribe = new QueryObserver(client, { queryKey: ['messages'], enabled: false }).subscribe(
    notifyManager.batchCalls((result) => heard.push(result.data)),
  );
  change(client);
  await Promise.resolve();
  await Promise.resolve();
  const beforeATimer = [...heard];
  await new Promise((resolve) => setTimeout(resolve, 0));
  unsubscribe();
  return { beforeATimer, atLast: heard };
}

describe('drawBeforeNextPaint', () => {
  it('tells a change made through it in a microtask, and others on a timer as before', async () => {
    const drawn = await heardBeforeATimer((client) => drawBeforeNextPaint(() => client.setQueryData(['messages'], 2)));
    expect(drawn.beforeATimer).toEqual([2]);
    const later = await heardBeforeATimer((client) => client.setQueryData(['messages'], 2));
    expect(later).toEqual({ beforeATimer: [], atLast: [2] });
  });
});
