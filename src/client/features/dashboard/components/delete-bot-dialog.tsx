import type { Bot } from '@shared/contracts/bots';
import { useDeleteBot } from '@/entities/bot/api/delete-bot';
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

interface DeleteBotDialogProps {
  /** The bot to delete; null keeps the dialog closed. */
  bot: Bot | null;
  onClose: () => void;
  onDeleted: (id: number) => void;
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
      onError: (error) =>
        toast({
          variant: 'destructive',
          title: 'Error deleting bot',
          description: serverMessage(error) ?? 'There was a problem deleting the bot.',
        }),
      onSettled: onClose,
    });

  return (
    <Dialog open={bot !== null} onOpenChange={(open) => !open && !deleteBot.isPending && onClose()}>
      {bot && (
        <DialogContent role="alertdialog" className="sm:max-w-md">
          <DialogHeader>
            <DialogTitle>Are you sure?</DialogTitle>
            <DialogDescription>
              This will permanently delete the botty &quot;{bot.name}&quot;. This action cannot be undone and all its
              conversations will be lost.
            </DialogDescription>
          </DialogHeader>
          <DialogFooter>
            <Button variant="outline" disabled={deleteBot.isPending} onClick={onClose}>
              Cancel
            </Button>
            <Button variant="destructive" disabled={deleteBot.isPending} onClick={() => confirm(bot)}>
              {deleteBot.isPending ? 'Deleting...' : 'Delete Bot'}
            </Button>
          </DialogFooter>
        </DialogContent>
      )}
    </Dialog>
  );
}
