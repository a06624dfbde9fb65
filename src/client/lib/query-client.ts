import { notifyManager, QueryCache, QueryClient, type QueryKey } from '@tanstack/react-query';
import { toast } from '@/components/ui/use-toast';
import { serverMessage } from '@/lib/request';

declare module '@tanstack/react-query' {
  interface Register {
    /** `errorToast`: the title of the toast shown once when the query fails (spec §8). */
    queryMeta: { errorToast?: string };
  }
}

/**
 * Spec §9: data never goes stale on its own, nothing refetches behind the user's back, nothing retries.
 * Every query names its own fetcher; a failure is toasted here once, however many screens watch the query.
 */
export const queryClient = new QueryClient({
  queryCache: new QueryCache({
    onError: (error, query) => {
      const title = query.meta?.errorToast;
      if (title)
        toast({ variant: 'destructive', title, description: serverMessage(error) ?? 'Please try again later.' });
    },
  }),
  defaultOptions: {
    queries: {
      staleTime: Number.POSITIVE_INFINITY,
      refetchOnWindowFocus: false,
      refetchInterval: false,
      retry: false,
    },
    mutations: {
      retry: false,
    },
  },
});

let drawingNow = false;
// TanStack Query tells its components of a change on a timer, so that several changes make one render; a change made
// through drawBeforeNextPaint is told in a microtask instead.
notifyManager.setScheduler((notify) => (drawingNow ? queueMicrotask(notify) : setTimeout(notify, 0)));

/**
 * Makes the cache changes of `change` and has React draw them before the browser paints again: called in an
 * animation frame, they show in that frame (a streamed reply's text, decision 0060), rather than in a render on a
 * timer after the paint, whose layout and paint a key pressed meanwhile would then wait behind.
 */
export function drawBeforeNextPaint(change: () => void) {
  drawingNow = true;
  try {
    change();
  } finally {
    drawingNow = false;
  }
}

/**
 * Puts what a change saved on the server into a query's data. A fetch of that query already under way was asked
 * before the change was saved: its answer would undo the change on screen, so it is made again.
 */
export function setSavedData<T>(client: QueryClient, key: QueryKey, update: (data: T | undefined) => T | undefined) {
  client.setQueryData<T>(key, update);
  if (client.isFetching({ queryKey: key, exact: true }) > 0)
    // Whether or not a screen watches it now: the fetch under way is cancelled either way.
    void client.invalidateQueries({ queryKey: key, exact: true, refetchType: 'all' });
}
