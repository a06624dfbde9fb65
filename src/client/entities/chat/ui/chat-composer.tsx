import { ArrowUp, Paperclip, Square } from 'lucide-react';
import { type ClipboardEvent, type DragEvent, type FormEvent, type KeyboardEvent, useEffect, useRef } from 'react';
import { type Draft, useDraftFilled } from '../model/draft';
import type { PendingAttachment } from '../model/use-attachments';
import { AttachmentChips } from './attachment-chips';
import { CHAT_MESSAGE_MAX } from '@shared/constants';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { WithTooltip } from '@/components/ui/tooltip';

interface ChatComposerProps {
  /** The message being typed: only the composer redraws as it changes. */
  draft: Draft;
  onSend: () => void;
  onStop: () => void;
  /** False while there is no conversation yet, a reply is running, or the bot cannot chat. */
  canSend: boolean;
  /** The conversation is being started: a message is taken now, and sent once it is ready (onSend decides). */
  sendSoon?: boolean;
  running: boolean;
  stopping: boolean;
  attachments: ComposerAttachments;
}

export interface ComposerAttachments {
  /** The file picker's types; null when the bot can read neither documents nor images. */
  accept: string | null;
  items: readonly PendingAttachment[];
  /** True while a file is still on its way: the message waits for it. */
  uploading: boolean;
  /** Files chosen, pasted or dropped; pasted and dropped ones may be of any type. */
  onAdd: (files: File[]) => void;
  onRemove: (key: number) => void;
}

const CAPABILITY_HINT = "Turn on Document analysis or Image understanding in this botty's settings";

function AttachButton({
  accept,
  onAdd,
  disabled,
}: {
  accept: string | null;
  onAdd: (files: File[]) => void;
  disabled: boolean;
}) {
  const fileRef = useRef<HTMLInputElement>(null);
  if (accept === null) {
    return (
      <WithTooltip label={CAPABILITY_HINT}>
        <Button
          variant="ghost"
          size="icon"
          aria-label="Attach file"
          aria-disabled="true"
          aria-description={CAPABILITY_HINT}
          className="cursor-not-allowed text-muted-foreground opacity-60 hover:bg-transparent hover:text-muted-foreground active:scale-100"
        >
          <Paperclip aria-hidden="true" />
        </Button>
      </WithTooltip>
    );
  }
  return (
    <>
      <input
        ref={fileRef}
        type="file"
        multiple
        accept={accept}
        hidden
        data-testid="attach-input"
        onChange={(event) => {
          onAdd([...(event.target.files ?? [])]);
          event.target.value = '';
        }}
      />
      <WithTooltip label="Attach a document or image">
        <Button
          variant="ghost"
          size="icon"
          aria-label="Attach file"
          disabled={disabled}
          className="text-muted-foreground hover:text-foreground"
          onClick={() => fileRef.current?.click()}
        >
          <Paperclip aria-hidden="true" />
        </Button>
      </WithTooltip>
    </>
  );
}

export function ChatComposer({
  draft,
  onSend,
  onStop,
  canSend,
  sendSoon = false,
  running,
  stopping,
  attachments,
}: ChatComposerProps) {
  const inputRef = useRef<HTMLTextAreaElement>(null);
  const filled = useDraftFilled(draft);
  const sendable = (canSend || sendSoon) && filled && !attachments.uploading;

  // The text box holds the text as typed (uncontrolled): a key press then runs no render at all, where a controlled
  // one redrew the composer in the key's own task, which a reply streaming meanwhile made wait longer to show. A
  // change made elsewhere (cleared when sent) is written into the box.
  useEffect(() => {
    const box = inputRef.current;
    const follow = () => {
      if (box && box.value !== draft.get()) box.value = draft.get();
    };
    follow();
    return draft.subscribe(follow);
  }, [draft]);

  // Ready to type on opening, except on touch screens, where focus would throw up the keyboard over the chat.
  useEffect(() => {
    if (window.matchMedia('(pointer: fine)').matches) inputRef.current?.focus({ preventScroll: true });
  }, []);

  const submit = (event?: FormEvent) => {
    event?.preventDefault();
    if (sendable) onSend();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    // Enter sends, Shift+Enter starts a new line; Enter that confirms an IME composition is left alone.
    if (event.key !== 'Enter' || event.shiftKey || event.nativeEvent.isComposing) return;
    event.preventDefault();
    submit();
  };

  const onPaste = (event: ClipboardEvent<HTMLTextAreaElement>) => {
    const files = [...event.clipboardData.files];
    // Text copied from a document can come with a picture of itself: then only the text is meant.
    if (files.length === 0 || event.clipboardData.getData('text/plain') !== '') return;
    event.preventDefault();
    attachments.onAdd(files);
  };

  const carriesFiles = (event: DragEvent) => event.dataTransfer.types.includes('Files');
  const onDrop = (event: DragEvent<HTMLFormElement>) => {
    if (!carriesFiles(event)) return;
    event.preventDefault();
    attachments.onAdd([...event.dataTransfer.files]);
  };

  return (
    <form
      onSubmit={submit}
      onDragOver={(event) => carriesFiles(event) && event.preventDefault()}
      onDrop={onDrop}
      className="border-t p-2.5 sm:p-3"
    >
      <AttachmentChips items={attachments.items} onRemove={attachments.onRemove} />
      <div className="flex items-end gap-1 rounded-xl border border-input bg-background p-1 shadow-xs transition-[border-color,box-shadow] focus-within:border-ring focus-within:ring-2 focus-within:ring-ring/40">
        <AttachButton accept={attachments.accept} onAdd={attachments.onAdd} disabled={!canSend && !running} />
        <textarea
          ref={inputRef}
          aria-label="Message"
          placeholder="Type your message..."
          rows={1}
          maxLength={CHAT_MESSAGE_MAX}
          onChange={(event) => draft.set(event.target.value)}
          onKeyDown={onKeyDown}
          onPaste={onPaste}
          className="field-sizing-content max-h-40 min-h-11 min-w-0 flex-1 resize-none bg-transparent px-1 py-2.5 text-base placeholder:text-muted-foreground focus:outline-none md:min-h-10 md:py-2 md:text-sm"
        />
        {running ? (
          <WithTooltip label="Stop generating">
            <Button variant="secondary" size="icon" aria-label="Stop generating" disabled={stopping} onClick={onStop}>
              {stopping ? (
                <Spinner className="size-4" label="Stopping" />
              ) : (
                <Square className="fill-current" aria-hidden="true" />
              )}
            </Button>
          </WithTooltip>
        ) : (
          <Button type="submit" size="icon" aria-label="Send message" disabled={!sendable}>
            <ArrowUp aria-hidden="true" />
          </Button>
        )}
      </div>
      <p className="mt-1.5 hidden px-1 text-xs text-muted-foreground md:block">
        Enter to send, Shift+Enter for a new line
      </p>
    </form>
  );
}
