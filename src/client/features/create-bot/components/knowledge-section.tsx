import { FileCheck, FileWarning } from 'lucide-react';
import { useBotFiles } from '@/entities/file/api/get-bot-files';
import { KNOWLEDGE_ACCEPT, KNOWLEDGE_TYPES_LABEL } from '@/entities/file/model/knowledge-types';
import { FileDropZone } from '@/entities/file/ui/file-drop-zone';
import { Spinner } from '@/components/ui/spinner';
import type { Knowledge } from '../hooks/use-knowledge';
import { hasKnowledgeFiles, KnowledgeFiles } from './knowledge-files';
import { KnowledgeQueue } from './knowledge-queue';

/** Step 2's Knowledge files: drop or add them (folders too), watch the queue and each file's reading, remove them. */
export function KnowledgeSection({ knowledge, documentAnalysis }: { knowledge: Knowledge; documentAnalysis: boolean }) {
  const files = useBotFiles(knowledge.botId);
  const saved = files.data ?? [];
  const creating = knowledge.botId === null;

  return (
    <div className="grid gap-4">
      <p className="text-sm text-muted-foreground">
        Your botty answers from these documents and cites the passages it used.
      </p>
      <FileDropZone
        accept={KNOWLEDGE_ACCEPT}
        hint={
          creating
            ? `${KNOWLEDGE_TYPES_LABEL}. They are uploaded when you create your botty.`
            : `${KNOWLEDGE_TYPES_LABEL}. Each file is saved as soon as it is added.`
        }
        onFiles={knowledge.add}
      />
      {files.isLoading && <Spinner label="Loading files" className="text-primary" />}
      <KnowledgeQueue saved={saved} uploads={knowledge.uploads} />
      <KnowledgeFiles knowledge={knowledge} saved={saved} />
      {hasKnowledgeFiles(knowledge, saved) &&
        (documentAnalysis ? (
          <p className="flex items-start gap-2 text-sm text-muted-foreground">
            <FileCheck className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
            Document analysis is on, so your botty reads these files.
          </p>
        ) : (
          <p className="flex items-start gap-2 text-sm text-muted-foreground">
            <FileWarning className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
            Document analysis is off, so your botty does not use these files. Turn it on in Define Bot.
          </p>
        ))}
    </div>
  );
}
