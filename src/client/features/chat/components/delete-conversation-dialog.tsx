import type { Conversation } from '@shared/contracts/chat';
import { useDeleteConversation } from '@/entities/chat/api/delete-conversation';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
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
    <Dialog open={conversation !== null} onOpenChange={(open) => !open && !remove.isPending && onClose()}>
      {conversation && (
        <DialogContent role="alertdialog" className="sm:max-w-md">
          <DialogHeader>
            <DialogTitle>Delete this conversation?</DialogTitle>
            <DialogDescription>
              &quot;{conversation.title}&quot; and all its messages will be permanently deleted. This action cannot be
              undone.
            </DialogDescription>
          </DialogHeader>
          <DialogFooter>
            <Button variant="outline" disabled={remove.isPending} onClick={onClose}>
              Cancel
            </Button>
            <Button variant="destructive" disabled={remove.isPending} onClick={() => confirm(conversation)}>
              {remove.isPending ? 'Deleting...' : 'Delete'}
            </Button>
          </DialogFooter>
        </DialogContent>
      )}
    </Dialog>
  );
}
