import type { KnowledgeFile } from '@shared/contracts/files';
import { uploadWithProgress, type UploadOptions } from '@/lib/upload-with-progress';

/** POST /api/bots/{id}/files: answers at once with the file `processing` (or `failed` when it is empty). */
export const uploadBotFile = (botId: number, file: File, options: UploadOptions) =>
  uploadWithProgress<KnowledgeFile>(`/api/bots/${botId}/files`, file, options);
