import { X } from 'lucide-react';
import type { KnowledgeFile } from '@shared/contracts/files';
import { FileRow, statusOf } from '@/entities/file/ui/file-row';
import { RemoveFileButton } from '@/entities/file/ui/remove-file-button';
import { Button } from '@/components/ui/button';
import type { Knowledge } from '../hooks/use-knowledge';

interface KnowledgeFilesProps {
  knowledge: Knowledge;
  /** The bot's saved files (editing, or once created). */
  saved: readonly KnowledgeFile[];
  /** The review on the finish step shows the files without their buttons. */
  readOnly?: boolean;
}

export const hasKnowledgeFiles = (knowledge: Knowledge, saved: readonly KnowledgeFile[]) =>
  saved.length + knowledge.pending.length + knowledge.uploads.length > 0;

/** Saved files, files waiting for the bot to be created, and uploads in flight or failed, in that order. */
export function KnowledgeFiles({ knowledge, saved, readOnly = false }: KnowledgeFilesProps) {
  if (!hasKnowledgeFiles(knowledge, saved)) return null;
  const iconButton = (label: string, onClick: () => void) =>
    readOnly ? undefined : (
      <Button variant="ghost" size="icon" aria-label={label} onClick={onClick}>
        <X aria-hidden="true" />
      </Button>
    );

  return (
    <ul aria-label="Knowledge files" className="grid gap-2">
      {saved.map((file) => (
        <FileRow
          key={`saved-${file.id}`}
          name={file.name}
          size={file.size}
          status={statusOf(file)}
          action={readOnly ? undefined : <RemoveFileButton file={file} />}
        />
      ))}
      {knowledge.pending.map(({ key, file }) => (
        <FileRow
          key={`pending-${key}`}
          name={file.name}
          size={file.size}
          status={{ state: 'waiting' }}
          action={iconButton(`Remove ${file.name}`, () => knowledge.removePending(key))}
        />
      ))}
      {knowledge.uploads.map(({ key, file, queued, progress, error }) => (
        <FileRow
          key={`upload-${key}`}
          name={file.name}
          size={file.size}
          status={
            error !== null
              ? { state: 'failed', error }
              : queued
                ? { state: 'queued' }
                : { state: 'uploading', progress }
          }
          action={iconButton(error === null ? `Cancel upload of ${file.name}` : `Dismiss ${file.name}`, () =>
            knowledge.cancelUpload(key),
          )}
        />
      ))}
    </ul>
  );
}
