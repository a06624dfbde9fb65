import { useCallback, useRef, useState } from 'react';
import { useBotFileUploads } from '@/entities/file/model/use-bot-file-uploads';
import type { Wizard } from './use-wizard';

/** A file chosen while creating, held in the page until the bot exists. */
export interface PendingFile {
  key: number;
  file: File;
}

/**
 * The Knowledge section's files. Editing, a file is uploaded as soon as it is chosen (it belongs to the bot at
 * once, like deleting one). Creating, there is no bot to upload to yet: the files are held here and uploaded
 * right after Create Botty, with their progress on the finish step. Files cannot be kept in session storage,
 * so a reload while creating forgets them (the list says so). Either way the first file turns on Document
 * analysis in the form, as the server does for the bot.
 */
export function useKnowledge(wizard: Pick<Wizard, 'toggleCapability'>, botId: number | null) {
  const { toggleCapability } = wizard;
  const turnOnDocuments = useCallback(() => toggleCapability('document_analysis', true), [toggleCapability]);
  const uploads = useBotFileUploads({ onUploaded: turnOnDocuments });
  const [pending, setPending] = useState<PendingFile[]>([]);
  const nextKey = useRef(0);

  const add = (files: File[]) => {
    if (files.length === 0) return;
    if (botId !== null) {
      void uploads.start(botId, files);
      return;
    }
    const readable = uploads.refuseUnreadable(files);
    if (readable.length === 0) return;
    setPending((list) => [...list, ...readable.map((file) => ({ key: (nextKey.current += 1), file }))]);
    turnOnDocuments();
  };

  const removePending = (key: number) => setPending((list) => list.filter((p) => p.key !== key));

  /** After creation: uploads what was held, showing each one's progress where the list is drawn. */
  const uploadPending = async (createdBotId: number) => {
    const files = pending.map((p) => p.file);
    setPending([]);
    return uploads.start(createdBotId, files);
  };

  return {
    botId,
    pending,
    uploads: uploads.uploads,
    uploading: uploads.uploads.some((u) => u.error === null),
    add,
    removePending,
    cancelUpload: uploads.cancel,
    uploadPending,
    clear: () => setPending([]),
  };
}

export type Knowledge = ReturnType<typeof useKnowledge>;
