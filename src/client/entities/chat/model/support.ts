import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { awaitsSupport, SUPPORT_REFETCH_DELAYS_MS, unsupportedEnds } from '@shared/chat/cited-sources';
import type { Message, Support } from '@shared/contracts/chat';
import { chatKeys } from '../api/chat-keys';
import type { MarkdownProps } from '../ui/markdown';
import { isDraft } from './apply-stream-event';

/** Where a reply's text gets a mark: after each sentence that states something and no source supports. */
export function unsupportedMarks(support: Support | null | undefined): MarkdownProps['unsupported'] {
  if (!support) return undefined;
  const ends = unsupportedEnds(support);
  return ends.length ? { ends, method: support.method } : undefined;
}

/** Replies older than this that were never checked (written before checks existed) are not waited for. */
const RECENT_MS = 2 * 60_000;

/**
 * The support check of a reply comes a few seconds after its `done`, with no event of its own (decision 0044):
 * while the conversation's last reply awaits one, its messages are fetched again after each of the waits.
 */
export function useFollowSupport(conversationId: number | undefined, messages: readonly Message[] | undefined) {
  const queryClient = useQueryClient();
  const last = messages?.at(-1);
  const waiting =
    last && !isDraft(last) && awaitsSupport(last) && Date.now() - Date.parse(last.createdAt) < RECENT_MS
      ? last.id
      : null;
  useEffect(() => {
    if (waiting === null || conversationId === undefined) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const after = (attempt: number) => {
      const wait = SUPPORT_REFETCH_DELAYS_MS[attempt];
      if (wait === undefined) return;
      timer = setTimeout(() => {
        void queryClient.invalidateQueries({ queryKey: chatKeys.messages(conversationId), exact: true });
        after(attempt + 1);
      }, wait);
    };
    after(0);
    return () => clearTimeout(timer);
  }, [waiting, conversationId, queryClient]);
}
