import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useRef, useState } from 'react';
import type { KnowledgeFile } from '@shared/contracts/files';
import { botKeys } from '@/entities/bot/api/bot-keys';
import { eachBounded } from '@/lib/each-bounded';
import { isAbortError } from '@/lib/upload-with-progress';
import { setSavedData } from '@/lib/query-client';
import { fileKeys } from '../api/file-keys';
import { uploadBotFile } from '../api/upload-bot-file';
import { isKnowledgeType, UNSUPPORTED_KNOWLEDGE_TYPE } from './knowledge-types';

/** One file on its way to the server: waiting its turn, its progress (0 to 1), or why it did not get there. */
export interface Upload {
  key: number;
  file: File;
  queued: boolean;
  progress: number;
  error: string | null;
}

/**
 * Uploads sent at once; the others wait their turn. A few keep the connection busy while each still shows its
 * progress, and leave the browser's connections to the server (six per host over HTTP/1.1) free for the rest of
 * the page: a drop of hundreds of files must not hold up the list that shows them being read.
 */
const UPLOAD_CONCURRENCY = 3;

export interface UploadResults {
  uploaded: KnowledgeFile[];
  failed: number;
}

const errorText = (error: unknown) =>
  error instanceof Error ? error.message : 'The upload failed. Please try again later.';

/**
 * Uploads to a bot's knowledge, UPLOAD_CONCURRENCY at a time, the rest queued, with a progress bar each. A
 * finished upload leaves this list and joins the bot's
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
      const controller = controllers.current.get(upload.key);
      // Cancelled while it waited its turn.
      if (!controller || controller.signal.aborted) {
        controllers.current.delete(upload.key);
        return null;
      }
      change(upload.key, { queued: false });
      try {
        const file = await uploadBotFile(botId, upload.file, {
          signal: controller.signal,
          onProgress: (progress) => change(upload.key, { progress }),
        });
        // The list is fetched again every few seconds while files are read: a fetch may already hold the file.
        setSavedData<KnowledgeFile[]>(
          queryClient,
          fileKeys.bot(botId),
          (files) => files && [...files.filter((f) => f.id !== file.id), file],
        );
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
        queued: false,
        progress: 0,
        error: UNSUPPORTED_KNOWLEDGE_TYPE,
      }));
      setUploads((list) => [...list, ...rows]);
    }
    return files.filter((file) => isKnowledgeType(file.name));
  }, []);

  /** Queues the readable files and uploads them a few at a time (the others are refused without being sent). */
  const start = useCallback(
    async (botId: number, files: readonly File[]): Promise<UploadResults> => {
      const added = refuseUnreadable(files).map((file) => ({
        key: (nextKey.current += 1),
        file,
        queued: true,
        progress: 0,
        error: null,
      }));
      for (const upload of added) controllers.current.set(upload.key, new AbortController());
      setUploads((list) => [...list, ...added]);
      const results = await eachBounded(added, UPLOAD_CONCURRENCY, (upload) => uploadOne(botId, upload));
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

  /** Stops an upload in flight or waiting its turn, or dismisses a failed one: its row goes. */
  const cancel = useCallback(
    (key: number) => {
      controllers.current.get(key)?.abort();
      drop(key);
    },
    [drop],
  );

  return { uploads, start, refuseUnreadable, cancel };
}
