import { notifyManager, QueryClient, QueryObserver } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { drawBeforeNextPaint, setSavedData } from './query-client';

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

describe('setSavedData', () => {
  it('puts a saved change into the data, and a fetch asked before it was saved does not undo it', async () => {
    const client = new QueryClient();
    const server = { files: ['a'] };
    const answers: (() => void)[] = [];
    const queryFn = () =>
      new Promise<string[]>((resolve) => {
        const read = [...server.files];
        answers.push(() => resolve(read));
      });
    const key = ['files'];
    // The list as it was: fetched, then fetched again (a poll), still under way as a file is saved.
    void client.fetchQuery({ queryKey: key, queryFn });
    answers.shift()!();
    await new Promise((resolve) => setTimeout(resolve, 0));
    const poll = client.fetchQuery({ queryKey: key, queryFn, staleTime: 0 }).catch(() => undefined);
    server.files.push('b');
    setSavedData<string[]>(client, key, (files) => files && [...files.filter((f) => f !== 'b'), 'b']);
    expect(client.getQueryData(key)).toEqual(['a', 'b']);

    // Its answer, read before the file was saved, comes after it.
    answers.shift()!();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(client.getQueryData(key)).toEqual(['a', 'b']);
    // It was asked again, and that answer has the file.
    expect(answers).toHaveLength(1);
    answers.shift()!();
    await poll;
    expect(client.getQueryData(key)).toEqual(['a', 'b']);
  });
});
