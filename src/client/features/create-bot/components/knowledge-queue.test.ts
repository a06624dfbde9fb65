import { describe, expect, it } from 'vitest';
import type { KnowledgeFile } from '@shared/contracts/files';
import type { Upload } from '@/entities/file/model/use-bot-file-uploads';
import { queueCounts, queueLabel } from './knowledge-queue';

const saved = (status: KnowledgeFile['status']) => ({ status }) as KnowledgeFile;
const upload = (queued: boolean, error: string | null = null) => ({ queued, error }) as Upload;

describe('the upload queue', () => {
  it('counts each file once, where it is: ready, being read, uploading, queued or failed', () => {
    const counts = queueCounts(
      [saved('ready'), saved('ready'), saved('processing'), saved('failed')],
      [upload(false), upload(true), upload(true), upload(false, 'This file is too large.')],
    );
    expect(counts).toEqual({ ready: 2, reading: 1, uploading: 1, queued: 2, failed: 2, total: 8 });
    expect(queueLabel(counts)).toBe('2 of 8 ready · 1 being read · 1 uploading · 2 queued · 2 failed');
  });

  it('leaves out what is zero', () => {
    expect(queueLabel(queueCounts([saved('ready'), saved('processing')], []))).toBe('1 of 2 ready · 1 being read');
  });
});
