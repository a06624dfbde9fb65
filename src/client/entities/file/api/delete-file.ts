import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { KnowledgeFile } from '@shared/contracts/files';
import { setSavedData } from '@/lib/query-client';
import { apiRequest } from '@/lib/request';
import { fileKeys } from './file-keys';

const deleteFile = (file: KnowledgeFile) => apiRequest<{ message: string }>('DELETE', `/api/files/${file.id}`);

/** Removes a knowledge file; the bot's list drops it once the server has. */
export function useDeleteFile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteFile,
    onSuccess: (_, file) => {
      if (file.botId === null) return;
      setSavedData<KnowledgeFile[]>(queryClient, fileKeys.bot(file.botId), (files) =>
        files?.filter((f) => f.id !== file.id),
      );
    },
  });
}
