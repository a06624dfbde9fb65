import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useRef, useState } from 'react';
import type { KnowledgeFile } from '@shared/contracts/files';
import { botKeys } from '@/entities/bot/api/bot-keys';
import { isAbortError } from '@/lib/upload-with-progress';
import { fileKeys } from '../api/file-keys';
import { uploadBotFile } from '../api/upload-bot-file';
import { isKnowledgeType, UNSUPPORTED_KNOWLEDGE_TYPE } from './knowledge-types';

/** One file on its way to the server: its progress (0 to 1), or why it did not get there. */
export interface Upload {
  key: number;
  file: File;
  progress: number;
  error: string | null;
}

export interface UploadResults {
  uploaded: KnowledgeFile[];
  failed: number;
}

const errorText = (error: unknown) =>
  error instanceof Error ? error.message : 'The upload failed. Please try again later.';

/**
 * Uploads to a bot's knowledge with a progress bar each. A finished upload leaves this list and joins the bot's
 * file list (which then polls until it is read); the bot is fetched again, since its first file turns on
 * Document analysis. A failed one stays with the reason until dismissed. Kept by whoever outlives the screens
 * that show it, so moving between wizard steps neither loses nor cancels an upload.
 */
export function useBotFileUploads({ onUploaded }: { onUploaded?: (file: KnowledgeFile) => void } = {}) {
  const queryClient = useQueryClient();
  const [uploads, setUploads] = useState<Upload[]>([]);
  const nextKey = useRef(0);
  const controllers = useRef(new Map<number, AbortController>());

  const change = useCallback((key: number, fields: Partial<Upload>) => {
    setUploads((list) => list.map((u) => (u.key === key ? { ...u, ...fields } : u)));
  }, []);
  const drop = useCallback((key: number) => setUploads((list) => list.filter((u) => u.key !== key)), []);

  const uploadOne = useCallback(
    async (botId: number, upload: Upload): Promise<KnowledgeFile | null> => {
      const controller = new AbortController();
      controllers.current.set(upload.key, controller);
      try {
        const file = await uploadBotFile(botId, upload.file, {
          signal: controller.signal,
          onProgress: (progress) => change(upload.key, { progress }),
        });
        queryClient.setQueryData<KnowledgeFile[]>(fileKeys.bot(botId), (files) => files && [...files, file]);
        drop(upload.key);
        onUploaded?.(file);
        return file;
      } catch (error) {
        if (isAbortError(error)) drop(upload.key);
        else change(upload.key, { error: errorText(error) });
        return null;
      } finally {
        controllers.current.delete(upload.key);
      }
    },
    [change, drop, onUploaded, queryClient],
  );

  /** Shows a failed row at once for each file of a type the server never reads; returns the others. */
  const refuseUnreadable = useCallback((files: readonly File[]): File[] => {
    const refused = files.filter((file) => !isKnowledgeType(file.name));
    if (refused.length > 0) {
      const rows = refused.map((file) => ({
        key: (nextKey.current += 1),
        file,
        progress: 0,
        error: UNSUPPORTED_KNOWLEDGE_TYPE,
      }));
      setUploads((list) => [...list, ...rows]);
    }
    return files.filter((file) => isKnowledgeType(file.name));
  }, []);

  /** Uploads the readable files side by side (the others are refused without being sent). */
  const start = useCallback(
    async (botId: number, files: readonly File[]): Promise<UploadResults> => {
      const added = refuseUnreadable(files).map((file) => ({
        key: (nextKey.current += 1),
        file,
        progress: 0,
        error: null,
      }));
      setUploads((list) => [...list, ...added]);
      const results = await Promise.all(added.map((upload) => uploadOne(botId, upload)));
      const uploaded = results.filter((file): file is KnowledgeFile => file !== null);
      if (uploaded.length > 0) {
        await Promise.all([
          queryClient.invalidateQueries({ queryKey: fileKeys.bot(botId) }),
          queryClient.invalidateQueries({ queryKey: botKeys.all }),
        ]);
      }
      return { uploaded, failed: files.length - uploaded.length };
    },
    [queryClient, refuseUnreadable, uploadOne],
  );

  /** Stops an upload in flight (its row goes), or dismisses a failed one. */
  const cancel = useCallback(
    (key: number) => {
      const controller = controllers.current.get(key);
      if (controller) controller.abort();
      else drop(key);
    },
    [drop],
  );

  return { uploads, start, refuseUnreadable, cancel };
}
