import { Pencil } from 'lucide-react';
import { type FormEvent, type KeyboardEvent, useState } from 'react';
import { CHAT_MESSAGE_MAX } from '@shared/constants';
import type { Message } from '@shared/contracts/chat';
import { Button } from '@/components/ui/button';
import { CopyButton } from './copy-button';
import { MessageAttachments } from './message-attachments';
import { VersionSwitcher } from './version-switcher';

/** Editing a sent message in place: Enter sends the new version, Escape leaves it as it was. */
function MessageEditor({
  initial,
  onSave,
  onCancel,
}: {
  initial: string;
  onSave: (text: string) => void;
  onCancel: () => void;
}) {
  const [text, setText] = useState(initial);
  const changed = text.trim() !== '' && text.trim() !== initial.trim();
  const submit = (event?: FormEvent) => {
    event?.preventDefault();
    if (changed) onSave(text);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Escape') onCancel();
    else if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      submit();
    }
  };
  return (
    <form onSubmit={submit} className="flex w-full max-w-[80%] flex-col gap-2 self-end">
      <textarea
        aria-label="Edit message"
        autoFocus
        maxLength={CHAT_MESSAGE_MAX}
        value={text}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={onKeyDown}
        className="field-sizing-content max-h-60 min-h-16 w-full resize-none rounded-xl border border-input bg-background px-3 py-2 text-base focus:border-ring focus:ring-2 focus:ring-ring/40 focus:outline-none md:text-sm"
      />
      <div className="flex justify-end gap-2">
        <Button type="button" variant="ghost" size="sm" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" size="sm" disabled={!changed}>
          Send
        </Button>
      </div>
    </form>
  );
}

export interface UserMessageProps {
  message: Message;
  /** Absent while the message cannot be edited (a draft, or a reply being written). */
  onEdit?: (content: string) => void;
  onSwitchVersion: (messageId: number) => void;
  busy: boolean;
}

export function UserMessage({ message, onEdit, onSwitchVersion, busy }: UserMessageProps) {
  const [editing, setEditing] = useState(false);
  const versions = message.versions && message.versions.count > 1 ? message.versions : null;
  return (
    <div className="group/user flex flex-col items-end gap-1.5">
      {message.attachments.length > 0 && <MessageAttachments attachments={message.attachments} />}
      {editing && onEdit ? (
        <MessageEditor
          initial={message.content}
          onCancel={() => setEditing(false)}
          onSave={(text) => {
            setEditing(false);
            onEdit(text);
          }}
        />
      ) : (
        <div className="max-w-[80%] rounded-2xl rounded-tr-md bg-primary px-4 py-2.5 text-[0.9375rem] break-words whitespace-pre-wrap text-primary-foreground">
          {message.content}
        </div>
      )}
      {!editing && (onEdit || versions) && (
        <div className="-mt-1 flex items-center gap-0.5">
          {versions && <VersionSwitcher versions={versions} onSwitch={onSwitchVersion} disabled={busy} />}
          <CopyButton label="Copy your message" text={() => message.content} />
          {onEdit && (
            <Button
              variant="quiet"
              size="icon-sm"
              aria-label="Edit message"
              title="Edit message"
              onClick={() => setEditing(true)}
            >
              <Pencil aria-hidden="true" />
            </Button>
          )}
        </div>
      )}
    </div>
  );
}
