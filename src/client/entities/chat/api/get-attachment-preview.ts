import { type QueryClient, useQuery } from '@tanstack/react-query';
import { apiFetch } from '@/lib/request';
import { chatKeys } from './chat-keys';

/**
 * An image attachment as a blob: URL. The bytes come from GET /api/files/{id}/content with the session's
 * token (an <img src> could not send it), and never from any address outside Botty.
 */
async function getAttachmentPreview(fileId: number): Promise<string> {
  const res = await apiFetch('GET', `/api/files/${fileId}/content`);
  return URL.createObjectURL(await res.blob());
}

export const useAttachmentPreview = (fileId: number) =>
  useQuery({ queryKey: chatKeys.attachmentPreview(fileId), queryFn: () => getAttachmentPreview(fileId) });

/** An image just uploaded is shown from the chosen file itself rather than downloaded again. */
export function seedAttachmentPreview(queryClient: QueryClient, fileId: number, file: File) {
  queryClient.setQueryData(chatKeys.attachmentPreview(fileId), URL.createObjectURL(file));
}
