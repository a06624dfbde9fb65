import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { ConversationSearchResult } from '@shared/contracts/chat';
import { apiRequest } from '@/lib/request';
import { historyKeys } from './history-keys';

const search = (q: string) =>
  apiRequest<{ results: ConversationSearchResult[] }>('GET', `/api/conversations/search?q=${encodeURIComponent(q)}`);

/** Full-text search of the caller's conversations; idle while `q` is blank. */
export const useConversationSearch = (q: string) =>
  useQuery({
    queryKey: historyKeys.search(q),
    queryFn: () => search(q),
    enabled: q.trim().length > 0,
    placeholderData: keepPreviousData,
  });
