import { Check, MessageSquarePlus, Pencil, Trash2, X } from 'lucide-react';
import { type FormEvent, type ReactNode, useState } from 'react';
import { CONVERSATION_TITLE_MAX } from '@shared/constants';
import type { Conversation } from '@shared/contracts/chat';
import { useConversations } from '@/entities/chat/api/get-conversations';
import { useRenameConversation } from '@/entities/chat/api/rename-conversation';
import { RelativeTime } from '@/components/relative-time';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Skeleton } from '@/components/ui/skeleton';
import { toast } from '@/components/ui/use-toast';
import { cn } from '@/lib/cn';
import { serverMessage } from '@/lib/request';

function RenameForm({ conversation, onDone }: { conversation: Conversation; onDone: () => void }) {
  const rename = useRenameConversation();
  const [title, setTitle] = useState(conversation.title);

  const save = (event: FormEvent) => {
    event.preventDefault();
    const trimmed = title.trim();
    if (!trimmed || trimmed === conversation.title) return onDone();
    rename.mutate(
      { id: conversation.id, title: trimmed },
      {
        onSuccess: onDone,
        onError: (error) =>
          toast({
            variant: 'destructive',
            title: 'Error renaming conversation',
            description: serverMessage(error) ?? 'There was a problem renaming the conversation.',
          }),
      },
    );
  };

  return (
    <form onSubmit={save} className="flex items-center gap-1 p-1">
      <Input
        autoFocus
        aria-label="Conversation title"
        value={title}
        maxLength={CONVERSATION_TITLE_MAX}
        onChange={(event) => setTitle(event.target.value)}
        onKeyDown={(event) => event.key === 'Escape' && onDone()}
        className="h-10 md:h-9"
      />
      <Button type="submit" variant="quiet" size="icon-sm" aria-label="Save title" disabled={rename.isPending}>
        <Check aria-hidden="true" />
      </Button>
      <Button variant="quiet" size="icon-sm" aria-label="Cancel renaming" onClick={onDone}>
        <X aria-hidden="true" />
      </Button>
    </form>
  );
}

interface RowProps {
  conversation: Conversation;
  active: boolean;
  onSelect: () => void;
  onDelete: () => void;
}

function ConversationRow({ conversation, active, onSelect, onDelete }: RowProps) {
  const [renaming, setRenaming] = useState(false);
  if (renaming) return <RenameForm conversation={conversation} onDone={() => setRenaming(false)} />;

  const { title } = conversation;
  return (
    <div
      className={cn(
        'group flex items-center rounded-lg transition-colors hover:bg-accent/60',
        active && 'bg-accent hover:bg-accent',
      )}
    >
      <button
        type="button"
        aria-current={active ? 'true' : undefined}
        onClick={onSelect}
        className="min-w-0 flex-1 rounded-lg px-3 py-2 text-left focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
      >
        <span className={cn('block truncate text-sm', active ? 'font-semibold text-accent-foreground' : 'font-medium')}>
          {title}
        </span>
        <span className="block text-xs text-muted-foreground">
          <RelativeTime date={conversation.updatedAt} />
        </span>
      </button>
      {/* On wide screens the row's actions wait for hover or focus; on touch screens they are always there. */}
      <div
        className={cn(
          'flex shrink-0 items-center pr-1 md:opacity-0 md:group-focus-within:opacity-100 md:group-hover:opacity-100',
          active && 'md:opacity-100',
        )}
      >
        <Button
          variant="quiet"
          size="icon-sm"
          aria-label={`Rename ${title}`}
          title="Rename"
          onClick={() => setRenaming(true)}
        >
          <Pencil aria-hidden="true" />
        </Button>
        <Button variant="quiet" size="icon-sm" aria-label={`Delete ${title}`} title="Delete" onClick={onDelete}>
          <Trash2 aria-hidden="true" />
        </Button>
      </div>
    </div>
  );
}

interface ConversationListProps {
  botId: number;
  activeId: number | undefined;
  /** The list's title element: a heading beside the chat, the dialog title in the phone drawer. */
  heading: ReactNode;
  onSelect: (conversation: Conversation) => void;
  onNew: () => void;
  creating: boolean;
  onDelete: (conversation: Conversation) => void;
}

/** A bot's conversations, most recently active first: start, switch, rename, delete. */
export function ConversationList({
  botId,
  activeId,
  heading,
  onSelect,
  onNew,
  creating,
  onDelete,
}: ConversationListProps) {
  const { data: conversations } = useConversations(botId);

  return (
    <div className="flex h-full min-h-0 flex-col">
      <div className="grid gap-3 border-b p-3">
        {heading}
        <Button variant="outline" onClick={onNew} disabled={creating}>
          <MessageSquarePlus aria-hidden="true" />
          New conversation
        </Button>
      </div>
      {!conversations ? (
        <div role="status" className="grid gap-2 p-3">
          <span className="sr-only">Loading conversations</span>
          {Array.from({ length: 3 }, (_, index) => (
            <Skeleton key={index} className="h-12" />
          ))}
        </div>
      ) : (
        <ul className="grid min-h-0 flex-1 content-start gap-0.5 overflow-y-auto p-2">
          {conversations.map((conversation) => (
            <li key={conversation.id}>
              <ConversationRow
                conversation={conversation}
                active={conversation.id === activeId}
                onSelect={() => onSelect(conversation)}
                onDelete={() => onDelete(conversation)}
              />
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
