import type { KnowledgeFile } from '@shared/contracts/files';
import { uploadWithProgress, type UploadOptions } from '@/lib/upload-with-progress';

/** POST /api/conversations/{id}/files: a document or image this conversation's messages can carry. */
export const uploadAttachment = (conversationId: number, file: File, options: UploadOptions) =>
  uploadWithProgress<KnowledgeFile>(`/api/conversations/${conversationId}/files`, file, options);
