import { ArrowUp, Paperclip, Square } from 'lucide-react';
import { type FormEvent, type KeyboardEvent, useEffect, useRef } from 'react';
import { CHAT_MESSAGE_MAX } from '@shared/constants';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { WithTooltip } from '@/components/ui/tooltip';

interface ChatComposerProps {
  value: string;
  onChange: (value: string) => void;
  onSend: () => void;
  onStop: () => void;
  /** False while there is no conversation yet, a reply is running, or the bot cannot chat. */
  canSend: boolean;
  running: boolean;
  stopping: boolean;
}

export function ChatComposer({ value, onChange, onSend, onStop, canSend, running, stopping }: ChatComposerProps) {
  const inputRef = useRef<HTMLTextAreaElement>(null);
  const sendable = canSend && value.trim() !== '';

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

  return (
    <form onSubmit={submit} className="border-t p-2.5 sm:p-3">
      <div className="flex items-end gap-1 rounded-xl border border-input bg-background p-1 shadow-xs transition-[border-color,box-shadow] focus-within:border-ring focus-within:ring-2 focus-within:ring-ring/40">
        {/* Decisions §1 wants attachments; the server has no attachment API yet, so the control says so. */}
        <WithTooltip label="Attachments are coming soon">
          <Button
            variant="ghost"
            size="icon"
            aria-label="Attach file"
            aria-disabled="true"
            className="cursor-not-allowed text-muted-foreground opacity-60 hover:bg-transparent hover:text-muted-foreground active:scale-100"
          >
            <Paperclip aria-hidden="true" />
          </Button>
        </WithTooltip>
        <textarea
          ref={inputRef}
          aria-label="Message"
          placeholder="Type your message..."
          rows={1}
          maxLength={CHAT_MESSAGE_MAX}
          value={value}
          onChange={(event) => onChange(event.target.value)}
          onKeyDown={onKeyDown}
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
