import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { CAPABILITY_INFO, type Capability } from '@shared/bots/capabilities';
import type { Attachment } from '@shared/contracts/chat';
import { seedAttachmentPreview } from '@/entities/chat/api/get-attachment-preview';
import { uploadAttachment } from '@/entities/chat/api/upload-attachment';
import { isAbortError } from '@/lib/upload-with-progress';

/**
 * The picker's `accept` for the attachments the bot's capabilities let in, or null when they let in none; the
 * server reads the type from the bytes anyway.
 */
export function attachmentAccept(capabilities: readonly Capability[]): string | null {
  const accepted = capabilities.flatMap((capability) => CAPABILITY_INFO[capability].accepts?.picker ?? []);
  return accepted.length ? accepted.join(',') : null;
}

export interface PendingAttachment {
  key: number;
  name: string;
  isImage: boolean;
  /** The fraction sent, 0 to 1. */
  progress: number;
  uploaded: Attachment | null;
  error: string | null;
}

/**
 * Files attached in the composer: each uploads at once to the conversation (with its progress), can be removed
 * (an upload under way is cancelled), and the ones uploaded go with the next message.
 */
export function useAttachments(conversationId: number | undefined) {
  const queryClient = useQueryClient();
  const [items, setItems] = useState<PendingAttachment[]>([]);
  const uploads = useRef(new Map<number, AbortController>());
  const nextKey = useRef(0);

  useEffect(() => {
    const running = uploads.current;
    return () => running.forEach((controller) => controller.abort());
  }, []);

  const change = (key: number, fields: Partial<PendingAttachment>) =>
    setItems((list) => list.map((item) => (item.key === key ? { ...item, ...fields } : item)));

  async function upload(key: number, file: File) {
    // The paperclip is off until the conversation exists; a file chosen before then must not wait forever.
    if (conversationId === undefined) {
      change(key, { error: 'The conversation is still starting. Attach the file again in a moment.' });
      return;
    }
    const controller = new AbortController();
    uploads.current.set(key, controller);
    try {
      const saved = await uploadAttachment(conversationId, file, {
        signal: controller.signal,
        onProgress: (progress) => change(key, { progress }),
      });
      if (saved.mediaType.startsWith('image/')) seedAttachmentPreview(queryClient, saved.id, file);
      const { id, name, mediaType, size } = saved;
      change(key, { uploaded: { id, name, mediaType, size }, progress: 1 });
    } catch (error) {
      if (!isAbortError(error)) change(key, { error: error instanceof Error ? error.message : 'The upload failed.' });
    } finally {
      uploads.current.delete(key);
    }
  }

  return {
    items,
    uploading: items.some((item) => !item.uploaded && !item.error),
    /** What the next message carries. */
    ready: items.flatMap((item) => item.uploaded ?? []),
    add(files: Iterable<File>) {
      for (const file of files) {
        const key = nextKey.current++;
        const item = { key, name: file.name, isImage: file.type.startsWith('image/'), progress: 0 };
        setItems((list) => [...list, { ...item, uploaded: null, error: null }]);
        void upload(key, file);
      }
    },
    remove(key: number) {
      uploads.current.get(key)?.abort();
      setItems((list) => list.filter((item) => item.key !== key));
    },
    /** After sending: the message has them now. */
    clear: () => setItems([]),
  };
}
