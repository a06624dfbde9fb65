import { useQuery } from '@tanstack/react-query';
import type { KnowledgeFile } from '@shared/contracts/files';
import { apiRequest } from '@/lib/request';
import { fileKeys } from './file-keys';

/** How often a list with files still being read asks again. */
export const PROCESSING_POLL_MS = 1500;

const getBotFiles = (botId: number) => apiRequest<KnowledgeFile[]>('GET', `/api/bots/${botId}/files`);

export const isProcessing = (files: readonly KnowledgeFile[] | undefined) =>
  files?.some((file) => file.status === 'processing') ?? false;

/**
 * A bot's knowledge files. The one exception to spec §9's "nothing refetches on its own": while any file is
 * still being read, the list asks again every 1.5 s, so the user sees it turn ready or failed.
 */
export function useBotFiles(botId: number | null) {
  return useQuery({
    queryKey: fileKeys.bot(botId ?? 0),
    queryFn: () => getBotFiles(botId ?? 0),
    enabled: botId !== null,
    meta: { errorToast: 'Failed to fetch files' },
    refetchInterval: (query) => (isProcessing(query.state.data) ? PROCESSING_POLL_MS : false),
  });
}
