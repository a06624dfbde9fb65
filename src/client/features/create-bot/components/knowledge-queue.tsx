import type { KnowledgeFile } from '@shared/contracts/files';
import type { Upload } from '@/entities/file/model/use-bot-file-uploads';
import { Progress } from '@/components/ui/progress';

interface QueueCounts {
  ready: number;
  reading: number;
  uploading: number;
  queued: number;
  failed: number;
  total: number;
}

export function queueCounts(saved: readonly KnowledgeFile[], uploads: readonly Upload[]): QueueCounts {
  const count = <T,>(list: readonly T[], test: (item: T) => boolean) => list.filter(test).length;
  return {
    ready: count(saved, (f) => f.status === 'ready'),
    reading: count(saved, (f) => f.status === 'processing'),
    uploading: count(uploads, (u) => u.error === null && !u.queued),
    queued: count(uploads, (u) => u.error === null && u.queued),
    failed: count(saved, (f) => f.status === 'failed') + count(uploads, (u) => u.error !== null),
    total: saved.length + uploads.length,
  };
}

/** "12 of 50 ready · 3 being read · 3 uploading · 32 queued": the parts that are not zero. */
export function queueLabel(c: QueueCounts): string {
  const parts = [
    `${c.ready} of ${c.total} ready`,
    c.reading > 0 && `${c.reading} being read`,
    c.uploading > 0 && `${c.uploading} uploading`,
    c.queued > 0 && `${c.queued} queued`,
    c.failed > 0 && `${c.failed} failed`,
  ];
  return parts.filter(Boolean).join(' · ');
}

/**
 * Above the files while several are on their way (uploading, queued or being read): how far the whole drop has
 * come, with a bar of the files ready. Each file's own row says where it is; for one file, its row says it all.
 */
export function KnowledgeQueue({ saved, uploads }: { saved: readonly KnowledgeFile[]; uploads: readonly Upload[] }) {
  const counts = queueCounts(saved, uploads);
  if (counts.reading + counts.uploading + counts.queued < 2) return null;
  const percent = Math.round((counts.ready / counts.total) * 100);
  return (
    <section aria-label="Upload queue" className="grid gap-2 rounded-lg border bg-muted/40 p-3">
      <p className="text-sm font-medium tabular-nums">{queueLabel(counts)}</p>
      <Progress
        value={percent}
        aria-label="Files ready"
        getValueLabel={() => `${counts.ready} of ${counts.total} files ready`}
        className="h-1.5"
      />
    </section>
  );
}
