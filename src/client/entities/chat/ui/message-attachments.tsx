import { FileText, ImageIcon } from 'lucide-react';
import type { Attachment } from '@shared/contracts/chat';
import { formatBytes } from '@shared/format-bytes';
import { cn } from '@/lib/cn';
import { useAttachmentPreview } from '../api/get-attachment-preview';

export const isImage = (attachment: Attachment) => attachment.mediaType.startsWith('image/');

/** An image attachment drawn from its own bytes (never an outside address); a placeholder until they load. */
export function AttachmentThumbnail({ attachment, className }: { attachment: Attachment; className?: string }) {
  const { data: url, isError } = useAttachmentPreview(attachment.id);
  const box = cn('shrink-0 overflow-hidden rounded-md bg-muted', className);
  if (!url) {
    return (
      <span className={cn(box, 'flex items-center justify-center')} title={attachment.name}>
        <ImageIcon className={cn('size-4 text-muted-foreground', !isError && 'animate-pulse')} aria-hidden="true" />
        <span className="sr-only">{attachment.name}</span>
      </span>
    );
  }
  return <img src={url} alt={attachment.name} title={attachment.name} className={cn(box, 'object-cover')} />;
}

/** What a user message carried: images as thumbnails, documents as name chips. */
export function MessageAttachments({ attachments }: { attachments: readonly Attachment[] }) {
  return (
    <ul aria-label="Attachments" className="flex max-w-[80%] flex-wrap justify-end gap-1.5 self-end">
      {attachments.map((attachment) =>
        isImage(attachment) ? (
          <li key={attachment.id}>
            <AttachmentThumbnail attachment={attachment} className="size-24 sm:size-28" />
          </li>
        ) : (
          <li
            key={attachment.id}
            className="flex max-w-full min-w-0 items-center gap-1.5 rounded-lg border bg-card px-2 py-1.5 text-xs"
          >
            <FileText className="size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
            <span className="truncate" title={attachment.name}>
              {attachment.name}
            </span>
            <span className="shrink-0 text-muted-foreground">{formatBytes(attachment.size)}</span>
          </li>
        ),
      )}
    </ul>
  );
}
