import { z } from 'zod';
import { formatBytes } from '../format-bytes';

export const FILE_STATUSES = ['processing', 'ready', 'failed'] as const;

export const FILE_MESSAGES = {
  notFound: 'File not found',
  deleted: 'File deleted',
  fileRequired: 'Choose a file to upload (form field "file")',
  notMultipart: 'Send the file as multipart/form-data in the form field "file"',
  documentTooLarge: (limit: number) => `Documents can be at most ${formatBytes(limit)}.`,
  imageTooLarge: (limit: number) => `Images can be at most ${formatBytes(limit)}.`,
  tooManyFiles: (limit: number) => `A bot can have at most ${limit} files.`,
  tooManyAttachments: (limit: number) => `A conversation can have at most ${limit} attachments.`,
  quotaExceeded: (limit: number) => `Your files can take at most ${formatBytes(limit)} in total. Delete some first.`,
  imagesNotKnowledge: "Images can be attached in a chat; a bot's knowledge holds documents.",
  documentsOff: "This botty cannot read documents. Turn on Document analysis in the bot's settings.",
  imagesOff: "This botty cannot see images. Turn on Image understanding in the bot's settings.",
  empty: 'The file is empty',
} as const;

/**
 * How far a processing PDF's reading has come: `pages`, `done` of its `total` pages had their text read; then,
 * when some had no text layer, `ocr`, `done` of the `total` such pages were read by OCR (pages over the OCR cap
 * count as done when they are passed over).
 */
const FILE_PROGRESS_STAGES = ['pages', 'ocr'] as const;

export const fileProgressSchema = z.object({
  stage: z.enum(FILE_PROGRESS_STAGES),
  done: z.number().int(),
  total: z.number().int(),
});
export type FileProgress = z.infer<typeof fileProgressSchema>;

/** A knowledge file of a bot (`conversationId` null) or a conversation's attachment. */
export const fileSchema = z.object({
  id: z.number().int(),
  botId: z.number().int().nullable(),
  conversationId: z.number().int().nullable(),
  name: z.string(),
  mediaType: z.string(),
  size: z.number().int(),
  status: z.enum(FILE_STATUSES),
  /**
   * For its owner: why a `failed` file could not be read, or how a `ready` one was read when that matters (pages
   * read by OCR, far less text than its size suggests); otherwise null.
   */
  error: z.string().nullable(),
  chunkCount: z.number().int(),
  /** While `processing` a PDF: pages read, then pages read by OCR; null otherwise, and once ready or failed. */
  progress: fileProgressSchema.nullable(),
  createdAt: z.string(),
});
export type KnowledgeFile = z.infer<typeof fileSchema>;
