import { createContext, useContext, useSyncExternalStore } from 'react';
import type { TextStore } from './draft';

/**
 * The streamed text of the reply being written that the messages cache has not taken yet (decision 0066): each
 * frame's text goes here and redraws the reply's row alone, not the chat panel that reads the cache. The cache takes
 * it with the stream's next other event and at the stream's end.
 */
export const LiveReplyText = createContext<TextStore | null>(null);

const unsubscribed = () => () => {};
const nothing = () => '';

/** The text to add to a draft reply's content while it is being written (`live`); '' for any other message. */
export function useLiveText(live: boolean): string {
  const store = useContext(LiveReplyText);
  const from = live ? store : null;
  return useSyncExternalStore(from ? from.subscribe : unsubscribed, from ? from.get : nothing);
}
