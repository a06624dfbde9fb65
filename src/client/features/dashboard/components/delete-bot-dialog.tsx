import type { Bot } from '@shared/contracts/bots';
import { useDeleteBot } from '@/entities/bot/api/delete-bot';
import { ConfirmDeleteDialog } from '@/components/confirm-delete-dialog';
import { toast } from '@/components/ui/use-toast';
import { ApiError, isNetworkError, serverMessage } from '@/lib/request';

interface DeleteBotDialogProps {
  /** The bot to delete; null keeps the dialog closed. */
  bot: Bot | null;
  onClose: () => void;
  onDeleted: (id: number) => void;
}

/**
 * Spec §8's texts for a failed deletion: the server's reason when it gave one; a request that got no answer, or
 * an answer without a reason (a proxy's error page), each a text of its own.
 */
function deleteFailure(error: unknown): { title: string; description: string } {
  const message = serverMessage(error);
  if (message) return { title: 'Error deleting bot', description: message };
  if (isNetworkError(error))
    return { title: 'Error', description: 'Network error while deleting the bot. Please try again.' };
  if (error instanceof ApiError) return { title: 'Error', description: 'Failed to delete the bot. Please try again.' };
  return { title: 'Error deleting bot', description: 'There was a problem deleting the bot.' };
}

/** Spec §2 and §4: confirm, then remove the card at once; a failure brings the list back from the server. */
export function DeleteBotDialog({ bot, onClose, onDeleted }: DeleteBotDialogProps) {
  const deleteBot = useDeleteBot();

  const confirm = (target: Bot) =>
    deleteBot.mutate(target.id, {
      onSuccess: () => {
        onDeleted(target.id);
        toast({ title: 'Bot deleted' });
      },
      onError: (error) => toast({ variant: 'destructive', ...deleteFailure(error) }),
      onSettled: onClose,
    });

  return (
    <ConfirmDeleteDialog
      open={bot !== null}
      onClose={onClose}
      title="Are you sure?"
      description={
        <>
          This will permanently delete the botty &quot;{bot?.name}&quot;. This action cannot be undone and all its
          conversations will be lost.
        </>
      }
      confirmLabel="Delete Bot"
      pending={deleteBot.isPending}
      onConfirm={() => bot && confirm(bot)}
    />
  );
}
