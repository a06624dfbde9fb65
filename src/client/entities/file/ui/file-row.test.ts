import { describe, expect, it } from 'vitest';
import type { KnowledgeFile } from '@shared/contracts/files';
import { readingProgressLabel, statusOf } from './file-row';

const file = (over: Partial<KnowledgeFile>): KnowledgeFile => ({
  id: 1,
  botId: 1,
  conversationId: null,
  name: 'scan.pdf',
  mediaType: 'application/pdf',
  size: 1000,
  status: 'ready',
  error: null,
  chunkCount: 2,
  progress: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  ...over,
});

describe('a knowledge file’s status', () => {
  it('carries the note on how a ready file was read, and the reason a failed one was not', () => {
    const note = '1 page had no text layer and was read by OCR.';
    expect(statusOf(file({ error: note }))).toEqual({ state: 'ready', chunkCount: 2, notice: note });
    expect(statusOf(file({}))).toEqual({ state: 'ready', chunkCount: 2, notice: null });
    expect(statusOf(file({ status: 'failed', error: 'The file is empty' }))).toEqual({
      state: 'failed',
      error: 'The file is empty',
    });
  });

  it('carries the reading progress of a processing file, and says when every page has been read', () => {
    const progress = { stage: 'ocr' as const, done: 3, total: 3 };
    expect(statusOf(file({ status: 'processing', chunkCount: 0, progress }))).toEqual({
      state: 'processing',
      progress,
    });
    expect(readingProgressLabel({ ...progress, done: 0 })).toBe('Reading page 1 of 3 (OCR)…');
    expect(readingProgressLabel(progress)).toBe('Read 3 of 3 pages (OCR), saving…');
    expect(readingProgressLabel({ stage: 'pages', done: 40, total: 311 })).toBe('Reading page 41 of 311…');
    expect(readingProgressLabel({ stage: 'pages', done: 311, total: 311 })).toBe('Read 311 of 311 pages, saving…');
  });
});
