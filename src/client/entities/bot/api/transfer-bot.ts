import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Bot } from '@shared/contracts/bots';
import { invalidateActivities } from '@/entities/activity/api/get-activities';
import { apiFetch } from '@/lib/request';
import { attachmentName, saveFile } from '@/lib/save-file';
import { uploadWithProgress } from '@/lib/upload-with-progress';
import { botKeys } from './bot-keys';

/** Downloads the bot file (with its knowledge files, a .zip); resolves to the name it was saved under. */
async function exportBot({ id, knowledge }: { id: number; knowledge: boolean }): Promise<string> {
  const res = await apiFetch('GET', `/api/bots/${id}/export${knowledge ? '?knowledge=1' : ''}`);
  const name = attachmentName(res, knowledge ? 'bot.botty.zip' : 'bot.botty.json');
  saveFile(await res.blob(), name);
  return name;
}

export const useExportBot = () => useMutation({ mutationFn: exportBot });

const importBot = (file: File) => uploadWithProgress<Bot>('/api/bots/import', file);

/** A bot file (.json or .zip) becomes a new private bot of the caller, which then shows in the list. */
export function useImportBot() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: importBot,
    onSuccess: () =>
      Promise.all([queryClient.invalidateQueries({ queryKey: botKeys.list() }), invalidateActivities(queryClient)]),
  });
}
