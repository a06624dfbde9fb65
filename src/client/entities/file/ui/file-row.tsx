import { FileCode, FileSpreadsheet, FileText, FileType, LoaderCircle, type LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import type { FileProgress, KnowledgeFile } from '@shared/contracts/files';
import { formatBytes } from '@shared/format-bytes';
import { Badge } from '@/components/ui/badge';
import { Progress } from '@/components/ui/progress';
import { fileKindOf, passagesLabel, type FileKind } from '../model/knowledge-types';

/** Where a file is on its way into a bot's knowledge, from chosen to read. */
export type FileRowStatus =
  | { state: 'waiting' }
  /** In the upload queue, behind the uploads in flight. */
  | { state: 'queued' }
  | { state: 'uploading'; progress: number }
  /** `progress`: how far the server's reading has come, when it reports it (a PDF's pages, then OCR). */
  | { state: 'processing'; progress?: FileProgress | null }
  /** `notice`: how the file was read, when its owner should know (pages read by OCR, far less text than expected). */
  | { state: 'ready'; chunkCount: number; notice?: string | null }
  | { state: 'failed'; error: string };

export function statusOf(file: KnowledgeFile): FileRowStatus {
  if (file.status === 'ready') return { state: 'ready', chunkCount: file.chunkCount, notice: file.error };
  if (file.status === 'failed') return { state: 'failed', error: file.error ?? 'This file could not be read.' };
  return { state: 'processing', progress: file.progress };
}

const KIND_ICONS: Record<FileKind, LucideIcon> = {
  pdf: FileText,
  document: FileType,
  sheet: FileSpreadsheet,
  code: FileCode,
  text: FileText,
};

interface FileRowProps {
  name: string;
  size: number;
  status: FileRowStatus;
  /** The row's button: remove, cancel or dismiss. */
  action?: ReactNode;
}

/** One file of a bot's knowledge or on its way there: icon, name, size, status, and what can be done with it. */
export function FileRow({ name, size, status, action }: FileRowProps) {
  const Icon = KIND_ICONS[fileKindOf(name)];
  return (
    <li className="flex items-start gap-3 rounded-lg border bg-card p-3">
      <span className="flex size-10 shrink-0 items-center justify-center rounded-md bg-muted text-muted-foreground">
        <Icon className="size-5" aria-hidden="true" />
      </span>
      <div className="grid min-w-0 flex-1 gap-1">
        <p className="truncate text-sm font-medium" title={name}>
          {name}
        </p>
        <div className="flex flex-wrap items-center gap-x-2 gap-y-1 text-xs text-muted-foreground">
          <span>{formatBytes(size)}</span>
          {/* Announced as it changes: processing, then ready or failed. */}
          <span aria-live="polite">
            <FileStatusBadge status={status} />
          </span>
        </div>
        {status.state === 'uploading' && <UploadProgress name={name} progress={status.progress} />}
        {status.state === 'processing' && status.progress && <ReadingProgress name={name} progress={status.progress} />}
        {status.state === 'failed' && <p className="text-sm wrap-anywhere text-destructive">{status.error}</p>}
        {status.state === 'ready' && status.notice && (
          <p className="text-sm wrap-anywhere text-muted-foreground">{status.notice}</p>
        )}
      </div>
      {action}
    </li>
  );
}

export function FileStatusBadge({ status }: { status: FileRowStatus }) {
  switch (status.state) {
    case 'waiting':
      return <Badge variant="outline">Added when created</Badge>;
    case 'queued':
      return <Badge variant="outline">Queued</Badge>;
    case 'uploading':
      return <Badge variant="secondary">Uploading</Badge>;
    case 'processing':
      return (
        <Badge variant="secondary">
          <LoaderCircle className="size-3 motion-safe:animate-spin" aria-hidden="true" />
          Processing
        </Badge>
      );
    case 'ready':
      return <Badge variant="success">{`Ready · ${passagesLabel(status.chunkCount)}`}</Badge>;
    case 'failed':
      return <Badge variant="destructive">Failed</Badge>;
  }
}

/** The bar of one upload, with its percentage beside it. */
export function UploadProgress({ name, progress }: { name: string; progress: number }) {
  const percent = Math.round(progress * 100);
  return (
    <div className="flex items-center gap-2">
      <Progress value={percent} aria-label={`Uploading ${name}`} className="h-1.5" />
      <span className="w-9 shrink-0 text-right text-xs text-muted-foreground tabular-nums">{`${percent}%`}</span>
    </div>
  );
}

/** Said under a PDF being read: the page in hand (by OCR: about a second each), or that all have been read. */
export function readingProgressLabel({ stage, done, total }: FileProgress): string {
  const how = stage === 'ocr' ? ' (OCR)' : '';
  return done < total
    ? `Reading page ${done + 1} of ${total}${how}…`
    : `Read ${total} of ${total} pages${how}, saving…`;
}

/** The bar of a PDF read page by page, with the page beside it. */
export function ReadingProgress({ name, progress }: { name: string; progress: FileProgress }) {
  const percent = progress.total > 0 ? Math.round((progress.done / progress.total) * 100) : 0;
  return (
    <div className="grid gap-1">
      <Progress
        value={percent}
        aria-label={progress.stage === 'ocr' ? `Reading ${name} by OCR` : `Reading ${name}`}
        getValueLabel={() => `${progress.done} of ${progress.total} pages read`}
        className="h-1.5"
      />
      <span className="text-xs text-muted-foreground tabular-nums">{readingProgressLabel(progress)}</span>
    </div>
  );
}
