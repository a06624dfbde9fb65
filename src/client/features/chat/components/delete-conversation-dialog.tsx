import type { Conversation } from '@shared/contracts/chat';
import { useDeleteConversation } from '@/entities/chat/api/delete-conversation';
import { ConfirmDeleteDialog } from '@/components/confirm-delete-dialog';
import { toast } from '@/components/ui/use-toast';
import { serverMessage } from '@/lib/request';

interface DeleteConversationDialogProps {
  /** The conversation to delete; null keeps the dialog closed. */
  conversation: Conversation | null;
  onClose: () => void;
}

/** Deleting the conversation on screen needs nothing more here: the chat page moves on to the next one. */
export function DeleteConversationDialog({ conversation, onClose }: DeleteConversationDialogProps) {
  const remove = useDeleteConversation();

  const confirm = (target: Conversation) =>
    remove.mutate(target, {
      onSuccess: () => toast({ title: 'Conversation deleted' }),
      onError: (error) =>
        toast({
          variant: 'destructive',
          title: 'Error deleting conversation',
          description: serverMessage(error) ?? 'There was a problem deleting the conversation.',
        }),
      onSettled: onClose,
    });

  return (
    <ConfirmDeleteDialog
      open={conversation !== null}
      onClose={onClose}
      title="Delete this conversation?"
      description={
        <>
          &quot;{conversation?.title}&quot; and all its messages will be permanently deleted. This action cannot be
          undone.
        </>
      }
      confirmLabel="Delete"
      pending={remove.isPending}
      onConfirm={() => conversation && confirm(conversation)}
    />
  );
}
