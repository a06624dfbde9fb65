import { AlertCircle, FileText, ImageIcon, X } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Progress } from '@/components/ui/progress';
import { cn } from '@/lib/cn';
import type { PendingAttachment } from '../model/use-attachments';
import { AttachmentThumbnail } from './message-attachments';

/** The composer's attached files: each with its upload progress or its error, and a remove button. */
export function AttachmentChips({
  items,
  onRemove,
}: {
  items: readonly PendingAttachment[];
  onRemove: (key: number) => void;
}) {
  if (!items.length) return null;
  return (
    <ul aria-label="Attached files" className="mb-1.5 flex flex-wrap gap-1.5">
      {items.map((item) => {
        const Icon = item.error ? AlertCircle : item.isImage ? ImageIcon : FileText;
        return (
          <li
            key={item.key}
            className={cn(
              'flex max-w-full min-w-0 items-center gap-2 rounded-lg border bg-background py-1 pr-1 pl-1.5 text-xs',
              item.error && 'border-error/40 bg-error/5 text-error',
            )}
          >
            {item.uploaded && item.isImage ? (
              <AttachmentThumbnail attachment={item.uploaded} className="size-8" />
            ) : (
              <Icon className="size-4 shrink-0" aria-hidden="true" />
            )}
            <div className="flex min-w-0 flex-col gap-0.5">
              <span className="max-w-48 truncate font-medium" title={item.name}>
                {item.name}
              </span>
              {item.error ? (
                <span role="alert" className="[overflow-wrap:anywhere]">
                  {item.error}
                </span>
              ) : (
                !item.uploaded && (
                  <Progress
                    value={Math.round(item.progress * 100)}
                    aria-label={`Uploading ${item.name}`}
                    className="h-1 w-24"
                  />
                )
              )}
            </div>
            <Button
              variant="quiet"
              size="icon-sm"
              aria-label={`Remove ${item.name}`}
              title="Remove"
              onClick={() => onRemove(item.key)}
              className="md:size-7"
            >
              <X className="size-3.5" aria-hidden="true" />
            </Button>
          </li>
        );
      })}
    </ul>
  );
}
