import { useInfiniteQuery } from '@tanstack/react-query';
import type { ConversationPage } from '@shared/contracts/chat';
import { apiRequest } from '@/lib/request';
import { historyKeys } from './history-keys';

const PAGE_SIZE = 30;

const getPage = (cursor: string | null) =>
  apiRequest<ConversationPage>(
    'GET',
    `/api/conversations?limit=${PAGE_SIZE}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
  );

/** The caller's conversations across bots, most recently active first, a page at a time. */
export const useHistory = () =>
  useInfiniteQuery({
    queryKey: historyKeys.pages(),
    queryFn: ({ pageParam }) => getPage(pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
  });
